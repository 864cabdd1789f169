"""The irregularities of a ruling in words, and the laws it cites (issue #39, item 11: the ruling
page said "54D · 54D" and "Laws: None cited", option keys as stored, "prohibit:H ... the lead of H",
suits as letters; the "page a reader sees": who, what, the call or card as a symbol, the Law and its
title, the option chosen and by whom, the restriction in force, in every language). Stored as keys:
each rectification's English template with its values, rendered in the reader's language (a
director recording in Hebrew no longer leaves Hebrew words for a Greek reader).

Table X of the ``field`` fixture: dealer North, 1S P 4S P P P, 4S by North, East on lead."""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation
from django.utils.translation.reloader import translation_file_changed

from bridge.auction import Auction
from core.management.commands.compile_translations import compile_all
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def compiled():
    """The .mo files up to date, as `make test` leaves them (tests/test_translations.py)."""
    written, _stale = compile_all()
    if written:
        translation_file_changed(sender=None, file_path=written[0])


INSUFFICIENT = {"call_number": 2, "inserted": "1D", "attention_by": "S"}
LEAD = {"trick": 1, "seat": "W", "card": "D5", "attention_by": "N"}


def cited(ruling):
    return [c.law.number for c in Ruling.objects.get(pk=ruling.pk).citations.select_related("law") if c.law_id]


