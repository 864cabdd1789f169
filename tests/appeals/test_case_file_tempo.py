"""Tempo evidence in the appeal's case file (issue #44): the committee reads how long the call took,
where the time comes from and its ±, in the auction's notes, in the reader's language."""

import pytest
from django.urls import reverse

from bridge.lin import parse_lin
from rulings import services as rulings_services
from tests.appeals.conftest import lodge
from tests.rulings.test_revoke_rulings import LIN


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "West Pass \u2014 tempo: 22 s \u00b1 1 s (online platform record; includes network delay)"),
        ("uk", "темп: 22 с \u00b1 1 с (запис онлайн-платформи; містить мережеву затримку)"),
    ],
)
def test_the_case_file_shows_the_calls_time_with_its_source_and_uncertainty(case, client, language, words):
    record = parse_lin(LIN)  # North 1S, East Pass, South 4S, West Pass (22 s on BBO), passes
    west = record.auction.calls[3]
    west.tempo_seconds, west.tempo_source, west.tempo_uncertainty = 22, "online", 1
    rulings_services.attach_deal_and_auction(ruling=case.ruling, record=record, by=case.director)
    appeal = lodge(case)
    client.force_login(case.director)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert words in page.content.decode()
