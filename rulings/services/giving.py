"""A ruling given at the table (its score effect sent at once), the earlier ruling a correction
supersedes, and given rulings made final when the appeal period has passed."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry, run_with_retry
from rulings.lifecycle import RULING, SCORE_CHECK, Step
from rulings.models import Penalty, Ruling, RulingRevision, TrickRuling
from rulings.services.common import edition_in_force, jsonable, ruling_name, snapshot
from rulings.services.effect import apply_rulings, rulings_in_force
from rulings.services.penalties import approval_missing
from rulings.services.record import link_result
from scoring.texts import moment_param

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def nobody_at_fault(ruling: Ruling) -> bool:
    """An artificial score with no side below Average (Average to both, or Average plus to one
    not at fault): Law 12C2 gives it when neither side is directly at fault, so no side offended."""
    score = ruling.score or {}
    return ruling.score_kind == Ruling.ScoreKind.ARTIFICIAL and all(
        score.get(side) in ("AVE", "AVE+") for side in ("ns", "ew")
    )


@atomic_with_retry
def give_ruling(*, ruling: Ruling, by: User, at: datetime.datetime | None = None) -> Ruling:
    """The director gives the ruling at the table: it must be complete, and its score effect
    goes to the scoring service at once. ``at`` records a ruling given earlier (entered late)."""
    policy.require(by, "ruling", ruling)
    ruling = Ruling.objects.select_for_update(of=("self",)).select_related("board", "table").get(pk=ruling.pk)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(
            {"state": _("This ruling was already given (%(state)s).") % {"state": ruling.get_state_display()}}
        )
    link_result(ruling, by=by)
    errors = {}
    if ruling.result is None:
        errors["result"] = _(
            "Table %(table)s has no result for board %(board)s yet: the ruling is given once "
            "the result is entered (it waits for it in the list of rulings)."
        ) % {"table": ruling.table.number, "board": ruling.board.number}
    if not ruling.ruling_text.strip():
        errors["ruling_text"] = _("Write the ruling.")
    if not ruling.outcome:
        errors["outcome"] = _("Say whether the result stands, a rectification applies, or the score is adjusted.")
    if not ruling.citations.exists():
        errors["laws"] = _("Cite at least one law.")
    if ruling.kind == Ruling.Kind.FACTS_DISPUTED and not (ruling.facts_found.strip() or ruling.facts_not_established):
        errors["facts_found"] = _("Facts are disputed: write the facts as found, or mark them not established.")
    if (
        ruling.outcome == Ruling.Outcome.ADJUSTED
        and ruling.kind != Ruling.Kind.DIRECTORS_ERROR
        and not ruling.offending_side
        # A claim is adjudicated (Laws 69-71): no side offended.
        and not TrickRuling.objects.filter(ruling=ruling, kind=TrickRuling.Kind.CLAIM).exists()
        and not nobody_at_fault(ruling)
    ):
        errors["offending_side"] = _("Mark the offending side of an adjusted score.")
    if ruling.penalties.filter(unit=Penalty.Unit.DISQUALIFICATION, approved_by="").exists():
        # Law 91B: the director disqualifies subject to the tournament organiser's approval.
        errors["penalty_approved_by"] = approval_missing(edition_in_force(ruling.tournament))
    earlier = None
    if ruling.supersedes_id:
        earlier = Ruling.objects.select_for_update().get(pk=ruling.supersedes_id)
        if earlier.state not in (Ruling.State.GIVEN, Ruling.State.FINAL):
            errors["supersedes"] = _("%(ruling)s is no longer in force (%(state)s): it cannot be corrected.") % {
                "ruling": earlier,
                "state": earlier.get_state_display(),
            }
    if ruling.result is not None and ruling.outcome == Ruling.Outcome.ADJUSTED:
        adjusting = rulings_in_force(ruling.result).filter(outcome=Ruling.Outcome.ADJUSTED)
        if ruling.supersedes_id is not None:
            adjusting = adjusting.exclude(pk=ruling.supersedes_id)
        other = adjusting.first()
        if other is not None:
            errors["outcome"] = _(
                "%(ruling)s already adjusted the score at this table (%(score)s): correct that ruling (Law 82C, "
                "Law 79C) rather than giving a second adjusted score."
            ) % {"ruling": other, "score": other.score_description}
    if errors:
        raise ValidationError(errors)
    RULING.move(ruling, Step.GIVE)
    ruling.given_at = at or timezone.now()
    if ruling.appeal_notice and not ruling.appeal_notice_at:
        ruling.appeal_notice_at = ruling.given_at
    awaits_check = needs_check(ruling)
    if awaits_check:  # the authority's second director's check: the score waits for it
        SCORE_CHECK.move(ruling, "ask_check")
        ruling.score_entered_by = by
    ruling.save(
        update_fields=["state", "given_at", "appeal_notice_at", "score_check", "score_entered_by", "updated_at"]
    )
    audit.record(
        action="ruling.given",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before={"state": Ruling.State.DRAFT},
        after={"state": Ruling.State.GIVEN, **snapshot(ruling)},
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=ruling.ruling_text[:200]),
    )
    reason = ruling.ruling_text
    if earlier is not None:
        _supersede(earlier, by=by, correction=ruling)
        # In English, read back into the reader's language where it is shown (core.texts.shown).
        reason = texts.text(
            "rulings.correction_reason",
            correction=ruling_name(ruling),
            earlier=ruling_name(earlier),
            reason=ruling.correction_reason,
        ).english()
    if not awaits_check:  # checking.confirm_score sends it once a second director confirms
        apply_rulings(ruling, by=by, reason=reason)
    return ruling


def needs_check(ruling: Ruling) -> bool:
    """An adjusted score where the tournament's authority asks a second director to confirm it
    before it reaches the standings (setting ``second_director_check``)."""
    return ruling.outcome == Ruling.Outcome.ADJUSTED and bool(
        ruling.tournament.regulations().get("second_director_check")
    )


def _supersede(earlier: Ruling, *, by: User, correction: Ruling) -> None:
    """The earlier ruling stays in the record, marked as superseded, with the correction's
    reason in its change log and in the audit trail."""
    before = snapshot(earlier)
    superseded = RULING.target(earlier.state, Step.SUPERSEDE, earlier)
    Ruling.objects.filter(pk=earlier.pk).update(state=superseded, updated_at=timezone.now())
    earlier.state = superseded
    reason = f"{correction.get_correction_basis_display()}: {correction.correction_reason}"
    RulingRevision.objects.create(
        ruling=earlier,
        changed_by=by,
        reason=_("Superseded by %(correction)s. %(reason)s") % {"correction": correction, "reason": reason},
        before=jsonable({**before, "state": Ruling.State.GIVEN}),
        after=jsonable({**snapshot(correction), "state": Ruling.State.GIVEN, "ruling": correction.number}),
    )
    audit.record(
        action="ruling.superseded",
        obj=earlier,
        actor=by,
        tournament=earlier.tournament.pk,
        before=jsonable(before),
        after={
            "superseded_by": correction.number,
            "basis": correction.correction_basis,
            "reason": correction.correction_reason,
            **jsonable(snapshot(correction)),
        },
        summary=texts.text(
            "rulings.superseded",
            earlier=ruling_name(earlier),
            correction=ruling_name(correction),
            reason=correction.correction_reason[:200],
        ),
    )


def finalise_rulings(now: datetime.datetime | None = None, *, by: Any) -> int:
    """Rulings given in sessions whose appeal period has passed, and not appealed, become final."""
    policy.require(by, "finalise_rulings", None)
    now = now or timezone.now()
    finalised = 0
    for ruling in Ruling.objects.filter(state=Ruling.State.GIVEN).select_related("board__session"):
        deadline = ruling.appeal_deadline()
        if deadline is not None and deadline <= now:
            finalised += run_with_retry(_finalise, ruling, deadline)
    return finalised


def _finalise(ruling: Ruling, deadline: datetime.datetime) -> int:
    """One ruling made final, in a transaction of its own (retried on a conflict)."""
    final = RULING.target(Ruling.State.GIVEN, Step.FINALISE, ruling)
    if not Ruling.objects.filter(pk=ruling.pk, state=Ruling.State.GIVEN).update(state=final):
        return 0
    audit.record(
        action="ruling.final",
        obj=ruling,
        tournament=ruling.tournament.pk,
        before={"state": Ruling.State.GIVEN},
        after={"state": Ruling.State.FINAL},
        summary=texts.text("rulings.final", ruling=ruling_name(ruling), when=moment_param(deadline, ruling.tournament)),
    )
    return 1
