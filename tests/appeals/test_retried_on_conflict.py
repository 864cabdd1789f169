"""Issue #19: the appeals and rulings services run again when the database aborts them for a
concurrent transaction (a deadlock or a serialisation failure), as scoring's do.

Each test makes the service's first audited write meet a deadlock, as PostgreSQL reports it:
the service's first attempt rolls back whole and the second one saves the step once."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError

from appeals import services as appeals_services
from appeals.models import Appeal
from audit import services as audit_services
from audit.models import AuditEntry
from core import policy
from rulings import services as rulings_services
from rulings.models import Ruling, RulingAttachment
from tests.appeals.conftest import lodge
from tests.conftest import make_user
from tests.reliability.test_retry import Deadlock

pytestmark = pytest.mark.django_db(transaction=True)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
def deadlock_once(monkeypatch):
    """The next audited write (every service step makes one) is aborted by a deadlock, once.
    Returns the list of the actions audit.record was called with."""
    monkeypatch.setattr("core.retry.time.sleep", lambda seconds: None)
    real = audit_services.record
    calls = []

    def record(**kwargs):
        calls.append(kwargs["action"])
        if len(calls) == 1:
            error = OperationalError("deadlock detected")
            error.__cause__ = Deadlock()
            raise error
        return real(**kwargs)

    monkeypatch.setattr(audit_services, "record", record)
    return calls


def test_lodging_an_appeal_that_meets_a_deadlock_is_lodged_once(case, deadlock_once):
    before = AuditEntry.objects.count()
    appeal = lodge(case)
    assert deadlock_once[0] == deadlock_once[1]  # the same first step, run again
    assert Appeal.objects.filter(ruling=case.ruling).count() == 1
    assert Appeal.objects.get().number == appeal.number == 1
    assert AuditEntry.objects.count() - before == len(deadlock_once) - 1


def test_a_committee_constituted_through_a_deadlock_is_constituted_once(case, monkeypatch):
    appeal = lodge(case)
    calls = []
    real = audit_services.record

    def record(**kwargs):
        calls.append(kwargs["action"])
        if len(calls) == 1:
            error = OperationalError("could not serialize access due to concurrent update")
            error.__cause__ = type("SerializationFailure", (Exception,), {"sqlstate": "40001"})()
            raise error
        return real(**kwargs)

    monkeypatch.setattr("core.retry.time.sleep", lambda seconds: None)
    monkeypatch.setattr(audit_services, "record", record)
    body = appeals_services.constitute_body(
        appeal=appeal, by=case.chief, kind="committee", members=case.members[:3], chair=case.members[0]
    )
    assert appeal.bodies.count() == 1
    assert sorted(m.user.username for m in body.members.all()) == ["ann", "ben", "cat"]


@pytest.fixture
def dora(field):
    """A director appointed before the deadlock is armed: the appointment is audited too (its
    group, issue #30), and the deadlock is for the ruling's first write."""
    from core import roles
    from scoring import services as scoring_services

    director = make_user("dora")
    scoring_services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    return director


def test_a_ruling_given_through_a_deadlock_is_given_once(field, dora, deadlock_once):
    director = dora
    ruling = rulings_services.rule(
        result=field.results[2],
        director=director,
        kind="ui",
        laws="16B1a",
        give=True,
        ruling_text="Result stands",
        reasoning="No logical alternative",
        outcome=Ruling.Outcome.RESULT_STANDS,
    )
    assert Ruling.objects.filter(result=field.results[2]).count() == 1
    assert ruling.state == Ruling.State.GIVEN
    assert deadlock_once.count(deadlock_once[0]) == 2
    assert AuditEntry.objects.filter(object_type="rulings.ruling", object_id=str(ruling.pk)).exists()


def test_an_attachment_stored_through_a_deadlock_leaves_one_file(case, deadlock_once, settings, tmp_path):
    tmp_path = tmp_path / "media"  # a folder of its own: the test's audit heads file sits beside it
    settings.MEDIA_ROOT = str(tmp_path)
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    attachment = rulings_services.add_attachment(
        ruling=case.ruling, by=case.director, upload=SimpleUploadedFile("table.png", PNG, content_type="image/png")
    )
    assert RulingAttachment.objects.filter(ruling=case.ruling).count() == 1
    stored = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert [path.name for path in stored] == [attachment.file.name.rsplit("/", 1)[-1]]
    assert stored[0].read_bytes() == PNG


def test_a_ruling_made_final_through_a_deadlock_is_made_final_once(case, deadlock_once):
    later = case.ruling.appeal_deadline() + datetime.timedelta(minutes=1)
    assert rulings_services.finalise_rulings(by=policy.SYSTEM, now=later) == 1
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.FINAL
    assert deadlock_once == ["ruling.final", "ruling.final"]
    assert AuditEntry.objects.filter(action="ruling.final").count() == 1
