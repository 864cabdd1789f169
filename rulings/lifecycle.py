"""The ruling's states as one table (core/transitions.py): given at the table, final once the
appeal period has passed, under appeal while an appeal is open, changed by an appeal decision,
superseded by a correction.

The state stored is the record's; the state a reader is shown never contradicts the clock
(``Ruling.shown_state``: "Given at the table" while the appeal period runs, even before the
worker's ``finalise_rulings`` catches up).

An appeal settles the ruling's state from all its appeals (``appeals.services.common.
settle_ruling``): each outcome is a step of its own here, so a settled state is one the table
allows.
"""

import enum

from core.transitions import Table, Transition
from rulings.models import Ruling

State = Ruling.State


class Step(enum.StrEnum):
    GIVE = "give"
    FINALISE = "finalise"
    SUPERSEDE = "supersede"
    APPEAL = "appeal"
    SETTLE_OPEN = "settle_open"
    SETTLE_CHANGED = "settle_changed"
    SETTLE_DECIDED = "settle_decided"
    SETTLE_WITHDRAWN = "settle_withdrawn"


# The states a ruling with an appeal may be in when the appeal settles it.
APPEALED = (State.GIVEN, State.FINAL, State.UNDER_APPEAL, State.CHANGED_BY_APPEAL, State.SUPERSEDED)
SETTLE = "appeals.services.common.settle_ruling"

# The second director's check of an adjusted score (setting second_director_check): asked when
# the ruling is given, confirmed by another director, and only then sent to the scores.
Check = Ruling.ScoreCheck
SCORE_CHECK = Table(
    "score check",
    Check,
    [
        Transition("ask_check", (Check.NOT_ASKED,), Check.AWAITING, "rulings.services.giving.give_ruling"),
        Transition("confirm", (Check.AWAITING,), Check.CONFIRMED, "rulings.services.checking.confirm_score"),
    ],
    field="score_check",
)

RULING = Table(
    "ruling",
    State,
    [
        Transition(Step.GIVE, (State.DRAFT,), State.GIVEN, "rulings.services.giving.give_ruling"),
        Transition(Step.FINALISE, (State.GIVEN,), State.FINAL, "rulings.services.giving.finalise_rulings"),
        Transition(Step.SUPERSEDE, (State.GIVEN, State.FINAL), State.SUPERSEDED, "rulings.services.giving.give_ruling"),
        Transition(
            Step.APPEAL,
            (State.GIVEN, State.FINAL, State.UNDER_APPEAL, State.SUPERSEDED),
            State.UNDER_APPEAL,
            "appeals.services.lodging.lodge_appeal",
        ),
        Transition(Step.SETTLE_OPEN, APPEALED, State.UNDER_APPEAL, SETTLE),
        Transition(Step.SETTLE_CHANGED, APPEALED, State.CHANGED_BY_APPEAL, SETTLE),
        Transition(Step.SETTLE_DECIDED, APPEALED, State.FINAL, SETTLE),
        Transition(Step.SETTLE_WITHDRAWN, APPEALED, State.GIVEN, SETTLE),
    ],
)
