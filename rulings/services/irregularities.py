"""An irregularity in the auction or the play recorded on a ruling (issue #28): the irregular call
or card kept in the ruling's auction as it happened, the options the Laws of the edition in force
offer (``bridge.irregularities``, ``bridge.play_irregularities``), and the option chosen.

``irregularity_options`` computes the options without writing; ``record_irregularity`` checks the
choice, marks the call or card in ``Ruling.auction``, stores ``Ruling.irregularity`` (kind, edition,
facts, options, chosen, the rectification, the Law 26 or 50D2 lead options) and
``Ruling.irregularity_law``. docs/irregularities.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from bridge.auction import Auction, AuctionCall, check_play
from bridge.auction_checks import detect
from bridge.deals import DealError, next_seat, parse_deal
from bridge.irregularities import (
    ChangeOfCall,
    Choice,
    InsufficientBid,
    OutOfRotation,
    call_out_of_rotation,
    change_of_call_options,
    inadmissible_call,
    insufficient_bid,
    insufficient_bid_options,
    is_bid,
    later_calls_cancelled,
    lead_restriction,
    out_of_rotation_options,
    read_auction,
    side,
)
from bridge.play_irregularities import (
    PlayChoice,
    PlayIrregularity,
    declarer_after,
    exposed_card,
    lead_out_of_turn,
    penalty_card_lead_options,
    penalty_card_not_played,
    penalty_cards_through_play,
    premature_play,
    trick_leaders,
)
from core import policy, texts
from core.i18n import translate
from rulings.irregularity_words import irregularity_laws, law_paragraphs
from rulings.laws import CitationError, validate_citation
from rulings.models import Ruling
from rulings.services.citations import cite_laws
from rulings.services.common import edition_in_force, full_save, ruling_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User

AUCTION_KINDS = ("insufficient_bid", "out_of_rotation", "change_of_call", "inadmissible_call")
KINDS = (*AUCTION_KINDS, "lead_out_of_turn", "exposed_card", "premature_play", "penalty_card_not_played")
PLAY_KINDS = {
    "lead_out_of_turn": "lead_out_of_turn",
    "exposed_card": "exposed",
    "premature_play": "premature",
    "penalty_card_not_played": "not_played",
}


def _refuse(field: str, error: Exception) -> None:
    raise ValidationError({field: translate(error)}) from None


def _auction(ruling: Ruling) -> Auction:
    if not ruling.auction:
        raise ValidationError({"auction": _("Attach the deal and auction first: the irregularity is marked in it.")})
    return Auction.from_dict(ruling.auction)


def _seat(facts: dict[str, Any], name: str, required: bool = False) -> str:
    value = str(facts.get(name) or "").strip().upper()
    if not value and not required:
        return ""
    if value not in ("N", "E", "S", "W"):
        raise ValidationError({name: _("Choose a seat: N, E, S or W.")})
    return value


def _auction_facts(ruling: Ruling, kind: str, facts: dict[str, Any]) -> dict[str, Any]:
    """The auction with the irregular call in place, its index, the call, its seat and whose turn it was."""
    auction = _auction(ruling)
    try:
        number = int(facts.get("call_number") or 0)
    except (TypeError, ValueError):
        number = 0
    inserted = str(facts.get("inserted") or "").strip()
    limit = len(auction.calls) + (1 if inserted else 0)
    if not 1 <= number <= limit:
        raise ValidationError(
            {
                "call_number": _("The auction has %(n)s calls: give the number of one of them.")
                % {"n": len(auction.calls)}
            }
        )
    index = number - 1
    calls = list(auction.calls)
    try:
        if inserted:
            calls.insert(index, AuctionCall(inserted, seat=_seat(facts, "seat")))
        before = read_auction(auction.dealer, calls[:index], complete=False)
    except DealError as error:
        _refuse("auction", error)
    call = calls[index]
    turn_seat = next_seat(before.seats[before.legal[-1]]) if before.legal else auction.dealer
    last_bid = next((calls[i].call for i in reversed(before.legal) if is_bid(calls[i].call)), "")
    return {
        "auction": auction,
        "calls": calls,
        "index": index,
        "call": call,
        "seat": call.seat or turn_seat,
        "before": before,
        "last_bid": last_bid,
        "turn_seat": turn_seat,
    }


def _auction_options(ruling: Ruling, kind: str, facts: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    edition = edition_in_force(ruling.tournament)
    found = _auction_facts(ruling, kind, facts)
    call, seat = found["call"], found["seat"]
    try:
        if kind == "change_of_call":
            return _change_options(edition, facts), found
        if kind == "inadmissible_call":
            later = _later_calls(facts)
            found["later_calls"] = later
            rectification = inadmissible_call(
                edition, str(facts.get("inadmissible") or ""), lho_called=bool(facts.get("lho_called")) or later > 0
            )
            return [Choice(rectification.law, "director", rectification)], found
        if kind == "insufficient_bid":
            if not found["last_bid"]:
                raise ValidationError({"call_number": _("No bid was made before this call: it is not insufficient.")})
            ib = InsufficientBid(call.call, found["last_bid"], artificial=bool(facts.get("artificial")))
            return insufficient_bid_options(edition, ib), found
        turn_seat = found["turn_seat"]
        turn = {next_seat(seat, 3): "rho", next_seat(seat, 2): "partner", next_seat(seat, 1): "lho"}.get(turn_seat)
        if turn is None:
            raise ValidationError({"seat": _("It was this player's own turn: the call was not out of rotation.")})
        found["turn"] = turn
        shown = _calls_after_out_of_rotation(found, turn)
        oor = OutOfRotation(
            call.call,
            turn,
            any_bid_before=bool(found["last_bid"]),
            offender_had_called=any(found["before"].seats[i] == seat for i in found["before"].legal),
            artificial=bool(facts.get("artificial")),
            rho_call=str(facts.get("rho_call") or shown.get("rho_call", "")),
            replacement=str(facts.get("replacement") or shown.get("replacement", "")),
            comparable=bool(facts.get("comparable")),
        )
        found["oor"] = oor
        return out_of_rotation_options(edition, oor), found
    except DealError as error:
        _refuse("inadmissible" if getattr(error, "field", "") == "kind" else "call_number", error)
    raise AssertionError  # _refuse raised


def _calls_after_out_of_rotation(found: dict[str, Any], turn: str) -> dict[str, str]:
    """What the record shows after a call out of rotation, read with that call cancelled: the
    right-hand opponent's call (31A, 32A/32B: at his turn) and the offender's own call at his
    turn (the replacement the Laws rule on). Nothing when the record stops before them."""
    calls, index, seat = found["calls"], found["index"], found["seat"]
    marked = [*calls[:index], AuctionCall(calls[index].call, seat=seat, status="cancelled"), *calls[index + 1 :]]
    try:
        after = read_auction(found["auction"].dealer, marked, complete=False)
    except DealError:
        return {}
    later = [i for i in after.legal if i > index]
    rho = next_seat(seat, 3)
    shown: dict[str, str] = {}
    if turn == "rho" and later and after.seats[later[0]] == rho:
        shown["rho_call"] = marked[later[0]].call
    own = next((i for i in later if after.seats[i] == seat), None)
    if own is not None:
        shown["replacement"] = marked[own].call
    return shown


def _later_calls(facts: dict[str, Any]) -> int:
    """The calls made after an inadmissible call before the director ruled (36A, 38: they are
    cancelled with it); 0 when not given."""
    value = facts.get("later_calls")
    if value in (None, ""):
        return 0
    try:
        later = int(value)
    except (TypeError, ValueError):
        later = -1
    if later < 0:
        raise ValidationError({"later_calls": _("Give the number of later calls: 0 or more.")})
    return later


def _cancel_later_calls(found: dict[str, Any], rectification: Any, chosen: str) -> dict[str, Any]:
    """Law 36A (1997 35A) and 38: the calls after the inadmissible call, made before the director
    ruled, are cancelled with it, each marked with the seat that made it in rotation; the
    auction reverts to the player whose turn it was at the infraction."""
    calls, index = found["calls"], found["index"]
    try:
        cancelled = later_calls_cancelled(
            rectification.law, index=index, later_calls=found.get("later_calls", 0), total=len(calls)
        )
    except DealError as error:
        raise ValidationError({"later_calls": translate(error)}) from None
    for step, position in enumerate(cancelled, start=1):
        later = calls[position]
        later.seat = later.seat or next_seat(found["seat"], step)
        later.status, later.law, later.option = "cancelled", rectification.law, chosen
    if not cancelled:
        return {}
    return {"cancelled_calls": [position + 1 for position in cancelled], "turn_reverts_to": found["turn_seat"]}


def _change_options(edition: str, facts: dict[str, Any]) -> list[Any]:
    """Law 25: the rows of the edition's table the facts offer (``change_of_call_options``):
    25A (an unintended call replaced: no choice), too late (the first call stands), or the
    left-hand opponent's choice: accept the second call (25B1) or not (25B2)."""
    change = ChangeOfCall(
        unintended=bool(facts.get("unintended")),
        pause_for_thought=bool(facts.get("pause_for_thought")),
        partner_called=bool(facts.get("partner_called")),
        auction_ended=bool(facts.get("auction_ended")),
    )
    return change_of_call_options(edition, change)