def irregularity_html(client, ruling, language="en"):
    page = client.get(reverse("rulings:ruling", args=[ruling.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return page[page.index('<ol id="irregularity"') : page.index("</ol>", page.index('<ol id="irregularity"'))]


def test_a_lead_out_of_turn_retracted_reads_in_words_and_cites_its_laws(client, field, director):
    """2017 54D: "declarer ... may require the card to be retracted ... a major penalty card"; at
    the offender's partner's lead declarer prohibits diamonds (50D2(a))."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling, by=director, kind="lead_out_of_turn", facts=LEAD, chosen="54D", lead_option="prohibit:D"
    )
    assert cited(ruling) == ["54D", "50D2a"]
    client.force_login(director)
    shown = irregularity_html(client, ruling)
    assert "54D · 54D" not in shown and shown.count("54D") == 1
    assert 'Trick 1: West, <bdi dir="ltr">\u26665</bdi>, lead out of turn' in shown
    assert 'Law <bdi dir="ltr">54D</bdi></strong> <span class="law-title">Declarer Refuses Opening Lead' in shown
    assert "chosen by declarer" in shown
    assert "declarer prohibits the lead of \u2666 for as long as" in shown
    assert "prohibit:D" not in shown
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "None cited" not in page
    assert 'Law <bdi dir="ltr">54D</bdi></strong> Declarer Refuses Opening Lead' in page


def test_an_option_naming_a_call_shows_the_call_as_a_symbol(client, field, director):
    """27B1a:2D offered, the offender then passed: the law applied is 27B2 (what the replacement
    brings), the option offered shown under its own law with 2♦, never "27B1a:2D"."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling, by=director, kind="insufficient_bid", facts=INSUFFICIENT, chosen="27B1a:2D"
    )
    client.force_login(director)
    shown = irregularity_html(client, ruling)
    assert 'East: <bdi dir="ltr">1\u2666</bdi> (call 2), insufficient bid' in shown
    assert "offered under Law 27B1a" in shown and "2\u2666" in shown
    assert "27B1a:2D" not in shown
    assert cited(ruling) == ["27B2", "26B"]


@pytest.mark.parametrize(
    ("laws", "expected"),
    [
        # 1997 and 2007 26A2: the withdrawn 1D specified diamonds, which East did not specify in the
        # legal auction: declarer may require or prohibit a diamond lead (1997 26A2 "Suit Not
        # Specified"; issue #39: the 1997 catalogue held 26A only, and the ruling cited 26A).
        ("1997", ["27B2", "26A2"]),
        ("2007", ["27B2", "26A2"]),
        # 2017 26B: "declarer may prohibit ... any one suit that has not been specified in the legal auction by the offender".
        ("2017", ["27B2", "26B"]),
    ],
)
def test_each_edition_cites_its_own_paragraphs(field, director, laws, expected):
    edition(field, laws)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=INSUFFICIENT, chosen="27B2")
    assert cited(ruling) == expected


def test_1997_27b1a_is_cited_by_its_own_paragraph(field, director):
    """1997 27B1(a) (the lowest sufficient bid in the same denomination, neither bid conventional:
    "the auction proceeds as though the irregularity had not occurred"): the ruling cites 27B1a
    itself, titled (issue #39: the 1997 catalogue held 27B1 only, and the ruling cited 27B1)."""
    edition(field, "1997")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    ruling.auction = {**ruling.auction, "calls": [{"call": c} for c in ("1S", "1D", "2D", "4S", "P", "P", "P")]}
    ruling.save(update_fields=["auction"])
    services.record_irregularity(
        ruling=Ruling.objects.get(pk=ruling.pk), by=director, kind="insufficient_bid",
        facts={"call_number": 2, "attention_by": "S"}, chosen="27B1a:2D",
    )  # fmt: skip
    assert Ruling.objects.get(pk=ruling.pk).irregularity_law == "27B1a"
    assert cited(ruling) == ["27B1a"]
    entry = Ruling.objects.get(pk=ruling.pk).citations.get().law
    assert (entry.edition, entry.title) == ("1997", "Lowest sufficient bid, neither bid conventional: no rectification")


def test_the_directors_own_citations_are_kept(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.cite_laws(ruling=ruling, by=director, laws=["16B1a"])
    services.record_irregularity(ruling=ruling, by=director, kind="lead_out_of_turn", facts=LEAD, chosen="54D")
    assert cited(ruling) == ["54D", "16B1a"]


def test_recorded_in_hebrew_it_is_stored_as_keys_and_read_in_greek(client, field, director, compiled):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    with translation.override("he"):
        services.record_irregularity(ruling=ruling, by=director, kind="lead_out_of_turn", facts=LEAD, chosen="54D")
    stored = Ruling.objects.get(pk=ruling.pk).irregularities[0]
    assert stored["rectification"]["text"].startswith("declarer has the card retracted")
    assert stored["rectification"]["text_template"] == stored["rectification"]["text"]
    client.force_login(director)
    greek = irregularity_html(client, ruling, "el")
    with translation.override("el"):
        assert translation.gettext(stored["rectification"]["text_template"]) in greek
    assert "Δύση" in greek and "declarer has" not in greek


def test_the_migration_reads_texts_stored_in_the_recorders_language_back_to_their_keys(field, director, compiled):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=INSUFFICIENT, chosen="27B2")
    ruling = Ruling.objects.get(pk=ruling.pk)
    english = ruling.irregularities[0]
    with translation.override("he"):  # as the service stored it before: words in the recorder's language
        hebrew = dict(english, lead_restriction=dict(english["lead_restriction"]))
        hebrew["lead_restriction"]["text"] = translation.gettext(english["lead_restriction"]["text"])
        hebrew["rectification"] = dict(
            english["rectification"], text=translation.gettext(english["rectification"]["text"])
        )
    assert hebrew["lead_restriction"]["text"] != english["lead_restriction"]["text"]
    Ruling.objects.filter(pk=ruling.pk).update(irregularity=hebrew, irregularities=[hebrew])
    ruling.citations.all().delete()
    importlib.import_module("rulings.migrations.0018_irregularity_texts_as_keys").forwards(apps, None)
    ruling = Ruling.objects.get(pk=ruling.pk)
    assert ruling.irregularities[0]["lead_restriction"]["text"] == english["lead_restriction"]["text"]
    assert ruling.irregularities[0]["rectification"]["text"] == english["rectification"]["text"]
    assert ruling.irregularity["lead_restriction"]["text"] == english["lead_restriction"]["text"]
    assert cited(ruling) == ["27B2", "26B"]


def test_recording_a_card_again_replaces_it_in_the_play_record(field, director):
    """The 54D recorded again with declarer's 50D2 choice changed (prohibit, then none): the play
    record keeps one lead out of turn and the last choice, as the ruling keeps one entry (it had
    two leads out of turn and both choices)."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling, by=director, kind="lead_out_of_turn", facts=LEAD, chosen="54D", lead_option="prohibit:D"
    )
    services.record_irregularity(
        ruling=Ruling.objects.get(pk=ruling.pk), by=director, kind="lead_out_of_turn", facts=LEAD, chosen="54D",
        lead_option="none",
    )  # fmt: skip
    ruling = Ruling.objects.get(pk=ruling.pk)
    assert len(ruling.irregularities) == 1
    assert [(i.kind, i.seat, i.option) for i in Auction.from_dict(ruling.auction).play_irregularities] == [
        ("lead_out_of_turn", "W", "54D"),
        ("penalty_card_lead", "E", "none"),
    ]
    assert cited(ruling) == ["54D", "50D2b"]
