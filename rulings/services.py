"""Every write a director makes: record a ruling, cite laws, enter the adjusted score, give the
ruling (which starts the recalculation), and change it later with a reason.

A ruling reaches the scores only through ``scoring.services.set_effective_score``.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from audit import texts
from audit.hints import Choice
from bridge import deals
from bridge.deals import DealError, parse_deal
from bridge.engine.contract import ContractError, ns_score, parse_contract
from bridge.engine.rounding import exact_str, to_fraction
from rulings.catalogue import sync_law_catalogue
from rulings.laws import CitationError, validate_citation
from rulings.models import LawEntry, Penalty, RegulationClause, Ruling, RulingAttachment, RulingCitation, RulingRevision
from scoring import dispatch, reader
from scoring import services as scoring_services
from scoring.i18n import translate
from scoring.models import EffectiveScore, Result, ScoreChange, Tournament
from scoring.retry import atomic_with_retry, run_with_retry
from scoring.texts import moment_param

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import UploadedFile
    from django.db.models import Model, QuerySet

    from bridge.auction import BoardRecord
    from scoring.models import Board, Player, Round, Table

_M = TypeVar("_M", bound="Model")  # a model instance, returned as given

log = logging.getLogger(__name__)


def _name(ruling: Ruling) -> dict[str, Any]:
    """The ruling's name as a nested text value ("Ruling 4", in the reader's language)."""
    return texts.text("rulings.ruling", number=ruling.number).as_param()


ARTIFICIAL_CODES = ("AVE+", "AVE", "AVE-")
# What is kept of a ruling in its revision log.
REVISED_FIELDS = (
    "kind",
    "facts",
    "facts_found",
    "ruling_text",
    "reasoning",
    "outcome",
    "rectification",
    "offending_side",
    "score_kind",
    "score",
    "score_description",
)
# The rulings whose score effect counts: given and not superseded by a correction.
IN_FORCE = (Ruling.State.GIVEN, Ruling.State.FINAL, Ruling.State.UNDER_APPEAL, Ruling.State.CHANGED_BY_APPEAL)
POINT_UNITS = (Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP, Penalty.Unit.IMPS, Penalty.Unit.VPS)
DISCIPLINARY_UNITS = (Penalty.Unit.SUSPENSION, Penalty.Unit.DISQUALIFICATION)


def edition_in_force(tournament: Tournament) -> str:
    return tournament.regulations()["laws_edition"]


def _save(instance: _M) -> _M:
    instance.full_clean()
    instance.save()
    return instance


@atomic_with_retry
def record_ruling(
    *,
    director: User,
    kind: Choice,
    result: Result | None = None,
    board: Board | None = None,
    table: Table | None = None,
    round: Round | None = None,
    laws: Iterable[str] = (),
    **fields: Any,
) -> Ruling:
    """Open a ruling (a draft) on ``result``, or on a ``board`` and ``table`` (and ``round``)
    whose result is not recorded yet (a director called during the auction or the play): the
    result is attached as soon as it exists. ``laws`` are citations such as "16B1a"."""
    if result is not None:
        board, table, round = result.board, result.table, result.round
    else:
        errors = {}
        if board is None:
            errors["board"] = _("Say which board the ruling is on.")
        if table is None:
            errors["table"] = _("Say at which table the director was called.")
        if errors:
            raise ValidationError(errors)
        assert board is not None  # for mypy: refused above when missing
        result = Result.objects.filter(board=board, table=table).select_related("round").first()
        if result is not None:
            round = result.round
    tournament = Tournament.objects.select_for_update().get(pk=board.session.event.tournament_id)
    last = Ruling.objects.filter(board__session__event__tournament=tournament).aggregate(n=Max("number"))
    ruling = Ruling(
        result=result,
        board=board,
        table=table,
        round=round,
        director=director,
        kind=kind,
        number=(last["n"] or 0) + 1,
        **fields,
    )
    _check_screens(ruling)
    _save(ruling)
    if laws:
        cite_laws(ruling=ruling, laws=laws)
    audit.record(
        action="ruling.recorded",
        obj=ruling,
        actor=director,
        tournament=tournament.pk,
        after=snapshot(ruling),
        summary=texts.text("rulings.kind", ruling=_name(ruling), kind=ruling.kind),
    )
    return ruling


def _check_screens(ruling: Ruling) -> None:
    if ruling.tray_delay_seconds is not None and not ruling.screens:
        raise ValidationError({"tray_delay_seconds": _("A tray delay is recorded only when screens are in use.")})
    if ruling.kind == Ruling.Kind.DIRECTORS_ERROR and ruling.offending_side:
        raise ValidationError(
            {
                "offending_side": _(
                    "A director's error (Law 82C) has no offending side: both sides are treated as non-offending."
                )
            }
        )


@atomic_with_retry
def cite_laws(*, ruling: Ruling, laws: Iterable[str], regulations: Iterable[int] = ()) -> list[LawEntry]:
    """Replace the ruling's citations; every law must exist in the edition in force."""
    edition = edition_in_force(ruling.tournament)
    entries, errors = [], []
    for text in laws:
        if not str(text).strip():
            continue
        try:
            number = validate_citation(edition, text).number
        except CitationError as error:
            errors.append(translate(error))
            continue
        entry = LawEntry.objects.filter(edition=edition, number=number).first()
        if entry is None:
            # The catalogue in the code is the source; its database copy is refreshed when it
            # lacks a law (a new catalogue release, or a database emptied by hand).
            sync_law_catalogue()
            entry = LawEntry.objects.get(edition=edition, number=number)
        entries.append(entry)
    if errors:
        raise ValidationError({"laws": errors})
    clauses = list(RegulationClause.objects.filter(pk__in=regulations, authority=ruling.tournament.authority))
    if len(clauses) != len(set(regulations)):
        raise ValidationError({"regulations": _("A cited clause is not one of this regulating authority's.")})
    ruling.citations.all().delete()
    for entry in dict.fromkeys(entries):
        RulingCitation.objects.create(ruling=ruling, law=entry)
    for clause in clauses:
        RulingCitation.objects.create(ruling=ruling, regulation=clause)
    return entries


