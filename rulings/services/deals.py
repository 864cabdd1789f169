"""The deal and auction a ruling carries (read from LIN or PBN, checked against the board ruled
on) and its double-dummy table, solved in a worker."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from bridge import deals
from bridge.deals import DealError, parse_deal
from core import dispatch, policy, texts
from core.i18n import translate
from core.retry import atomic_with_retry
from rulings.models import Ruling
from rulings.services.common import full_save, ruling_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from bridge.auction import BoardRecord
    from scoring.models import Board


log = logging.getLogger(__name__)


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
    by: User,
) -> Ruling:
    """Attach a deal and auction (a BoardRecord from a PBN or LIN import, or the parts). An
    imported board whose number, dealer or vulnerability differs from the board ruled on is
    refused naming the field, unless ``override_reason`` says why it is right (an event that
    changed a board's dealer or vulnerability); the override is kept with the ruling."""

    policy.require(by, "ruling", ruling)
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
                summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=ruling.deal_override[:200]),
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
    full_save(ruling)
    schedule_double_dummy(ruling, by=by)
    return ruling


def schedule_double_dummy(ruling: Ruling, *, by: User) -> None:
    """After the transaction commits, ask a worker for the double-dummy table of the ruling's deal."""

    policy.require(by, "ruling", ruling)

    def send() -> None:
        try:
            dispatch.send("rulings.tasks.solve_deal", ruling.pk, retry=False)
        except Exception:  # noqa: BLE001 - the table is a help, not part of the record
            log.warning("Broker unreachable: no double-dummy table for ruling %s yet.", ruling.pk, exc_info=True)

    transaction.on_commit(send)


def record_double_dummy(ruling_id: int, *, by: Any) -> bool:
    """Solve the ruling's deal (DDS) and store the tricks and par for the director's judgement,
    or the solver's complaint. Safe to run twice; returns whether a table was stored."""
    policy.require(by, "double_dummy", None)
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


def _recorded_play(ruling: Ruling | None) -> list[Any]:
    if ruling is None or not ruling.auction:
        return []
    from bridge.auction import Auction

    return list(Auction.from_dict(ruling.auction).play_irregularities)


def read_deal_source(text: str | None, ruling: Ruling | None = None) -> BoardRecord:
    """A BoardRecord from a BBO handviewer link, a LIN string or PBN text. With ``ruling``, the
    play irregularities already recorded on it (an opening lead out of turn accepted, 54A or 54B)
    are the board's: the play of the LIN or PBN is read from the seat that really led, and they stay
    with it."""
    from bridge.lin import LinError, parse_lin
    from bridge.pbn import PbnError
    from bridge.pbn_record import parse_pbn_record

    text = (text or "").strip()
    try:
        if "lin=" in text or "md|" in text or text.startswith(("http:", "https:", "www.")):
            return parse_lin(text, play_irregularities=_recorded_play(ruling))
        if "[" in text:
            return parse_pbn_record(text, play_irregularities=_recorded_play(ruling))
    except (LinError, PbnError, ValueError) as error:
        raise ValidationError({"deal_source": translate(error)}) from None
    raise ValidationError(
        {"deal_source": _('Paste a BBO handviewer link, a LIN string (md|...) or a PBN game ([Deal "N:..."]).')}
    )


