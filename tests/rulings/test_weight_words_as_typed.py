"""The words of a weighted score (Law 12C1c) carry each weight as the director typed it (issue
#42, item 8): a ruling weighted 1/3 and 2/3 was written "33.33% 4S N = / 66.67% 4S N -1" on its
page, the traveller and the score's change. A decimal takes the reader's decimal mark, every
digit kept; a fraction stays a fraction."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import recalculation
from scoring.models import ScoreChange
from scoring.texts import score_words
from tests.conftest import page_in, table_x
from tests.rulings.test_weights_as_typed import ruled

pytestmark = pytest.mark.django_db


def test_thirds_are_written_as_thirds_on_every_page(client, field, director):
    ruling = ruled(client, field, director, "1/3", "2/3")
    assert ruling.score_description == "1/3 4S N = / 2/3 4S N -1"
    recalculation.recalculate_board(field.boards[0].pk)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "1/3 4S N = / 2/3 4S N -1" in page
    assert "33.33" not in page
    traveller = client.get(reverse("scoring:board", args=[field.boards[0].pk])).content.decode()
    assert '<bdi dir="ltr" class="nowrap">1/3 4S N = / 2/3 4S N -1</bdi>' in traveller
    assert "33.33" not in traveller
    change = ScoreChange.objects.get(result=table_x(field))
    assert change.new_description == "1/3 4S N = / 2/3 4S N -1"


@pytest.mark.parametrize(
    "language,w1,w2,words",
    [
        ("nl", "0.6", "0.4", "0,6 4S N = / 0,4 4S N -1"),
        ("el", "0.35", "0.65", "0,35 4S N = / 0,65 4S N -1"),
        ("uk", "0.25", "75%", "0,25 4S N = / 75% 4S N -1"),
        ("he", "1/3", "2/3", "1/3 4S N = / 2/3 4S N -1"),
        ("is", "30%", "70%", "30% 4S N = / 70% 4S N -1"),
    ],
)
def test_a_weight_reads_as_typed_with_the_readers_decimal_mark(client, field, director, language, w1, w2, words):
    ruling = ruled(client, field, director, w1, w2)
    recalculation.recalculate_board(field.boards[0].pk)
    assert words in page_in(client, director, reverse("rulings:ruling", args=[ruling.pk]), language)
    traveller = page_in(client, director, reverse("scoring:board", args=[field.boards[0].pk]), language)
    assert f'<bdi dir="ltr" class="nowrap">{words}</bdi>' in traveller


def test_a_score_described_by_the_scoring_service_keeps_its_weights():
    from scoring.models import Adjustment
    from scoring.services import describe_score

    score = {"ns": [[420, "1/3"], [-50, "2/3"]]}
    assert describe_score(Adjustment.WEIGHTED, score, None) == "weighted 1/3 +420 / 2/3 -50"
    with translation.override("nl"):
        assert score_words("weighted 0.6 +420 / 0.4 -50") == "gewogen 0,6 +420 / 0,4 -50"
        # Every digit as written (no weight_decimals in force), never rounded to "0,13" or "33,33%".
        assert score_words("0.125 4S N = / 33.375% 4S N -1") == "0,125 4S N = / 33,375% 4S N -1"
