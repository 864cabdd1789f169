"""The adjusted score (Law 12) as a director enters it, in the engine's form and in words, and the
ruling's outcome."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.hints import Choice
from bridge.engine.contract import ContractError, ns_score, parse_contract
from bridge.engine.rounding import exact_str, to_fraction, weight_fraction
from core import policy
from core.i18n import translate
from core.retry import atomic_with_retry
from rulings.models import Ruling
from rulings.services.common import full_save
from rulings.services.effect import penalty_dict
from rulings.services.record import check_screens, link_result
from scoring import services as scoring_services
from scoring.models import Result

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ARTIFICIAL_CODES = ("AVE+", "AVE", "AVE-")


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
            fraction = weight_fraction(weight)
            # Kept as typed ("30%", "1/3", "0.6"), so it reads back as typed wherever the score is
            # shown; the engine computes from its exact value (bridge.engine.rounding.weight_fraction).
            if weight.endswith("%"):
                weight = weight[:-1].strip() + "%"
        except (ValueError, ZeroDivisionError):
            raise ValidationError(
                {f"{field}[{index}]": _("weight '%(w)s' is not a number: write 0.6, 60%% or 1/3") % {"w": weight}}
            ) from None
        total += fraction
        components.append([points, weight])
        words.append(f"{weight} {text}")  # as typed: "1/3 4S N =", never "33.33% 4S N ="
    return components, " / ".join(words)


def imps_allowed(event: Any) -> bool:
    """Whether the ruling form offers an adjusted score in IMPs on ``event`` (Law 86D): the one
    check, scoring.services.team_adjustment_allowed, that the score's validation asks too."""
    return bool(event is not None and scoring_services.team_adjustment_allowed(event))


def _imps(value: Any) -> str:
    try:
        return exact_str(to_fraction(str(value).strip().replace(",", ".")))
    except (ValueError, ZeroDivisionError):
        raise ValidationError(
            {
                "ns": _(
                    "'%(value)s' is not a number of IMPs: give the IMPs N-S's team gains on the board, e.g. 5 or -3."
                )
                % {"value": value if value is not None else ""}
            }
        ) from None


def build_adjusted_score(
    *, result: Result, score_kind: Choice, ns: Any = None, ew: Any = None
) -> tuple[dict[str, Any], str]:
    """The engine's form of an adjusted score and its description, from what a director enters:

    - assigned: ``ns`` (and for a split score ``ew``) = {"contract", "declarer", "tricks"};
    - weighted: ``ns`` (and optionally ``ew``) = a list of such rows, each with a "weight";
    - artificial: ``ns`` and ``ew`` = "AVE+", "AVE" or "AVE-" (or a percentage "60%");
    - redress: ``ns`` = {"table": row, "normal_play": row, "without_infraction": row,
      "non_offending": "NS" or "EW"};
    - in IMPs (Law 86D, a team match): ``ns`` = the IMPs the team sitting N-S at this table gains
      on the board (a number; E-W's team loses them). Where it is allowed is the service's check
      (scoring.services.scores.validate_effective_score).
    """
    if score_kind == Ruling.ScoreKind.IMPS:
        amount = _imps(ns)
        return {"ns": {"imps": amount}}, f"N-S {amount if amount.startswith('-') else '+' + amount} IMPs (Law 86D)"
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
    by: User,
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
    policy.require(by, "ruling", ruling)
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if offending_side is not None:
        ruling.offending_side = offending_side
    ruling.outcome, ruling.rectification = outcome, rectification
    if outcome == Ruling.Outcome.ADJUSTED:
        link_result(ruling, by=by)
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
            penalty=penalty_dict([ruling]),
            outside_agency=ruling.kind == Ruling.Kind.DIRECTORS_ERROR,
        )
        ruling.score_kind, ruling.score, ruling.score_description = score_kind, score, description
    else:
        ruling.score_kind, ruling.score, ruling.score_description = "", None, ""
    check_screens(ruling)
    return full_save(ruling)
