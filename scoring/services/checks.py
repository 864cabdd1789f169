"""A flag of the score checks accepted (issue #44; scoring/score_checks.py)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy
from scoring.models import Result, ScoreCheckAccepted
from scoring.services.common import full_save

CODES = ("vulnerability", "far_from_field", "passed_out_everywhere", "passed_out_nowhere", "same_pair_twice")


@transaction.atomic
def accept_score_check(*, result: Result, code: str, by: Any, note: str = "") -> ScoreCheckAccepted:
    """Record that the flag ``code`` on ``result`` was looked at and the result stands as
    recorded. ``by`` must write the tournament's record (a director, chief director or scorer)."""
    tournament = result.board.session.event.tournament
    policy.require(by, "write_record", tournament)
    if code not in CODES:
        raise ValidationError({"code": _("'%(code)s' is not a score check.") % {"code": code}})
    if ScoreCheckAccepted.objects.filter(result=result, code=code).exists():
        raise ValidationError({"code": _("This flag is accepted already.")})
    mark = full_save(
        ScoreCheckAccepted(result=result, code=code, accepted_by=policy.person(by), note=(note or "").strip())
    )
    audit.record(
        action="score_check.accepted",
        obj=result,
        actor=policy.person(by),
        after={"code": code, "note": mark.note},
        tournament=tournament.pk,
    )
    return mark
