"""The audit trail: every change recorded with who, when, before, after and the door it came
through; the chain catches an edit made behind the application's back."""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy
from scoring import services
from tests.conftest import DEMO_NOW, table_result

pytestmark = pytest.mark.django_db


def api_result(record, **extra):
    data = {
        "board": record.boards[0].pk,
        "round": record.round.pk,
        "table": record.tables[0].pk,
        "ns": record.pairs[0].pk,
        "ew": record.pairs[2].pk,
        "contract": "4S",
        "declarer": "N",
        "tricks": 10,
    }
    data.update(extra)
    return data


def test_a_result_recorded_and_corrected_through_the_api_is_in_the_trail(record, people):
    client = APIClient()
    client.force_authenticate(people.scorer)
    created = client.post("/api/v1/results/", api_result(record), format="json").json()
    client.patch(f"/api/v1/results/{created['id']}/", {"tricks": 9}, format="json")
    recorded, corrected = AuditEntry.objects.filter(object_type="scoring.result").order_by("sequence")
    assert (recorded.action, recorded.actor, recorded.channel, recorded.path) == (
        "result.recorded",
        people.scorer,
        "api",
        "POST /api/v1/results/",
    )
    assert recorded.after["contract"] == "4S" and recorded.after["score_ns"] == 420
    assert (corrected.action, corrected.path) == ("result.corrected", f"PATCH /api/v1/results/{created['id']}/")
    assert (corrected.before["tricks"], corrected.after["tricks"]) == (10, 9)
    assert (corrected.before["score_ns"], corrected.after["score_ns"]) == (420, -50)
    assert corrected.tournament_id == record.tournament.pk


def test_adjusted_scores_and_rulings_are_in_the_trail(field):
    from rulings import services as rulings_services

    ruling = rulings_services.rule(
        result=field.results[6],
        director=_director(field),
        kind="ui",
        laws="16B1a",
        ruling_text="Adjusted",
        outcome="adjusted",
        score_kind="assigned",
        offending_side="NS",
        ns={"contract": "3S", "declarer": "N", "tricks": 9},
        give=True,
    )
    actions = list(
        AuditEntry.objects.exclude(action__startswith="law_catalog")
        .order_by("sequence")
        .values_list("action", flat=True)
    )
    assert actions[-3:] == ["ruling.recorded", "ruling.given", "score.adjusted"]
    adjusted = AuditEntry.objects.get(action="score.adjusted")
    assert adjusted.before["description"] == "4S N = +420"
    assert adjusted.after["score"] == {"ns": 140} and adjusted.after["cause"] == f"ruling {ruling.number}"


def _director(field):
    from core import roles
    from tests.conftest import make_user

    user = make_user("td-audit")
    services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def test_verify_audit_passes_on_an_intact_trail_and_names_the_first_broken_entry(record, capsys):
    for table, contract in ((0, "4S"), (1, "3NT")):
        table_result(record, table, contract=contract, declarer="S", tricks=10)
    services.post_official_scores(session=record.session, by=policy.SYSTEM)
    call_command("verify_audit")
    assert "The audit trail is intact: 3 entries verified." in capsys.readouterr().out
    second = AuditEntry.objects.get(sequence=2)
    with connection.cursor() as cursor:  # behind the application's back
        cursor.execute(
            "UPDATE audit_auditentry SET summary = %s WHERE id = %s", ["Board 1: nothing happened", second.pk]
        )
    with pytest.raises(CommandError) as exc:
        call_command("verify_audit")
    assert "The audit trail is broken at entry 2" in str(exc.value)
    assert "was changed after it was written" in str(exc.value)
    assert "1 entries before it are intact" in str(exc.value)


def test_a_deleted_entry_is_caught_too(record):
    for table in (0, 1):
        table_result(record, table, contract="PASS")
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditentry WHERE sequence = 1")
    with pytest.raises(CommandError, match="entry 1 is missing"):
        call_command("verify_audit")


def test_the_application_cannot_edit_or_delete_the_trail(record, people, client):
    table_result(record, 0, contract="PASS")
    entry = AuditEntry.objects.get(object_type="scoring.result")
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.update(summary="x")
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    people.director.is_staff = people.director.is_superuser = True
    people.director.save()  # audited itself (who may do what, issue #30)
    entries = AuditEntry.objects.count()
    client.force_login(people.director)
    assert client.get(f"/admin/audit/auditentry/{entry.pk}/change/").status_code == 200  # read only
    assert client.post(f"/admin/audit/auditentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.count() == entries


def test_every_step_of_an_appeal_is_in_the_trail_and_the_demo_chain_verifies(monkeypatch, capsys):
    from appeals.models import AppealEvent
    from scoring import demo

    original = demo.load_demo
    monkeypatch.setattr(
        demo,
        "load_demo",
        lambda **kw: original(
            **{
                **dict(
                    pairs_tables=4, boards_per_session=8, pairs_sessions=2, teams=4, boards_per_match=2, now=DEMO_NOW
                ),
                **kw,
            }
        ),
    )
    call_command("load_demo")
    steps = AppealEvent.objects.count()
    assert steps > 20
    assert AuditEntry.objects.filter(action__startswith="appeal.").count() == steps
    assert AuditEntry.objects.filter(action="ruling.given").exists()
    # The demo's trail is signed at once (issue #30): its casebook shows the decisions' proofs.
    entries = AuditEntry.objects.count()
    assert f"Signed the audit trail's tree head of {entries} entries" in capsys.readouterr().out
    call_command("verify_audit")
    assert "The audit trail is intact" in capsys.readouterr().out
