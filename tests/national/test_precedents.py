"""Precedents: the published cases of a national body beside a new ruling, found by the laws
cited (with their sub-sections), the kind, the contract and the words; the search of published
cases; the same answers on SQLite (FTS5) and PostgreSQL (tsvector); each reader sees only the
published casebooks of their own bodies."""

import copy
import io

import pytest
from celery import current_app
from django.core.management import call_command
from django.db import connection
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from appeals import services as appeal_services
from appeals.models import Appeal
from bridge.auction import Auction, AuctionCall
from core import policy, roles
from national import casebooks, precedent_selectors, precedents
from national.models import Casebook, CasebookCase, PrecedentCase
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.appeals.conftest import at, case  # noqa: F401 - case is a fixture
from tests.conftest import build_pairs_tournament, make_user, ruling_at
from tests.demo import load_small_demo
from tests.national.test_casebooks import compile_book, decided  # noqa: F401 - decided is a fixture
from tests.test_translations import compiled  # noqa: F401 - fixture


@pytest.fixture
def sent(monkeypatch):
    """Tasks sent through core.dispatch, run at once by their registered name."""
    calls = []

    def send(name, *args, **options):
        calls.append((name, args))
        return current_app.tasks[name](*args)

    monkeypatch.setattr(precedents.dispatch, "send", send)
    return calls


def another_appeal(appeal):
    """An appeal like ``appeal`` against a copy of its ruling: the appeal of one past case."""
    ruling = Ruling.objects.get(pk=appeal.ruling_id)
    ruling.pk, ruling.supersedes_id = None, None
    ruling = Ruling.objects.bulk_create([ruling])[0]
    twin = Appeal.objects.get(pk=appeal.pk)
    twin.pk, twin.ruling_id = None, ruling.pk
    return Appeal.objects.bulk_create([twin])[0]


def past_casebook(case, title, entries, state=Casebook.State.PUBLISHED, authority=None, appeals=None, language="en"):
    """Casebooks of past seasons: entry n, (laws, kind, year, outcome, reasons, facts), is case n
    of a casebook called ``title`` of its own, written over the first published case's text, each
    reporting an appeal of its own (or ``appeals[n - 1]``: the same appeal in another casebook)."""
    template = case.published.content["cases"][0]
    books = []
    for number, (laws, kind, year, outcome, reasons, facts) in enumerate(entries, start=1):
        entry = copy.deepcopy(template)
        entry.update(number=number, date=f"{year}-03-01")
        entry["ruling"].update(kind=kind, laws=[{"number": law, "edition": "2017", "title": ""} for law in laws])
        entry["decision"].update(outcome=outcome, outcome_label=outcome.title(), score="")
        entry["texts"] = {"facts": facts, "reasons": reasons}
        book = Casebook.objects.create(
            authority=authority or case.record.authority,
            title=title,
            language=language,
            names="seats",
            state=state,
            created_by=case.auditor,
            created_at=at(0),
            published_by=case.auditor,
            published_at=at(1),
            content=dict(copy.deepcopy(case.published.content), title=title, cases=[entry]),
        )
        appeal = appeals[number - 1] if appeals else another_appeal(case.appeal)
        CasebookCase.objects.create(casebook=book, appeal=appeal, position=number)
        precedents.index_casebook(book.pk)
        books.append(book)
    return books[0] if len(books) == 1 else books