def describe_contract(contract: str, declarer: str, tricks: int) -> str:
    parsed = parse_contract(contract)
    if parsed.passed_out:
        return "passed out"
    over = tricks - parsed.level - 6
    return f"{parsed} {declarer} {'=' if over == 0 else f'{over:+d}'}"


def _points(result: Result, row: dict[str, Any], field: str) -> tuple[int, str]:
    """(points, words) of a row {"contract", "declarer", "tricks"} on the result's board."""
    try:
        contract = row.get("contract", "")
        declarer = (row.get("declarer") or "").upper()
        tricks = row.get("tricks")
        tricks = int(tricks) if tricks not in (None, "") else None
        if parse_contract(contract).passed_out:
            return 0, "passed out"
        if tricks is None:
            raise ContractError("tricks", _("how many tricks did declarer take?"))
        points = ns_score(contract, declarer, tricks, result.board.vulnerability)
        return points, describe_contract(contract, declarer, tricks)
    except ContractError as error:
        raise ValidationError({field: translate(error)}) from None
    except (TypeError, ValueError):
        raise ValidationError({field: _("tricks must be a whole number from 0 to 13")}) from None


def _weighted(result: Result, rows: list[dict[str, Any]], field: str) -> tuple[list[list[Any]], str]:
    if not rows:
        raise ValidationError({field: _("Enter at least one result with its weight.")})
    components: list[list[Any]] = []
    words: list[str] = []
    total = Fraction(0)
    for index, row in enumerate(rows, start=1):
        points, text = _points(result, row, f"{field}[{index}]")
        weight = str(row.get("weight", "")).strip()
        try:
            if weight.endswith("%"):
                fraction = to_fraction(weight[:-1].strip()) / 100
                weight = exact_str(fraction)
            else:
                fraction = to_fraction(weight)
        except (ValueError, ZeroDivisionError):
            raise ValidationError(
                {f"{field}[{index}]": _("weight '%(w)s' is not a number: write 0.6, 60%% or 1/3") % {"w": weight}}
            ) from None
        total += fraction
        components.append([points, weight])
        words.append(f"{_percent(fraction)} {text}")
    return components, " / ".join(words)


def _percent(fraction: Fraction) -> str:
    value = fraction * 100
    return f"{value.numerator}%" if value.denominator == 1 else f"{float(value):.4g}%"


def build_adjusted_score(
    *, result: Result, score_kind: Choice, ns: Any = None, ew: Any = None
) -> tuple[dict[str, Any], str]:
    """The engine's form of an adjusted score and its description, from what a director enters:

    - assigned: ``ns`` (and for a split score ``ew``) = {"contract", "declarer", "tricks"};
    - weighted: ``ns`` (and optionally ``ew``) = a list of such rows, each with a "weight";
    - artificial: ``ns`` and ``ew`` = "AVE+", "AVE" or "AVE-" (or a percentage "60%");
    - redress: ``ns`` = {"table": row, "normal_play": row, "without_infraction": row,
      "non_offending": "NS" or "EW"}.
    """
    if score_kind == Ruling.ScoreKind.ARTIFICIAL:
        for field, code in (("ns", ns), ("ew", ew)):
            if not (code in ARTIFICIAL_CODES or (isinstance(code, str) and code.endswith("%"))):
                raise ValidationError(
                    {
                        field: _("'%(code)s' is not an artificial score: AVE+, AVE, AVE- or a percentage such as 60%%.")
                        % {"code": code}
                    }
                )
        return {"ns": ns, "ew": ew}, f"N-S {ns}, E-W {ew}"
    if score_kind == Ruling.ScoreKind.REDRESS:
        if not isinstance(ns, dict) or ns.get("non_offending") not in ("NS", "EW"):
            raise ValidationError(
                {
                    "ns": _(
                        "A redress needs the table result, the result after normal play, the "
                        "result without the infraction, and the non-offending side."
                    )
                }
            )
        parts = {}
        words = []
        for key, label in (
            ("table", "table"),
            ("normal_play", "normal play"),
            ("without_infraction", "without the infraction"),
        ):
            parts[key], text = _points(result, ns.get(key) or {}, f"ns.{key}")
            words.append(f"{label} {text}")
        parts["non_offending"] = ns["non_offending"]
        return {"ns": parts}, "redress (" + ", ".join(words) + ")"
    if score_kind == Ruling.ScoreKind.WEIGHTED:
        ns_score_, ns_words = _weighted(result, ns, "ns")
        if ew:
            ew_score, ew_words = _weighted(result, ew, "ew")
            return {"ns": ns_score_, "ew": ew_score}, f"N-S {ns_words}; E-W {ew_words}"
        return {"ns": ns_score_}, ns_words
    if score_kind in (Ruling.ScoreKind.ASSIGNED, Ruling.ScoreKind.SPLIT):
        ns_points, ns_words = _points(result, ns or {}, "ns")
        if ew:
            ew_points, ew_words = _points(result, ew, "ew")
            if ew_points != ns_points:
                return {
                    "ns": ns_points,
                    "ew": ew_points,
                }, f"N-S {ns_words} ({ns_points:+d}), E-W {ew_words} ({ew_points:+d})"
        if score_kind == Ruling.ScoreKind.SPLIT:
            raise ValidationError({"ew": _("A split score gives E-W a different result from N-S.")})
        return {"ns": ns_points}, f"{ns_words} ({ns_points:+d})"
    raise ValidationError({"score_kind": _("'%(kind)s' is not a kind of adjusted score.") % {"kind": score_kind}})


