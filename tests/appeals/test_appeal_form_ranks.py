"""The printed appeal form draws the hands as the regulating authority wants card ranks shown
(setting ``card_rank_letters``, see tests/rulings/test_card_ranks.py): North's AK96.KJ8.T74.Q93
is AH96 HB8 1074 V93 for a body preferring national letters on a Dutch page."""

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse

from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import lodge

pytestmark = pytest.mark.django_db


def north(page):
    block = re.search(r'<div class="hand hand-n">(.*?)</div></div>', page, re.S)[1] + "</div>"
    return re.findall(r'<span class="sym s-[SHDC]">[♠♥♦♣]</span> ([^<]*)</div>', block)


@pytest.mark.parametrize(
    "preference,language,hand",
    [
        ("national", "nl", ["AH96", "HB8", "1074", "V93"]),
        ("national", "en", ["AK96", "KJ8", "1074", "Q93"]),
        ("international", "nl", ["AK96", "KJ8", "1074", "Q93"]),
    ],
)
def test_the_appeal_form_follows_the_authority(client, case, preference, language, hand):
    scoring_services.set_authority_setting(
        authority=case.record.authority,
        key="card_rank_letters",
        value=preference,
        effective_from=datetime.date(2026, 1, 1),
        by=policy.SYSTEM,
    )
    appeal = lodge(case)
    client.force_login(case.director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("appeals:appeal-form", args=[appeal.pk]))
    assert response.status_code == 200
    assert north(response.content.decode()) == hand
