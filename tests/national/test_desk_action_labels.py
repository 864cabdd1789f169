"""The national desk's latest entries of the audit trail name each action in the reader's
language (issue #42, item 8): in Hebrew and Ukrainian they showed the codes ("ruling.given",
"result.recorded") in English."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.conftest import page_in, ruling_at, table_result

pytestmark = pytest.mark.django_db


def desk(client, people, record, language):
    ruling_at(table_result(record, contract="4S", declarer="N", tricks=10), people.director)
    return page_in(client, people.auditor, reverse("national:national-home"), language)


def test_the_desk_names_the_audit_actions_in_hebrew(client, people, record):
    page = desk(client, people, record, "he")
    assert {"ruling.given", "result.recorded"} <= set(AuditEntry.objects.values_list("action", flat=True))
    assert '<bdi title="ruling.given">ניתנה פסיקה</bdi>' in page
    assert '<bdi title="result.recorded">נרשמה תוצאה</bdi>' in page
    assert ">ruling.given<" not in page and ">result.recorded<" not in page


def test_the_desk_names_the_audit_actions_in_ukrainian_and_english(client, people, record):
    page = desk(client, people, record, "uk")
    assert '<bdi title="ruling.given">Рішення ухвалено</bdi>' in page
    english = page_in(client, people.auditor, reverse("national:national-home"), "en")
    assert '<bdi title="ruling.given">Ruling given</bdi>' in english


def test_an_action_no_app_names_shows_its_code_left_to_right(client, people, record):
    from audit import services as audit

    audit.record(action="test.note", summary="A note", tournament=record.tournament.pk)
    page = page_in(client, people.auditor, reverse("national:national-home"), "he")
    assert '<code dir="ltr" lang="en">test.note</code>' in page


def test_every_action_a_desk_entry_can_carry_is_named():
    """Every audit action written with a tournament (so shown on the desk) has a label."""
    from core.texts import ACTIONS

    shown = {
        "ruling.given",
        "ruling.recorded",
        "ruling.final",
        "result.recorded",
        "session.official_score_posted",
        "score.adjusted",
        "appeal.lodged",
        "appeal.decided",
        "ruling.claim_recorded",
        "filing.received",
        "federation.received",
    }
    assert shown <= set(ACTIONS)