def _play_options(ruling: Ruling, kind: str, facts: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    edition = edition_in_force(ruling.tournament)
    auction = _auction(ruling)
    try:
        as_called = auction.as_called(complete=False)
    except DealError as error:
        _refuse("auction", error)
    if as_called.declarer is None:
        raise ValidationError({"auction": _("The auction attached did not end in a contract: there is no play.")})
    seat = _seat(facts, "seat", required=True)
    try:
        trick = int(facts.get("trick") or 0)
    except (TypeError, ValueError):
        trick = 0
    if not 1 <= trick <= 13:
        raise ValidationError({"trick": _("Give the trick, 1 to 13.")})
    found: dict[str, Any] = {
        "auction": auction,
        "declarer": as_called.declarer,
        "contract": as_called.contract,
        "seat": seat,
        "trick": trick,
        "card": str(facts.get("card") or "").strip().upper().replace("10", "T"),
    }
    try:
        if kind == "lead_out_of_turn":
            return lead_out_of_turn(
                edition,
                offender=seat,
                declarer=as_called.declarer,
                opening=trick == 1,
                dummy_seen=bool(facts.get("dummy_seen")),
                trick=trick,
                proper_leader=_proper_leader(found),
            ), found
        if kind == "penalty_card_not_played":
            return penalty_card_not_played(
                edition,
                declarer_played=bool(facts.get("declarer_played")),
                seat=seat,
                declarer=declarer_after(as_called.declarer, auction.play_irregularities),
            ), found
        if kind == "premature_play":
            return premature_play(
                edition,
                partner_suits=_partner_suits(ruling, auction, seat, trick),
                declarer_played_both_hands=bool(facts.get("declarer_played_both_hands")),
            ), found
        choice = exposed_card(
            edition,
            seat=seat,
            declarer=declarer_after(as_called.declarer, auction.play_irregularities),
            card=found["card"] or "-",
            deliberate=bool(facts.get("deliberate")),
            other_penalty_cards=_penalty_cards_on_table(edition, found),
        )
        return [PlayChoice(choice.law, "director", choice)], found
    except DealError as error:
        _refuse("card" if getattr(error, "field", "") == "card" else "seat", error)
    raise AssertionError  # _refuse raised


def _proper_leader(found: dict[str, Any]) -> str:
    """The seat whose turn it was to lead to ``found["trick"]``: the winner of the trick before, as
    the play record shows it (the lead out of turn recorded again left out); empty when the
    record does not hold every trick before it."""
    auction: Auction = found["auction"]
    trick = found["trick"]
    cards = [c for t in auction.play for c in t]
    tricks = [cards[i : i + 4] for i in range(0, len(cards), 4)][: trick - 1]
    if trick < 2 or len(tricks) < trick - 1 or any(len(t) < 4 for t in tricks):
        return ""
    new = PlayIrregularity("lead_out_of_turn", trick, found["seat"], found["card"] or "SA")
    recorded = [i for i in _other_cards(auction.play_irregularities, new) if i.trick < trick]
    try:
        return trick_leaders(found["declarer"], [*tricks, []], recorded, found["contract"].rstrip("X")[1:])[-1]
    except DealError:
        return ""


def _penalty_cards_on_table(edition: str, found: dict[str, Any]) -> int:
    """How many penalty cards the defender ``found["seat"]`` already has on the table at
    ``found["trick"]`` (Law 50B: with two or more, all are major), from the play's irregularities
    recorded but the card being recorded again; none when the play record cannot be read."""
    auction: Auction = found["auction"]
    seat, trick = found["seat"], found["trick"]
    new = PlayIrregularity("exposed", trick, seat, found["card"] or "SA")
    recorded = _other_cards(auction.play_irregularities, new)
    if not any(i.seat == seat and i.card != new.card for i in recorded):
        return 0
    cards = [c for t in auction.play for c in t]
    tricks = [cards[i : i + 4] for i in range(0, len(cards), 4)][:trick]
    try:
        leaders = trick_leaders(found["declarer"], tricks, recorded, found["contract"].rstrip("X")[1:])
        states, _offered = penalty_cards_through_play(edition, found["declarer"], tricks, leaders, recorded)
    except DealError:
        return 0
    return sum(
        1
        for s in states
        if s.seat == seat
        and s.card != new.card
        and s.trick <= trick
        and (s.played_at is None or s.played_at >= trick)
        and (s.picked_up_at is None or s.picked_up_at > trick)
    )


def _partner_suits(ruling: Ruling, auction: Auction, seat: str, trick: int) -> str:
    """The suits declarer may name under 57A3: those the offender's partner holds (all four when
    the deal is not complete), but the suit led to the trick when the record shows it."""
    pbn = ruling.deal_pbn()
    deal = parse_deal(pbn) if pbn else None
    partner = next_seat(seat, 2)
    held = "SHDC"
    if deal is not None and deal.complete:
        held = "".join(suit for suit in "SHDC" if any(card[0] == suit for card in deal.cards(partner)))
    led = auction.play[trick - 1][0][0] if len(auction.play) >= trick and auction.play[trick - 1] else ""
    return "".join(suit for suit in held if suit != led)


def detected_irregularities(ruling: Ruling) -> list[dict[str, Any]]:
    """What the auction attached shows by itself (``bridge.auction_checks.detect``: 2007 17E2 /
    2017 17D3 / 1997 34, Law 37), for the irregularity page to offer: ``[{"kind", "number" (the
    call, 1 the dealer's first), "seat", "call", "law", "text" (in the reader's language),
    "deprived", "cancelled", "facts" (the page's fields to show the Law's options, or empty)}]``.
    A record the Laws cannot read gives nothing here: its refusal is the deal form's."""
    if not ruling.auction:
        return []
    auction = Auction.from_dict(ruling.auction)
    try:
        found = detect(edition_in_force(ruling.tournament), auction.dealer, auction.calls)
    except (DealError, ValueError):
        return []
    return [dict(each.to_dict(), text=translate(each.text), number=each.index + 1) for each in found]


def irregularity_options(ruling: Ruling, *, kind: str, facts: dict[str, Any]) -> list[dict[str, Any]]:
    """The options the Laws of the edition in force offer for ``facts`` (nothing written):
    ``[{"key", "chooser", "law", "text", ...}]`` (``Choice.to_dict()``, text in English)."""
    if kind not in KINDS:
        raise ValidationError({"kind": _("Choose what happened.")})
    options, _found = (_auction_options if kind in AUCTION_KINDS else _play_options)(ruling, kind, facts)
    return [dict(option.to_dict(), text=translate(option.rectification.text)) for option in options]


@transaction.atomic
def record_irregularity(
    *, ruling: Ruling, by: User, kind: str, facts: dict[str, Any], chosen: str, lead_option: str = ""
) -> Ruling:
    """Mark the irregular call or card in the ruling's auction as it happened, with who drew
    attention and the option chosen, and store the options and the rectification. Refusals are
    ValidationErrors naming the field."""
    policy.require(by, "ruling", ruling)
    try:
        return _record(ruling=ruling, by=by, kind=kind, facts=facts, chosen=chosen, lead_option=lead_option)
    except DealError as error:
        raise ValidationError(
            {"card" if getattr(error, "field", "") == "card" else "auction": translate(error)}
        ) from None


def _record(*, ruling: Ruling, by: User, kind: str, facts: dict[str, Any], chosen: str, lead_option: str) -> Ruling:
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(_("Only a draft ruling can be changed; correct a given ruling instead."))
    if kind not in KINDS:
        raise ValidationError({"kind": _("Choose what happened.")})
    edition = edition_in_force(ruling.tournament)
    auction_kind = kind in AUCTION_KINDS
    options, found = (_auction_options if auction_kind else _play_options)(ruling, kind, facts)
    keys = [option.key for option in options]
    if chosen not in keys:
        raise ValidationError(
            {"chosen": _("Choose one of the options the Laws offer: %(keys)s.") % {"keys": ", ".join(keys)}}
        )
    option = options[keys.index(chosen)]
    rectification = option.rectification
    attention_by = _seat(facts, "attention_by")
    auction: Auction = found["auction"]
    mark = _mark_call if auction_kind else _mark_card
    rectification, extra = mark(ruling, edition, kind, facts, chosen, lead_option, found, rectification, attention_by)
    ruling.auction = auction.to_dict()
    previous = ruling.irregularity_list
    ruling.irregularity = {
        "kind": kind,
        "edition": edition,
        "facts": {key: value for key, value in facts.items() if value not in (None, "")},
        "options": [o.to_dict() for o in options],
        "chosen": chosen,
        "law": rectification.law,
        "rectification": rectification.to_dict(),
        **extra,
    }
    ruling.irregularity_law = rectification.law
    ruling.irregularities = _in_order(previous, ruling.irregularity, found, auction_kind, bool(facts.get("inserted")))
    full_save(ruling)
    _cite(ruling, by, edition, irregularity_laws(previous), irregularity_laws(ruling.irregularities))
    audit.record(
        action="ruling.irregularity",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        after={"kind": kind, "chosen": chosen, "law": rectification.law},
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=f"{kind} {chosen} ({rectification.law})"),
    )
    return ruling