@atomic_with_retry
def set_outcome(
    *,
    ruling: Ruling,
    outcome: Choice,
    score_kind: str = "",
    ns: Any = None,
    ew: Any = None,
    rectification: str = "",
    offending_side: Choice | None = None,
) -> Ruling:
    """Record what the director decided; an adjusted score is checked against the engine and the
    regulating authority's settings now, and reaches the scores when the ruling is given."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if offending_side is not None:
        ruling.offending_side = offending_side
    ruling.outcome, ruling.rectification = outcome, rectification
    if outcome == Ruling.Outcome.ADJUSTED:
        link_result(ruling)
        if ruling.result is None:
            raise ValidationError(
                {
                    "outcome": _(
                        "Table %(table)s has no result for board %(board)s yet: the adjusted score is entered once the "
                        "result is (save the ruling now; it waits for its result)."
                    )
                    % {"table": ruling.table.number, "board": ruling.board.number}
                }
            )
        score, description = build_adjusted_score(result=ruling.result, score_kind=score_kind, ns=ns, ew=ew)
        scoring_services.validate_effective_score(
            result=ruling.result,
            score=score,
            penalty=_penalty_dict([ruling]),
            outside_agency=ruling.kind == Ruling.Kind.DIRECTORS_ERROR,
        )
        ruling.score_kind, ruling.score, ruling.score_description = score_kind, score, description
    else:
        ruling.score_kind, ruling.score, ruling.score_description = "", None, ""
    _check_screens(ruling)
    return _save(ruling)


@atomic_with_retry
def add_penalty(
    *,
    ruling: Ruling,
    kind: Choice,
    side: Choice,
    unit: Choice,
    offence: str,
    amount: Decimal | int | str | None = None,
    player: Player | None = None,
) -> Penalty:
    """A procedural penalty (Law 90: an amount in matchpoints, percent of a top or IMPs, which
    the scores take off) or a disciplinary one (Law 91: suspension or disqualification of a
    player or contestant, with no matchpoint or IMP value of its own)."""
    penalty = Penalty(
        ruling=ruling,
        kind=kind,
        side=side,
        unit=unit,
        offence=offence,
        player=player,
        amount=Decimal(str(amount)) if amount not in (None, "") else None,
    )
    if kind == Penalty.Kind.DISCIPLINARY:
        if unit not in DISCIPLINARY_UNITS:
            raise ValidationError(
                {
                    "unit": _(
                        "A disciplinary penalty (Law 91) is a suspension or a disqualification; a penalty in %(unit)s "
                        "is a procedural one (Law 90)."
                    )
                    % {"unit": penalty.get_unit_display()}
                }
            )
        if penalty.amount is not None:
            raise ValidationError(
                {
                    "amount": _(
                        "A disciplinary penalty (Law 91) has no matchpoint or IMP value of its own: leave the amount "
                        "empty."
                    )
                }
            )
    elif kind == Penalty.Kind.PROCEDURAL:
        if unit not in POINT_UNITS:
            raise ValidationError(
                {
                    "unit": _(
                        "A procedural penalty (Law 90) is in matchpoints, percent of a top or IMPs; suspension and "
                        "disqualification are disciplinary penalties (Law 91)."
                    )
                }
            )
        if penalty.amount is None or penalty.amount <= 0:
            raise ValidationError(
                {"amount": _("A penalty in %(unit)s needs an amount above 0.") % {"unit": penalty.get_unit_display()}}
            )
        if player is not None:
            raise ValidationError({"player": _("A procedural penalty (Law 90) is given to a side, not a player.")})
        if unit == Penalty.Unit.VPS:
            event = ruling.board.session.event
            if not event.is_teams:
                raise ValidationError(
                    {
                        "unit": _(
                            "A penalty in VPs comes off a team's match; %(event)s is not a team event: give it in "
                            "matchpoints or percent of a top."
                        )
                        % {"event": event}
                    }
                )
            # Refused now, on the form, rather than when the ruling is given.
            scoring_services.check_match_penalty_unit(event, unit)
    if (
        player is not None
        and ruling.result_id is not None
        and not (
            ruling.result.ns.members.filter(pk=player.pk).exists()
            or ruling.result.ew.members.filter(pk=player.pk).exists()
        )
    ):
        raise ValidationError({"player": _("%(player)s did not play at this table.") % {"player": player}})
    _save(penalty)
    audit.record(
        action="ruling.penalty_added",
        obj=ruling,
        actor=ruling.director,
        tournament=ruling.tournament.pk,
        after={"kind": kind, "side": side, "unit": unit, "amount": penalty.amount, "offence": offence},
        summary=texts.text(
            "rulings.penalty",
            ruling=_name(ruling),
            kind=penalty.kind,
            amount=f"{penalty.amount.normalize()} " if penalty.amount is not None else "",
            unit=penalty.unit,
            side=penalty.side,
        ),
    )
    if ruling.state != Ruling.State.DRAFT:
        _apply(ruling, by=ruling.director, reason=texts.text("rulings.penalty_reason", offence=offence).english())
    return penalty


@atomic_with_retry
def cancel_penalties(*, ruling: Ruling, by: User, reason: str) -> list[Penalty]:
    """An appeal decision cancels the ruling's Law 90 procedural penalties: each stays in the
    record, marked cancelled with the reason, and counts no more (one in VPs is withdrawn from
    the team's match here; the board's are left out of the score the decision sets). A Law 91
    penalty is the director's alone (Law 93B3) and stays."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the penalty is cancelled: the teams will ask.")})
    cancelled = list(ruling.penalties.filter(kind=Penalty.Kind.PROCEDURAL, cancelled_at__isnull=True).order_by("pk"))
    now = timezone.now()
    for penalty in cancelled:
        penalty.cancelled_at, penalty.cancellation_reason = now, reason.strip()[:300]
        penalty.save(update_fields=["cancelled_at", "cancellation_reason"])
        audit.record(
            action="ruling.penalty_cancelled",
            obj=ruling,
            actor=by,
            tournament=ruling.tournament.pk,
            before={"unit": penalty.unit, "amount": str(penalty.amount), "side": penalty.side},
            after={"reason": penalty.cancellation_reason},
            summary=texts.text("rulings.about", ruling=_name(ruling), what=penalty.cancellation_reason[:200]),
        )
    if cancelled and ruling.result_id is not None:
        _sync_match_penalties(ruling.result, by=by, reason=reason.strip())
    return cancelled


