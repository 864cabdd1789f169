"""The casebook as one HTML document (diagrams inline, its stylesheet static/css/casebook.css
linked): what the book page shows and what the worker prints to PDF (national/printing.py)."""

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from bridge.auction import Auction
from bridge.deals import DealError, parse_deal
from bridge.diagrams import auction_notes, auction_rows
from core.i18n import translate
from national import casebooks, selectors
from rulings.texts import ruling_words
from scoring.texts import auction_words


def _diagram(entry):
    try:
        deal = parse_deal(entry["deal"]) if entry.get("deal") else None
    except DealError:
        deal = None
    auction = Auction.from_dict(entry["auction"]) if entry.get("auction") else None
    return {
        "hands": {seat: deal.suits(seat) for seat in "NESW"} if deal else None,
        "rows": auction_words(auction_rows(auction)) if auction else [],
        "notes": [dict(note, text=translate(note["text"])) for note in auction_notes(auction)] if auction else [],
        "claim": (entry["auction"] or {}).get("claim") if entry.get("auction") else None,
    }


def _shown(key, text):
    """A case's text in the casebook's language: the words a service wrote into a ruling
    (a revoke's transfer, a claim's tricks) translated, a person's words as written."""
    return ruling_words(text) if key in ("ruling_text", "rectification") else text


def render_book(casebook, content=None):
    """The casebook as one HTML document (diagrams inline, the stylesheet linked), in its own
    language: what the page shows and what is printed to PDF."""
    content = content or casebooks.text_of(casebook)
    stats = content["statistics"]
    with translation.override(casebook.language):
        labels = casebooks.text_field_labels()
        cases = [
            {
                "entry": entry,
                "diagram": _diagram(entry),
                **{
                    group: [(labels[key], _shown(key, entry["texts"][key])) for key in keys if entry["texts"].get(key)]
                    for group, keys in casebooks.TEXT_GROUPS.items()
                },
            }
            for entry in content["cases"]
        ]
        charts = {
            "outcomes": selectors.bar_chart(stats["outcomes"]),
            "kinds": selectors.bar_chart(stats["kinds"]),
            "laws": selectors.bar_chart([(_("Law %(law)s") % {"law": law}, n) for law, n in stats["laws"]]),
            "ratings": selectors.bar_chart(stats.get("ratings") or []),
        }
        return render_to_string(
            "casebooks/book.html",
            {
                "casebook": casebook,
                "content": content,
                "cases": cases,
                "charts": charts,
                "rtl": translation.get_language_bidi(),
                "language": casebook.language,
                "card_ranks": casebook.authority.settings_on().get("card_rank_letters") or "international",
            },
        )