def _citable(edition: str, law: str) -> str:
    """The catalogue's number for ``law`` in ``edition``: the law itself, or the nearest paragraph
    it belongs to that the catalogue holds (1997 27B1a is cited as 27B1); empty when none."""
    for number in law_paragraphs(law):
        try:
            return validate_citation(edition, number).number
        except CitationError:
            continue
    return ""


def _cite(ruling: Ruling, by: User, edition: str, before: list[str], laws: list[str]) -> None:
    """The ruling cites the laws its irregularities' rectifications use: those of the
    irregularities recorded before are replaced, every other citation is kept."""
    earlier = {_citable(edition, law) for law in before}
    citations = list(ruling.citations.select_related("law"))
    kept = [c.law.number for c in citations if c.law is not None and c.law.number not in earlier]
    regulations = [c.regulation_id for c in citations if c.regulation_id]
    cited = [_citable(edition, law) for law in laws]
    cite_laws(ruling=ruling, by=by, laws=list(dict.fromkeys([*cited, *kept])), regulations=regulations)


def _in_order(
    previous: list[dict[str, Any]], entry: dict[str, Any], found: dict[str, Any], auction_kind: bool, inserted: bool
) -> list[dict[str, Any]]:
    """The ruling's irregularities (``previous``) with ``entry`` among them, in the order they happened: the
    auction's by their call, then the play's by trick (each recorded irregularity once: recording
    the same call or card again replaces it). A call inserted into the record moves the calls
    after it, and the irregularities recorded on them, one place on."""
    if auction_kind:
        position: list[Any] = ["auction", found["index"]]
    else:
        seat = found["seat"] or ""
        position = ["play", found["trick"], "NESW".index(seat) if seat and seat in "NESW" else 0]
    kept = []
    for other in previous:
        other = dict(other)
        where = list(other.get("position") or _legacy_position(other))
        if inserted and where[:1] == ["auction"] and where[1] >= found["index"]:
            where[1] += 1
        other["position"] = where
        if where != position:
            kept.append(other)
    kept.append(dict(entry, position=position))
    return sorted(kept, key=lambda each: (each["position"][0] != "auction", each["position"][1:]))


