"""A case's timeline, its notifications and the audit trail's summaries of it, written by a
director who works in English and read by a Hebrew and a Greek reader, in their languages
(issue #16). Old English rows are read back into codes by the data migration."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation

from appeals import services
from appeals.models import AppealEvent, Notification
from audit import services as audit
from audit.models import AuditEntry
from core import policy, texts
from tests.appeals.conftest import SOON, committee, lodge, ready, vote_all

pytestmark = pytest.mark.django_db


def written_in_english(step, *args, **kwargs):
    with translation.override("en"):
        return step(*args, **kwargs)


def notes(appeal, language):
    with translation.override(language):
        return [(event.action, event.text) for event in AppealEvent.objects.filter(appeal=appeal).order_by("pk")]


def test_the_timeline_of_a_heard_case_reads_in_hebrew_and_greek(case):
    appeal, body, _hearing = written_in_english(ready, case)
    north, south = str(case.north), str(case.south)
    ann, ben, cat = (str(m) for m in body.members.order_by("appointed_at", "pk"))
    stored = dict(notes(appeal, "en"))
    assert stored["body_created"] == "Appeals committee of 3"
    hebrew = notes(appeal, "he")
    assert hebrew[0] == (
        "lodged",
        f"צפון-דרום ({case.ns}) מערערים על פסיקה {case.ruling.number}; הוגש על ידי {north}.",
    )
    assert ("concurrence", f"{south}: הסכים באופן אישי") in hebrew
    assert ("body_created", "ועדת ערעורים של 3") in hebrew
    assert ("member_appointed", f'{ann} (יו"ר), ועדת ערעורים') in hebrew
    assert ("interests_declared", f"{ben}: אין ניגוד עניינים") in hebrew
    assert ("constituted", f"ועדת ערעורים: {ann}, {ben}, {cat}") in hebrew
    greek = notes(appeal, "el")
    assert greek[0] == (
        "lodged",
        f"Β-Ν ({case.ns}) ασκούν έφεση κατά Απόφαση {case.ruling.number}· κατατέθηκε από {north}.",
    )
    assert ("body_created", "Επιτροπή Εφέσεων 3 μελών") in greek
    assert ("interests_declared", f"{cat}: καμία σύγκρουση συμφερόντων") in greek
    assert ("member_appointed", f"{ann} (πρόεδρος), επιτροπή εφέσεων") in greek
    # The hearing's moment in the tournament's zone, in the reader's format, not the writer's.
    hearing_note = dict(greek)["hearing_scheduled"]
    assert hearing_note.endswith(", αυτοπροσώπως, Room 2")
    assert "on" not in hearing_note.split()


def test_a_decision_its_votes_and_the_notice_read_in_greek(case):
    appeal, body, _hearing = written_in_english(ready, case)
    with translation.override("en"):
        vote_all(body, "uphold", now=SOON)
        member = body.sitting().first()
        services.record_vote(
            member=member, outcome="uphold", dissent="I would have varied it.", now=SOON, by=member.user
        )
        services.decide_appeal(appeal=appeal, by=member.user, outcome="uphold", reasons="Pass was an LA.", now=SOON)
    greek = notes(appeal, "el")
    assert ("vote", f"{member}: η απόφαση επικυρώθηκε (μειοψηφούσα γνώμη)") in greek
    assert ("decided", "Η απόφαση επικυρώθηκε") in greek
    notice = Notification.objects.filter(appeal=appeal, code="appeals.notice_decided").first()
    assert notice.text == f"Appeal {appeal.number} is decided: Ruling upheld."
    with translation.override("el"):
        assert notice.shown == f"Η έφεση {appeal.number} κρίθηκε: Η απόφαση επικυρώθηκε."
    with translation.override("he"):
        assert notice.shown == f"ערעור {appeal.number} הוכרע: הפסיקה אושרה."


def test_a_persons_own_words_are_shown_as_written(case):
    appeal = written_in_english(lodge, case)
    with translation.override("en"):
        services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, reason="Wir ziehen zurück.")
    event = AppealEvent.objects.get(appeal=appeal, action="withdrawal_requested")
    with translation.override("he"):
        assert event.text == f"{case.north} מבקש לבטל. Wir ziehen zurück. הגוף עדיין רשאי לדון במקרה."


def test_the_case_page_shows_the_timeline_in_the_readers_language(case, client):
    appeal = written_in_english(lodge, case)
    written_in_english(committee, case, appeal)
    client.force_login(case.chief)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk]), HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert "ועדת ערעורים של 3" in page
    assert "Appeals committee of 3" not in page


def test_the_audit_trail_reads_each_step_in_greek_and_the_chain_holds(case):
    appeal = written_in_english(lodge, case)
    written_in_english(committee, case, appeal)
    entry = AuditEntry.objects.filter(action="appeal.body_created").get()
    assert entry.summary == f"Appeal {appeal.number}: Body formed"  # what is hashed, in English
    with translation.override("el"):
        assert entry.summary_text == f"Έφεση {appeal.number}: Το όργανο συγκροτήθηκε"
    assert audit.verify_chain()[1] is None


def test_a_code_changed_behind_the_applications_back_shows_the_hashed_summary(case):
    appeal = written_in_english(lodge, case)
    written_in_english(committee, case, appeal)
    entry = AuditEntry.objects.filter(action="appeal.body_created").get()
    with connection.cursor() as cursor:  # the code is outside the hash: change it directly
        cursor.execute(
            "UPDATE audit_auditentry SET summary_params = %s WHERE id = %s",
            ['{"appeal": {"code": "appeals.appeal", "params": {"number": 99}}, "action": "withdrawn"}', entry.pk],
        )
    entry = AuditEntry.objects.get(pk=entry.pk)
    with translation.override("el"):
        assert entry.summary_text == f"Appeal {appeal.number}: Body formed"
    assert audit.verify_chain()[1] is None


def test_old_english_notes_notices_and_summaries_are_read_back_into_codes(case):
    appeal = written_in_english(lodge, case)
    written_in_english(committee, case, appeal)
    # As the services wrote them before the codes: English text only.
    AppealEvent.objects.filter(appeal=appeal).update(note_code="", note_params={})
    Notification.objects.filter(appeal=appeal).update(code="", params={})
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditentry SET summary_code = '', summary_params = '{}'")
    hearing = AppealEvent.objects.create(
        appeal=appeal,
        at=SOON,
        action="hearing_scheduled",
        note="22:30 on 1 May 2026 (Europe/London), by video, Zoom",
    )
    own = AppealEvent.objects.create(appeal=appeal, at=SOON, action="recused", note="Ann: I know them.")
    migration = __import__("appeals.migrations.0008_old_notes_to_codes", fromlist=["forwards"])
    state = MigrationExecutor(connection).loader.project_state(("appeals", "0008_old_notes_to_codes"))
    migration.forwards(state.apps, None)

    with translation.override("he"):
        timeline = {event.action: event.text for event in AppealEvent.objects.filter(appeal=appeal)}
        assert timeline["body_created"] == "ועדת ערעורים של 3"
        assert AppealEvent.objects.get(pk=own.pk).text == "Ann: I know them."
        notice = Notification.objects.filter(appeal=appeal).first()
        assert notice.shown.startswith(f"ערעור {appeal.number}: אתם יושבים בו (ועדת ערעורים)")
        entry = AuditEntry.objects.filter(action="appeal.body_created").get()
        assert entry.summary_text == f"ערעור {appeal.number}: הגוף הורכב"
    hearing.refresh_from_db()
    assert hearing.note_code == "appeals.hearing_at"
    assert hearing.note_params["when"] == {"at": "2026-05-01T22:30:00+01:00", "zone": "Europe/London"}
    assert audit.verify_chain()[1] is None


def test_the_api_timeline_is_in_the_callers_language(case, client):
    appeal = written_in_english(lodge, case)
    written_in_english(committee, case, appeal)
    client.force_login(case.chief)
    body = client.get(f"/api/v1/appeals/{appeal.pk}/", HTTP_ACCEPT_LANGUAGE="el").json()
    assert "Επιτροπή Εφέσεων 3 μελών" in [step["note"] for step in body["timeline"]]


def test_a_reminder_is_sent_once_whatever_the_language(case):
    appeal = written_in_english(lodge, case)
    appeal.decide_by = SOON + datetime.timedelta(minutes=30)
    appeal.save(update_fields=["decide_by"])
    first = services.remind_decisions_due(now=SOON, by=policy.SYSTEM)
    with translation.override("he"):
        second = services.remind_decisions_due(now=SOON + datetime.timedelta(minutes=5), by=policy.SYSTEM)
    assert (first, second) == (1, 0)


def test_a_decisions_reasons_for_a_score_change_are_written_in_english_and_read_in_greek(case):
    from core.texts import shown

    with translation.override("he"):  # whoever writes, the stored reason is English
        without_merit = texts.text("appeals.without_merit_reason", r="No case was made.").english()
        accepted = texts.text("appeals.recommendation_reason", r="Agreed.").english()
    assert without_merit == "Appeal without merit: No case was made."
    with translation.override("el"):
        assert shown(without_merit, "score_reason") == "Αβάσιμη έφεση: No case was made."
        assert shown(accepted, "score_reason") == "Η σύσταση του οργάνου εφέσεων έγινε δεκτή (Νόμος\xa093B3): Agreed."
        assert shown("Our own words.", "score_reason") == "Our own words."
    with translation.override("he"):
        assert shown(without_merit, "score_reason") == "ערעור חסר בסיס: No case was made."
