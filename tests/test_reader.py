"""What a reader sees whatever their language (core/reader.py, docs/translations.md):
right-to-left pages with every score, contract, law number and percentage isolated left to right;
every time in the tournament's zone with the zone's name, in the reader's date format, deadlines
with the time left; an authority's own terms in place of the defaults."""

import datetime
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from appeals import selectors as appeal_selectors
from appeals import terms
from appeals.models import AuthorityTerm
from audit.models import AuditEntry
from bridge.diagrams import hand_diagram_svg
from bridge.lin import parse_lin
from core import policy, reader, roles
from rulings import services as rulings_services
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import AuthoritySetting
from tests.appeals.conftest import POSTED, at, case  # noqa: F401 - case is a fixture
from tests.conftest import make_user, page_in
from tests.national.test_casebooks import compile_book, decided  # noqa: F401 - decided is a fixture
from tests.test_translations import DirectionOfText, compiled  # noqa: F401 - compiled is a fixture

pytestmark = pytest.mark.django_db

# What the bidi algorithm scrambles in a right-to-left line, beyond the signed numbers and
# contracts of tests/test_translations.py: law numbers with their sub-sections (12C1c), scores in
# percent ("40%/60%"), artificial scores (AVE+, AVE-). A law number right after the Hebrew word
# for law ("חוק 92B", as the translators write the labels) reads correctly and is not flagged.
SIGNED_NUMBER = re.compile(r"(?<![\w.+\-−])[+\-−]\d+(?:[.,]\d+)?")
CONTRACT = re.compile(r"(?<!\w)[1-7](?:NT|[SHDC♠♥♦♣])(?:XX|X)?(?!\w)")
LAW_NUMBER = re.compile(r"(?<!\w)(?<!חוק[ \xa0])(?<!חוקים[ \xa0])\d{1,2}[A-H]\d*[a-z]?(?!\w)")
PERCENT = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?%")
ARTIFICIAL = re.compile(r"(?<!\w)AVE[+\-]?")
NEEDS_LTR = (SIGNED_NUMBER, CONTRACT, LAW_NUMBER, PERCENT, ARTIFICIAL)


def outside_ltr(html):
    """Each fragment that must read left to right and is not inside an element with dir="ltr"
    (a ``<bdi dir="ltr">`` or any element carrying the attribute), with the text it is in. Text
    that people wrote (facts, statements, reasons) is in an element with dir="auto": isolated,
    it takes the direction of the language it was written in."""
    parser = DirectionOfText()
    parser.feed(html)
    return [
        (match, text.strip()[:80])
        for text, direction in parser.runs
        if direction not in ("ltr", "auto")
        for pattern in NEEDS_LTR
        for match in pattern.findall(text)
    ]


def test_the_check_sees_each_kind_of_fragment_outside_an_ltr_element():
    html = (
        '<html dir="rtl"><body><p>הפרה 12C1c, 40% 4S N = / 60% 4S N -1, AVE+ (חוק 92B) '
        '<bdi dir="ltr">16B1a AVE- 50%</bdi> <span dir="ltr">3NT -1</span></p>'
        '<p dir="auto">Pass was a logical alternative to 4S</p></body></html>'
    )
    assert sorted(outside_ltr(html)) == sorted(
        (match, "הפרה 12C1c, 40% 4S N = / 60% 4S N -1, AVE+ (חוק 92B)")
        for match in ("-1", "4S", "4S", "12C1c", "40%", "60%", "AVE+")
    )


