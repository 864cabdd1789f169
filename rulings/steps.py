"""The steps of a ruling, each declared once (core/steps.py): giving it and correcting it, on the
ruling's page (``on="ruling"``); its states are the table of rulings/lifecycle.py. The steps a
ruling's pages offer towards an appeal are appeals/steps.py's."""

from core import steps
from core.steps import Step

steps.kind("ruling", "rulings.lifecycle.RULING", lambda ruling: ruling.state)
steps.kind("score_check", "rulings.lifecycle.SCORE_CHECK", lambda ruling: ruling.score_check)

steps.declare(
    Step(
        "give",
        "ruling",
        "ruling",
        ("ruling",),
        "rulings.services.giving.give_ruling",
        "give the ruling at the table",
        moves=("give",),
        door="rulings:ruling-give",
        api="ruling-api-give",
        audit="ruling.given",
    ),
    Step(
        "correct",
        "ruling",
        "ruling",
        ("correction",),
        "rulings.services.corrections.correct_ruling",
        "correct a given ruling (Law 82C, 79C)",
        input="rulings.forms.CorrectionForm",
        moves=("supersede",),
        door="rulings:ruling-correct",
        audit="ruling.superseded",
    ),
    Step(
        "confirm_score",
        "ruling",
        "score_check",
        ("confirm_score",),
        "rulings.services.checking.confirm_score",
        "confirm another director's adjusted score, which then reaches the standings",
        moves=("confirm",),
        door="rulings:ruling-confirm-score",
        audit="ruling.score_confirmed",
    ),
)
