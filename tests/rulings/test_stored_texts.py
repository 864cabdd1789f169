"""The audit trail's summaries of rulings, results and imports, and a score's words, written by
someone working in English and read in Hebrew and Greek (issue #16); old English summaries read
back into codes by the audit app's data migration, with the chain unchanged."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from audit import services as audit
from audit.models import AuditEntry
from core import policy, texts
from rulings import services as rulings
from scoring import services as scoring
from scoring.texts import score_words
from tests.appeals.conftest import POSTED, case  # noqa: F401 - the fixture
from tests.conftest import ruling_at
from tests.national.test_casebooks import compile_book, decided  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def summary(action, language):
    entry = AuditEntry.objects.filter(action=action).order_by("-sequence").first()
    with translation.override(language):
        return entry.summary_text


def test_a_rulings_steps_read_in_hebrew_and_greek(case):
    with translation.override("en"):
        ruling = ruling_at(case.record.results[5], case.director)
        rulings.record_seating(ruling=ruling, by=case.director, seating={})
    n = ruling.number
    assert AuditEntry.objects.filter(action="ruling.recorded").order_by("-sequence").first().summary == (
        f"Ruling {n}: Claim or concession (Laws 68-71)"
    )
    he_kind = summary("ruling.recorded", "he").split(": ", 1)[1]
    assert summary("ruling.recorded", "he") == f"פסיקה {n}: {he_kind}" and "Claim" not in he_kind
    assert summary("ruling.seating", "el") == f"Απόφαση {n}: θέσεις στο τραπέζι"
    assert summary("ruling.seating", "he") == f"פסיקה {n}: ישיבה ליד השולחן"
    assert audit.verify_chain()[1] is None


def test_a_correction_reads_in_greek_with_the_directors_reason_as_written(field, director):
    with translation.override("en"):
        ruling = ruling_at(field.results[5], director)
        correction = rulings.correct_ruling(
            ruling=ruling,
            director=director,
            basis="82C",
            reason="The claim was contested in time.",
            kind="claim",
            laws="70D1",
            ruling_text="One trick to the defenders",
            outcome="result_stands",
        )
    assert summary("ruling.superseded", "el") == (
        f"Απόφαση {ruling.number} αντικαταστάθηκε από Απόφαση {correction.number}: The claim was contested in time."
    )


def test_the_end_of_the_appeal_period_reads_in_the_readers_zone_and_format(case):
    with translation.override("en"):
        ruling = ruling_at(case.record.results[5], case.director)
        scoring.post_official_scores(session=case.record.session, at=POSTED, by=policy.SYSTEM)
        rulings.finalise_rulings(by=policy.SYSTEM, now=POSTED + datetime.timedelta(hours=2))
    english = AuditEntry.objects.filter(action="ruling.final", object_id=str(ruling.pk)).get().summary
    with translation.override("el"):
        greek = AuditEntry.objects.filter(action="ruling.final", object_id=str(ruling.pk)).get().summary_text
    assert english.startswith(f"Ruling {ruling.number}: the appeal period ended ")
    assert greek.startswith(f"Απόφαση {ruling.number}: η προθεσμία έφεσης έληξε ")
    assert greek.endswith("(Europe/London)") and "T2" not in greek  # not the ISO moment it was written as


def test_a_results_summary_reads_in_hebrew(field):
    assert AuditEntry.objects.filter(action="result.recorded").first().summary == "Board 1, table 1: 4S N +1"
    assert AuditEntry.objects.filter(action="result.recorded").first().summary_text == "Board 1, table 1: 4S N +1"
    assert summary("result.recorded", "he").startswith("לוח 1, שולחן ")


def test_a_casebooks_summaries_read_in_greek_with_plural_forms():
    for n, greek in ((1, "Κανόνες: 1 υπόθεση"), (2, "Κανόνες: 2 υποθέσεις"), (5, "Κανόνες: 5 υποθέσεις")):
        coded = texts.text("national.compiled", title="Κανόνες", n=n)
        with translation.override("el"):
            assert str(coded) == greek
    for n, hebrew in ((0, "ספר: 0 מקרים"), (1, "ספר: 1 מקרה"), (2, "ספר: 2 מקרים"), (5, "ספר: 5 מקרים")):
        with translation.override("he"):
            assert str(texts.text("national.compiled", title="ספר", n=n)) == hebrew


def test_an_imports_counts_read_with_plural_forms():
    values = dict(event="Pairs", session="Monday", format="PBN", boards=1, results=5)
    coded = texts.text("scoring.imported", **values)
    assert coded.english() == "Pairs, Monday: PBN file, 1 board, 5 results"
    with translation.override("uk"):
        assert str(coded) == "Pairs, Monday: файл PBN, 1 здача, 5 результатів"
    with translation.override("el"):
        assert str(texts.text("scoring.imported", **dict(values, boards=2, results=1))) == (
            "Pairs, Monday: αρχείο PBN, 2 διανομές, 1 αποτέλεσμα"
        )


def test_a_scores_words_read_in_the_readers_language():
    with translation.override("el"):
        assert score_words("weighted 60% +420 / 40% -50") == "σταθμισμένο 60% +420 / 40% -50"
        assert score_words("N-S AVE+, E-W AVE-") == "Β-Ν AVE+, Α-Δ AVE-"
        assert score_words(
            "redress (table 4S N = +420, normal play 4S N -1 -50, without the infraction 3S N = +140)"
        ) == ("αποκατάσταση (στο τραπέζι 4S N = +420, με κανονικό παίξιμο 4S N -1 -50, χωρίς την παράβαση 3S N = +140)")
    with translation.override("he"):
        assert score_words("passed out") == "פאס מכל השחקנים"


def test_old_english_summaries_are_read_back_and_the_chain_holds(case):
    with translation.override("en"):
        ruling_at(case.record.results[5], case.director)
    with connection.cursor() as cursor:  # as written before the codes: English only
        cursor.execute("UPDATE audit_auditentry SET summary_code = '', summary_params = '{}'")
    migration = __import__("audit.migrations.0004_old_summaries_to_codes", fromlist=["forwards"])
    state = MigrationExecutor(connection).loader.project_state(("audit", "0004_old_summaries_to_codes"))
    migration.forwards(state.apps, None)
    entry = AuditEntry.objects.filter(action="ruling.recorded").order_by("-sequence").first()
    assert entry.summary_code == "rulings.kind"
    assert entry.summary_params["kind"] == "claim"
    assert summary("result.recorded", "el").startswith("Διανομή 1, τραπέζι ")
    assert audit.verify_chain()[1] is None


def test_a_score_changes_reason_cause_and_words_read_in_greek_and_hebrew(case):
    from scoring.models import ScoreChange

    with translation.override("en"):
        rulings.add_penalty(
            ruling=case.ruling,
            by=case.ruling.director,
            kind="procedural",
            side="NS",
            unit="mp",
            amount="1",
            offence="Slow play",
        )
    change = ScoreChange.objects.filter(result=case.ruling.result).order_by("-pk").first()
    assert (change.reason, change.cause_label) == ("Penalty: Slow play", f"ruling {case.ruling.number}")
    with translation.override("el"):
        assert change.reason_text == "Ποινή: Slow play"
        assert f"με απόφαση {case.ruling.number}" in change.explain("NS", "MP")
    with translation.override("he"):
        assert change.reason_text == "עונש: Slow play"
        assert f"פסיקה {case.ruling.number}" in change.explain("NS", "MP")
    # What a director wrote is shown as written.
    first = ScoreChange.objects.filter(result=case.ruling.result).order_by("pk").first()
    with translation.override("el"):
        assert first.reason_text == "Score adjusted to 3S+1 by North"


def test_the_auction_says_pass_in_the_readers_language(case, client):
    from bridge.auction import Auction, AuctionCall
    from rulings.models import Ruling

    calls = [AuctionCall("1S"), AuctionCall("Pass"), AuctionCall("4S"), AuctionCall("Pass")]
    calls += [AuctionCall("Pass"), AuctionCall("Pass")]
    auction = Auction(dealer="N", calls=calls).to_dict()
    Ruling.objects.filter(pk=case.ruling.pk).update(auction=auction)
    client.force_login(case.director)
    url = f"/rulings/{case.ruling.pk}/"
    greek = client.get(url, HTTP_ACCEPT_LANGUAGE="el").content.decode()
    hebrew = client.get(url, HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert ">Πάσο<" in greek and ">Pass<" not in greek
    assert ">פאס<" in hebrew and ">Pass<" not in hebrew
    assert ">Pass<" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_rulings_score_words_read_in_greek_on_its_page_and_the_contestants(case, client):
    with translation.override("en"):
        ruling = ruling_at(
            case.record.results[5],
            case.director,
            kind="ui",
            laws="16B1a",
            ruling_text="Average scores",
            outcome="adjusted",
            score_kind="artificial",
            ns="AVE+",
            ew="AVE-",
            offending_side="EW",
        )
    assert ruling.score_description == "N-S AVE+, E-W AVE-"
    client.force_login(case.director)
    page = client.get(f"/rulings/{ruling.pk}/", HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert "Β-Ν AVE+, Α-Δ AVE-" in page and "N-S AVE+" not in page
    contestant = case.record.results[5].ns
    page = client.get(f"/contestants/{contestant.pk}/", HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert "צפון-דרום AVE+, מזרח-מערב AVE-" in page and "N-S AVE+" not in page


def test_a_casebook_gives_a_scores_words_in_its_own_language(decided):  # noqa: F811
    from national import casebooks
    from rulings.models import Ruling

    Ruling.objects.filter(pk=decided.ruling.pk).update(score_description="N-S AVE+, E-W AVE-")
    authority = decided.record.authority
    authority.language = "el"
    authority.save()
    with translation.override("en"):  # whoever compiles it
        casebook = compile_book(decided)
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["ruling"]["score"] == "Β-Ν AVE+, Α-Δ AVE-"
