"""The parts of bundles never committed are deleted after FEDERATION_UPLOAD_HOURS (issue #32):
by beat's hourly task, and for an instance when it starts sending a new bundle; a bundle stored
keeps its answer, and a push resuming a purged bundle sends its parts again."""

import datetime
import hashlib

import pytest
from django.utils import timezone

from core import policy
from national import tasks
from national.federation import receive
from national.federation.models import Upload, UploadPart
from scoring import services as scoring_services
from tests.national.federation_helpers import register_self

pytestmark = pytest.mark.django_db

# The clock of the checks: now, since a new bundle's first part purges by the real clock too.
NOW = timezone.now()


def name(text):
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def origin():
    return register_self(scoring_services.create_authority(name="National Bridge Body", code="nbb", by=policy.SYSTEM))


def begun(origin, text, hours_ago, *, stored=False):
    """A bundle of three parts of which two arrived, the first ``hours_ago`` hours before NOW."""
    for index in (0, 1):
        receive.receive_part(origin, name(text), index, 3, text.encode(), by=policy.SYSTEM)
    upload = Upload.objects.get(origin=origin, digest=name(text))
    upload.created_at = NOW - datetime.timedelta(hours=hours_ago)
    if stored:
        upload.answer = {"stored": True}
        upload.received_parts.all().delete()
    upload.save()
    return upload


def test_parts_never_committed_are_deleted_after_the_hours_kept(origin, settings):
    settings.FEDERATION_UPLOAD_HOURS = 48
    recent = begun(origin, "resuming", 47)
    stored = begun(origin, "stored", 100, stored=True)
    old = begun(origin, "abandoned", 49)  # last: a new bundle's first part would purge it at once
    assert receive.purge_stale_uploads(now=NOW, by=policy.SYSTEM) == 1
    assert set(Upload.objects.values_list("pk", flat=True)) == {recent.pk, stored.pk}
    assert not UploadPart.objects.filter(upload_id=old.pk).exists()
    assert UploadPart.objects.filter(upload=recent).count() == 2
    # A push resuming the deleted bundle is told no part arrived, and sends them again.
    assert receive.upload_state(origin, name("abandoned")) == {
        "digest": name("abandoned"),
        "received": [],
        "stored": False,
    }


def test_beats_task_deletes_them_for_every_instance(origin, settings):
    settings.FEDERATION_UPLOAD_HOURS = 1
    other = receive.register_origin(
        name="Club", slug="club", authority=origin.authority, public_key=origin.public_key, by=policy.SYSTEM
    )
    begun(origin, "one", 0)
    begun(other, "two", 0)
    Upload.objects.update(created_at=timezone.now() - datetime.timedelta(hours=2))
    assert tasks.purge_stale_uploads() == 2
    assert not Upload.objects.exists() and not UploadPart.objects.exists()
    assert "national.tasks.purge_stale_uploads" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_a_new_bundle_clears_the_instances_stale_parts(origin, settings):
    settings.FEDERATION_UPLOAD_HOURS = 1
    other = receive.register_origin(
        name="Club", slug="club", authority=origin.authority, public_key=origin.public_key, by=policy.SYSTEM
    )
    mine = begun(origin, "mine", 0)
    theirs = begun(other, "theirs", 0)
    Upload.objects.update(created_at=timezone.now() - datetime.timedelta(hours=2))
    receive.receive_part(origin, name("new"), 0, 2, b"new", by=policy.SYSTEM)
    assert not Upload.objects.filter(pk=mine.pk).exists()
    assert Upload.objects.filter(pk=theirs.pk).exists()  # another instance's: beat's to delete
    # A part of a bundle already begun clears nothing.
    Upload.objects.filter(digest=name("new")).update(created_at=timezone.now() - datetime.timedelta(hours=2))
    receive.receive_part(origin, name("new"), 1, 2, b"new", by=policy.SYSTEM)
    assert Upload.objects.filter(digest=name("new")).exists()
