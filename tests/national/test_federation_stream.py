"""A bundle is committed as a stream (issue #41): its parts read one at a time, its digest and
its JSON taken as they are read, so committing never holds the joined bytes beside a parsed copy
and a serialised one (a 63 MiB bundle had raised the worker's memory by 244 MB). Measured with
tracemalloc, not with time."""

import hashlib
import io
import json
import os
import tracemalloc
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import FileResponse
from django.urls import reverse

from core import policy
from national.federation import bundle as bundles
from national.federation import carried, receive
from national.federation.models import ReceivedRecord, Upload
from rulings import services as rulings_services
from rulings.models import RulingAttachment
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

MIB = 1 << 20


def pdf(size, fill):
    """A PDF of ``size`` bytes (its padding varied, so no two are alike)."""
    head, tail = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n", b"\n%%EOF\n"
    return head + bytes([fill]) * (size - len(head) - len(tail)) + tail


@pytest.fixture
def large(decided, settings, tmp_path):  # noqa: F811
    """The decided case with three system cards of 4 MiB each: a bundle of about 16 MiB."""
    settings.MEDIA_ROOT = str(tmp_path)
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    decided.cards = [pdf(4 * MIB, ord(fill)) for fill in "abc"]
    for number, content in enumerate(decided.cards):
        rulings_services.add_attachment(
            ruling=decided.ruling, by=decided.director, upload=SimpleUploadedFile(f"card {number}.pdf", content)
        )
    return decided