def _legacy_position(entry: dict[str, Any]) -> list[Any]:
    """Where an irregularity recorded before the ruling kept them all happened, from its facts."""
    facts = entry.get("facts") or {}
    if entry.get("kind") in AUCTION_KINDS:
        return ["auction", int(facts.get("call_number") or 1) - 1]
    seat = str(facts.get("seat") or "")
    return ["play", int(facts.get("trick") or 1), "NESW".index(seat) if seat and seat in "NESW" else 0]


def _mark_call(
    ruling: Ruling,
    edition: str,
    kind: str,
    facts: dict[str, Any],
    chosen: str,
    lead_option: str,
    found: dict[str, Any],
    rectification: Any,
    attention_by: str,
) -> tuple[Any, dict[str, Any]]:
    """The irregular call marked in the auction (status, attention, law, option); the law the
    actual replacement brings; Law 26's lead restriction when the offenders defend."""
    auction: Auction = found["auction"]
    extra: dict[str, Any] = {}
    calls, index, call = found["calls"], found["index"], found["call"]
    if kind == "insufficient_bid" and chosen != "27A1":
        replacement = next((c.call for c in calls[index + 1 :] if not c.seat or c.seat == found["seat"]), "")
        if replacement:
            try:
                rectification = insufficient_bid(
                    edition,
                    InsufficientBid(
                        call.call,
                        found["last_bid"],
                        replacement=replacement,
                        artificial=bool(facts.get("artificial")),
                        comparable=chosen == "27B1b" or bool(facts.get("comparable")),
                    ),
                )
            except DealError as error:
                _refuse("auction", error)
    if kind == "out_of_rotation" and chosen == "29B":
        rectification = call_out_of_rotation(edition, found["oor"])
    if kind == "change_of_call":
        call = _mark_change(found, rectification)
    else:
        call.status = "accepted" if rectification.stands else "cancelled"
    call.attention_by = attention_by
    call.law = rectification.law
    call.option = chosen
    if kind == "out_of_rotation":
        call.seat = found["seat"]
    if kind == "inadmissible_call":
        extra.update(_cancel_later_calls(found, rectification, chosen))
    auction.calls = calls
    try:
        as_called = read_auction(auction.dealer, auction.calls, complete=False)
    except DealError as error:
        _refuse("auction", error)
    if rectification.lead_restriction and as_called.declarer and side(as_called.declarer) != side(found["seat"]):
        offender = found["seat"]
        strain = call.call[1:] if is_bid(call.call) else ""
        specified = {
            auction.calls[i].call[1:]
            for i in as_called.legal
            if as_called.seats[i] == offender and is_bid(auction.calls[i].call)
        }
        restriction = lead_restriction(
            edition,
            withdrawn_suits=[strain] if strain in ("S", "H", "D", "C") and not facts.get("artificial") else [],
            offender_specified=sorted(s for s in specified if s in ("S", "H", "D", "C")),
            comparable=bool(facts.get("comparable")),
        )
        extra["lead_restriction"] = restriction.to_dict()
    return rectification, extra


