"""Casebooks: compiled from the national search, names hidden as the regulating authority sets
it, published first without commentary, then final and frozen; HTML, PDF and JSON."""

import hashlib
import io
import json
import os

import pytest
from celery import current_app
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from appeals import services as appeal_services
from audit.models import AuditEntry
from audit.services import verify_chain
from core import policy, roles
from national import casebooks, printing
from national.anonymise import Anonymiser, Hidden
from national.models import Casebook, CasebookPrint
from rulings import services as rulings_services
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, at, case, ready, regulate, vote_all  # noqa: F401 - case is a fixture
from tests.conftest import make_user

NAMES = {
    "north": ("Miriam", "Levi"),
    "south": ("Yossi", "Cohen"),
    "east": ("Anna", "Jonsdottir"),
    "west": ("Petros", "Nikolaou"),
}


@pytest.fixture
def decided(case):
    """The case's players with real names (and another player called Levi at another table),
    seated, named in the statements and the hearing record; the appeal heard and upheld."""
    for seat, (first, last) in NAMES.items():
        player = getattr(case, seat)
        player.first_name, player.last_name = first, last
        player.save()
    other = case.record.players[0]
    other.first_name, other.last_name = "Eli", "Levi"
    other.save()
    case.north.masterpoint_rank, case.south.masterpoint_rank = "Life Master", "Club Master"
    case.north.save(), case.south.save()
    rulings_services.record_seating(
        ruling=case.ruling,
        by=case.director,
        seating={"N": case.north.pk, "S": case.south.pk, "E": case.east.pk, "W": case.west.pk},
    )
    rulings_services.change_ruling(
        ruling=case.ruling,
        by=case.director,
        reason="statements taken",
        statement_ns="Miriam Levi says Cohen's 4S was obvious.",
        statement_ew="Jonsdottir says Levi paused for ten seconds before passing.",
    )
    appeal, body, hearing = ready(case, grounds="Levi: the pause was short; Yossi would always bid 4S.")
    appeal_services.record_hearing_notes(
        hearing=hearing,
        by=case.members[0],
        now=SOON,
        notes="Nikolaou timed the pause. Anna Jonsdottir agreed with Petros.",
    )
    vote_all(body, "uphold")
    appeal_services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="uphold",
        now=at(20),
        reasons="Pass is a logical alternative for Cohen; the tempo suggested 4S.",
    )
    case.appeal = appeal
    case.auditor = make_user("nora", role=roles.NATIONAL_AUDITOR, first_name="Nora", last_name="Auditor")
    scoring_services.appoint_auditor(authority=case.record.authority, user=case.auditor, by=policy.SYSTEM)
    return case


def compile_book(case, **extra):
    extra.setdefault("title", "Club Championship appeals")
    return casebooks.compile_casebook(authority=case.record.authority, by=case.auditor, now=at(60), **extra)


def every_name(case):
    return [part for first_last in NAMES.values() for part in first_last]


def test_a_draft_hides_every_player_behind_their_seat(decided):
    casebook = compile_book(decided)
    assert (casebook.state, casebook.names, casebook.language) == ("draft", "seats", "en")
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["seats"] == {"N": "North", "E": "East", "S": "South", "W": "West"}
    assert entry["texts"]["statement_ns"] == "North says South's 4S was obvious."
    assert entry["texts"]["statement_ew"] == "East says North paused for ten seconds before passing."
    assert entry["texts"]["grounds"] == "North: the pause was short; South would always bid 4S."
    assert entry["texts"]["hearing_notes"] == "West timed the pause. East agreed with West."
    assert entry["texts"]["reasons"] == "Pass is a logical alternative for South; the tempo suggested 4S."
    assert entry["appeal_side"] == "the North-South pair"
    text = json.dumps(entry, ensure_ascii=False)
    assert not [name for name in every_name(decided) if name in text]
    # Officials are named: the director and the committee.
    assert entry["ruling"]["director"] == "Dana Director"
    assert [m["name"] for m in entry["body"][0]["members"]] == ["Ann", "Ben", "Cat"]
    assert entry["ruling"]["laws"][0] == {
        "number": "16B1a",
        "edition": "2017",
        "title": "Partner may not choose a call or play demonstrably suggested",
    }


