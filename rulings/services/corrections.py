"""A ruling already given, changed: corrected by a new ruling that supersedes it (Law 82C, Law
79C), or changed in place with a reason (logged as a revision); the score effect follows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry
from rulings.models import Ruling, RulingRevision
from rulings.services.citations import cite_laws
from rulings.services.common import REVISED_FIELDS, jsonable, ruling_name, snapshot
from rulings.services.effect import apply_rulings
from rulings.services.form import rule
from rulings.services.scores import set_outcome
from scoring.deadlines import check_in_period

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@atomic_with_retry
def correct_ruling(
    *,
    ruling: Ruling,
    director: User,
    basis: Choice,
    reason: str,
    give: bool = True,
    late_correction: dict | None = None,
    **decision: Any,
) -> Ruling:
    """Correct a ruling already given (Law 82C: the ruling was incorrect; Law 79C: a score
    correction within the correction period): a new ruling on the same table supersedes it
    explicitly, with the reason; both stay in the record. Once given, the correction's score
    effect replaces the earlier one's in a single change. ``decision`` is what ``rule`` takes.
    The period is checked by scoring.deadlines.check_in_period; after it, a score correction
    (ground 79C) may take the Law 79C2 route where the regulations allow it, with
    ``late_correction`` the director's and organiser's statement, kept on the correction."""
    policy.require(director, "correction", ruling)
    errors = {}
    if basis not in Ruling.CorrectionBasis.values:
        errors["correction_basis"] = _("Say on what ground the ruling is corrected: Law 82C or Law 79C.")
    if not (reason or "").strip():
        errors["correction_reason"] = _(
            "Say why the ruling is corrected: the players and an appeals body will read it."
        )
    earlier = Ruling.objects.select_for_update(of=("self",)).select_related("board__session", "table").get(pk=ruling.pk)
    if earlier.state == Ruling.State.UNDER_APPEAL:
        errors["supersedes"] = _("%(ruling)s is under appeal: the appeals body decides on it (Law 93).") % {
            "ruling": earlier
        }
    elif earlier.state not in (Ruling.State.GIVEN, Ruling.State.FINAL):
        errors["supersedes"] = _("%(ruling)s is %(state)s: only a ruling in force is corrected.") % {
            "ruling": earlier,
            "state": earlier.get_state_display().lower(),
        }
    elif Ruling.objects.filter(supersedes=earlier).exists():
        errors["supersedes"] = _("%(ruling)s already has a correction: %(correction)s.") % {
            "ruling": earlier,
            "correction": Ruling.objects.get(supersedes=earlier),
        }
    late = None
    try:
        late = check_in_period(
            earlier.board.session,
            "ruling_correction",
            field="correction_basis",
            late=late_correction if basis == Ruling.CorrectionBasis.SCORE_CORRECTION else None,
        )
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            errors.setdefault(field, messages[0])
    if errors:
        raise ValidationError(errors)
    correction = rule(
        result=earlier.result,
        board=earlier.board,
        table=earlier.table,
        round=earlier.round,
        director=director,
        give=give,
        supersedes=earlier,
        correction_basis=basis,
        correction_reason=reason.strip(),
        **decision,
    )
    if late:
        Ruling.objects.filter(pk=correction.pk).update(late_correction=late)
        correction.late_correction = late
    return correction


@atomic_with_retry
def change_ruling(
    *,
    ruling: Ruling,
    by: User,
    reason: str,
    laws: Iterable[str] | None = None,
    score_kind: Choice | None = None,
    ns: Any = None,
    ew: Any = None,
    **fields: Any,
) -> Ruling:
    """Change a ruling already given: the change is logged (before, after, who, why) and the
    score effect applied again."""
    policy.require(by, "ruling", ruling)
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the ruling changes.")})
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if ruling.state in (Ruling.State.DRAFT,):
        raise ValidationError({"state": _("A draft is edited, not changed: give it first.")})
    before = snapshot(ruling)
    outcome = fields.pop("outcome", ruling.outcome)
    for name, value in fields.items():
        if name not in REVISED_FIELDS and name not in (
            "facts_agreed",
            "statement_ns",
            "statement_ew",
            "facts_not_established",
            "colleagues_consulted",
        ):
            raise ValidationError({name: _("This field cannot be changed here.")})
        setattr(ruling, name, value)
    ruling.save()
    if laws is not None:
        cite_laws(ruling=ruling, by=by, laws=laws)
    if score_kind is not None or outcome != ruling.outcome:
        set_outcome(
            ruling=ruling,
            by=by,
            outcome=outcome,
            score_kind=score_kind or ruling.score_kind,
            ns=ns,
            ew=ew,
            rectification=fields.get("rectification", ruling.rectification),
        )
    ruling.refresh_from_db()
    after = snapshot(ruling)
    RulingRevision.objects.create(
        ruling=ruling, changed_by=by, reason=reason.strip(), before=jsonable(before), after=jsonable(after)
    )
    audit.record(
        action="ruling.changed",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before=jsonable(before),
        after=jsonable(after),
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=reason.strip()[:200]),
    )
    apply_rulings(ruling, by=by, reason=reason.strip())
    return ruling
