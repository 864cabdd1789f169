"""A ruling's attachments travel with it to the national body (issue #32): the content checked
against its SHA-256 on receipt, a file over the national body's limit refused by name, and
nothing of a refused bundle left in the desk's storage."""

import base64
import datetime
import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from audit import signing
from national.federation import bundle as bundles
from national.federation.models import ReceivedRecord
from rulings import services as rulings_services
from rulings.models import RulingAttachment
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import deliver, register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

# A 1x1 PNG, and a PDF: a hand diagram and a system card.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005"
    "0001ff8d1f6a8a0000000049454e44ae426082"
)
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n" + b"%" * 2900 + b"\n%%EOF\n"


@pytest.fixture
def attached(decided, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = str(tmp_path)
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    decided.media = tmp_path
    decided.hand = rulings_services.add_attachment(
        ruling=decided.ruling,
        by=decided.director,
        upload=SimpleUploadedFile("hand diagram.png", PNG),
        description="The hand at the pause",
    )
    decided.card = rulings_services.add_attachment(
        ruling=decided.ruling, by=decided.director, upload=SimpleUploadedFile("system card.pdf", PDF)
    )
    # Uploaded the day before: the national body keeps that time, not the time it received it.
    RulingAttachment.objects.filter(pk=decided.hand.pk).update(
        uploaded_at=datetime.datetime(2026, 3, 14, 19, 5, tzinfo=datetime.UTC)
    )
    return decided


def files(media):
    return sorted(str(path.relative_to(media)) for path in media.rglob("*") if path.is_file())


def resigned(bundle):
    bundle["signature"] = signing.private_key().sign(bundles.signed_part(bundle)).hex()
    return bundle


def test_a_rulings_attachments_arrive_with_their_content(attached):
    bundle = bundles.build(attached.record.tournament.pk)
    assert bundle["attachments"][str(attached.hand.pk)]["sha256"] == hashlib.sha256(PNG).hexdigest()
    origin = register_self(attached.record.authority)
    status, answer = deliver(origin, bundle)
    assert status == 200, answer
    ruling = ReceivedRecord.objects.get(origin=origin, model="rulings.ruling", origin_pk=attached.ruling.pk)
    received = list(RulingAttachment.objects.filter(ruling_id=ruling.local_pk).order_by("pk"))
    assert [(a.name, a.content_type, a.size, a.description) for a in received] == [
        ("hand diagram.png", "image/png", len(PNG), "The hand at the pause"),
        ("system card.pdf", "application/pdf", len(PDF), ""),
    ]
    assert [a.file.read() for a in received] == [PNG, PDF]
    assert received[0].uploaded_at == datetime.datetime(2026, 3, 14, 19, 5, tzinfo=datetime.UTC)
    assert received[0].file.name.startswith(f"rulings/{ruling.local_pk}/")
    assert received[0].uploaded_by.username == f"congress~{attached.director.username}"
    # Sent again: no file stored twice.
    stored = files(attached.media)
    status, _answer = deliver(origin, bundles.build(attached.record.tournament.pk, answer["tree_size"]))
    assert status == 200 and files(attached.media) == stored


def test_an_attachment_not_matching_its_hash_is_refused_by_name_and_nothing_is_kept(attached):
    bundle = bundles.build(attached.record.tournament.pk)
    bundle["attachments"][str(attached.card.pk)]["content"] = base64.b64encode(PDF + b"% changed\n").decode()
    before = files(attached.media)
    status, answer = deliver(register_self(attached.record.authority), resigned(bundle))
    assert (status, answer["refused"]) == (
        422,
        f'Attachment "system card.pdf" of ruling {attached.ruling.pk}: its content does not match its SHA-256.',
    )
    assert files(attached.media) == before
    assert not ReceivedRecord.objects.exists()


def test_an_attachment_over_the_national_bodys_limit_is_refused_by_name(attached, settings):
    settings.FEDERATION_MAX_ATTACHMENT_BYTES = 2048
    status, answer = deliver(register_self(attached.record.authority), bundles.build(attached.record.tournament.pk))
    assert (status, answer["refused"]) == (
        422,
        f'Attachment "system card.pdf" of ruling {attached.ruling.pk} is 2.9\xa0KB: the national body takes '
        "attachments of at most 2.0\xa0KB.",
    )


def test_a_bundle_refused_after_its_attachments_were_stored_leaves_no_file(attached):
    bundle = bundles.build(attached.record.tournament.pk)
    # A record the desk does not receive, after the attachments: refused while storing.
    bundle["records"].append({"model": "auth.user", "pk": 1, "fields": {}})
    before = files(attached.media)
    status, answer = deliver(register_self(attached.record.authority), resigned(bundle))
    assert (status, answer["refused"]) == (422, "Record auth.user 1: this desk does not receive such records.")
    assert files(attached.media) == before


def test_an_attachment_missing_from_the_origins_storage_stops_the_bundle_naming_it(attached):
    attached.hand.file.storage.delete(attached.hand.file.name)
    with pytest.raises(bundles.BundleRefused) as refused:
        bundles.build(attached.record.tournament.pk)
    assert str(refused.value) == (
        f'Attachment "hand diagram.png" of ruling {attached.ruling.pk}: its file {attached.hand.file.name} '
        "is missing from this instance's storage."
    )


def test_an_attachment_in_base64_not_as_the_sender_writes_it_is_received_and_its_signature_holds(attached):
    # Base64 whose last group's unused bits are set ("gh==" for "gg=="): the same bytes, but not
    # the text a decoder writes again, so it is kept as sent (not spooled) and the signature,
    # which covers the text, holds.
    bundle = bundles.build(attached.record.tournament.pk)
    sent = bundle["attachments"][str(attached.hand.pk)]
    assert sent["content"].endswith("gg==")
    sent["content"] = sent["content"][:-3] + "h=="
    assert base64.b64decode(sent["content"], validate=True) == PNG
    origin = register_self(attached.record.authority)
    status, answer = deliver(origin, resigned(bundle))
    assert status == 200, answer
    ruling = ReceivedRecord.objects.get(origin=origin, model="rulings.ruling", origin_pk=attached.ruling.pk)
    received = RulingAttachment.objects.filter(ruling_id=ruling.local_pk).order_by("pk")
    assert [a.file.read() for a in received] == [PNG, PDF]