@pytest.fixture
def library(decided, sent, django_capture_on_commit_callbacks):
    """The club's casebook published (its one case: Law 16B1a and 12C1e, UI, upheld), and a
    casebook of past seasons with three more cases; a new Law 16B1a ruling at table 6."""
    case = decided
    with django_capture_on_commit_callbacks(execute=True):
        case.published = casebooks.publish_casebook(casebook=compile_book(case), by=case.auditor, now=at(61))
    case.past = past_casebook(
        case,
        "Past seasons",
        [
            (
                ["16A1"],
                "ui",
                2019,
                "vary",
                "Partner's remark was unauthorised information.",
                "South remarked on the auction.",
            ),
            (["70D1"], "claim", 2020, "uphold", "The claim stands.", "Declarer claimed the rest."),
            (
                ["16B1a"],
                "mi",
                2021,
                "overturn",
                "The explanation was wrong, the pause irrelevant.",
                "East hesitated and West passed; the alert was missing.",
            ),
        ],
    )
    case.new = ruling_at(
        case.record.results[5],
        case.director,
        kind="ui",
        laws="16B1a",
        facts="North hesitated before passing; South bid on. Hesitated for a long time.",
        ruling_text="Score adjusted",
        reasoning="Pass was a logical alternative",
        given_at=at(1),
    )
    return case


def ids(rows):
    return [(row.casebook.title, row.position) for row in rows]


def test_publishing_indexes_the_cases_as_published(library):
    row = PrecedentCase.objects.get(casebook=library.published)
    assert row.laws == " 16 16B 16B1 16B1A 12 12C 12C1 12C1E "
    assert (row.kind, row.outcome, row.year, row.language, row.contract) == ("ui", "uphold", 2026, "en", "4S")
    assert row.decision.startswith("Ruling upheld")
    for name in ("Levi", "Cohen", "Jonsdottir", "Nikolaou"):  # names hidden as published
        assert name not in row.text and name not in row.decision


def test_publish_and_finalise_send_the_index_task_after_commit(decided, sent, django_capture_on_commit_callbacks):
    book = compile_book(decided)
    with django_capture_on_commit_callbacks(execute=True):
        casebooks.publish_casebook(casebook=book, by=decided.auditor, now=at(61))
    with django_capture_on_commit_callbacks(execute=True):
        casebooks.finalise_casebook(casebook=book, by=decided.auditor, now=at(70))
    assert sent == [("national.tasks.index_casebook", (book.pk,))] * 2
    assert PrecedentCase.objects.filter(casebook=book).count() == 1  # indexed twice, one row


def test_a_law_16_ruling_is_shown_the_earlier_law_16_cases_best_first(library):
    found = precedent_selectors.similar_cases(library.new, user=library.director)
    # Same citation, kind and strain first; then the same citation of another kind; then
    # Law 16 of the same kind. The claim (Law 70) is not like it.
    assert ids(s.case for s in found) == [("Club Championship appeals", 1), ("Past seasons", 3), ("Past seasons", 1)]
    assert [s.shared_laws for s in found] == [["16B1a"], ["16B1a"], ["16A1"]]


def test_the_ruling_itself_is_not_its_own_precedent(library):
    found = precedent_selectors.similar_cases(library.ruling, user=library.director)
    assert ("Club Championship appeals", 1) not in ids(s.case for s in found)


def test_a_law_finds_its_sub_sections_and_nothing_else(library):
    def law(citation):
        return sorted(ids(precedent_selectors.search(library.director, law=citation)))

    assert law("16") == [("Club Championship appeals", 1), ("Past seasons", 1), ("Past seasons", 3)]
    assert law("16B") == [("Club Championship appeals", 1), ("Past seasons", 3)]
    assert law("Law 16b1A") == [("Club Championship appeals", 1), ("Past seasons", 3)]
    assert law("1") == []  # Law 1 is not Law 16
    assert law("70") == [("Past seasons", 2)]


def test_search_by_kind_outcome_and_year(library):
    def search(**filters):
        return ids(precedent_selectors.search(library.director, **filters))

    assert search(kind="ui") == [("Club Championship appeals", 1), ("Past seasons", 1)]
    assert search(outcome="overturn") == [("Past seasons", 3)]
    assert search(year=2020) == [("Past seasons", 2)]
    assert search(kind="claim", year=2021) == []


