"""Law 16 recorded on a ruling as it happened (issue #28): the source of the unauthorised
information (kind, who, how long, agreed or found), the action the partner chose, the logical
alternatives with the poll's counts, what the information demonstrably suggested, whether the
offenders gained; the finding of the edition in force (bridge.unauthorised.assess) and the
Law 12C1(c) weights proposed from the poll, which the ruling form offers and the director may
change. docs/irregularities.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from bridge.deals import DealError
from bridge.engine.contract import ns_score
from bridge.unauthorised import Alternative, Source, adjustment_laws, assess
from core import policy, texts
from core.i18n import translate
from rulings.models import Ruling
from rulings.services.common import edition_in_force, full_save, ruling_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _count(value: Any, field: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if number < 0:
        raise ValidationError({field: _("Give a number of players, 0 or more.")})
    return number


def _alternatives(
    ruling: Ruling, rows: list[dict[str, Any]], finding: dict[str, Any] | None = None
) -> list[Alternative]:
    """The alternatives as entered; a count left empty is read from the ruling's poll (Law
    16B1a poll: its count by action, matched without regard to case). With the poll's finding
    by the authority's threshold (``finding``, rulings.selectors.poll_finding, issue #44) the
    poll decides: each alternative is proposed logical as the finding says, and the peers who
    chose it are its count, which the weights follow."""
    poll = {str(k).strip().lower(): v for k, v in ((ruling.poll or {}).get("count") or {}).items()}
    tallies = {str(t["action"]).strip().lower(): t for t in (finding or {}).get("tallies") or []}
    logical = {str(a).strip().lower() for a in (finding or {}).get("logical") or []}
    found = []
    for number, row in enumerate(rows, start=1):
        action = str(row.get("action") or "").strip()
        if not action:
            continue
        chose = _count(row.get("chose"), f"alt{number}_chose")
        tricks = _count(row.get("tricks"), f"alt{number}_tricks")
        if tricks is not None and tricks > 13:
            raise ValidationError({f"alt{number}_tricks": _("Tricks are from 0 to 13.")})
        decided = row.get("logical")
        if tallies:
            chose = int(tallies[action.lower()]["chose"]) if action.lower() in tallies else 0
        found.append(
            Alternative(
                action,
                chose=chose if chose is not None else int(poll.get(action.lower(), 0)),
                considered=_count(row.get("considered"), f"alt{number}_considered"),
                suggested=bool(row.get("suggested")),
                logical=None if decided in (None, "") else decided in (True, "yes"),
                contract=str(row.get("contract") or "").strip().upper(),
                declarer=str(row.get("declarer") or "").strip().upper(),
                tricks=tricks,
                from_poll=action.lower() in logical if tallies else None,
            )
        )
    if not found:
        raise ValidationError(
            {"alt1_action": _("Name at least one logical alternative the partner could have chosen.")}
        )
    return found


@transaction.atomic
def record_unauthorised_information(
    *,
    ruling: Ruling,
    by: User,
    source: dict[str, Any],
    chosen: str,
    alternatives: list[dict[str, Any]],
    gained: bool,
    reasoning: str = "",
) -> Ruling:
    """Record Law 16 on a draft ruling: ``source`` {kind, seat, seconds, agreed, found, note},
    the action ``chosen``, the ``alternatives`` (action, chose, considered, suggested, logical,
    contract, declarer, tricks), whether the offenders ``gained``; the finding and the proposed
    weights are computed for the edition in force and stored with the director's reasoning."""
    policy.require(by, "ruling", ruling)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(_("Only a draft ruling can be changed; correct a given ruling instead."))
    edition = edition_in_force(ruling.tournament)
    facts = Source(
        kind=str(source.get("kind") or ""),
        seat=str(source.get("seat") or "").upper(),
        seconds=_count(source.get("seconds"), "seconds"),
        agreed=bool(source.get("agreed")),
        found=bool(source.get("found")),
        note=str(source.get("note") or "").strip(),
    )
    from rulings.selectors import poll_finding

    by_poll = poll_finding(ruling, table_action=str(chosen or "").strip())
    rows = _alternatives(ruling, alternatives, by_poll)
    try:
        finding = assess(
            edition,
            facts,
            str(chosen or "").strip(),
            rows,
            gained=bool(gained),
            weighting_allowed=weighting_allowed(ruling),
        )
    except DealError as error:
        field = {"source": "source_kind", "source_seat": "source_seat"}.get(getattr(error, "field", ""), "")
        raise ValidationError({field or getattr(error, "field", "") or "__all__": translate(error)}) from None
    ruling.unauthorised_information = {
        "edition": edition,
        "source": {
            "kind": facts.kind,
            "seat": facts.seat,
            "seconds": facts.seconds,
            "agreed": facts.agreed,
            "found": facts.found,
            "note": facts.note,
        },
        "chosen": str(chosen).strip(),
        "alternatives": [
            {
                "action": a.action,
                "chose": a.chose,
                "considered": a.considered,
                "suggested": a.suggested,
                "logical": a.logical,
                "proposed_logical": a.proposed_logical(),
                "contract": a.contract,
                "declarer": a.declarer,
                "tricks": a.tricks,
            }
            for a in rows
        ],
        "gained": bool(gained),
        "poll_logical": list(by_poll["logical"]) if by_poll and by_poll.get("tallies") else None,
        "finding": dict(finding.to_dict(), text=translate(finding.text)),
        "reasoning": (reasoning or "").strip(),
    }
    full_save(ruling)
    audit.record(
        action="ruling.unauthorised_information",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        after={"laws": list(finding.laws), "adjust": finding.adjust, "weights": list(finding.weights)},
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=" ".join(finding.laws)),
    )
    return ruling


def weighting_allowed(ruling: Ruling) -> bool:
    """The regulating authority's dated setting in force at the ruling's tournament (Law 12C1c
    "unless the Regulating Authority forbids", 12C1e where it does)."""
    return bool(ruling.tournament.regulations()["weighted_scores_allowed"])


def proposed_score(ruling: Ruling) -> dict[str, Any] | None:
    """The ruling form's adjusted score proposed by the Law 16 record: {"laws", "score_kind",
    "rows"} when the finding adjusts and the alternatives carry results, else None. Where the
    authority forbids weighting (read now, as the form will be checked against it), several
    results become one assigned score under 12C1e (1997 12C2): the one most favourable to the
    non-offending side, which is also the most unfavourable to the offenders; the director
    judges whether it was likely and may split the score."""
    record = ruling.unauthorised_information or {}
    finding = record.get("finding") or {}
    weights = finding.get("weights") or []
    if not finding.get("adjust") or not weights:
        return None
    allowed = weighting_allowed(ruling)
    edition = record.get("edition") or edition_in_force(ruling.tournament)
    weighted = len(weights) > 1
    laws = [law for law in finding.get("laws", []) if not law.startswith("12C")]
    laws += [law for law in adjustment_laws(edition, weighted, allowed) if law not in laws]
    if weighted and not allowed:
        offenders_ns = record["source"]["seat"] in ("N", "S")
        vulnerability = ruling.board.vulnerability

        def for_non_offenders(row: dict[str, Any]) -> int:
            points = ns_score(row["contract"], row["declarer"], row["tricks"], vulnerability)
            return -points if offenders_ns else points

        return {"laws": laws, "score_kind": "assigned", "rows": [max(weights, key=for_non_offenders)]}
    return {"laws": laws, "score_kind": "weighted" if weighted else "assigned", "rows": weights}