def _penalty_dict(rulings: Iterable[Ruling]) -> dict[str, str] | None:
    """The procedural (Law 90) penalties of ``rulings`` in the board's units, as the engine takes
    them: {"ns": 1.5, "ew": "25%"}. Two penalties on one side in the same unit add up."""
    totals: dict[str, tuple[str, Decimal]] = {}
    for ruling in rulings:
        for p in ruling.penalties.filter(
            kind=Penalty.Kind.PROCEDURAL,
            unit__in=[Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP, Penalty.Unit.IMPS],
            cancelled_at__isnull=True,
        ):
            side = p.side.lower()
            if side in totals and totals[side][0] != p.unit:
                raise ValidationError(
                    {
                        "penalties": _(
                            "%(side)s already has a penalty in %(unit)s on this board: give penalties of one side in "
                            "one unit, so that they add up."
                        )
                        % {"side": p.get_side_display(), "unit": Penalty.Unit(totals[side][0]).label}
                    }
                )
            unit, amount = totals.get(side, (p.unit, Decimal(0)))
            totals[side] = (unit, amount + p.amount)
    penalty = {}
    for side, (unit, amount) in totals.items():
        text = format(amount.normalize(), "f")  # 10, not 1E+1
        penalty[side] = f"{text}%" if unit == Penalty.Unit.PERCENT_OF_TOP else text
    return penalty or None


def rulings_in_force(result: Result) -> QuerySet[Ruling]:
    return Ruling.objects.filter(result=result, state__in=IN_FORCE).order_by("number")


def board_penalties(result: Result) -> dict[str, str] | None:
    """The Law 90 penalties on ``result``'s board of the rulings in force at its table, not
    cancelled, as the engine takes them."""
    return _penalty_dict(rulings_in_force(result))


def _sync_match_penalties(result: Result, *, by: User, reason: str) -> None:
    """Make the match penalties of the table's rulings say what the rulings in force say: each
    Law 90 penalty in VPs of a ruling in force, not cancelled, carried once to the team's match
    (scoring.services.add_table_penalty); that of a ruling superseded, or of a penalty cancelled,
    withdrawn. A match penalty a director withdrew on the match page is not given again."""
    in_force = set(rulings_in_force(result).values_list("pk", flat=True))
    for penalty in (
        Penalty.objects.filter(ruling__result=result, kind=Penalty.Kind.PROCEDURAL, unit=Penalty.Unit.VPS)
        .select_related("ruling", "match_penalty")
        .order_by("pk")
    ):
        wanted = penalty.ruling_id in in_force and penalty.cancelled_at is None
        carried = penalty.match_penalty
        if carried is not None and carried.withdrawn_at is None and not wanted:
            scoring_services.withdraw_match_penalty(penalty=carried, reason=reason[:300], by=by)
        elif carried is None and wanted:
            # Free text on the match, as a director would write it there.
            offence = "%s: %s" % (_("Ruling %(number)s") % {"number": penalty.ruling.number}, penalty.offence)
            try:
                penalty.match_penalty = scoring_services.add_table_penalty(
                    result=result,
                    side=penalty.side,
                    amount=penalty.amount,
                    unit="vps",
                    offence=offence[:300],
                    by=by,
                )
            except ValidationError as error:
                raise ValidationError(_penalty_errors(error)) from None
            penalty.save(update_fields=["match_penalty"])


def _apply(ruling: Ruling, *, by: User, reason: str) -> ScoreChange | None:
    """Make the result's score say what the rulings in force at its table say together: the
    adjusted score of the one that adjusts (at most one), and the procedural penalties of all
    (those in VPs on the team's match). Nothing is sent to the scores when that is what they
    already say, so a change reaches the recalculation once; a ruling that leaves the score
    alone does not undo a score that no ruling set (a scorer's correction, an appeal decision)."""
    if ruling.result_id is None:
        return None
    _sync_match_penalties(ruling.result, by=by, reason=reason)
    return _apply_board(ruling, by=by, reason=reason)


def _apply_board(ruling: Ruling, *, by: User, reason: str) -> ScoreChange | None:
    result = ruling.result
    in_force = list(rulings_in_force(result))
    adjusting = [r for r in in_force if r.outcome == Ruling.Outcome.ADJUSTED]
    penalty = _penalty_dict(in_force)
    current = EffectiveScore.objects.filter(result=result).first()
    have = (current.kind, current.score, current.penalty) if current else ("table", None, None)
    cause = dict(
        cause_type="ruling",
        cause_id=ruling.pk,
        cause_label=texts.text("scoring.cause_ruling", number=ruling.number).english(),
        by=by,
    )
    if adjusting:
        source = adjusting[-1]
        if have == (source.score_kind, source.score, penalty) and current.outside_agency == (
            source.kind == Ruling.Kind.DIRECTORS_ERROR
        ):
            return None
        return scoring_services.set_effective_score(
            result=result,
            kind=source.score_kind,
            score=source.score,
            penalty=penalty,
            reason=reason,
            outside_agency=source.kind == Ruling.Kind.DIRECTORS_ERROR,
            description=source.score_description,
            **cause,
        )
    if have == ("table", None, penalty):
        return None
    if not penalty and not ScoreChange.objects.filter(result=result, cause_type="ruling").exists():
        return None
    return scoring_services.set_effective_score(result=result, kind="table", penalty=penalty, reason=reason, **cause)