def _mark_change(found: dict[str, Any], rectification: Any) -> AuctionCall:
    """Law 25 in the auction as called: the call after the changed one is the player's second
    call. When the second call stands (25A, 25B1) the first is withdrawn; otherwise (25B2, too
    late) the second is cancelled, made by the offender out of his turn, and the first stands.
    Returns the call that carries the mark."""
    calls, index = found["calls"], found["index"]
    if index + 1 >= len(calls):
        raise ValidationError(
            {
                "call_number": _(
                    "The auction attached has no call after this one: give the number of the changed call, "
                    "and the call that replaced it must follow it."
                )
            }
        )
    first, second = calls[index], calls[index + 1]
    if rectification.stands:
        first.status = "withdrawn"
        return first
    second.status, second.seat = "cancelled", found["seat"]
    return second


def _other_cards(recorded: list[PlayIrregularity], new: PlayIrregularity) -> list[PlayIrregularity]:
    """The play's irregularities but the one ``new`` records again (the same kind, trick and seat)
    and declarer's Law 50D2 choice that followed it: recording a card again replaces it, as
    recording a call again does."""
    again = [i for i in recorded if (i.kind, i.trick, i.seat) == (new.kind, new.trick, new.seat)]
    if not again:
        return list(recorded)
    partner = next_seat(new.seat, 2)
    return [
        i
        for i in recorded
        if i not in again and not (i.kind == "penalty_card_lead" and i.trick >= new.trick and i.seat == partner)
    ]


