"""The outbox's diagnostics in the reader's language (issue #32): why a push stopped is kept as a
code and its parameters, never as text, and each director reads it in their own language."""

import html

import pytest
import requests
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from core import policy
from national.federation import messages, push, receive
from national.federation.models import Push
from rulings import services as rulings_services
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.conftest import page_in
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures
from tests.national.test_federation_api import CutOnce, national  # noqa: F401 - fixtures
from tests.national.test_federation_attachments import PDF

pytestmark = pytest.mark.django_db
LANGUAGES = ("en", "he", "el", "uk", "is", "nl")


def pushed(national, monkeypatch, cut=None):  # noqa: F811
    push.set_target("http://testserver/api/federation/", national.token, by=policy.SYSTEM)
    transport = CutOnce(national.api, cut=cut)
    monkeypatch.setattr(
        requests.Session, "request", lambda session, *args, **kwargs: transport(session, *args, **kwargs)
    )
    return Push.objects.create(target=push.target(), tournament=national.record.tournament)


def stored_text(sent):
    """Everything the push row keeps of its error, as text."""
    return repr((sent.error_code, sent.error_params, sent.answer))


def test_a_refusal_is_kept_as_a_code_and_read_in_each_language(national, monkeypatch, settings, tmp_path, client):  # noqa: F811
    settings.MEDIA_ROOT = str(tmp_path)
    settings.FEDERATION_MAX_ATTACHMENT_BYTES = 2048
    rulings_services.add_attachment(
        ruling=national.ruling, by=national.director, upload=SimpleUploadedFile("system card.pdf", PDF)
    )
    sent = pushed(national, monkeypatch)
    assert push.run(sent.pk, by=policy.SYSTEM) == "refused"
    sent.refresh_from_db()
    assert (sent.error_code, sent.error_params) == (
        "attachment_size",
        {"name": "system card.pdf", "ruling": national.ruling.pk, "size_bytes": len(PDF), "limit_bytes": 2048},
    )
    assert "national body" not in stored_text(sent) and "Attachment" not in stored_text(sent)
    url = reverse("national:federation-outbox")
    for language in LANGUAGES:
        with translation.override(language):
            expected = messages.render(sent.error_code, sent.error_params)
        assert "system card.pdf" in expected and str(national.ruling.pk) in expected
        page = html.unescape(page_in(client, national.chief, url, language))
        assert expected in page, language
    english = html.unescape(page_in(client, national.chief, url, "en"))
    assert (
        f'Attachment "system card.pdf" of ruling {national.ruling.pk} is 2.9\xa0KB: the national body takes '
        "attachments of at most 2.0\xa0KB."
    ) in english
    hebrew = html.unescape(page_in(client, national.chief, url, "he"))
    assert f'הקובץ המצורף "system card.pdf" של פסיקה {national.ruling.pk} הוא בגודל' in hebrew


def test_a_push_cut_on_the_way_says_where_and_that_it_is_tried_again(national, monkeypatch, settings):  # noqa: F811
    settings.FEDERATION_PART_BYTES = 4096
    sent = pushed(national, monkeypatch, cut=1)
    with pytest.raises(push.Interrupted):
        push.run(sent.pk, by=policy.SYSTEM)
    sent.refresh_from_db()
    assert (sent.error_code, sent.error_params) == (
        "connection_lost",
        {"step": {"code": "part", "part": 2, "parts": sent.parts}, "error": "ConnectionError"},
    )
    with translation.override("nl"):
        assert sent.last_error == (
            f"Deel 2 van {sent.parts} verzenden: de verbinding met de nationale bond is verbroken "
            "(ConnectionError); er wordt opnieuw geprobeerd."
        )
    assert push.run(sent.pk, by=policy.SYSTEM) == "delivered"
    sent.refresh_from_db()
    assert (sent.error_code, sent.error_params, sent.last_error, sent.attempts) == ("", {}, "", 2)


def test_a_token_revoked_is_read_in_the_directors_language(national, monkeypatch):  # noqa: F811
    receive.revoke_token(national.origin.tokens.get(), by=policy.SYSTEM)
    sent = pushed(national, monkeypatch)
    assert push.run(sent.pk, by=policy.SYSTEM) == "refused"
    sent.refresh_from_db()
    assert (sent.error_code, sent.error_params) == ("token_revoked", {})
    with translation.override("uk"):
        assert sent.last_error == messages.render("token_revoked") != "This token was revoked."


def test_an_answer_without_a_code_keeps_the_national_bodys_text():
    assert messages.render("national_text", {"text": "Closed for the holidays."}) == (
        "The national body refused it: Closed for the holidays."
    )
    assert messages.render("a_code_of_a_newer_version", {"text": "Something new."}) == "Something new."


def test_a_push_whose_retries_are_spent_stops_saying_so_and_publishing_again_delivers(national, monkeypatch, settings):  # noqa: F811
    """It read "sending ... it is tried again" for ever once the task's 15 retries were spent."""
    from national.tasks import push_tournament

    settings.FEDERATION_PART_BYTES = 4096
    sent = pushed(national, monkeypatch, cut=1)
    outcome = push_tournament.apply(args=[sent.pk], retries=push_tournament.max_retries)  # the last retry
    assert outcome.get() == "stopped"
    sent.refresh_from_db()
    assert sent.state == "stopped"
    assert (sent.error_code, sent.error_params) == (
        "gave_up",
        {"attempts": 1, "step": {"code": "part", "part": 2, "parts": sent.parts}},
    )
    with translation.override("en"):
        assert sent.last_error == (
            f"Sending part 2 of {sent.parts}: stopped after 1 attempt. Publish it again to resume where it "
            "stopped (the parts the national body holds are not sent again)."
        )
    again = push.publish(national.record.tournament, by=policy.SYSTEM)
    assert push.run(again.pk, by=policy.SYSTEM) == "delivered"