@atomic_with_retry
def link_result(ruling: Ruling) -> Ruling:
    """Attach the table's result to a ruling opened before it existed; returns the ruling."""
    if ruling.result_id is not None:
        return ruling
    result = Result.objects.filter(board_id=ruling.board_id, table_id=ruling.table_id).first()
    if result is None:
        return ruling
    Ruling.objects.filter(pk=ruling.pk, result__isnull=True).update(result=result, round=result.round_id)
    ruling.result, ruling.round_id = result, result.round_id
    audit.record(
        action="ruling.result_attached",
        obj=ruling,
        tournament=ruling.tournament.pk,
        after={"result": result.pk, "contract": str(result.contract_display)},
        summary=texts.text("rulings.about", ruling=_name(ruling), what=str(result.contract_display)),
    )
    return ruling


@atomic_with_retry
def give_ruling(*, ruling: Ruling, by: User, at: datetime.datetime | None = None) -> Ruling:
    """The director gives the ruling at the table: it must be complete, and its score effect
    goes to the scoring service at once. ``at`` records a ruling given earlier (entered late)."""
    ruling = Ruling.objects.select_for_update(of=("self",)).select_related("board", "table").get(pk=ruling.pk)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(
            {"state": _("This ruling was already given (%(state)s).") % {"state": ruling.get_state_display()}}
        )
    link_result(ruling)
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
    ):
        errors["offending_side"] = _("Mark the offending side of an adjusted score.")
    earlier = None
    if ruling.supersedes_id:
        earlier = Ruling.objects.select_for_update().get(pk=ruling.supersedes_id)
        if earlier.state not in (Ruling.State.GIVEN, Ruling.State.FINAL):
            errors["supersedes"] = _("%(ruling)s is no longer in force (%(state)s): it cannot be corrected.") % {
                "ruling": earlier,
                "state": earlier.get_state_display(),
            }
    if ruling.result is not None and ruling.outcome == Ruling.Outcome.ADJUSTED:
        other = (
            rulings_in_force(ruling.result)
            .filter(outcome=Ruling.Outcome.ADJUSTED)
            .exclude(pk=ruling.supersedes_id)
            .first()
        )
        if other is not None:
            errors["outcome"] = _(
                "%(ruling)s already adjusted the score at this table (%(score)s): correct that ruling (Law 82C, "
                "Law 79C) rather than giving a second adjusted score."
            ) % {"ruling": other, "score": other.score_description}
    if errors:
        raise ValidationError(errors)
    ruling.state, ruling.given_at = Ruling.State.GIVEN, at or timezone.now()
    if ruling.appeal_notice and not ruling.appeal_notice_at:
        ruling.appeal_notice_at = ruling.given_at
    ruling.save(update_fields=["state", "given_at", "appeal_notice_at", "updated_at"])
    audit.record(
        action="ruling.given",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before={"state": Ruling.State.DRAFT},
        after={"state": Ruling.State.GIVEN, **snapshot(ruling)},
        summary=texts.text("rulings.about", ruling=_name(ruling), what=ruling.ruling_text[:200]),
    )
    reason = ruling.ruling_text
    if earlier is not None:
        _supersede(earlier, by=by, correction=ruling)
        # In English, read back into the reader's language where it is shown (audit.texts.shown).
        reason = texts.text(
            "rulings.correction_reason",
            correction=_name(ruling),
            earlier=_name(earlier),
            reason=ruling.correction_reason,
        ).english()
    _apply(ruling, by=by, reason=reason)
    return ruling


def _supersede(earlier: Ruling, *, by: User, correction: Ruling) -> None:
    """The earlier ruling stays in the record, marked as superseded, with the correction's
    reason in its change log and in the audit trail."""
    before = snapshot(earlier)
    Ruling.objects.filter(pk=earlier.pk).update(state=Ruling.State.SUPERSEDED, updated_at=timezone.now())
    earlier.state = Ruling.State.SUPERSEDED
    reason = f"{correction.get_correction_basis_display()}: {correction.correction_reason}"
    RulingRevision.objects.create(
        ruling=earlier,
        changed_by=by,
        reason=_("Superseded by %(correction)s. %(reason)s") % {"correction": correction, "reason": reason},
        before=_jsonable({**before, "state": Ruling.State.GIVEN}),
        after=_jsonable({**snapshot(correction), "state": Ruling.State.GIVEN, "ruling": correction.number}),
    )
    audit.record(
        action="ruling.superseded",
        obj=earlier,
        actor=by,
        tournament=earlier.tournament.pk,
        before=_jsonable(before),
        after={
            "superseded_by": correction.number,
            "basis": correction.correction_basis,
            "reason": correction.correction_reason,
            **_jsonable(snapshot(correction)),
        },
        summary=texts.text(
            "rulings.superseded",
            earlier=_name(earlier),
            correction=_name(correction),
            reason=correction.correction_reason[:200],
        ),
    )