def test_masterpoint_rank_instead_of_names(decided):
    regulate(decided, casebook_names="masterpoints")
    [entry] = casebooks.build_content(compile_book(decided))["cases"]
    assert entry["seats"]["N"] == "North (Life Master)"
    assert entry["seats"]["E"] == "East (rank not recorded)"
    assert entry["texts"]["statement_ns"] == "North (Life Master) says South (Club Master)'s 4S was obvious."


def test_names_where_the_authority_allows_them(decided):
    regulate(decided, casebook_names="names")
    casebook = compile_book(decided)
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["seats"]["N"] == "North: Miriam Levi"
    assert entry["texts"]["statement_ns"] == "Miriam Levi says Cohen's 4S was obvious."
    assert casebooks.name_problems(casebook) == []


def test_a_name_shared_with_another_player_goes_to_the_one_at_the_table(decided):
    [entry] = casebooks.build_content(compile_book(decided))["cases"]
    assert "another player" not in entry["texts"]["statement_ew"]


def test_hebrew_names_are_found_behind_a_prefix_letter():
    rewrite = Anonymiser([Hidden(("משה לוי", "לוי", "משה"), "צפון"), Hidden(("כהן",), "דרום")])
    assert rewrite("ולוי אמר שכהן חשב, ומשה לוי הסכים") == "וצפון אמר שדרום חשב, וצפון הסכים"
    assert rewrite.survivors("הלוויה") == []  # a word that merely contains the letters
    assert rewrite.survivors("ולוי") == ["לוי"]


def test_a_name_the_rewrite_misses_blocks_publication_until_the_editor_rewords_it(decided):
    appeal_services.record_hearing_notes(
        hearing=decided.appeal.hearings.get(), by=decided.members[0], now=SOON, notes="LEVI said the pause was short."
    )
    casebook = compile_book(decided)
    [problem] = casebooks.name_problems(casebook)
    assert (problem["case"], problem["field"], problem["names"]) == (1, "hearing_notes", ["Levi"])
    with pytest.raises(ValidationError) as error:
        casebooks.publish_casebook(casebook=casebook, by=decided.auditor)
    assert error.value.message_dict["cases"] == [
        "Case 1, The hearing: Levi can still be read. Edit the published wording of this text."
    ]
    assert Casebook.objects.get().state == "draft"
    case = casebook.cases.get()
    casebooks.redact(case=case, by=decided.auditor, field="hearing_notes", text="North said the pause was short.")
    casebooks.publish_casebook(casebook=casebook, by=decided.auditor)
    casebook.refresh_from_db()
    assert casebook.content["cases"][0]["texts"]["hearing_notes"] == "North said the pause was short."


def test_an_unknown_text_field_is_refused_by_name(decided):
    casebook = compile_book(decided)
    with pytest.raises(ValidationError) as error:
        casebooks.redact(case=casebook.cases.get(), by=decided.auditor, field="gossip", text="x")
    assert error.value.message_dict["field"][0].startswith("'gossip' is not a text of a case; choose one of facts,")


