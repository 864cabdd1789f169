"""Revokes (Laws 61-64), defective tricks (Law 67) and claims (Laws 68-71) worked out from the
play: the services that record the facts, compute the edition's trick transfer (bridge/revokes)
or the claim's position and double-dummy aid (bridge/claims), and, when the director confirms,
set the ruling's outcome and give it through rulings.services, so the result after the
transfer reaches the scores as any ruling's adjusted score does. docs/revokes.md.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NoReturn

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from bridge.auction import Auction
from bridge.claims import (
    ClaimFlags,
    aid_at,
    check_awarded,
    check_claim_flags,
    claim_laws,
    claim_position,
    deemed_suit_order,
    entered_position,
    outstanding_trumps,
    position_at,
)
from bridge.deals import DealError, parse_deal
from bridge.play import read_play, side_of, strain_of
from bridge.revokes import (
    REVOKE_LAWS,
    DefectiveTrickFacts,
    RevokeError,
    RevokeFacts,
    as_if_established_laws,
    defective_trick_transfer,
    equity_guide,
    facts_from_play,
    illegally_drawn_laws,
    result_after,
    revoke_transfer,
)
from core import dispatch, policy, texts
from core.i18n import translate
from rulings import services
from rulings.models import Ruling, TrickRuling
from rulings.services import ruling_name
from scoring.deadlines import check_in_period

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from bridge.play import PlayRecord, Position
    from bridge.revokes import Transfer

log = logging.getLogger(__name__)

# The exemptions a play record cannot show; the director says whether they apply.
CLAIM_BASES = ("70", "71", "69B", "68B2")
# Law 69A: when an acquiescence is established (the side called on a later board, or the round ended).
ACQUIESCENCE_POINTS = ("", "next_board", "round_end")
EXEMPTION_FLAGS = (
    "as_if_established",
    "attention_illegally_drawn",
    "faced_card",
    "noticed_after_next_call",
    "noticed_after_round",
    "subsequent_same_suit",
    "both_sides_revoked",
)


def _refuse(error: Exception) -> NoReturn:
    raise ValidationError({getattr(error, "field", "play"): translate(error)}) from None


def play_record(ruling: Ruling) -> PlayRecord | None:
    """The ruling's play as a ``PlayRecord``, or None when no complete deal and played cards
    are attached. Raises ValidationError when the attached play does not fit the deal."""
    if not ruling.auction or not ruling.deal_pbn():
        return None
    try:
        deal = parse_deal(ruling.deal_pbn())
        auction = Auction.from_dict(ruling.auction)
        if not deal.complete or not (auction.play or auction.claim):
            return None
        return read_play(deal, auction)
    except DealError as error:
        _refuse(error)


def trick_ruling(ruling: Ruling) -> TrickRuling | None:
    return TrickRuling.objects.filter(ruling=ruling).first()


def _draft(ruling: Ruling, by: User) -> Ruling:
    policy.require(by, "ruling", ruling)
    ruling = (
        # Lock the ruling's own row only: its result is a nullable join, which PostgreSQL will not lock.
        Ruling.objects.select_for_update(of=("self",))
        .select_related("board__session__event__tournament", "result")
        .get(pk=ruling.pk)
    )
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(
            {
                "state": _(
                    "%(ruling)s was given: its revoke or claim is no longer worked out here (correct the ruling instead)."
                )
                % {"ruling": ruling}
            }
        )
    services.link_result(ruling, by=by)
    return ruling


def _contract(ruling: Ruling, record: PlayRecord | None) -> tuple[str, str, int | None]:
    """(contract, declarer, declarer's tricks at the table): the table result's, checked against
    the play record; the play record's while the result is not entered."""
    result = ruling.result
    if result is not None and result.contract:
        if record is not None and (result.contract.upper() != record.contract or result.declarer != record.declarer):
            raise ValidationError(
                {
                    "deal_source": _(
                        "The play attached is %(play)s, the table result is %(result)s: attach the play of this table."
                    )
                    % {"play": f"{record.contract} {record.declarer}", "result": f"{result.contract} {result.declarer}"}
                }
            )
        if result.tricks is not None:
            return result.contract, result.declarer, result.tricks
    if record is not None:
        return record.contract, record.declarer, record.declarer_tricks
    raise ValidationError(
        {"result": _("Enter the table result or attach the play: the transfer needs declarer's tricks.")}
    )


def _store(
    ruling: Ruling,
    by: User,
    *,
    kind: Choice,
    facts: dict[str, Any],
    transfer: Transfer | None = None,
    table_tricks: int | None = None,
    result_tricks: int | None = None,
    guide: dict[str, Any] | None = None,
    from_play: bool = False,
) -> TrickRuling:
    values = dict(
        kind=kind,
        edition=services.edition_in_force(ruling.tournament),
        facts=facts,
        from_play=from_play,
        table_tricks=table_tricks,
        result_tricks=result_tricks,
        guide=guide,
        transfer=transfer.tricks if transfer else 0,
        law=transfer.law if transfer else "",
        reason=str(transfer.reason)[:400] if transfer else "",
        equity_tricks=0,
        equity_reason="",
        normal_line="",
        confirmed_by=None,
        confirmed_at=None,
    )
    current = TrickRuling.objects.filter(ruling=ruling).first()
    before = (
        None
        if current is None
        else {"kind": current.kind, "facts": current.facts, "law": current.law, "transfer": current.transfer}
    )
    item = current or TrickRuling(ruling=ruling)
    for name, value in values.items():
        setattr(item, name, value)
    item.full_clean()
    item.save()
    audit.record(
        action=f"ruling.{kind}_recorded",
        obj=item,
        actor=by,
        tournament=ruling.tournament.pk,
        before=before,
        after={
            "kind": kind,
            "facts": facts,
            "law": item.law,
            "transfer": item.transfer,
            "table_tricks": table_tricks,
            "result_tricks": result_tricks,
        },
        summary=texts.text(
            "rulings.trick", ruling=ruling_name(ruling), kind=kind, law=item.law, transfer=item.transfer
        ),
    )
    return item


def _facts(data: dict[str, Any]) -> RevokeFacts:
    try:
        facts = RevokeFacts.from_dict(data)
        facts.check()
    except TypeError:
        raise ValidationError(
            {
                "facts": _(
                    "Enter the revoke trick, the offender, whether the revoke was "
                    "established, who won the revoke trick and the tricks won after it."
                )
            }
        ) from None
    except RevokeError as error:
        _refuse(error)
    return facts


@transaction.atomic
def record_revoke(
    *,
    ruling: Ruling,
    by: User,
    revoke: int = 0,
    facts: Any = None,
    exemptions: dict[str, bool] | None = None,
    established_by: str | None = None,
) -> TrickRuling:
    """Record a revoke on a draft ruling. With a play record that shows revokes, the ``revoke``-th
    found (0 the first) is read from it and ``exemptions`` (``EXEMPTION_FLAGS`` -> bool) add
    what the record cannot show; otherwise ``facts`` are entered (the fields of
    ``bridge.revokes.RevokeFacts``). The transfer is computed for the edition in force and the
    table result and the result after the transfer stored for the director to confirm."""
    ruling = _draft(ruling, by)  # asks the policy first
    record = play_record(ruling)
    edition = services.edition_in_force(ruling.tournament)
    exemptions = {key: bool(value) for key, value in (exemptions or {}).items() if key in EXEMPTION_FLAGS}
    as_if = exemptions.pop("as_if_established", False)
    illegally_drawn = exemptions.pop("attention_illegally_drawn", False)
    guide, from_play = None, False
    found = record.revokes() if record is not None else []
    if facts is None and found:
        assert record is not None  # for mypy: revokes were found in it
        if not 0 <= revoke < len(found):
            raise ValidationError(
                {"revoke": _("The play shows %(n)s revoke(s): choose one of them.") % {"n": len(found)}}
            )
        try:
            facts = facts_from_play(
                record,
                found[revoke],
                established_by=established_by or None,
                faced_card=exemptions.pop("faced_card", None),
            )
        except RevokeError as error:
            _refuse(error)
        facts = replace(facts, **exemptions)
        if as_if or illegally_drawn:  # corrected at dummy's question (43B2b) or 1997 63B: as if established
            facts = replace(
                facts,
                established=False,
                established_by="",
                as_if_established=as_if,
                attention_illegally_drawn=illegally_drawn,
            )
        from_play = True
    elif facts is None:
        raise ValidationError({"facts": _("The play attached shows no revoke: enter the facts of the revoke.")})
    else:
        facts = _facts(
            {
                **facts,
                **exemptions,
                **({"as_if_established": True} if as_if else {}),
                **({"attention_illegally_drawn": True} if illegally_drawn else {}),
            }
        )
    try:
        transfer = revoke_transfer(edition, facts)
    except RevokeError as error:
        _refuse(error)
    contract, declarer, table = _contract(ruling, record)
    after = (
        result_after(declarer=declarer, declarer_tricks=table, offender=facts.offender, transferred=transfer.tricks)
        if table is not None
        else None
    )
    item = _store(
        ruling,
        by,
        kind=TrickRuling.Kind.REVOKE,
        facts=facts.to_dict(),
        transfer=transfer,
        table_tricks=table,
        result_tricks=after,
        guide=guide,
        from_play=from_play,
    )
    if from_play:
        schedule_guide(item)
    return item


@transaction.atomic
def record_defective_trick(
    *,
    ruling: Ruling,
    by: User,
    trick: int,
    offender: str,
    could_follow: bool,
    offending_side_won_from_then: int,
    too_many_cards: bool = False,
    before_next_trick: bool = False,
) -> TrickRuling:
    """Record a defective trick (Law 67: 67A when attention was drawn before both sides played
    to the next trick, else 67B) on a draft ruling and compute its transfer."""
    ruling = _draft(ruling, by)  # asks the policy first
    facts = DefectiveTrickFacts(
        trick=trick,
        offender=offender,
        could_follow=bool(could_follow),
        offending_side_won_from_then=bool(offending_side_won_from_then),
        too_many_cards=bool(too_many_cards),
        before_next_trick=bool(before_next_trick),
    )
    try:
        transfer = defective_trick_transfer(services.edition_in_force(ruling.tournament), facts)
    except RevokeError as error:
        _refuse(error)
    contract, declarer, table = _contract(ruling, play_record(ruling))
    after = (
        result_after(declarer=declarer, declarer_tricks=table, offender=offender, transferred=transfer.tricks)
        if table is not None
        else None
    )
    return _store(
        ruling,
        by,
        kind=TrickRuling.Kind.DEFECTIVE_TRICK,
        facts=facts.to_dict(),
        transfer=transfer,
        table_tricks=table,
        result_tricks=after,
    )


@transaction.atomic
def record_claim(
    *,
    ruling: Ruling,
    by: User,
    claimer: str,
    statement: str,
    trick: int | None = None,
    remaining: str = "",
    leader: str = "",
    declarer_won: int | None = None,
    basis: str = "70",
    trump_mentioned: bool = False,
    trump_cannot_win: bool = False,
    acquiesced_by: str = "",
    new_line: bool = False,
    unstated_line: bool = False,
    partner_choice: bool = False,
    played_after: str = "",
    order_unstated: bool = False,
) -> TrickRuling:
    """Record a claim on a draft ruling as an adjudication: the claimer's seat, the statement,
    what is ruled (``basis``: ``70`` a contested claim or concession, ``71`` a concession
    cancelled, ``69B`` an acquiescence withdrawn, ``68B2`` a defender's concession his partner
    objected to at once), the 69A point (``acquiesced_by``), the trumps the opponents still hold
    (70C; ``trump_mentioned``, ``trump_cannot_win`` 70C3) and the director's ClaimFlags (70D1-70E2;
    1997 70D, 70E). The position: with a play record, at the trick given (or the record's claim);
    otherwise as entered (the cards left as a PBN deal, the seat on lead, declarer's tricks). The
    cards left are stored at once; the double-dummy count is computed by a worker."""
    ruling = _draft(ruling, by)  # asks the policy first
    basis = _claim_basis(basis)
    # A concession cancelled (Law 71) or an acquiescence withdrawn (69B) after the official
    # score: only within the correction period, counted from the call when it is recorded.
    if basis != "70":
        check_in_period(ruling.board.session, "concession", now=ruling.called_at)
    _check_claim_words(statement, acquiesced_by)
    claimer = (claimer or "").upper()
    record = None if (remaining or "").strip() else play_record(ruling)
    contract, declarer, table = _contract(ruling, record)
    entered: dict[str, Any] = {}
    try:
        if record is not None:
            position = claim_position(record) if trick is None else position_at(record, int(trick))
        elif (remaining or "").strip():
            entered = {"remaining": remaining.strip(), "leader": (leader or "").upper(), "declarer_won": declarer_won}
            position = entered_position(
                entered["remaining"],
                leader=entered["leader"],
                declarer_side=side_of(declarer),
                declarer_won=declarer_won,
            )
        else:
            raise ValidationError(
                {
                    "remaining": _(
                        "Attach the deal and the play (PBN or LIN), or enter the cards left, to work out the claim "
                        "position."
                    )
                }
            )
        aid = aid_at(
            position, strain=strain_of(contract.upper()), declarer_side=side_of(declarer), claimer=claimer, solve=False
        )
    except (RevokeError, DealError) as error:
        _refuse(error)
    except (TypeError, ValueError):
        raise ValidationError({"trick": _("The trick of the claim is a number from 1 to 13.")}) from None
    flags = ClaimFlags(
        bool(new_line),
        bool(unstated_line),
        bool(partner_choice),
        (played_after or "").strip()[:200],
        bool(order_unstated),
    )
    facts = {
        "claimer": claimer,
        "statement": statement.strip(),
        "trick": position.trick,
        "claimed": record.claim if record is not None else None,
        "basis": basis,
        "outstanding_trumps": list(outstanding_trumps(position, strain=strain_of(contract.upper()), claimer=claimer)),
        "trump_mentioned": bool(trump_mentioned),
        "trump_cannot_win": bool(trump_cannot_win),  # 70C3, the director's finding
        "acquiesced_by": acquiesced_by or "",
        **_flag_facts(ruling, flags, basis=basis, claimer=claimer, declarer=declarer),
        **entered,
    }
    item = _store(
        ruling,
        by,
        kind=TrickRuling.Kind.CLAIM,
        facts=facts,
        table_tricks=table,
        guide=aid.to_dict(),
        from_play=record is not None,
    )
    schedule_guide(item)
    return item


def _check_claim_words(statement: str, acquiesced_by: str) -> None:
    """The statement as the claimer made it, and the Law 69A point an acquiescence was
    established at (``ACQUIESCENCE_POINTS``), or refused naming the field."""
    if not (statement or "").strip():
        raise ValidationError({"statement": _("Write the claim statement as the claimer made it.")})
    if (acquiesced_by or "") not in ACQUIESCENCE_POINTS:
        raise ValidationError(
            {
                "acquiesced_by": _(
                    "Say when the acquiescence was established: a call on a later board, or the end of the round (Law 69A)."
                )
            }
        )


def _claim_basis(basis: str) -> str:
    basis = basis or "70"
    if basis not in CLAIM_BASES:
        raise ValidationError(
            {
                "basis": _(
                    "Say what is ruled: a contested claim (70), a concession cancelled (71), an acquiescence withdrawn "
                    "(69B) or a defender's concession his partner objected to at once (68B2)."
                )
            }
        )
    return basis


def _flag_facts(ruling: Ruling, flags: ClaimFlags, *, basis: str, claimer: str, declarer: str) -> dict[str, Any]:
    """The director's flags as the claim's facts, refused where the Laws in force cannot apply
    them to a contested claim (bridge.claims.check_claim_flags), with the order the regulations
    deem a suit played in when the statement left it unclear (Law 70E2)."""
    regulations = ruling.tournament.regulations()
    suit_order = str(regulations.get("claim_suit_order") or "")
    if basis == "70":
        try:
            check_claim_flags(
                flags, edition=regulations["laws_edition"], claimer=claimer, declarer=declarer, suit_order=suit_order
            )
        except RevokeError as error:
            _refuse(error)
    facts: dict[str, Any] = {
        "new_line": flags.new_line,
        "unstated_line": flags.unstated_line,
        "partner_choice": flags.partner_choice,
        "played_after": flags.played_after,
        "order_unstated": flags.order_unstated,
    }
    if flags.order_unstated:
        facts["suit_order"] = suit_order
    return facts


def _claim_position(item: TrickRuling, record: PlayRecord | None, declarer: str) -> Position:
    """The claim position ``item`` records: entered, or read from the play record again."""
    facts = item.facts
    if facts.get("remaining"):
        return entered_position(
            facts["remaining"],
            leader=facts["leader"],
            declarer_side=side_of(declarer),
            declarer_won=facts["declarer_won"],
        )
    trick = facts.get("trick")
    assert record is not None  # for mypy: a claim not entered was read from the play
    return claim_position(record) if trick is None else position_at(record, trick)


def schedule_guide(item: TrickRuling) -> None:
    """After the transaction commits, ask a worker for the double-dummy guide of ``item``."""

    def send() -> None:
        try:
            dispatch.send("rulings.tasks.solve_trick_ruling", item.pk, retry=False)
        except Exception:  # noqa: BLE001 - the guide is a help, not part of the record
            log.warning("Broker unreachable: no double-dummy guide for %s yet.", item, exc_info=True)

    transaction.on_commit(send)


def solve_guide(trick_ruling_id: int, *, by: Any) -> bool:
    """The double-dummy guide of a revoke read from the play (Law 64C: the non-offending side's
    tricks from the position before the revoking card) or of a claim (declarer's tricks from
    the claim position), computed with the DDS solver and stored; the solver's complaint is
    stored instead when it fails. Run by a worker (``tasks.solve_trick_ruling``); safe to run
    twice. Returns whether a count was stored."""
    policy.require(by, "double_dummy", None)
    item = TrickRuling.objects.select_related("ruling__board", "ruling__result").filter(pk=trick_ruling_id).first()
    entered = item is not None and item.kind == TrickRuling.Kind.CLAIM and bool(item.facts.get("remaining"))
    if item is None or not (item.from_play or entered):
        return False
    try:
        record = None if entered else play_record(item.ruling)
        if record is None and not entered:
            return False
        if item.kind == TrickRuling.Kind.CLAIM:
            contract, declarer, _table = _contract(item.ruling, record)
            guide = aid_at(
                _claim_position(item, record, declarer),
                strain=strain_of(contract.upper()),
                declarer_side=side_of(declarer),
                claimer=item.facts["claimer"],
            ).to_dict()
        else:
            facts = RevokeFacts.from_dict(item.facts)
            assert record is not None  # for mypy: a revoke's guide is read from the play
            revoke = next(r for r in record.revokes() if (r.trick, r.seat) == (facts.trick, facts.offender))
            transfer = revoke_transfer(item.edition, facts)
            guide = equity_guide(record, revoke, transfer)
    except (DealError, RevokeError, ValidationError, StopIteration) as error:
        guide = dict(item.guide or {}, error=str(getattr(error, "message", error))[:300])
        TrickRuling.objects.filter(pk=item.pk).update(guide=guide)
        return False
    TrickRuling.objects.filter(pk=item.pk).update(guide=guide)
    return True


def _ruling_words(item: TrickRuling, contract: str, declarer: str, result_tricks: int) -> list[texts.Coded]:
    """The ruling's words as stored texts, one a sentence (rulings/texts.py): written into the
    ruling in English, shown to each reader in their language."""
    described = services.describe_contract(contract, declarer, result_tricks)
    if item.kind == TrickRuling.Kind.CLAIM:
        return [texts.text("rulings.trick_claim", tricks=result_tricks, contract=described)]
    words = [texts.text("rulings.trick_transfer", law=item.law, n=item.transfer, contract=described)]
    if item.equity_tricks:
        words.append(texts.text("rulings.trick_equity", n=item.equity_tricks))
    return words


def _confirm_claim(
    item: TrickRuling, record: PlayRecord | None, declarer: str, awarded_tricks: Any, normal_line: str
) -> tuple[str, list[str], int]:
    """A claim confirmed: the tricks awarded (checked against the claim position when the play
    or the remaining cards are known) and the line judged normal; (the offending side, the laws)."""
    try:
        awarded = int(awarded_tricks)
    except (TypeError, ValueError):
        raise ValidationError({"awarded_tricks": _("Enter the tricks declarer is awarded.")}) from None
    if not (normal_line or "").strip():
        raise ValidationError({"normal_line": _("Write the line of play judged normal (Laws 70, 71).")})
    if record is not None or item.facts.get("remaining"):
        try:
            check_awarded(side_of(declarer), _claim_position(item, record, declarer), awarded)
        except RevokeError as error:
            _refuse(error)
    item.result_tricks, item.normal_line = awarded, normal_line.strip()
    # An adjudication: no offending side (Laws 69-71 are not infractions); the law is what was
    # ruled, with 70C when an outstanding trump went unmentioned.
    basis = item.facts.get("basis", "70")
    if basis == "68B2":
        # A defender's concession his partner objected to at once: no concession (1997 68B).
        return "", ["68B" if item.edition == "1997" else "68B2"], awarded
    if basis != "70":
        return "", [basis], awarded
    facts = item.facts
    flags = ClaimFlags(
        new_line=bool(facts.get("new_line")),
        unstated_line=bool(facts.get("unstated_line")),
        partner_choice=bool(facts.get("partner_choice")),
        played_after=facts.get("played_after") or "",
        order_unstated=bool(facts.get("order_unstated")),
    )
    trump_unmentioned = (
        bool(facts.get("outstanding_trumps")) and not facts.get("trump_mentioned") and not facts.get("trump_cannot_win")
    )
    return "", [basis, *claim_laws(flags, edition=item.edition, trump_unmentioned=trump_unmentioned)], awarded


def deemed_orders(item: TrickRuling) -> dict[str, dict[str, str]]:
    """Law 70E2: for a claim whose statement left a suit's order unclear, the order the
    regulations deem each suit of the claimer's side played in, by seat (from the stored
    cards left); empty when not flagged."""
    order = item.facts.get("suit_order") if item.facts.get("order_unstated") else ""
    claimer = item.facts.get("claimer", "")
    remaining = (item.guide or {}).get("remaining") or {}
    if not order or not claimer:
        return {}
    # Seats and suits in the Laws' order: a JSON column on PostgreSQL keeps its keys in another.
    return {
        seat: {suit: deemed_suit_order(remaining[seat][suit], order) for suit in "SHDC" if remaining[seat].get(suit)}
        for seat in "NESW"
        if seat in remaining and side_of(seat) == side_of(claimer)
    }


def _confirm_transfer(
    item: TrickRuling, declarer: str, table: int, equity_tricks: Any, equity_reason: str
) -> tuple[str, list[str], int]:
    """A revoke or defective trick confirmed: the transfer and any further tricks for equity (Law
    64C, with a reason), within what the offending side took; (the offending side, the laws)."""
    try:
        equity_tricks = int(equity_tricks or 0)
    except (TypeError, ValueError):
        raise ValidationError({"equity_tricks": _("Further tricks for equity are a whole number.")}) from None
    if equity_tricks and not (equity_reason or "").strip():
        raise ValidationError({"equity_reason": _("Say why the transfer does not restore equity (Law 64C).")})
    offender = item.facts["offender"]
    total = item.transfer + equity_tricks
    room = table if side_of(offender) == side_of(declarer) else 13 - table
    if not 0 <= equity_tricks or total > room:
        raise ValidationError(
            {
                "equity_tricks": _(
                    "The offending side took %(room)s tricks: at most %(more)s more can go to the other side."
                )
                % {"room": room, "more": max(0, room - item.transfer)}
            }
        )
    item.equity_tricks, item.equity_reason = equity_tricks, (equity_reason or "").strip()
    after = result_after(declarer=declarer, declarer_tricks=table, offender=offender, transferred=total)
    item.result_tricks = after
    laws = [item.law] if item.law else []
    if item.facts.get("as_if_established"):
        laws += list(as_if_established_laws(item.edition))
    if item.facts.get("attention_illegally_drawn"):
        laws += list(illegally_drawn_laws(item.edition))
    equity = REVOKE_LAWS[item.edition]["equity"].law
    return side_of(offender), laws + ([equity] if equity_tricks else []), after


@transaction.atomic
def confirm(
    *,
    ruling: Ruling,
    by: User,
    equity_tricks: int = 0,
    equity_reason: str = "",
    awarded_tricks: Any = None,
    normal_line: str = "",
    give: bool = True,
) -> TrickRuling:
    """The director confirms the recorded revoke, defective trick or claim: the law is cited
    (with 64C when equity adds tricks), the outcome set (the result after the transfer, or the
    tricks awarded on the claim, as an assigned score when it differs from the table result)
    and, with ``give``, the ruling is given: its score goes to the scores as any ruling's."""
    ruling = _draft(ruling, by)  # asks the policy first
    item = TrickRuling.objects.select_for_update().filter(ruling=ruling).first()
    if item is None:
        raise ValidationError({"kind": _("Record the revoke, defective trick or claim first.")})
    record = play_record(ruling)
    contract, declarer, table = _contract(ruling, record)
    if table is None:
        raise ValidationError(
            {"result": _("Enter the table result or attach the play: the transfer needs declarer's tricks.")}
        )
    if item.kind == TrickRuling.Kind.CLAIM:
        offending_side, laws, tricks = _confirm_claim(item, record, declarer, awarded_tricks, normal_line)
    else:
        offending_side, laws, tricks = _confirm_transfer(item, declarer, table, equity_tricks, equity_reason)
    item.table_tricks = table
    item.confirmed_by, item.confirmed_at = by, timezone.now()
    item.full_clean()
    item.save()
    kept = [c.law.number for c in ruling.citations.select_related("law") if c.law is not None]
    regulations = [c.regulation_id for c in ruling.citations.all() if c.regulation_id]
    services.cite_laws(ruling=ruling, by=by, laws=list(dict.fromkeys(laws + kept)), regulations=regulations)
    sentences = _ruling_words(item, contract, declarer, tricks)
    words = " ".join(sentence.english() for sentence in sentences)
    if item.result_tricks != table:
        services.set_outcome(
            ruling=ruling,
            by=by,
            outcome=Ruling.Outcome.ADJUSTED,
            score_kind=Ruling.ScoreKind.ASSIGNED,
            ns={"contract": contract, "declarer": declarer, "tricks": item.result_tricks},
            offending_side=offending_side,
            rectification=words,
        )
    else:
        services.set_outcome(
            ruling=ruling,
            by=by,
            outcome=Ruling.Outcome.RESULT_STANDS,
            rectification=words,
            offending_side=offending_side,
        )
    ruling = Ruling.objects.get(pk=ruling.pk)
    if not ruling.ruling_text.strip():
        ruling.ruling_text = words
        ruling.save(update_fields=["ruling_text", "updated_at"])
    audit.record(
        action=f"ruling.{item.kind}_confirmed",
        obj=item,
        actor=by,
        tournament=ruling.tournament.pk,
        after={
            "law": item.law,
            "transfer": item.transfer,
            "equity_tricks": item.equity_tricks,
            "table_tricks": table,
            "result_tricks": item.result_tricks,
        },
        summary=texts.text(
            "rulings.about", ruling=ruling_name(ruling), what=[sentence.as_param() for sentence in sentences]
        ),
    )
    if give:
        services.give_ruling(ruling=ruling, by=by)
    return item