@atomic_with_retry
def enter_auction(*, ruling: Ruling, by: User, calls: list[str]) -> Ruling:
    """The auction as the director entered it on the irregularity page's bidding box (issue #39):
    the calls that stand, from the board's dealer, in place of the ruling's auction (the play and
    claim attached are kept). The irregular call is then placed where it happened, as for an
    auction read from a LIN that leaves it out. Refused, naming ``auction_calls``: a call that is
    not one, an auction that cannot have happened, or a ruling whose irregularities are already
    marked in its auction (record them again on the auction put right). The calls the auction
    put right starts with, as they were, keep their alerts, explanations, times and notes."""
    from bridge.auction import Auction
    from bridge.deals import normalise_call

    policy.require(by, "ruling", ruling)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(_("Only a draft ruling can be changed; correct a given ruling instead."))
    if ruling.irregularity_list:
        raise ValidationError(
            {
                "auction_calls": _(
                    "The irregularities recorded are marked in this auction: it is put right by recording them again."
                )
            }
        )
    if not calls:
        raise ValidationError({"auction_calls": _("Tap the calls on the bidding box, the dealer's first.")})
    try:
        normalised = [normalise_call(call) for call in calls]
        previous = Auction.from_dict(ruling.auction) if ruling.auction else None
        auction = Auction(
            dealer=ruling.board.dealer,
            calls=_kept_notes(previous, normalised),
            opening_lead=previous.opening_lead if previous else None,
            play=previous.play if previous else [],
            claim=previous.claim if previous else None,
        )
        auction.validate(complete=False)
    except DealError as error:
        raise ValidationError({"auction_calls": translate(error)}) from None
    ruling.auction = auction.to_dict()
    full_save(ruling)
    audit.record(
        action="ruling.auction_entered",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        after={"calls": [call.call for call in auction.calls]},
        summary=texts.text(
            "rulings.about", ruling=ruling_name(ruling), what=" ".join(call.call for call in auction.calls)[:200]
        ),
    )
    return ruling


def _kept_notes(previous: Any, calls: list[str]) -> list[Any]:
    """``calls`` as AuctionCalls, those the previous auction starts with keeping what it said of them."""
    from bridge.auction import AuctionCall

    made, same, before = [], True, previous.calls if previous else []
    for index, call in enumerate(calls):
        same = same and index < len(before) and before[index].call == call and not before[index].irregular
        if not same:
            made.append(AuctionCall(call))
            continue
        was = before[index]
        made.append(
            AuctionCall(
                call,
                was.alert,
                was.explanation,
                was.tempo_seconds,
                was.note,
                tempo_source=was.tempo_source,
                tempo_uncertainty=was.tempo_uncertainty,
            )
        )
    return made


@atomic_with_retry
def record_call_tempo(
    *,
    ruling: Ruling,
    by: User,
    call_number: Any,
    seconds: Any,
    source: Any = "",
    uncertainty: Any = None,
) -> Ruling:
    """The time call ``call_number`` (1 for the dealer's call, as the auction is written, every
    call as called counted) took, with its source and the uncertainty the source states
    (issue #44, bridge.tempo): kept on the call in the ruling's auction, its other notes as they
    were; seconds, source and uncertainty all empty take the time away. Refused, naming the
    field: a call the auction does not have (``tempo_call``), and what ``bridge.tempo.check_timing``
    refuses (``tempo_seconds``, ``tempo_source``, ``tempo_uncertainty``)."""
    from bridge.auction import Auction
    from bridge.tempo import check_timing

    policy.require(by, "ruling", ruling)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(_("Only a draft ruling can be changed; correct a given ruling instead."))
    if not ruling.auction:
        raise ValidationError({"tempo_call": _("Enter the auction first: the time is of one of its calls.")})
    auction = Auction.from_dict(ruling.auction)
    try:
        number = int(str(call_number).strip())
    except ValueError:
        number = 0
    if not 1 <= number <= len(auction.calls):
        raise ValidationError(
            {
                "tempo_call": _("Call: the auction has calls 1 to %(n)s; choose the timed call.")
                % {"n": len(auction.calls)}
            }
        )
    try:
        timing = check_timing(seconds, source, uncertainty)
    except DealError as error:
        raise ValidationError({error.field: translate(error)}) from None
    call = auction.calls[number - 1]
    call.tempo_seconds, call.tempo_source, call.tempo_uncertainty = timing
    ruling.auction = auction.to_dict()
    full_save(ruling)
    audit.record(
        action="ruling.call_tempo",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        after={"call": number, "seconds": timing[0], "source": timing[1], "uncertainty": timing[2]},
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=f"{number}: {call.call} {timing[0]} s"),
    )
    return ruling