def _mark_card(
    ruling: Ruling,
    edition: str,
    kind: str,
    facts: dict[str, Any],
    chosen: str,
    lead_option: str,
    found: dict[str, Any],
    rectification: Any,
    attention_by: str,
) -> tuple[Any, dict[str, Any]]:
    """The card led out of turn or exposed added to the play's irregularities; a major penalty
    card followed through the play, with declarer's Law 50D2 choice; the play checked again."""
    auction: Auction = found["auction"]
    extra: dict[str, Any] = {}
    declarer = found["declarer"]
    card = found["card"]
    irregularity = (
        PlayIrregularity(
            PLAY_KINDS[kind],
            found["trick"],
            found["seat"],
            card,
            attention_by=attention_by,
            accepted_by=declarer if rectification.accepted and kind == "lead_out_of_turn" else "",
            option=chosen if kind != "exposed_card" else "",
            deliberate=bool(facts.get("deliberate")),
        )
        if card
        else None
    )
    if irregularity is None:
        raise ValidationError({"card": _("Say which card was led or exposed.")})
    auction.play_irregularities = [*_other_cards(auction.play_irregularities, irregularity), irregularity]
    if rectification.penalty_card == "major":
        partner = next_seat(found["seat"], 2)
        try:
            cards = [c for t in auction.play for c in t] or ([auction.opening_lead] if auction.opening_lead else [])
            tricks = [cards[i : i + 4] for i in range(0, len(cards), 4)]
            leaders = trick_leaders(declarer, tricks, auction.play_irregularities, found["contract"].rstrip("X")[1:])
        except DealError as error:
            _refuse("card", error)
        lead_choices = penalty_card_lead_options(edition, [card])
        extra["lead_options"] = [c.to_dict() for c in lead_choices]
        leader = leaders[found["trick"] - 1] if len(leaders) >= found["trick"] else ""
        if lead_option:
            if lead_option not in [c.key for c in lead_choices]:
                raise ValidationError({"lead_option": _("Choose one of declarer's options under Law 50D2.")})
            auction.play_irregularities.append(
                PlayIrregularity("penalty_card_lead", found["trick"], leader or partner, option=lead_option)
            )
            extra["lead_option"] = lead_option
        state, offered = penalty_cards_through_play(edition, declarer, tricks, leaders, auction.play_irregularities)
        extra["penalty_cards"] = [
            {
                "seat": s.seat,
                "card": s.card,
                "major": s.major,
                "law": s.law,
                "played_at": s.played_at,
                "picked_up_at": s.picked_up_at,
            }
            for s in state
        ]
    deal = parse_deal(ruling.deal_pbn()) if ruling.deal_pbn() else None
    if deal is not None and deal.complete:
        held = deal.cards(found["seat"])
        if card not in held:
            raise ValidationError(
                {"card": _("%(seat)s does not hold %(card)s.") % {"seat": found["seat"], "card": card}}
            )
        try:
            check_play(deal, auction)
        except DealError as error:
            _refuse("auction", error)
    return rectification, extra