def test_words_are_searched_by_the_database_the_same_on_both_backends(library):
    """One expected answer whichever backend runs the suite (CI runs both)."""

    def words(q, **filters):
        return ids(precedent_selectors.search(library.director, q=q, **filters))

    assert words("hesitat") == [("Past seasons", 3)]  # a word's start finds "hesitated"
    assert words("claim stands") == [("Past seasons", 2)]
    assert words("unauthorised") == [("Past seasons", 1)]
    assert words("logical alternative") == [("Club Championship appeals", 1)]
    assert words("nothing-like-this") == []
    assert words("pause", kind="mi") == [("Past seasons", 3)]


def test_laws_weigh_more_than_the_words(library):
    """'Unauthorised' in a law's title ranks above the same word in the text only."""
    book = past_casebook(library, "Titles", [(["16B1a"], "ui", 2022, "uphold", "Upheld.", "A pause.")])
    # Give its law a title in the text that is searched, as a casebook prints it.
    entry = book.content["cases"][0]
    entry["ruling"]["laws"][0]["title"] = "Unauthorised Information"
    book.save()
    precedents.index_casebook(book.pk)
    row = PrecedentCase.objects.get(casebook=book)
    found = ids(precedent_selectors.search(library.director, q="unauthorised"))
    assert found == [("Titles", 1), ("Past seasons", 1)], row.laws_text


def test_rebuild_command_indexes_every_published_casebook_again(library, capsys):
    before = sorted(ids(PrecedentCase.objects.all()))
    call_command("rebuild_precedents")
    assert sorted(ids(PrecedentCase.objects.all())) == before
    assert "Indexed 4 cases of 4 published casebooks." in capsys.readouterr().out
    assert ids(precedent_selectors.search(library.director, q="hesitat")) == [("Past seasons", 3)]


def test_a_draft_is_not_indexed(library):
    draft = compile_book(library, title="Still a draft")
    assert precedents.index_casebook(draft.pk) == 0
    assert not PrecedentCase.objects.filter(casebook=draft).exists()


def test_readers_see_only_their_own_bodys_published_cases(library):
    other = build_pairs_tournament(code="oth", name="Other Open")
    foreign = past_casebook(
        library, "Foreign", [(["16B1a"], "ui", 2024, "uphold", "Upheld.", "A pause.")], authority=other.authority
    )
    stranger = make_user("olga", role=roles.DIRECTOR)
    scoring_services.appoint_official(tournament=other.tournament, user=stranger, role=roles.DIRECTOR, by=policy.SYSTEM)
    player = make_user("pia", role=roles.PLAYER)
    library.north.user = player
    library.north.save()
    nobody = make_user("nemo")

    assert ("Foreign", 1) not in ids(
        s.case for s in precedent_selectors.similar_cases(library.new, user=library.director)
    )
    assert ids(precedent_selectors.search(stranger)) == [("Foreign", 1)]
    assert precedent_selectors.similar_cases(library.new, user=stranger) == []  # another body's ruling
    assert ("Foreign", 1) not in ids(precedent_selectors.search(player))
    assert len(ids(precedent_selectors.search(player))) == 4
    assert ids(precedent_selectors.search(nobody)) == []
    assert precedent_selectors.similar_cases(library.new, user=nobody) == []
    assert foreign.pk