def members_of(content):
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def upload(origin, data, part=512 * 1024):
    digest = hashlib.sha256(data).hexdigest()
    parts = max(1, -(-len(data) // part))
    for index in range(parts):
        receive.receive_part(origin, digest, index, parts, data[index * part : (index + 1) * part], by=policy.SYSTEM)
    return digest


def test_committing_a_large_bundle_holds_about_one_copy_of_it(large):
    origin = register_self(large.record.authority)
    data = bundles.canonical(bundles.build(large.record.tournament.pk))
    assert len(data) > 16 * MIB
    digest = upload(origin, data)
    size = len(data)
    del data
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        status, answer = receive.commit(origin, digest, by=policy.SYSTEM)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert status == 200, answer
    # Under twice the bundle's size: joined in memory, parsed and serialised again for its
    # signature, the same commit took more than four times it (the bound by the largest
    # attachment, the attachments spooled to files as they are parsed, is the test below).
    assert peak < 2 * size, f"peak {peak / MIB:.1f} MiB for a bundle of {size / MIB:.1f} MiB"
    ruling = ReceivedRecord.objects.get(origin=origin, model="rulings.ruling", origin_pk=large.ruling.pk)
    received = RulingAttachment.objects.filter(ruling_id=ruling.local_pk).order_by("pk")
    assert [attachment.file.read() for attachment in received] == large.cards
    assert not Upload.objects.get(origin=origin, digest=digest).received_parts.exists()


def test_a_part_altered_in_storage_is_refused_by_the_digest(large):
    origin = register_self(large.record.authority)
    data = bundles.canonical(bundles.build(large.record.tournament.pk))
    digest = upload(origin, data)
    part = Upload.objects.get(origin=origin, digest=digest).received_parts.get(index=5)
    data = bytes(part.data)
    part.data = data[:100] + (b"Z" if data[100:101] != b"Z" else b"Y") + data[101:]
    part.save()
    status, answer = receive.commit(origin, digest, by=policy.SYSTEM)
    assert (status, answer["reason"]) == (422, "digest")
    assert not Upload.objects.filter(origin=origin, digest=digest).exists()


def test_a_bundle_cut_short_whose_digest_holds_is_refused_by_its_form(decided):  # noqa: F811
    origin = register_self(decided.record.authority)
    data = bundles.canonical(bundles.build(decided.record.tournament.pk))[:-100]
    status, answer = receive.commit(origin, upload(origin, data, part=4096), by=policy.SYSTEM)
    assert (status, answer["reason"]) == (422, "form")


def test_a_bundle_with_trailing_bytes_is_refused_by_its_form(decided):  # noqa: F811
    origin = register_self(decided.record.authority)
    data = bundles.canonical(bundles.build(decided.record.tournament.pk)) + b' {"more": 1}'
    status, answer = receive.commit(origin, upload(origin, data, part=4096), by=policy.SYSTEM)
    assert (status, answer["reason"]) == (422, "form")


def peak_of(work):
    """(what ``work()`` returned, the peak of Python's allocations while it ran, above before)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        done = work()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return done, peak


def carried_bytes(tournament, by):
    name, file = carried.build(tournament, by=by)
    with file:
        return name, file.read()


@pytest.fixture
def scanned(decided, settings, tmp_path):  # noqa: F811
    """The decided case with three scanned cards of 4 MiB each that do not compress (as photos
    and scans do not): a bundle of about 16 MiB, its zip about 12 MiB."""
    settings.MEDIA_ROOT = str(tmp_path)
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    head, tail = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n", b"\n%%EOF\n"
    for number in range(3):
        content = head + os.urandom(4 * MIB - len(head) - len(tail)) + tail
        rulings_services.add_attachment(
            ruling=decided.ruling, by=decided.director, upload=SimpleUploadedFile(f"scan {number}.pdf", content)
        )
    return decided


def test_a_carried_file_is_written_as_a_stream_beside_the_bundles_dict_alone(scanned, client):
    """Issue #41: the carried zip was built in memory, the bundle's JSON beside its dict and the
    zip's bytes copied again for the answer (a peak of 58 MiB for this 16 MiB bundle). It is written
    a piece at a time to a temporary file (on disk beyond a part), and the download sends that
    file a block at a time."""
    large = scanned
    built = bundles.build(large.record.tournament.pk)
    size = len(bundles.canonical(built))
    del built
    (name, file), peak = peak_of(lambda: carried.build(large.record.tournament, by=large.chief))
    # The bundle's dict is built (its attachments' text, about the bundle's size), and one
    # attachment's JSON at a time beside it: never the bundle's JSON whole, nor the zip.
    assert peak < 2 * size, f"peak {peak / MIB:.1f} MiB building a carried push of {size / MIB:.1f} MiB"
    with file:
        assert len(members_of(file.read())["bundle.json"]) == size
    client.force_login(large.chief)
    answer = client.post(reverse("national:federation-carry", args=[large.record.tournament.pk]))
    assert answer.streaming and answer["Content-Type"] == "application/zip"
    assert answer["Content-Disposition"].startswith('attachment; filename="push-')
    blocks = list(answer.streaming_content)
    assert int(answer["Content-Length"]) == sum(map(len, blocks)) and max(map(len, blocks)) <= FileResponse.block_size
    downloaded = members_of(b"".join(blocks))
    assert len(downloaded["bundle.json"]) > 16 * MIB  # the first download's entry in it too
    assert json.loads(downloaded["manifest.json"])["digest"] == hashlib.sha256(downloaded["bundle.json"]).hexdigest()


def test_a_carried_file_is_read_and_sent_as_a_stream_in_memory_of_a_few_parts(large, tmp_path):
    name, content = carried_bytes(large.record.tournament, large.chief)
    bundle = members_of(content)["bundle.json"]
    assert len(bundle) > 16 * MIB
    path = tmp_path / name  # an upload this large is kept on disk while the request reads it
    path.write_bytes(content)
    del content
    with path.open("rb") as file:
        found, peak = peak_of(lambda: carried.read(file))
        # Reading it (every member checked to its end) holds a few parts of 1 MiB, not the bundle.
        assert peak < 4 * MIB, f"peak {peak / MIB:.1f} MiB reading a bundle of {len(bundle) / MIB:.1f} MiB"
        assert (found.size, found.digest) == (len(bundle), hashlib.sha256(bundle).hexdigest())
        parts = max(1, -(-found.size // MIB))
        sent, peak = peak_of(lambda: sum(1 for part in found.parts(MIB, parts)))
        assert sent == parts == 17 and peak < 4 * MIB, f"peak {peak / MIB:.1f} MiB sending its parts"
        heads = [head for batch in found.head_batches(2) for head in batch]
        assert len(heads) == found.heads and heads == json.loads(members_of(path.read_bytes())["heads.json"])["heads"]
        assert b"".join(found.parts(MIB, parts)) == bundle


def test_committing_a_bundle_holds_one_attachment_at_a_time_not_the_bundle(large):
    origin = register_self(large.record.authority)
    data = bundles.canonical(bundles.build(large.record.tournament.pk))
    assert len(data) > 16 * MIB
    digest = upload(origin, data)
    size = len(data)
    del data
    (status, answer), peak = peak_of(lambda: receive.commit(origin, digest, by=policy.SYSTEM))
    assert status == 200, answer
    # Each attachment decoded to a temporary file as it is parsed: the records, the entries and
    # one attachment's base64 text (5.3 MiB for 4 MiB), whatever the number of attachments (7.1
    # MiB here; 27.0 MiB when every attachment's text was kept in the parsed bundle).
    largest = max(len(card) for card in large.cards)
    assert peak < 2.5 * largest, f"peak {peak / MIB:.1f} MiB for a bundle of {size / MIB:.1f} MiB"
    ruling = ReceivedRecord.objects.get(origin=origin, model="rulings.ruling", origin_pk=large.ruling.pk)
    received = RulingAttachment.objects.filter(ruling_id=ruling.local_pk).order_by("pk")
    assert [attachment.file.read() for attachment in received] == large.cards
