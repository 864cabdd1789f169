"""The whole record of the table on the ruling page, the case file and the printable appeal form
(issue #42, item 3): the colleagues consulted, the facts disputed with each side's statement,
the screens and the tray's delay were saved but shown nowhere."""

import pytest

from rulings.models import Ruling
from tests.appeals.conftest import lodge, shown

pytestmark = pytest.mark.django_db

SHOWN = (
    "Facts disputed (Law 85)",
    "North says East hesitated for about ten seconds.",
    "East says he took no more than the usual time.",
    "Colleagues consulted",
    "Sam Senior, Pat Panel",
    "Screens in use",
    'Tray delay (seconds): <bdi dir="ltr">25</bdi> · delay noticed by N-S',
)


@pytest.fixture
def recorded(case):
    Ruling.objects.filter(pk=case.ruling.pk).update(
        facts_agreed=False,
        statement_ns="North says East hesitated for about ten seconds.",
        statement_ew="East says he took no more than the usual time.",
        colleagues_consulted="Sam Senior, Pat Panel",
        screens=True,
        tray_delay_seconds=25,
        noticed_by="NS",
    )
    return lodge(case)


@pytest.mark.parametrize("page", ["ruling", "case file", "appeal form"])
def test_the_table_record_is_shown_whole(case, client, recorded, page):
    client.force_login(case.director)
    path = {
        "ruling": f"/rulings/{case.ruling.pk}/",
        "case file": f"/appeals/{recorded.pk}/",
        "appeal form": f"/appeals/{recorded.pk}/form/",
    }[page]
    text = shown(client.get(path))
    assert [line for line in SHOWN if line not in text] == []


def test_agreed_facts_are_said_to_be_agreed(case, client):
    client.force_login(case.director)
    text = shown(client.get(f"/rulings/{case.ruling.pk}/"))
    assert "Facts agreed by both sides (Law 84)" in text
    assert "Screens in use" not in text
