"""Issue #30: an upload over its field's limit is refused while the body is read, 413 with the
field and the limit named, before the view runs and without keeping the file
(config/upload_limits.py)."""

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import upload_limits
from core import policy
from rulings.models import Ruling
from scoring import services
from scoring.models import Event
from tests.rulings.conftest import director  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db
PBN = (Path(__file__).resolve().parent / "fixtures" / "interchange" / "per_table_games.pbn").read_bytes()
PDF = b"%PDF-1.4\n"


@pytest.fixture
def kept(monkeypatch):
    """How many bytes of uploaded files the handlers after the limit's were handed: what was kept
    (in memory or in a temporary file), the most either took."""
    handed = {MemoryFileUploadHandler: [], TemporaryFileUploadHandler: []}
    for handler, counts in handed.items():
        original = handler.receive_data_chunk

        def counted(self, raw_data, start, original=original, counts=counts):
            counts.append(len(raw_data))
            return original(self, raw_data, start)

        monkeypatch.setattr(handler, "receive_data_chunk", counted)
    return Kept(handed)


class Kept:
    def __init__(self, handed):
        self.handed = handed

    def most(self):
        return max(sum(counts) for counts in self.handed.values())


@pytest.fixture
def pairs(record):
    return services.create_event(
        tournament=record.tournament, name="Tuesday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )


def test_a_results_file_over_the_limit_is_a_413_on_the_api_naming_the_field(pairs, people, settings, kept):
    settings.INTERCHANGE_MAX_FILE_BYTES = 1000
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people.scorer).key}")
    big = PBN * (200_000 // len(PBN) + 1)
    response = client.post(
        f"/api/v1/events/{pairs.pk}/import/", {"file": SimpleUploadedFile("big.pbn", big)}, format="multipart"
    )
    assert response.status_code == 413
    assert response.json() == {
        "file": ["Results file: the file is larger than 1000\xa0bytes, the most this field takes. Nothing was kept."]
    }
    assert kept.most() <= 1000 and not pairs.sessions.exists()
    # Under the limit the same address imports.
    settings.INTERCHANGE_MAX_FILE_BYTES = 10 * 1024 * 1024
    response = client.post(
        f"/api/v1/events/{pairs.pk}/import/",
        {"file": SimpleUploadedFile("t.pbn", PBN), "dry_run": "true"},
        format="multipart",
    )
    assert response.status_code == 200


def test_a_results_file_over_the_limit_on_the_import_page(client, pairs, people, settings, kept):
    settings.INTERCHANGE_MAX_FILE_BYTES = 1000
    client.force_login(people.director)
    response = client.post(
        reverse("scoring:import-results", args=[pairs.pk]), {"file": SimpleUploadedFile("big.pbn", PBN * 10)}
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert "File too large" in page
    assert "Results file: the file is larger than 1000\xa0bytes, the most this field takes. Nothing was kept." in page
    assert kept.most() <= 1000


def test_an_attachment_over_5_mb_is_refused_before_the_ruling_is_written(client, field, director, kept):  # noqa: F811
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "claim",
            "laws": "70D1",
            "ruling_text": "The claim stands",
            "outcome": "result_stands",
            "attachment": SimpleUploadedFile("huge.pdf", PDF + b"0" * (5 * 1024 * 1024)),
        },
    )
    assert response.status_code == 413
    assert "Attachment: the file is larger than 5.0\xa0MB, the most this field takes." in response.content.decode()
    assert not Ruling.objects.exists()
    assert kept.most() <= 5 * 1024 * 1024


def test_a_deal_file_over_its_limit_is_refused(client, field, director):  # noqa: F811
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {"kind": "claim", "deal_file": SimpleUploadedFile("deal.pbn", b"[Board 1]\n" * 30_000)},
    )
    assert response.status_code == 413
    assert "PBN or LIN file: the file is larger than 195.3\xa0KB" in response.content.decode()


class Unreadable(io.RawIOBase):
    def read(self, *args):
        raise AssertionError("the body was read")

    readinto = read


def test_a_body_over_what_any_form_takes_is_refused_unread():
    limit = upload_limits.body_limit()
    for path in ("/api/v1/events/1/import/", "/rulings/new/1/"):
        request = RequestFactory().generic(
            "POST", path, b"", CONTENT_TYPE="multipart/form-data; boundary=x", CONTENT_LENGTH=str(limit + 1)
        )
        request.META["wsgi.input"] = Unreadable()
        response = upload_limits.UploadLimitMiddleware(lambda request: pytest.fail("the view ran"))(request)
        assert response.status_code == 413
        text = json.loads(response.content)["detail"][0] if path.startswith("/api/") else response.content.decode()
        assert "more than any form here takes" in text
        for label in ("Results file: at most 10.0\xa0MB", "Attachment: at most 5.0\xa0MB", "PBN or LIN file: at most"):
            assert label in text
        assert "Carried push file" not in text
    assert response.status_code == 413


def test_only_the_receive_page_takes_a_body_as_large_as_a_carried_push(settings):
    assert reverse("national:federation-receive") == upload_limits.CARRIED_PATH
    elsewhere = upload_limits.body_limit("/rulings/new/1/")
    there = upload_limits.body_limit(upload_limits.CARRIED_PATH)
    assert there - elsewhere == settings.FEDERATION_MAX_BUNDLE_BYTES
    assert elsewhere < 20 * 1024 * 1024  # a form's body, not a bundle's


def test_every_file_field_of_the_forms_and_the_api_has_its_limit():
    from rulings.forms import RulingForm
    from scoring.import_api import ImportInputSerializer

    fields = {name for name, f in RulingForm.base_fields.items() if f.__class__.__name__ == "FileField"}
    fields |= {name for name, f in ImportInputSerializer().fields.items() if f.__class__.__name__ == "FileField"}
    assert fields <= set(upload_limits.limits()) and fields <= set(upload_limits.LABELS)