@atomic_with_retry
def correct_ruling(
    *, ruling: Ruling, director: User, basis: Choice, reason: str, give: bool = True, **decision: Any
) -> Ruling:
    """Correct a ruling already given (Law 82C: the ruling was incorrect; Law 79C: a score
    correction within the correction period): a new ruling on the same table supersedes it
    explicitly, with the reason; both stay in the record. Once given, the correction's score
    effect replaces the earlier one's in a single change. ``decision`` is what ``rule`` takes."""
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
    deadline = earlier.correction_deadline()
    if deadline is not None and timezone.now() > deadline:
        errors["correction_basis"] = _("The correction period (Law 79C) ended at %(deadline)s.") % {
            "deadline": reader.event_time(deadline, earlier.tournament)
        }
    if errors:
        raise ValidationError(errors)
    return rule(
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


def snapshot(ruling: Ruling) -> dict[str, Any]:
    data = {name: getattr(ruling, name) for name in REVISED_FIELDS}
    data["laws"] = sorted(c.law.number for c in ruling.citations.select_related("law") if c.law)
    return data


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
        cite_laws(ruling=ruling, laws=laws)
    if score_kind is not None or outcome != ruling.outcome:
        set_outcome(
            ruling=ruling,
            outcome=outcome,
            score_kind=score_kind or ruling.score_kind,
            ns=ns,
            ew=ew,
            rectification=fields.get("rectification", ruling.rectification),
        )
    ruling.refresh_from_db()
    after = snapshot(ruling)
    RulingRevision.objects.create(
        ruling=ruling, changed_by=by, reason=reason.strip(), before=_jsonable(before), after=_jsonable(after)
    )
    audit.record(
        action="ruling.changed",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before=_jsonable(before),
        after=_jsonable(after),
        summary=texts.text("rulings.about", ruling=_name(ruling), what=reason.strip()[:200]),
    )
    _apply(ruling, by=by, reason=reason.strip())
    return ruling


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return {key: (str(value) if isinstance(value, Decimal) else value) for key, value in data.items()}


def board_mismatches(board: Board, record: BoardRecord) -> dict[str, str]:
    """What of an imported board record differs from the board ruled on, by field."""
    found = {}
    if record.board is not None and record.board != board.number:
        found["board"] = _("the file is board %(theirs)s, the ruling is on board %(ours)s") % {
            "theirs": record.board,
            "ours": board.number,
        }
    if record.auction is not None and record.dealer and record.dealer != board.dealer:
        found["dealer"] = _("the dealer in the file is %(theirs)s, board %(board)s's dealer is %(ours)s") % {
            "theirs": _seat_name(record.dealer),
            "ours": board.get_dealer_display(),
            "board": board.number,
        }
    if record.vulnerability and record.vulnerability != board.vulnerability:
        found["vulnerability"] = _("the vulnerability in the file is %(theirs)s, board %(board)s's is %(ours)s") % {
            "theirs": _vulnerability_name(record.vulnerability),
            "ours": board.get_vulnerability_display(),
            "board": board.number,
        }
    return found


def _seat_name(seat: str) -> str:
    from scoring.models import SEAT_CHOICES

    return str(dict(SEAT_CHOICES).get(seat, seat))


def _vulnerability_name(code: str) -> str:
    from scoring.models import VULNERABILITY_CHOICES

    return str(dict(VULNERABILITY_CHOICES).get(code, code))


@atomic_with_retry
def attach_deal_and_auction(
    *,
    ruling: Ruling,
    record: BoardRecord | None = None,
    deal: str | None = None,
    auction: dict[str, Any] | None = None,
    override_reason: str = "",
    by: User | None = None,
) -> Ruling:
    """Attach a deal and auction (a BoardRecord from a PBN or LIN import, or the parts). An
    imported board whose number, dealer or vulnerability differs from the board ruled on is
    refused naming the field, unless ``override_reason`` says why it is right (an event that
    changed a board's dealer or vulnerability); the override is kept with the ruling."""

    if record is not None:
        mismatches = board_mismatches(ruling.board, record)
        if mismatches and not (override_reason or "").strip():
            raise ValidationError(
                {
                    "deal_source": [
                        _("Not the board ruled on: %(difference)s.") % {"difference": text}
                        for text in mismatches.values()
                    ]
                    + [
                        _("Paste the deal of board %(board)s, or accept this one with a reason.")
                        % {"board": ruling.board.number}
                    ]
                }
            )
        if mismatches:
            ruling.deal_override = override_reason.strip()
            audit.record(
                action="ruling.deal_override",
                obj=ruling,
                actor=by or ruling.director,
                tournament=ruling.tournament.pk,
                after={"differences": {k: str(v) for k, v in mismatches.items()}, "reason": ruling.deal_override},
                summary=texts.text("rulings.about", ruling=_name(ruling), what=ruling.deal_override[:200]),
            )
        deal = record.deal.to_pbn() if record.deal else deal
        auction = record.auction.to_dict() if record.auction else auction
    if deal:
        try:
            deal = parse_deal(deal).to_pbn()
        except DealError as error:
            raise ValidationError({"deal": translate(error)}) from None
    board_deal = ruling.board.deal
    ruling.deal = "" if deal == board_deal else (deal or "")
    ruling.auction = auction
    _save(ruling)
    schedule_double_dummy(ruling)
    return ruling


def schedule_double_dummy(ruling: Ruling) -> None:
    """After the transaction commits, ask a worker for the double-dummy table of the ruling's deal."""

    def send() -> None:
        try:
            dispatch.send("rulings.tasks.solve_deal", ruling.pk, retry=False)
        except Exception:  # noqa: BLE001 - the table is a help, not part of the record
            log.warning("Broker unreachable: no double-dummy table for ruling %s yet.", ruling.pk, exc_info=True)

    transaction.on_commit(send)


def record_double_dummy(ruling_id: int) -> bool:
    """Solve the ruling's deal (DDS) and store the tricks and par for the director's judgement,
    or the solver's complaint. Safe to run twice; returns whether a table was stored."""
    ruling = Ruling.objects.select_related("board").filter(pk=ruling_id).first()
    if ruling is None or not ruling.deal_pbn():
        return False
    board = ruling.board
    try:
        deal = parse_deal(ruling.deal_pbn())
        table = deals.double_dummy(deal)
        best = deals.par(deal, board.dealer, board.vulnerability)
    except DealError as error:
        Ruling.objects.filter(pk=ruling_id).update(double_dummy=None, double_dummy_error=str(error)[:300])
        return False
    Ruling.objects.filter(pk=ruling_id).update(
        double_dummy={"deal": deal.to_pbn(), "tricks": table, "par": best}, double_dummy_error=""
    )
    return True


def finalise_rulings(now: datetime.datetime | None = None) -> int:
    """Rulings given in sessions whose appeal period has passed, and not appealed, become final."""
    now = now or timezone.now()
    finalised = 0
    for ruling in Ruling.objects.filter(state=Ruling.State.GIVEN).select_related("board__session"):
        deadline = ruling.appeal_deadline()
        if deadline is not None and deadline <= now:
            finalised += run_with_retry(_finalise, ruling, deadline)
    return finalised


def _finalise(ruling: Ruling, deadline: datetime.datetime) -> int:
    """One ruling made final, in a transaction of its own (retried on a conflict)."""
    if not Ruling.objects.filter(pk=ruling.pk, state=Ruling.State.GIVEN).update(state=Ruling.State.FINAL):
        return 0
    audit.record(
        action="ruling.final",
        obj=ruling,
        tournament=ruling.tournament.pk,
        before={"state": Ruling.State.GIVEN},
        after={"state": Ruling.State.FINAL},
        summary=texts.text("rulings.final", ruling=_name(ruling), when=moment_param(deadline, ruling.tournament)),
    )
    return 1


def read_deal_source(text: str | None) -> BoardRecord:
    """A BoardRecord from a BBO handviewer link, a LIN string or PBN text."""
    from bridge.lin import LinError, parse_lin
    from bridge.pbn import PbnError
    from bridge.pbn_record import parse_pbn_record

    text = (text or "").strip()
    try:
        if "lin=" in text or "md|" in text or text.startswith(("http:", "https:", "www.")):
            return parse_lin(text)
        if "[" in text:
            return parse_pbn_record(text)
    except (LinError, PbnError, ValueError) as error:
        raise ValidationError({"deal_source": translate(error)}) from None
    raise ValidationError(
        {"deal_source": _('Paste a BBO handviewer link, a LIN string (md|...) or a PBN game ([Deal "N:..."]).')}
    )


def _penalty_errors(error: ValidationError) -> dict[str, Any]:
    """A penalty's refusal under the form's names for its fields (penalty_amount, ...)."""
    return {
        f"penalty_{name}" if name in ("amount", "unit", "player", "kind", "side") else name: messages
        for name, messages in error.message_dict.items()
    }


def _decide(
    ruling: Ruling,
    *,
    laws: str,
    outcome: Choice,
    score_kind: Choice,
    ns: Any,
    ew: Any,
    penalty: dict[str, Any] | None,
    deal_source: str,
    deal_override: str,
    poll: dict[str, Any] | None,
) -> None:
    """Cite, attach the deal, add the penalty, record the poll and set the outcome; every
    refusal is collected, by field."""
    citations = [part.strip() for part in laws.replace(";", ",").split(",") if part.strip()]
    errors = {}

    def add_the_penalty() -> Penalty:
        try:
            return add_penalty(ruling=ruling, **{"kind": Penalty.Kind.PROCEDURAL, **(penalty or {})})
        except ValidationError as error:
            raise ValidationError(_penalty_errors(error)) from None

    for step in (
        lambda: cite_laws(ruling=ruling, laws=citations),
        lambda: deal_source
        and attach_deal_and_auction(ruling=ruling, record=read_deal_source(deal_source), override_reason=deal_override),
        lambda: penalty and add_the_penalty(),
        lambda: poll is not None and record_poll(ruling=ruling, **poll),
        lambda: set_outcome(ruling=ruling, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew),
    ):
        try:
            step()
        except ValidationError as error:
            errors.update(error.message_dict)
    if errors:
        raise ValidationError(errors)


@atomic_with_retry
def rule(
    *,
    director: User,
    kind: Choice,
    result: Result | None = None,
    board: Board | None = None,
    table: Table | None = None,
    round: Round | None = None,
    give: bool = False,
    laws: str = "",
    outcome: Choice = Ruling.Outcome.RESULT_STANDS,
    score_kind: str = "",
    ns: Any = None,
    ew: Any = None,
    offending_side: str = "",
    penalty: dict[str, Any] | None = None,
    deal_source: str = "",
    deal_override: str = "",
    poll: dict[str, Any] | None = None,
    given_at: datetime.datetime | None = None,
    **fields: Any,
) -> Ruling:
    """The fast path of the ruling form: record (on a result, or on a board and table whose
    result is not in yet), cite, attach the deal, set the outcome, any penalty (``penalty``
    with its ``kind``: Law 90 procedural by default, or Law 91 disciplinary), the Law 16B poll,
    and (with ``give``) give the ruling, in one transaction; on any refusal nothing is written."""
    ruling = record_ruling(
        result=result,
        board=board,
        table=table,
        round=round,
        director=director,
        kind=kind,
        offending_side=offending_side,
        **fields,
    )
    _decide(
        ruling,
        laws=laws,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        penalty=penalty,
        deal_source=deal_source,
        deal_override=deal_override,
        poll=poll,
    )
    if give:
        give_ruling(ruling=ruling, by=director, at=given_at)
    return Ruling.objects.get(pk=ruling.pk)


DRAFT_FIELDS = (
    "kind",
    "called_by",
    "called_at",
    "facts",
    "statement_ns",
    "statement_ew",
    "ruling_text",
    "reasoning",
    "offending_side",
    "appeal_notice",
)


@atomic_with_retry
def update_draft(
    *,
    ruling: Ruling,
    by: User,
    give: bool = False,
    laws: str = "",
    outcome: Choice = Ruling.Outcome.RESULT_STANDS,
    score_kind: str = "",
    ns: Any = None,
    ew: Any = None,
    penalty: dict[str, Any] | None = None,
    deal_source: str = "",
    deal_override: str = "",
    poll: dict[str, Any] | None = None,
    **fields: Any,
) -> Ruling:
    """Complete a ruling saved earlier (typically opened during the auction, before the result):
    the same inputs as ``rule``; the draft's penalties are replaced by ``penalty``."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(
            {"state": _("%(ruling)s was given: correct it instead (Law 82C, Law 79C).") % {"ruling": ruling}}
        )
    before = snapshot(ruling)
    for name, value in fields.items():
        if name not in DRAFT_FIELDS:
            raise ValidationError({name: _("This field cannot be changed here.")})
        setattr(ruling, name, value)
    link_result(ruling)
    _check_screens(ruling)
    _save(ruling)
    ruling.penalties.all().delete()
    _decide(
        ruling,
        laws=laws,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        penalty=penalty,
        deal_source=deal_source,
        deal_override=deal_override,
        poll=poll,
    )
    audit.record(
        action="ruling.draft_updated",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before=_jsonable(before),
        after=_jsonable(snapshot(Ruling.objects.get(pk=ruling.pk))),
        summary=texts.text("rulings.kind", ruling=_name(ruling), kind=ruling.kind),
    )
    if give:
        give_ruling(ruling=ruling, by=by)
    return Ruling.objects.get(pk=ruling.pk)


def parse_poll_lines(text: str | None) -> list[dict[str, str]]:
    """'Name: action' per line (the form's poll box) -> [{"player": ..., "action": ...}]."""
    votes = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        player, sep, action = line.partition(":")
        if not sep or not player.strip() or not action.strip():
            raise ValidationError(
                {
                    "poll_votes": _(
                        'Line %(n)s: write the player, a colon, and the action they chose, e.g. "A. Cohen: pass".'
                    )
                    % {"n": number}
                }
            )
        votes.append({"player": player.strip(), "action": action.strip()})
    return votes


def record_poll(*, ruling: Ruling, question: str, votes: list[dict[str, str]], level: str = "") -> dict[str, Any]:
    """A Law 16B1a poll: the question, each player polled and the action they chose; the count
    by action is worked out here, not typed."""
    errors = {}
    if not (question or "").strip():
        errors["poll_question"] = _("Write the question the players were asked.")
    if not votes:
        errors["poll_votes"] = _("List the players polled and the action each chose.")
    if errors:
        raise ValidationError(errors)
    count: dict[str, int] = {}
    for vote in votes:
        key = vote["action"].strip()
        matched = next((k for k in count if k.lower() == key.lower()), key)
        count[matched] = count.get(matched, 0) + 1
    ruling.poll = {
        "question": question.strip(),
        "level": (level or "").strip(),
        "players": votes,
        "count": dict(sorted(count.items(), key=lambda item: -item[1])),
    }
    Ruling.objects.filter(pk=ruling.pk).update(poll=ruling.poll)
    return ruling.poll


ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024
# The first bytes of each accepted type: the browser's content type is not trusted.
ATTACHMENT_SIGNATURES = (
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"GIF87a", "image/gif", ".gif"),
    (b"GIF89a", "image/gif", ".gif"),
    (b"%PDF-", "application/pdf", ".pdf"),
)


def _sniff(head: bytes) -> tuple[str | None, str | None]:
    for signature, content_type, extension in ATTACHMENT_SIGNATURES:
        if head.startswith(signature):
            return content_type, extension
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", ".webp"
    return None, None


@atomic_with_retry
def add_attachment(*, ruling: Ruling, by: User, upload: UploadedFile, description: str = "") -> RulingAttachment:
    """A photo of the table, a system card or a screenshot (JPEG, PNG, GIF, WebP or PDF, at most
    5 MB), stored through Django's storage API."""
    from pathlib import PurePath

    from django.utils.text import get_valid_filename

    size = upload.size or 0
    if size > ATTACHMENT_MAX_BYTES:
        raise ValidationError(
            {
                "attachment": _("%(name)s is %(size).1f MB: an attachment is at most %(limit)s MB.")
                % {"name": upload.name, "size": size / 1024 / 1024, "limit": ATTACHMENT_MAX_BYTES // 1024 // 1024}
            }
        )
    if size == 0:
        raise ValidationError({"attachment": _("%(name)s is empty.") % {"name": upload.name}})
    upload.seek(0)
    head = upload.read(16)
    upload.seek(0)
    content_type, extension = _sniff(head)
    if content_type is None:
        raise ValidationError(
            {
                "attachment": _("%(name)s is not a photo or a PDF: attach a JPEG, PNG, GIF or WebP image or a PDF.")
                % {"name": upload.name}
            }
        )
    stem = get_valid_filename(PurePath(upload.name).stem)[:80] or "attachment"
    attachment = RulingAttachment(
        ruling=ruling,
        name=upload.name[:200],
        content_type=content_type,
        size=size,
        description=(description or "")[:200],
        uploaded_by=by,
    )
    attachment.file.save(f"{stem}{extension}", upload, save=False)
    try:
        attachment.save()
        audit.record(
            action="ruling.attachment_added",
            obj=ruling,
            actor=by,
            tournament=ruling.tournament.pk,
            after={"name": attachment.name, "type": content_type, "size": size, "file": attachment.file.name},
            summary=texts.text("rulings.about", ruling=_name(ruling), what=attachment.name),
        )
    except Exception:
        # Rolled back (a conflict is retried from the start, storing the file again): no orphan file.
        attachment.file.delete(save=False)
        raise
    return attachment


@atomic_with_retry
def record_seating(*, ruling: Ruling, by: User, seating: dict[str, Any]) -> Ruling:
    """Who sat where at the table (player ids by seat); an empty mapping clears it."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    before = ruling.seating
    try:
        ruling.seating = {seat: int(player) for seat, player in (seating or {}).items()} or None
    except (AttributeError, TypeError, ValueError):
        raise ValidationError(
            {"seating": _('must look like {"N": 12, "E": 14, "S": 13, "W": 15} (player ids)')}
        ) from None
    _save(ruling)
    audit.record(
        action="ruling.seating",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before={"seating": before},
        after={"seating": ruling.seating},
        summary=texts.text("rulings.seating", ruling=_name(ruling)),
    )
    return ruling