def test_two_stage_publication_and_the_final_text_is_frozen(decided):
    casebook = compile_book(decided)
    case = casebook.cases.get()
    with pytest.raises(ValidationError) as error:
        casebooks.write_commentary(case=case, by=decided.auditor, text="Well judged.")
    assert error.value.message_dict["commentary"] == [
        "Publish the casebook first: commentary is added to the published text."
    ]
    casebooks.publish_casebook(casebook=casebook, by=decided.auditor, now=at(100))
    casebook.refresh_from_db()
    first_edition = casebook.content
    assert first_edition["cases"][0]["commentary"] == ""
    # The record changes after publication; the published text does not.
    rulings_services.change_ruling(
        ruling=decided.ruling,
        by=decided.director,
        reason="typo",
        reasoning="Pass was a logical alternative (corrected).",
    )
    assert casebooks.text_of(casebook)["cases"][0]["texts"]["reasoning"] == "Pass was a logical alternative to 4S"
    with pytest.raises(ValidationError) as error:
        casebooks.redact(case=case, by=decided.auditor, field="facts", text="x")
    assert error.value.message_dict["state"][0].startswith("The casebook is published: its cases and texts are fixed.")
    with pytest.raises(ValidationError) as error:
        casebooks.write_commentary(case=case, by=decided.auditor, text="Cohen should have passed.")
    assert error.value.message_dict["commentary"] == ["The commentary names Cohen, whom this casebook does not name."]
    casebooks.write_commentary(case=case, by=decided.auditor, text="South should have passed.")
    assert casebooks.text_of(casebook)["cases"][0]["commentary"] == "South should have passed."
    casebooks.finalise_casebook(casebook=casebook, by=decided.auditor, now=at(200))
    casebook.refresh_from_db()
    assert casebook.state == "final"
    assert casebook.content["cases"][0]["commentary"] == "South should have passed."
    assert casebook.content["cases"][0]["commentary_by"] == "Nora Auditor"
    canonical = json.dumps(casebook.content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert casebook.digest == hashlib.sha256(canonical.encode()).hexdigest()
    for attempt in (
        lambda: casebooks.write_commentary(case=case, by=decided.auditor, text="More."),
        lambda: casebooks.finalise_casebook(casebook=casebook, by=decided.auditor),
        lambda: casebooks.remove_case(case=case, by=decided.auditor),
    ):
        with pytest.raises(ValidationError) as error:
            attempt()
        assert "The casebook is final: nothing in it can change." in str(error.value)
    actions = list(AuditEntry.objects.filter(action__startswith="casebook.").values_list("action", flat=True))
    assert actions == ["casebook.compiled", "casebook.published", "casebook.commentary", "casebook.finalised"]
    assert verify_chain()[1] is None


def test_index_and_statistics(decided):
    content = casebooks.build_content(compile_book(decided))
    assert {"subject": "Unauthorised information", "cases": [1]} in content["index"]["subjects"]
    assert {"subject": "Tempo (hesitation, break in tempo)", "cases": [1]} in content["index"]["subjects"]
    assert content["index"]["laws"] == [{"law": "12C1e", "cases": [1]}, {"law": "16B1a", "cases": [1]}]
    assert content["statistics"]["outcomes"] == [("Ruling upheld", 1), ("Ruling varied", 0), ("Ruling overturned", 0)]
    assert content["statistics"]["laws"] == [("12C1", 1), ("16B1", 1)]


def test_filters_that_match_no_decided_appeal_are_refused(decided):
    with pytest.raises(ValidationError) as error:
        compile_book(decided, filters={"law": "70"})
    assert error.value.message_dict["filters"] == ["No decided appeal of Club Championship body matches these filters."]
    assert compile_book(decided, filters={"law": "16B"}).cases.count() == 1


def test_only_the_bodys_own_auditors_compile(decided, other_record):
    stranger = make_user("stranger", role=roles.NATIONAL_AUDITOR)
    scoring_services.appoint_auditor(authority=other_record.authority, user=stranger, by=policy.SYSTEM)
    for user in (stranger, decided.director, decided.members[0]):
        with pytest.raises(PermissionDenied):
            casebooks.compile_casebook(authority=decided.record.authority, by=user, title="x")
    # Another body's auditor cannot reach the body's appeals through their own authority either.
    with pytest.raises(ValidationError):
        casebooks.compile_casebook(authority=other_record.authority, by=stranger, title="x")


def test_pages_html_json_and_who_may_open_them(decided, client, other_record):
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    page = client.get(reverse("national:casebook", args=[casebook.pk]))
    assert page.status_code == 200 and "Publish without commentary" in page.content.decode()
    book = client.get(reverse("national:casebook-book", args=[casebook.pk])).content.decode()
    assert "Case 1" in book and 'class="diagram"' in book and "Index of subjects" in book
    assert not [name for name in every_name(decided) if name in book]
    data = client.get(reverse("national:casebook-json", args=[casebook.pk])).json()
    assert data["state"] == "draft" and data["cases"][0]["texts"]["grounds"].startswith("North:")
    stranger = make_user("stranger", role=roles.NATIONAL_AUDITOR)
    scoring_services.appoint_auditor(authority=other_record.authority, user=stranger, by=policy.SYSTEM)
    client.force_login(stranger)
    for name in ("national:casebook", "national:casebook-book", "national:casebook-json", "national:casebook-pdf"):
        assert client.get(reverse(name, args=[casebook.pk])).status_code == 404
    assert client.post(reverse("national:casebook-publish", args=[casebook.pk])).status_code == 404
    client.force_login(decided.director)
    assert client.get(reverse("national:casebooks")).status_code == 403
    assert client.get(reverse("national:casebook-book", args=[casebook.pk])).status_code == 403


def test_publishing_through_the_page_reports_a_surviving_name(decided, client):
    appeal_services.record_hearing_notes(
        hearing=decided.appeal.hearings.get(), by=decided.members[0], now=SOON, notes="levi agreed."
    )
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    response = client.post(reverse("national:casebook-publish", args=[casebook.pk]), follow=True)
    assert "Case 1, The hearing: Levi can still be read." in response.content.decode()
    assert Casebook.objects.get().state == "draft"


def test_compiling_through_the_page(decided, client):
    client.force_login(decided.auditor)
    response = client.post(
        reverse("national:casebooks"), {"authority": decided.record.authority.pk, "title": "Spring", "keyword": "tempo"}
    )
    casebook = Casebook.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("national:casebook", args=[casebook.pk])
    assert casebook.filters == {"keyword": "tempo"}
    response = client.post(reverse("national:casebooks"), {"authority": decided.record.authority.pk, "title": ""})
    assert "title: A casebook needs a title." in response.content.decode()


@pytest.fixture
def printer(settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks):
    """Files in a storage of the test's own; ``printer.ask(client, casebook)`` asks for a PDF on
    the page and the worker's task runs when the request's transaction commits."""
    settings.MEDIA_ROOT = tmp_path
    sent = []

    def send(name, *args, **options):
        sent.append((name, args))
        return current_app.tasks[name](*args)

    monkeypatch.setattr(printing.dispatch, "send", send)

    class Printer:
        storage = tmp_path
        tasks = sent

        @staticmethod
        def ask(client, casebook):
            with django_capture_on_commit_callbacks(execute=True):
                response = client.post(reverse("national:casebook-pdf", args=[casebook.pk]))
            assert response.status_code == 302
            return client.get(response["Location"]).content.decode()

    return Printer


@pytest.mark.skipif(
    not __import__("national.pdf", fromlist=["available"]).available()
    and not os.environ.get("REQUIRE_BROWSER"),  # CI installs Chromium: there it must run
    reason="no Chromium on this machine to print with",
)
def test_the_pdf_is_printed_by_the_worker_and_hides_the_names(decided, client, printer):
    from pypdf import PdfReader

    casebook = compile_book(decided)
    casebooks.publish_casebook(casebook=casebook, by=decided.auditor)
    casebooks.finalise_casebook(casebook=casebook, by=decided.auditor)
    client.force_login(decided.auditor)
    page = printer.ask(client, casebook)
    assert "Ready." in page and reverse("national:casebook-pdf-file", args=[casebook.pk]) in page
    assert printer.tasks == [("national.tasks.print_casebook", (CasebookPrint.objects.get().pk,))]
    response = client.get(reverse("national:casebook-pdf-file", args=[casebook.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = b"".join(response.streaming_content)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Case 1" in text and "North says South" in text and "Index of subjects" in text
    assert not [name for name in every_name(decided) if name in text]
    # Kept through the storage API, and the final casebook's PDF is printed once: the same file.
    job = CasebookPrint.objects.get()
    assert (printer.storage / job.file.name).read_bytes() == pdf and job.size == len(pdf)
    printer.ask(client, casebook)
    assert CasebookPrint.objects.count() == 1 and len(printer.tasks) == 1
    assert b"".join(client.get(reverse("national:casebook-pdf-file", args=[casebook.pk])).streaming_content) == pdf
    assert list(AuditEntry.objects.filter(action__startswith="casebook.print").values_list("action", "summary")) == [
        ("casebook.print_requested", "Club Championship appeals: PDF of the Final text"),
        ("casebook.printed", f"Club Championship appeals: PDF of {len(pdf)} bytes"),
    ]


def test_the_print_page_shows_waiting_printing_and_ready(decided, client, printer, monkeypatch):
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    url = reverse("national:casebook-pdf", args=[casebook.pk])
    page = client.get(url).content.decode()
    assert "No PDF of this casebook has been printed yet." in page and "Print the PDF" in page
    # Before any print, the download leads to the page that prints one.
    response = client.get(reverse("national:casebook-pdf-file", args=[casebook.pk]), follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert "No PDF of this casebook has been printed yet." in response.content.decode()

    job = printing.request_print(casebook=casebook, by=decided.auditor)  # no worker has it yet
    page = client.get(url).content.decode()
    assert "Waiting for a worker." in page and '<meta http-equiv="refresh" content="3">' in page
    assert "Print it again" not in page
    assert "(Waiting for a worker)" in client.get(reverse("national:casebook", args=[casebook.pk])).content.decode()
    # Asking again while it waits is the same request.
    assert printing.request_print(casebook=casebook, by=decided.auditor) == job

    seen = {}

    def browser(html):  # the page as the reader sees it while the browser prints
        seen["page"] = client.get(url).content.decode()
        seen["html"] = html
        return b"%PDF-1.7 the printed book"

    monkeypatch.setattr(printing.pdf, "html_to_pdf", browser)
    assert printing.print_casebook(job.pk, by=policy.SYSTEM) == "ready"
    assert "Printing…" in seen["page"] and '<meta http-equiv="refresh" content="3">' in seen["page"]
    assert "Case 1" in seen["html"] and "Index of subjects" in seen["html"]
    page = client.get(url).content.decode()
    assert "Ready." in page and "from the casebook as Draft" in page and "refresh" not in page
    assert "Print it again" in page  # a draft may change: it may be printed again
    response = client.get(reverse("national:casebook-pdf-file", args=[casebook.pk]))
    assert b"".join(response.streaming_content) == b"%PDF-1.7 the printed book"
    assert response["Content-Disposition"] == f'inline; filename="casebook-{casebook.pk}.pdf"'
    # The task delivered twice prints once.
    assert printing.print_casebook(job.pk, by=policy.SYSTEM) == "ready"
    assert [path.name for path in (printer.storage / "casebooks").iterdir()] == [f"casebook-{casebook.pk}-{job.pk}.pdf"]


def test_a_server_without_the_printers_package_says_how_to_install_it(decided, client, printer, monkeypatch):
    from national import pdf

    monkeypatch.setattr(pdf.importlib.util, "find_spec", lambda name, *a: None if name == "playwright" else 1)
    assert not pdf.available()
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    page = client.get(reverse("national:casebook", args=[casebook.pk])).content.decode()
    assert "No browser on this server prints PDFs" in page
    page = printer.ask(client, casebook)
    assert "Printing failed." in page
    assert (
        "the casebook printer&#x27;s package (Playwright) is not installed "
        "(pip install -r requirements/printer.txt)" in page
    )
    assert CasebookPrint.objects.get().state == "failed"


def test_a_failed_print_is_shown_with_its_reason(decided, client, printer, settings):
    settings.CHROMIUM_PATH = "/nonexistent/chromium"
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    page = printer.ask(client, casebook)
    assert "Printing failed." in page
    assert "This server has no browser to print PDFs with (looked for /nonexistent/chromium)." in page
    assert "Print it again" in page and "refresh" not in page
    job = CasebookPrint.objects.get()
    assert job.state == "failed" and not job.file
    assert AuditEntry.objects.filter(action="casebook.print_failed", summary=job.error).count() == 1


def test_a_print_no_worker_can_be_sent_fails_with_the_reason(
    decided, client, settings, monkeypatch, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path

    def unreachable(name, *args, **options):
        raise ConnectionRefusedError("Connection refused")

    monkeypatch.setattr(printing.dispatch, "send", unreachable)
    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("national:casebook-pdf", args=[casebook.pk]))
    page = client.get(reverse("national:casebook-pdf", args=[casebook.pk])).content.decode()
    assert "Printing failed." in page
    assert "No worker could be reached to print it (Connection refused). Try again later." in page


def test_a_print_no_worker_finished_may_be_asked_for_again(decided):
    casebook = compile_book(decided)
    lost = printing.request_print(casebook=casebook, by=decided.auditor, now=at(60))
    assert printing.request_print(casebook=casebook, by=decided.auditor, now=at(69)) == lost
    again = printing.request_print(casebook=casebook, by=decided.auditor, now=at(71))
    lost.refresh_from_db()
    assert again != lost and again.state == "pending"
    assert lost.state == "failed"
    assert lost.error == "No worker finished this print within 10 minutes; it was asked for again."


def test_a_casebook_comes_out_in_the_bodys_language(decided, client):
    authority = decided.record.authority
    authority.language = "he"
    authority.save()
    casebook = compile_book(decided)
    assert casebook.language == "he"
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["seats"]["N"] == "צפון"
    assert entry["texts"]["statement_ns"].startswith("צפון ")
    assert entry["ruling"]["laws"][0]["title"] == "השותף אינו רשאי לבחור קריאה או משחק שהמידע הציע באופן מוכח"
    client.force_login(decided.auditor)
    book = client.get(reverse("national:casebook-book", args=[casebook.pk])).content.decode()
    assert '<html lang="he" dir="rtl">' in book
    assert "מקרה 1" in book


def test_expert_ratings_show_whether_appeals_improved_rulings(decided, client):
    casebook = compile_book(decided)
    casebooks.publish_casebook(casebook=casebook, by=decided.auditor)
    case = casebook.cases.get()
    with pytest.raises(ValidationError) as error:
        casebooks.write_commentary(case=case, by=decided.auditor, text="x", ruling_rating="101")
    assert error.value.message_dict["ruling_rating"] == ["A rating is a whole number from 0 to 100, or empty for none."]
    casebooks.write_commentary(
        case=case, by=decided.auditor, text="Harsh ruling, fair decision.", ruling_rating="55", decision_rating=85
    )
    casebooks.finalise_casebook(casebook=casebook, by=decided.auditor)
    casebook.refresh_from_db()
    assert casebook.content["cases"][0]["ratings"] == {"ruling": 55, "decision": 85}
    assert casebook.content["statistics"]["ratings"] == [
        ["Improved the ruling", 1],
        ["Neither better nor worse", 0],
        ["Worsened the ruling", 0],
    ]
    client.force_login(decided.auditor)
    page = client.get(reverse("national:national-statistics")).content.decode()
    assert "1 rated appeal." in page
    assert '<th scope="row">Improved the ruling</th><td class="num">1</td>' in page
    assert '<th scope="row">Worsened the ruling</th><td class="num">0</td>' in page


def test_each_case_shows_its_decision_in_the_signed_trail(decided, client, django_capture_on_commit_callbacks):
    """Issue #30: beside a case, "this decision is in the trail as of head N, signed at T", from
    its RFC 9162 inclusion proof; a decision rewritten in the database behind the application's
    back no longer proves."""
    from audit import services as audit
    from audit.models import AuditEntry
    from tests.audit.forgery import rewrite

    casebook = compile_book(decided)
    client.force_login(decided.auditor)
    url = reverse("national:casebook", args=[casebook.pk])
    # Every write signed its head (issue #41): the last one holds the decision.
    head = audit.sign_tree_head()
    decision = AuditEntry.objects.filter(object_id=str(decided.appeal.pk), action="appeal.decided").get()
    page = client.get(url).content.decode()
    assert (
        f"This decision is in the audit trail (entry {decision.sequence}) as of the tree head of {head.tree_size} "
        "entries, signed at" in page
    )
    assert "its inclusion proof verifies." in page
    rewrite(decision.sequence, summary="Appeal 1: dismissed")
    page = client.get(url).content.decode()
    assert f"This decision's entry in the audit trail ({decision.sequence}) does not prove to be in" in page


def test_the_cases_poll_appears_with_its_logical_alternatives_and_no_pollee_named(decided, client):
    """Issue #44: the poll in the casebook as counts and the finding in words, by the threshold
    in force on the ruling's day; the question through the anonymiser, no pollee's name."""
    import datetime

    from rulings.models import Ruling

    scoring_services.set_authority_setting(
        authority=decided.record.authority,
        key="logical_alternative_threshold",
        value={"share": "1/5", "more_than": False, "counts": "considered", "table_action": ""},
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    votes = [{"player": f"Pollee{i}", "action": "4S", "considered": [], "level": "peer"} for i in range(6)]
    votes += [{"player": f"Pollee{i}", "action": "pass", "considered": [], "level": "peer"} for i in range(6, 10)]
    poll = {"question": "Cohen's call after the pause?", "level": "", "table_action": "4S", "players": votes}
    Ruling.objects.filter(pk=decided.ruling.pk).update(poll={**poll, "count": {"4S": 6, "pass": 4}})
    casebook = compile_book(decided)
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["poll"]["question"] == "South's call after the pause?"
    assert entry["poll"]["count"] == {"4S": 6, "pass": 4}
    assert "Logical alternatives found from the poll: pass." in entry["poll"]["finding"]["words"]
    client.force_login(decided.auditor)
    book = client.get(reverse("national:casebook-book", args=[casebook.pk])).content.decode()
    assert "Player poll (Law 16B1a)" in book and "Logical alternatives found from the poll: pass." in book
    assert "Pollee" not in json.dumps(entry) and "Pollee" not in book