def test_the_ruling_page_lists_the_precedents_with_links(library, client):
    client.force_login(library.director)
    response = client.get(reverse("rulings:ruling", args=[library.new.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="precedents"' in html
    first = PrecedentCase.objects.get(casebook=library.published)
    # A director reads the case on its own page (the casebook pages are the auditors').
    assert reverse("national:precedent", args=[first.pk]) in html
    assert html.index("Club Championship appeals, case 1") < html.index("Past seasons, case 3")


def test_the_tag_links_auditors_to_the_casebook_page(library):
    request = RequestFactory().get("/")
    request.user = library.auditor
    html = Template("{% load precedents %}{% precedents_for ruling %}").render(
        Context({"request": request, "ruling": library.new})
    )
    assert f"{reverse('national:casebook', args=[library.published.pk])}#case-1" in html


def test_the_search_page_and_a_case_page(library, client):
    client.force_login(library.director)
    page = client.get(reverse("national:precedents"), {"law": "16B"}).content.decode()
    assert "Past seasons, case 3" in page and "Past seasons, case 1" not in page
    bad = client.get(reverse("national:precedents"), {"year": "last", "law": "!!"}).content.decode()
    assert "Year:" in bad and "Law:" in bad and "A law is cited by its number" in bad
    row = PrecedentCase.objects.get(casebook=library.published)
    case_page = client.get(reverse("national:precedent", args=[row.pk]))
    assert case_page.status_code == 200 and "Levi" not in case_page.content.decode()
    client.force_login(make_user("nemo"))
    assert client.get(reverse("national:precedents")).status_code == 403
    assert client.get(reverse("national:precedent", args=[row.pk])).status_code == 403


def test_the_full_text_index_is_the_databases_own(library):
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {precedents.FTS_TABLE}")
            assert cursor.fetchone()[0] == PrecedentCase.objects.count()
    else:
        assert not PrecedentCase.objects.filter(document__isnull=True).exists()


def test_the_committees_case_file_lists_the_precedents(library, client):
    """An appeal against the new Law 16 ruling: its case file shows the earlier Law 16 cases."""
    result = library.record.results[5]
    appeal = appeal_services.lodge_appeal(
        ruling=library.new,
        by=library.director,
        player=result.ns.members.order_by("pk")[0],
        grounds="Pass was not an LA.",
        now=at(5),
    )
    client.force_login(library.director)
    html = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert 'id="precedents"' in html
    assert html.index("Club Championship appeals, case 1") < html.index("Past seasons, case 3")


def test_a_case_page_leaves_the_parties_cases_to_the_casebook(library, client):
    row = PrecedentCase.objects.get(casebook=library.published)
    client.force_login(library.director)
    html = client.get(reverse("national:precedent", args=[row.pk])).content.decode()
    assert "Pass is a logical alternative for South" in html  # the decision's reasons
    assert "the pause was short" not in html  # the appellants' case
    assert "timed the pause" not in html  # the hearing record


@pytest.fixture(scope="module")
def small_demo(django_db_setup, django_db_blocker):
    """The small demo with its casebook of past seasons, built once and rolled back after."""
    from django.db import transaction

    with django_db_blocker.unblock():
        with transaction.atomic():
            load_small_demo(past_seasons=True)
            yield
            transaction.set_rollback(True)


def test_the_demos_law_16_ruling_finds_the_earlier_law_16_case_first(small_demo, db):
    from django.contrib.auth import get_user_model

    from rulings.models import Ruling

    director = get_user_model().objects.get(username="director")
    ruling = (
        Ruling.objects.filter(
            board__session__event__tournament__name="Spring Congress 2026", citations__law__number="16B1a"
        )
        .exclude(state="draft")
        .order_by("number")
        .first()
    )
    found = precedent_selectors.similar_cases(ruling, user=director)
    assert found, "the demo shows no precedent for its Law 16 ruling"
    first = found[0].case
    # The 2023 slow pass of 4S: the same hesitation at the same call, what a committee compares
    # first (issue #43), above the 2024 slow double of the same laws.
    assert (first.casebook.title, first.year, first.kind) == ("Appeals of past seasons, 2023-2024", 2023, "ui")
    assert "16B1a" in first.cited
    past = Casebook.objects.get(title="Appeals of past seasons, 2023-2024")
    assert (past.state, past.cases.count()) == ("final", 4)
    # The past cases have their auctions, with the tempo or the alert the ruling was about.
    auctions = dict(PrecedentCase.objects.filter(casebook=past).values_list("position", "auction"))
    assert "OPEN3:1S-2H-2S" in auctions[1] and "AT:TEMPO:3H-X" in auctions[1]  # North's slow double
    assert "AT:ALERT:1NT-2C" in auctions[2] and "ALERT:2C" in auctions[2]  # 2C explained as natural
    assert "AT:TEMPO:4S-P" in auctions[3]  # East's slow pass of 4S
    assert auctions[4] == " OPEN1:1H OPEN2:1H-P OPEN3:1H-P-3H "  # a claim: no tempo, no alert
    # The demo ruling's slow pass after 4S: the 2023 case's slow pass of 4S scores the tempo (4)
    # and the same call after the same bid (8), the 2024 slow double only the tempo (4)
    # (national.likeness.POINTS).
    with_auction = {s.case.year: s.score for s in found if s.case.casebook_id == past.pk}
    ruling.auction = None
    without = {s.case.year: s.score for s in precedent_selectors.similar_cases(ruling, user=director)}
    assert {year: with_auction[year] - without[year] for year in (2023, 2024)} == {2023: 12, 2024: 4}
    text = str(past.content)
    for first_name, last_name in precedents_demo_names():
        assert last_name not in text  # names hidden as published


def precedents_demo_names():
    from national.demo import PAST_PLAYERS

    return PAST_PLAYERS


def test_a_case_keeps_its_address_when_its_casebook_is_indexed_again(library, client):
    """A worker indexes a casebook again when it is made final, and rebuild_precedents indexes
    them all: a page already showing a link to a case must still open that case (it answered
    404 once its row was deleted and written again under a new id)."""
    row = PrecedentCase.objects.get(casebook=library.published)
    url = reverse("national:precedent", args=[row.pk])
    precedents.index_casebook(library.published.pk)
    call_command("rebuild_precedents", stdout=io.StringIO())
    client.force_login(library.director)
    page = client.get(url)
    assert page.status_code == 200
    assert "Pass is a logical alternative for South" in page.content.decode()
    assert PrecedentCase.objects.get(casebook=library.published).pk == row.pk
    assert ids(precedent_selectors.search(library.director, q="logical alternative")) == [
        ("Club Championship appeals", 1)
    ]


def _auction(dealer, calls, tempo=None, alert=None, note=None):
    """An auction as a ruling stores it: ``tempo`` = (index, seconds), ``alert`` = (index,
    explanation), ``note`` = (index, the director's remark)."""
    made = [AuctionCall(call) for call in calls]
    if tempo:
        made[tempo[0]].tempo_seconds = tempo[1]
    if alert:
        made[alert[0]].alert, made[alert[0]].explanation = True, alert[1]
    if note:
        made[note[0]].note = note[1]
    return Auction(dealer, made).to_dict()


SLOW_PASS = _auction("N", "1S P 2S 3H P P 4S P P P".split(), tempo=(4, 15))


def test_the_auctions_points_of_comparison():
    assert precedents.auction_keys(SLOW_PASS) == [
        "OPEN1:1S",
        "OPEN2:1S-P",
        "OPEN3:1S-P-2S",
        "AT:TEMPO",
        "AT:TEMPO:3H-P",
    ]
    # No tempo: the director's note marks the point; the alerted calls are listed.
    explained = _auction("E", "P 1NT P 2D X 2H P P P".split(), alert=(3, "transfer"), note=(4, "asked about 2D"))
    assert precedents.auction_keys(explained) == [
        "OPEN1:1NT",
        "OPEN2:1NT-P",
        "OPEN3:1NT-P-2D",
        "AT:NOTE",
        "AT:NOTE:2D-X",
        "ALERT:2D",
    ]
    assert precedents.auction_keys(_auction("S", ["P", "P", "P", "P"])) == []
    assert precedents.auction_keys(None) == []


def test_a_similar_auction_ranks_an_older_case_above_a_newer_one(library):
    """Two earlier cases alike in laws, kind and contract: without the auction the newer comes
    first; with the ruling's auction (a slow pass over 3H), the older case with the same slow
    pass at the same point comes first."""
    older, newer = past_casebook(
        library,
        "Auctions",
        [
            (["16B1a"], "ui", 2023, "uphold", "Upheld.", "A slow pass."),
            (["16B1a"], "ui", 2024, "uphold", "Upheld.", "A slow pass."),
        ],
    )
    older.content["cases"][0]["auction"] = SLOW_PASS
    # The same kind of irregularity (a tempo) but at another call of another auction.
    newer.content["cases"][0]["auction"] = _auction("N", "1H P 1S P 2S P 4S P P P".split(), tempo=(4, 20))
    for book in (older, newer):
        book.save()
        precedents.index_casebook(book.pk)

    def order():
        found = precedent_selectors.similar_cases(library.new, user=library.director, limit=10)
        return [(s.case.casebook.title, s.case.year, s.score) for s in found if s.case.casebook.title == "Auctions"]

    library.new.auction = None
    library.new.save(update_fields=["auction"])
    without = order()
    assert [year for _title, year, _score in without] == [2024, 2023]
    assert without[0][2] == without[1][2]  # a tie, which goes to the newer case

    library.new.auction = SLOW_PASS
    library.new.save(update_fields=["auction"])
    with_auction = order()
    assert [year for _title, year, _score in with_auction] == [2023, 2024]
    # A tempo (4), at the same call after the same bid (8), by the same side (2): 14; the newer
    # case shares the kind of irregularity and the side (6). The first calls are no likeness.
    assert [score - without[0][2] for _title, _year, score in with_auction] == [14, 6]


def test_the_suggestions_take_four_queries_however_many_cases(library, django_assert_num_queries):
    """The ruling's body, contract and laws; the reader's bodies; one query that scores the
    cases; the first five read with their casebooks."""
    past_casebook(
        library,
        "More",
        [(["16B1a"], "ui", 2000 + n, "uphold", "Upheld.", "A slow pass.") for n in range(8)],
    )
    ruling = Ruling.objects.get(pk=library.new.pk)
    with django_assert_num_queries(4):
        found = precedent_selectors.similar_cases(ruling, user=library.director)
        titles = [s.case.casebook.title for s in found]
    assert len(found) == 5 and titles[0] == "Club Championship appeals"


def test_the_search_page_finds_the_cases_of_a_casebook_in_the_readers_language(library, client):
    hebrew = past_casebook(library, "Hebrew edition", [(["16B1a"], "ui", 2022, "uphold", "Upheld.", "A pause.")])
    Casebook.objects.filter(pk=hebrew.pk).update(language="he")
    precedents.index_casebook(hebrew.pk)
    client.force_login(library.director)
    page = client.get(reverse("national:precedents"), {"language": "he"}).content.decode()
    assert "Hebrew edition, case 1" in page and "Past seasons, case 3" not in page
    english = client.get(reverse("national:precedents"), {"language": "en", "law": "16B"}).content.decode()
    assert "Past seasons, case 3" in english and "Hebrew edition" not in english
    bad = client.get(reverse("national:precedents"), {"language": "xx"}).content.decode()
    assert "Language:" in bad and "Select a valid choice. xx is not one of the available choices." in bad


@pytest.fixture
def translated(library):
    """Past seasons' case 3 (Law 16B1a) printed again in a Hebrew casebook: one appeal, two casebooks."""
    appeal = library.past[2].cases.get().appeal
    library.hebrew = past_casebook(
        library,
        "Hebrew edition",
        [(["16B1a"], "mi", 2021, "overturn", "ההסבר היה שגוי.", "מזרח היסס ומערב פס.")],
        appeals=[appeal],
        language="he",
    )
    return library


def test_an_appeal_in_two_casebooks_is_suggested_once_in_the_readers_language(translated):
    ruling = Ruling.objects.get(pk=translated.new.pk)

    def listed(language):
        found = precedent_selectors.similar_cases(ruling, user=translated.director, language=language)
        return [
            (s.case.casebook.title, s.case.position, [o.casebook.title for o in s.case.others])
            for s in found
            if s.case.appeal_id == translated.hebrew.cases.get().appeal_id
        ]

    assert listed("en") == [("Past seasons", 3, ["Hebrew edition"])]
    assert listed("he") == [("Hebrew edition", 1, ["Past seasons"])]
    # No casebook in Dutch: the national body's language (English).
    assert listed("nl") == [("Past seasons", 3, ["Hebrew edition"])]
    found = precedent_selectors.similar_cases(ruling, user=translated.director, language="he")
    titles = [(s.case.casebook.title, s.case.position) for s in found]
    assert len(titles) == len(set(titles)) and ("Past seasons", 3) not in titles


def test_the_ruling_page_offers_the_other_languages_of_a_suggested_case(translated, rf):
    request = rf.get("/")
    request.user = translated.director
    html = Template("{% load precedents %}{% precedents_for ruling %}").render(
        Context({"request": request, "ruling": Ruling.objects.get(pk=translated.new.pk)})
    )
    hebrew = translated.hebrew.precedents.get()
    assert html.count("Past seasons, case 3") == 1 and "Hebrew edition, case 1</a>" not in html
    link = precedent_selectors.link_for(translated.director, hebrew)
    assert f'Also in: <a href="{link}" lang="he" hreflang="he">עברית</a>' in html


def test_the_search_lists_an_appeal_once_in_the_readers_language(translated, client):
    client.force_login(translated.director)
    page = client.get(reverse("national:precedents"), {"law": "16B"}).content.decode()
    assert page.count("Past seasons, case 3") == 1 and "Hebrew edition, case 1</a>" not in page
    assert "Also in:" in page and ">עברית</a>" in page
    rows = precedent_selectors.search(translated.director, law="16B", reader_language="he")
    titles = ids(rows)
    assert ("Hebrew edition", 1) in titles and ("Past seasons", 3) not in titles
    assert [
        o.casebook.title
        for o in precedent_selectors.with_other_languages(translated.director, rows)[
            titles.index(("Hebrew edition", 1))
        ].others
    ] == ["Past seasons"]
    # The first case asked for: one appeal, in the reader's language, whichever casebook is newer.
    for language, title in (("he", "Hebrew edition"), ("en", "Past seasons")):
        found = precedent_selectors.search(translated.director, kind="mi", limit=1, reader_language=language)
        assert [row.casebook.title for row in found] == [title]
    # Only the Hebrew casebooks: the case in Hebrew, its English casebook offered beside it.
    hebrew = precedent_selectors.search(translated.director, language="he")
    assert ids(hebrew) == [("Hebrew edition", 1)]


def test_the_ruling_form_lists_the_precedents_of_a_draft_and_of_a_ruling_corrected(library, client):
    draft = rulings_services.rule(
        result=library.record.results[6],
        director=library.director,
        kind="ui",
        laws="16B1a",
        give=False,
        facts="West paused before passing.",
        given_at=at(1),
        called_at=at(1),  # asked for within the Law 92B period
    )
    client.force_login(library.director)
    for url in (
        reverse("rulings:ruling-edit", args=[draft.pk]),
        reverse("rulings:ruling-correct", args=[library.new.pk]),
    ):
        html = client.get(url).content.decode()
        assert 'id="precedents"' in html, url
        assert html.index("Club Championship appeals, case 1") < html.index("Past seasons, case 3"), url


def test_an_english_case_on_a_hebrew_page_is_marked_and_isolated(library, client, compiled):  # noqa: F811
    """On a Hebrew page an English case's decision was marked lang="en" but not isolated, so its
    sentence was drawn starting with its full stop, and the case's own page kept its English right
    to left: each is isolated, in its own direction (issue #42)."""
    from tests.conftest import page_in

    listed = page_in(client, library.director, reverse("national:precedents"), "he")
    assert '<bdi lang="en" dir="auto">' in listed and "The explanation was wrong" in listed
    first = PrecedentCase.objects.get(casebook=library.published)
    ruling = page_in(client, library.director, reverse("rulings:ruling", args=[library.new.pk]), "he")
    assert '<bdi lang="en" dir="auto">' in ruling
    case = page_in(client, library.director, reverse("national:precedent", args=[first.pk]), "he")
    assert '<div lang="en" dir="ltr">' in case
