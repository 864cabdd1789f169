"""A second director's check of an adjusted score (issue #44), where the authority asks for it
(setting ``second_director_check``): the ruling is given at the table, but its adjusted score
reaches the scores and the standings only once another director of the tournament confirms it,
as debate tournaments' ballots are entered by one person and confirmed by another. Who entered
it (``Ruling.score_entered_by``) and who confirmed it, when, stay on the ruling and in the
audit trail."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry
from rulings.lifecycle import SCORE_CHECK
from rulings.models import Ruling
from rulings.services.common import ruling_name
from rulings.services.effect import IN_FORCE, apply_rulings

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _name(user: User | None) -> str:
    return (user.get_full_name() or user.username) if user is not None else ""


@atomic_with_retry
def confirm_score(*, ruling: Ruling, by: User, at: datetime.datetime | None = None) -> Ruling:
    """A second director confirms the adjusted score another entered: it goes to the scores now,
    with the ruling as its cause. Refused to the director who entered it or gave the ruling
    (``score_checked_by``), for a score no check awaits (the table SCORE_CHECK, ``state``) and
    for a ruling no longer in force (superseded: its correction is checked in its turn)."""
    policy.require(by, "confirm_score", ruling)
    ruling = (
        Ruling.objects.select_for_update(of=("self",)).select_related("score_entered_by", "director").get(pk=ruling.pk)
    )
    if ruling.state not in IN_FORCE:
        raise ValidationError(
            {
                "state": _("%(ruling)s is no longer in force (%(state)s): its score is not confirmed.")
                % {"ruling": ruling, "state": ruling.get_state_display()}
            }
        )
    SCORE_CHECK.target(ruling.score_check, "confirm", ruling)
    if by.pk in (ruling.score_entered_by_id, ruling.director_id):
        raise ValidationError(
            {
                "score_checked_by": _(
                    "A second director confirms the adjusted score: %(who)s entered it or gave the ruling, another "
                    "director of the tournament confirms it."
                )
                % {"who": _name(by)}
            }
        )
    SCORE_CHECK.move(ruling, "confirm")
    ruling.score_checked_by, ruling.score_checked_at = by, at or timezone.now()
    ruling.save(update_fields=["score_check", "score_checked_by", "score_checked_at", "updated_at"])
    audit.record(
        action="ruling.score_confirmed",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before={"score_check": Ruling.ScoreCheck.AWAITING},
        after={
            "score_check": Ruling.ScoreCheck.CONFIRMED,
            "entered_by": _name(ruling.score_entered_by),
            "confirmed_by": _name(by),
            "confirmed_at": ruling.score_checked_at.isoformat(),
        },
        summary=texts.text(
            "rulings.score_confirmed",
            ruling=ruling_name(ruling),
            entered=_name(ruling.score_entered_by),
            confirmed=_name(by),
        ),
    )
    apply_rulings(ruling, by=by, reason=ruling.ruling_text)
    return ruling