@pytest.fixture
def adjusted(field):
    """Before the official score: a weighted score (60% 4S N =, 40% 4S N -1) at table 5 and an
    artificial one (AVE+ to N-S, AVE- to E-W) at table 4 of the field's board 1."""
    director = make_user("tess", first_name="Tess")
    scoring_services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    weighted = rulings_services.rule(
        result=field.results[4],
        director=director,
        kind="ui",
        laws="16B1a, 12C1c",
        give=True,
        ruling_text="Score adjusted",
        outcome="adjusted",
        score_kind="weighted",
        offending_side="EW",
        ns=[
            {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.6"},
            {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.4"},
        ],
    )
    artificial = rulings_services.rule(
        result=field.results[3],
        director=director,
        kind="directors_error",
        laws="82C, 12C2",
        give=True,
        ruling_text="The board could not be played",
        outcome="adjusted",
        score_kind="artificial",
        ns="AVE+",
        ew="AVE-",
    )
    recalculation.recalculate_board(field.boards[0].pk)
    return weighted, artificial


@pytest.fixture
def hebrew_case(adjusted, decided, compiled):  # noqa: F811 - decided is imported as a fixture
    decided.weighted, decided.artificial = adjusted
    decided.record.authority.language = "he"  # a Hebrew body's casebook is written in Hebrew
    decided.record.authority.save()
    decided.casebook = compile_book(decided)
    return decided


def test_hebrew_pages_isolate_every_score_contract_law_and_percentage(client, hebrew_case):
    c = hebrew_case
    record, board = c.record, c.record.boards[0]
    director_pages = [
        reverse("scoring:board", args=[board.pk]),
        reverse("scoring:standings", args=[record.event.pk]),
        reverse("scoring:contestant", args=[record.pairs[4].pk]),
        reverse("scoring:session", args=[record.session.pk]),
        reverse("rulings:ruling", args=[c.weighted.pk]),
        reverse("rulings:ruling", args=[c.artificial.pk]),
        reverse("rulings:ruling", args=[c.ruling.pk]),
        reverse("appeals:appeal", args=[c.appeal.pk]),
        reverse("appeals:appeal-form", args=[c.appeal.pk]),
        reverse("appeals:appeals"),
    ]
    auditor_pages = [
        reverse("national:national-home"),
        reverse("national:casebook", args=[c.casebook.pk]),
        reverse("national:casebook-book", args=[c.casebook.pk]),
    ]
    pages = {url: page_in(client, c.director, url, "he") for url in director_pages}
    pages.update({url: page_in(client, c.auditor, url, "he") for url in auditor_pages})
    for url, html in pages.items():
        assert 'dir="rtl"' in html[:300], url
    assert {url: outside_ltr(html) for url, html in pages.items() if outside_ltr(html)} == {}
    traveller = pages[director_pages[0]]
    # The adjusted-score cells: the kind in Hebrew, the score itself isolated left to right.
    assert '<bdi dir="ltr" class="nowrap">0.6 4S N = / 0.4 4S N -1</bdi>' in traveller
    # The sides in Hebrew too (the traveller showed "N-S AVE+, E-W AVE-" in English).
    assert (
        '<strong>תוצאה מתוקנת מלאכותית</strong>: צפון-דרום <bdi dir="ltr" class="nowrap">AVE+</bdi>, '
        'מזרח-מערב <bdi dir="ltr" class="nowrap">AVE-</bdi>'
    ) in traveller
    assert "<strong>תוצאה משוקללת</strong>: <bdi" in traveller


def test_the_svg_diagram_stays_left_to_right_inside_a_right_to_left_document():
    record = parse_lin((Path(__file__).parent / "fixtures" / "lin" / "board7.lin").read_text())
    root = ET.fromstring(
        hand_diagram_svg(
            record.deal,
            dealer=record.dealer,
            vulnerability=record.vulnerability,
            board_number=record.board,
            auction=record.auction,
        )
    )
    assert (root.get("direction"), root.get("unicode-bidi")) == ("ltr", "embed")


# --- Times -----------------------------------------------------------------------------------

REFEREE_NL = "Enkelvoudige scheidsman"  # the catalogue's Dutch for "Single referee"
MOMENT = datetime.datetime(2026, 5, 1, 19, 5, tzinfo=datetime.UTC)  # 21:05 in Amsterdam (CEST)


@pytest.mark.parametrize(
    "language,long,short",
    [
        ("en", "21:05 on 1 May 2026", "1 May 2026 21:05"),
        ("nl", "1 mei 2026 21:05", "1-5-2026 21:05"),
        ("he", "1 במאי 2026 21:05", "01/05/2026 21:05"),
        ("el", "1 Μαΐου 2026, 21:05", "01/05/2026 21:05"),
        ("is", "1. maí 2026 21:05", "1.5.2026 21:05"),
        ("uk", "01 травня 2026 р. 21:05", "01.05.2026 21:05"),
    ],
)
def test_a_time_is_in_the_events_zone_and_the_readers_format(language, long, short):
    with translation.override(language):
        assert reader.event_time(MOMENT, "Europe/Amsterdam") == f"{long} CEST (Europe/Amsterdam)"
        assert reader.event_time(MOMENT, "Europe/Amsterdam", short=True) == f"{short} CEST (Europe/Amsterdam)"
        # A naive moment is read as UTC, never as the server's or the reader's zone.
        assert reader.event_time(MOMENT.replace(tzinfo=None), "Europe/Amsterdam") == f"{long} CEST (Europe/Amsterdam)"


def test_no_page_date_is_written_in_the_american_order():
    with translation.override("en"):
        assert reader.event_time(MOMENT, "America/New_York", short=True) == "1 May 2026 15:05 EDT (America/New_York)"


@pytest.mark.parametrize(
    "language,left,closed",
    [
        ("en", "2 hours, 5 minutes left", "closed"),
        ("nl", "nog 2 uur, 5 minuten", "gesloten"),
        ("he", "זמן שנותר: 2 שעות, 5 דקות", "סגור"),
        ("el", "υπόλοιπο: 2 ώρες, 5 λεπτά", "έκλεισε"),
        ("uk", "лишилося: 2 години, 5 хвилин", "закрито"),
        ("is", "2 klukkustundir, 5 mínútur eftir", "lokað"),
    ],
)
def test_a_deadline_says_how_long_is_left(language, left, closed, compiled):
    deadline = MOMENT + datetime.timedelta(hours=2, minutes=5)
    with translation.override(language):
        assert reader.remaining(deadline, now=MOMENT) == left
        assert reader.remaining(MOMENT, now=deadline) == closed


@pytest.mark.parametrize(
    "language,words",
    [
        ("en", ["1 minute left", "2 minutes left", "5 minutes left", "1 day, 1 minute left", "2 days, 5 hours left"]),
        (
            "uk",
            [
                "лишилося: 1 хвилина",
                "лишилося: 2 хвилини",
                "лишилося: 5 хвилин",
                "лишилося: 1 день, 1 хвилина",
                "лишилося: 2 дні, 5 годин",
            ],
        ),
        (
            "is",
            [
                "1 mínúta eftir",
                "2 mínútur eftir",
                "5 mínútur eftir",
                "1 dagur, 1 mínúta eftir",
                "2 dagar, 5 klukkustundir eftir",
            ],
        ),
    ],
)
def test_the_time_left_with_1_2_and_5_of_each_unit(language, words, compiled):
    """0 is "closed" (above); the last minute counts as a minute left, not as none."""
    lefts = [
        datetime.timedelta(seconds=20),
        datetime.timedelta(minutes=2),
        datetime.timedelta(minutes=5),
        datetime.timedelta(days=1, minutes=1),
        datetime.timedelta(days=2, hours=5, minutes=30),
    ]
    with translation.override(language):
        assert [reader.remaining(MOMENT + left, now=MOMENT) for left in lefts] == words


def test_appeal_messages_write_times_in_the_readers_language(field, compiled):
    field.tournament.time_zone = "Europe/Athens"
    field.tournament.save()
    with translation.override("el"):
        assert appeal_selectors.local_time(MOMENT, field.tournament) == "1 Μαΐου 2026, 22:05 EEST (Europe/Athens)"
    with translation.override("nl"):
        assert appeal_selectors.local_time(MOMENT, field.tournament) == "1 mei 2026 22:05 EEST (Europe/Athens)"


@pytest.mark.parametrize(
    "language,posted,deadline",
    [
        ("he", "01/05/2026 21:00 BST (Europe/London)", "01/05/2026 21:30 BST (Europe/London)"),
        ("el", "01/05/2026 21:00 BST (Europe/London)", "01/05/2026 21:30 BST (Europe/London)"),
        ("nl", "1-5-2026 21:00 BST (Europe/London)", "1-5-2026 21:30 BST (Europe/London)"),
    ],
)
def test_pages_show_times_in_the_tournaments_zone_for_a_hebrew_greek_and_dutch_reader(
    client, case, compiled, language, posted, deadline
):
    """Session 1's official score was posted at 20:00 UTC, 21:00 in London; the appeal period
    ended 30 minutes later. The session page, the ruling page and the appeal all say so in the
    reader's format, never in UTC."""
    from appeals import services as appeal_services

    appeal = appeal_services.lodge_appeal(
        ruling=case.ruling, by=case.director, player=case.north, now=at(10), grounds="4S was automatic."
    )
    session = page_in(client, case.director, reverse("scoring:session", args=[case.record.session.pk]), language)
    assert f'dir="ltr">{posted}</time>' in session
    assert (
        f'dir="ltr">{deadline}</time> · <span class="remaining" role="timer" data-deadline="2026-05-01T20:30:00+00:00"'
        in session
    )
    ruling = page_in(client, case.director, reverse("rulings:ruling", args=[case.ruling.pk]), language)
    assert f'dir="ltr">{deadline}</time>' in ruling
    lodged = deadline.replace("21:30", "21:10")
    appeal_page = page_in(client, case.director, reverse("appeals:appeal", args=[appeal.pk]), language)
    assert f'dir="ltr">{lodged}</time>' in appeal_page
    assert "(UTC)" not in session + ruling + appeal_page
    assert POSTED.strftime("%H:%M") == "20:00" and "20:00" not in session


# --- An authority's own terms ------------------------------------------------------------------


def test_an_authority_names_its_appeals_committee_in_its_own_words(client, decided, compiled):
    authority = decided.record.authority
    # An authority's words are its regulations: the superuser's (core.policy, "settings").
    regulator = make_user("regulator", is_superuser=True, is_staff=True)
    terms.set_term(authority=authority, key="committee", language="nl", text="Commissie van Beroep", by=regulator)
    terms.set_term(authority=authority, key="committee", language="he", text="ועדת הערעורים הארצית", by=regulator)
    url = reverse("appeals:appeal", args=[decided.appeal.pk])
    assert "<h3>Commissie van Beroep</h3>" in page_in(client, decided.director, url, "nl")
    assert "<h3>ועדת הערעורים הארצית</h3>" in page_in(client, decided.director, url, "he")
    # A language the authority left out keeps the project's word; so does a term it left alone.
    assert "<h3>Επιτροπή Εφέσεων</h3>" in page_in(client, decided.director, url, "el")
    form = page_in(client, decided.director, reverse("appeals:appeal-form", args=[decided.appeal.pk]), "nl")
    assert "<p>Commissie van Beroep: Ann (" in form
    with translation.override("nl"):
        assert terms.term(decided.record.tournament, "referee") == REFEREE_NL
    entry = AuditEntry.objects.filter(action="authority.term").order_by("sequence").last()
    assert (entry.actor, entry.after) == (
        regulator,
        {"key": "committee", "language": "he", "text": "ועדת הערעורים הארצית"},
    )
    # An empty text gives the project's word back.
    terms.set_term(authority=authority, key="committee", language="nl", text="", by=policy.SYSTEM)
    assert "<h3>Beroepscommissie</h3>" in page_in(client, decided.director, url, "nl")


def test_a_term_that_cannot_be_renamed_is_refused_by_field(record, people):
    with pytest.raises(ValidationError) as error:
        terms.set_term(authority=record.authority, key="umpire", language="fr", text="x" * 101, by=policy.SYSTEM)
    assert error.value.message_dict == {
        "key": [
            "'umpire' is not a term an authority may rename: committee, referee, reviewer, director_panel, "
            "director_in_charge, national, director, chief_director."
        ],
        "language": ["'fr' is not a language of this site."],
        "text": ["At most 100 characters: this text has 101."],
    }
    assert not AuthorityTerm.objects.exists()


# --- Card ranks -------------------------------------------------------------------------------


def test_a_dutch_casebook_prints_the_dutch_letters_when_its_body_prefers_them(client, decided, compiled):
    """North holds AK96.KJ8.T74.Q93 on board 1: a Dutch body preferring national letters
    publishes A H V B (aas, heer, vrouw, boer) in its casebook's diagram, page and PDF alike."""
    authority = decided.record.authority
    authority.language = "nl"
    authority.save()
    AuthoritySetting.objects.create(
        authority=authority, key="card_rank_letters", value="national", effective_from=datetime.date(2026, 1, 1)
    )
    book = page_in(client, decided.auditor, reverse("national:casebook-book", args=[compile_book(decided).pk]), "en")
    north = book[book.index('class="hand hand-n"') :]
    north = north[: north.index('class="hand hand-', 10)]
    assert re.findall(r"</span> ([^<]*)</div>", north) == ["AH96", "HB8", "1074", "V93"]


def test_the_scorecard_isolates_the_scores_inside_its_change_sentences(client, hebrew_case):
    page = page_in(
        client, hebrew_case.director, reverse("scoring:contestant", args=[hebrew_case.record.pairs[4].pk]), "he"
    )
    assert '<bdi dir="ltr" class="nowrap">0.6 4S N = / 0.4 4S N -1</bdi>' in page


def test_a_casebooks_print_page_says_when_in_its_bodys_zone(client, decided, compiled):
    from national.models import CasebookPrint

    authority = decided.record.authority
    authority.time_zone = "Europe/Athens"
    authority.save()
    casebook = compile_book(decided)
    CasebookPrint.objects.create(
        casebook=casebook, casebook_state=casebook.state, requested_by=decided.auditor, requested_at=MOMENT
    )
    page = page_in(client, decided.auditor, reverse("national:casebook-pdf", args=[casebook.pk]), "el")
    assert 'dir="ltr">01/05/2026 22:05 EEST (Europe/Athens)</time>' in page


def test_every_template_writes_a_moment_through_the_one_filter():
    """A time of day written with Django's date filter shows the active zone (UTC) without
    saying so: every moment goes through event_time or deadline (core/templatetags/reader.py);
    the date filter is for days (SHORT_DATE_FORMAT) and for the ISO attributes ('c')."""
    time_of_day = re.compile(r"""\|date:["'](?!c["'])(?![^"']*SHORT_DATE_FORMAT)[^"']*(?:DATETIME|TIME|[HGgPhi])""")
    templates = Path(settings.BASE_DIR) / "templates"
    found = [
        f"{path.relative_to(templates)}: {match.group()}"
        for path in sorted(templates.rglob("*.html"))
        for match in time_of_day.finditer(path.read_text())
    ]
    assert found == []


def test_the_scorecards_change_sentence_keeps_its_words_translated_and_its_scores_isolated(client, hebrew_case):
    """The sentence on the page: the Hebrew words outside the isolates, each score inside one;
    the API keeps the plain sentence."""
    page = page_in(
        client, hebrew_case.director, reverse("scoring:contestant", args=[hebrew_case.record.pairs[4].pk]), "he"
    )
    sentence = re.search(r'<ul class="list changes">\s*<li><span dir="auto">(.*?)</span>', page, re.S).group(1)
    assert sentence == (
        'לוח 1: <bdi dir="ltr" class="nowrap">3S N = +140</bdi> הוחלף ב-<bdi dir="ltr" class="nowrap">0.6 4S N = / 0.4 4S N -1</bdi> '
        'על-ידי פסיקה 1, <bdi dir="ltr" class="nowrap">2 -&gt; 4.1</bdi> MP'
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "he"
    api = client.get(f"/api/v1/contestants/{hebrew_case.record.pairs[4].pk}/score-changes/").json()
    assert api[0]["explanation"] == "לוח 1: 3S N = +140 הוחלף ב-0.6 4S N = / 0.4 4S N -1 על-ידי פסיקה 1, 2 -> 4.1 MP"


def test_a_scores_words_as_html_translate_the_words_and_isolate_everything_between_them():
    from scoring.texts import score_html

    with translation.override("el"):
        assert score_html("N-S weighted 60% 4S N = / 40% 4S N -1, E-W AVE-") == (
            'Β-Ν σταθμισμένο <bdi dir="ltr" class="nowrap">60% 4S N = / 40% 4S N -1</bdi>, Α-Δ <bdi dir="ltr" class="nowrap">AVE-</bdi>'
        )
        assert score_html("redress (table 3NT N = +400, normal play 3NT N +1 +430, without the infraction <b>)") == (
            'αποκατάσταση (στο τραπέζι <bdi dir="ltr" class="nowrap">3NT N = +400</bdi>, με κανονικό παίξιμο '
            '<bdi dir="ltr" class="nowrap">3NT N +1 +430</bdi>, χωρίς την παράβαση <bdi dir="ltr" class="nowrap">&lt;b&gt;</bdi>)'
        )


@pytest.mark.parametrize(
    "language, lines",
    [
        (
            "he",
            [
                "תביעה: 0 לקיחות לכרוז",
                "תביעה: 1 לקיחה לכרוז",
                "תביעה: 2 לקיחות לכרוז",
                "תביעה: 5 לקיחות לכרוז: \u201dthe rest\u201c",
            ],
        ),
        (
            "el",
            [
                "Διεκδίκηση: 0 λεβέ για τον εκτελεστή",
                "Διεκδίκηση: 1 λεβέ για τον εκτελεστή",
                "Διεκδίκηση: 2 λεβέ για τον εκτελεστή",
                "Διεκδίκηση: 5 λεβέ για τον εκτελεστή: «the rest»",
            ],
        ),
        (
            "uk",
            [
                "Претензія: 0 взяток розігрувачу",
                "Претензія: 1 взятка розігрувачу",
                "Претензія: 2 взятки розігрувачу",
                "Претензія: 5 взяток розігрувачу: «the rest»",
            ],
        ),
    ],
)
def test_the_svg_diagrams_claim_line_has_each_languages_plural(compiled, language, lines):
    from bridge.auction import Claim
    from core.i18n import translate

    record = parse_lin((Path(__file__).parent / "fixtures" / "lin" / "board7.lin").read_text())
    drawn = []
    for tricks, said in ((0, ""), (1, ""), (2, ""), (5, "the rest")):
        record.auction.claim = Claim(tricks, said)
        with translation.override(language):
            svg = hand_diagram_svg(
                record.deal,
                dealer=record.dealer,
                vulnerability=record.vulnerability,
                board_number=record.board,
                auction=record.auction,
                translate=translate,
            )
        claim_word = lines[0].split(":")[0]
        drawn += [
            t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text") if claim_word in (t.text or "")
        ]
    assert drawn == lines


def test_a_renamed_body_is_named_so_in_the_timeline_and_the_casebook(client, decided, compiled):
    """The timeline's notes (stored as codes) and the casebook's body line name the body in
    the authority's words; another language keeps the project's word."""
    authority = decided.record.authority
    terms.set_term(authority=authority, key="committee", language="nl", text="Commissie van Beroep", by=policy.SYSTEM)
    url = reverse("appeals:appeal", args=[decided.appeal.pk])
    timeline = page_in(client, decided.director, url, "nl").split('<ol class="timeline">')[1].split("</ol>")[0]
    assert "Commissie van Beroep van 3" in timeline and "Beroepscommissie" not in timeline
    english = page_in(client, decided.director, url, "en").split('<ol class="timeline">')[1].split("</ol>")[0]
    assert "Appeals committee of 3" in english
    authority.language = "nl"
    authority.save()
    book = page_in(client, decided.auditor, reverse("national:casebook-book", args=[compile_book(decided).pk]), "en")
    assert "<p>Commissie van Beroep (" in book and "Beroepscommissie" not in book
    # The director's title too, where the authority renamed it.
    terms.set_term(authority=authority, key="director", language="nl", text="Arbiter", by=policy.SYSTEM)
    book = page_in(client, decided.auditor, reverse("national:casebook-book", args=[compile_book(decided).pk]), "en")
    assert "<p>Arbiter: " in book
    form = page_in(client, decided.director, reverse("appeals:appeal-form", args=[decided.appeal.pk]), "nl")
    assert " · Arbiter: " in form


def test_a_renamed_body_is_named_so_in_a_notification(decided, compiled):
    from appeals.models import Notification

    authority = decided.record.authority
    terms.set_term(authority=authority, key="committee", language="nl", text="Commissie van Beroep", by=policy.SYSTEM)
    notice = Notification.objects.filter(code="appeals.notice_sits").first()
    with translation.override("nl"):
        assert f"Beroep {decided.appeal.number}: " in notice.shown and "(Commissie van Beroep)" in notice.shown
    with translation.override("el"):
        assert "(Επιτροπή Εφέσεων)" in notice.shown
