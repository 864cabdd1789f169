"""Irregularities the auction record shows by itself, offered to the director with their Law
(issue #39), per edition of the Laws (1997, 2007, 2017):

- three passes, one of them out of rotation, that would end the auction while a player lost his
  turn to call: 1997 Law 34, 2007 Law 17E2, 2017 Law 17D3 ("When a call has been followed by three
  passes the auction does not end if any of those passes was out of rotation, depriving a player of
  his right to call. When this occurs the auction reverts to the player who missed his turn, all
  subsequent passes are cancelled and the auction proceeds normally", 2017; 2007 "one of those
  passes", Law 16D; 1997 Law 34 the same, "the auction proceeds as though there had been no
  irregularity");
- a bid, double or redouble by a player who had to pass (Law 37; 1997 Laws 35B and 37): the pass
  obligations are those of the rectifications recorded on the earlier irregular calls (their law,
  read in the edition's own rows: bridge.rotation_laws.ROTATION, bridge.replacement_laws.INSUFFICIENT
  and CHANGE, Laws 36, 37, 38), for his next
  turn or for the rest of the auction; the law is 37A (1997 35B) when the offender's left-hand
  opponent called over it, else 37B (1997 37).

``detect(edition, dealer, calls)`` reads the record (``bridge.irregularities.read_auction``) and
returns one ``Detected`` per irregularity found, in the order of the calls. Calls already marked
by the director are left alone. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge import messages
from bridge.call_laws import check_edition, inadmissible_call
from bridge.calls import AuctionCall
from bridge.deals import SEAT_WORDS, next_seat
from bridge.irregularities import AuctionAsCalled, read_auction
from bridge.messages import Message
from bridge.replacement_laws import CHANGE, INSUFFICIENT
from bridge.rotation_laws import ROTATION

_: Callable[..., Message] = messages._

# The law of the auction's end with a pass out of rotation, per edition.
DEPRIVED_LAW = {"1997": "34", "2007": "17E2", "2017": "17D3"}
# The Law 16 paragraph that applies to the cancelled passes (1997 Law 34 names none).
DEPRIVED_UI_LAW = {"1997": "", "2007": "16D", "2017": "16C"}
# The pass obligations of the rectifications outside the tables (Laws 25, 27 and 29-32 are read
# from their rows): (offender, offender's partner).
OTHER_OBLIGATIONS = {
    "1997": {
        "36": ("", "throughout"),
        "37": ("throughout", "throughout"),
        "38": ("throughout", "throughout"),
    },
    "2007": {
        "36B": ("", "throughout"),
        "37B": ("throughout", "throughout"),
        "38": ("throughout", "throughout"),
    },
}
OTHER_OBLIGATIONS["2017"] = OTHER_OBLIGATIONS["2007"]


@dataclass(frozen=True)
class Detected:
    """One irregularity read from the record: ``kind`` ``deprived_of_turn`` (17D3 / 17E2 / 34) or
    ``required_pass`` (37); ``index`` the call (0 the dealer's first); ``seat`` the offender;
    ``law`` and ``text`` the edition's; ``deprived`` the seat that lost its turn and ``cancelled``
    the passes cancelled (17D3); ``facts`` what the ruling's irregularity page takes to offer the
    Law's options (empty where the Law leaves the director no choice)."""

    kind: str
    index: int
    seat: str
    call: str
    law: str
    text: Message
    deprived: str = ""
    cancelled: tuple[int, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "index": self.index,
            "seat": self.seat,
            "call": self.call,
            "law": self.law,
            "text": str(self.text),
            "deprived": self.deprived,
            "cancelled": list(self.cancelled),
            "facts": dict(self.facts),
        }


def partner_of(seat: str) -> str:
    return next_seat(seat, 2)


def obligation(edition: str, law: str) -> tuple[str, str]:
    """(offender, partner): ``""``, ``"next"`` or ``"throughout"`` — how long each must pass after
    a rectification cited as ``law`` in ``edition``. A law whose rows differ (2017 30B1b: none when
    comparable, partner's next turn otherwise) gives nothing: the record does not say which."""
    check_edition(edition)
    if law in OTHER_OBLIGATIONS[edition]:
        return OTHER_OBLIGATIONS[edition][law]
    rows = [*ROTATION[edition].values(), *INSUFFICIENT[edition].values(), *CHANGE[edition].values()]
    effects = {(row.offender_must_pass, row.partner_must_pass) for row in rows if row.law == law}
    return effects.pop() if len(effects) == 1 else ("", "")


def detect(edition: str, dealer: str, calls: Sequence[AuctionCall | str]) -> tuple[Detected, ...]:
    """Every irregularity the record shows by itself (see the module's docstring)."""
    check_edition(edition)
    made = [c if isinstance(c, AuctionCall) else AuctionCall(c) for c in calls]
    read = read_auction(dealer, made, complete=False)
    found = [*_required_passes(edition, made, read)]
    deprived = _deprived_of_turn(edition, made, read)
    if deprived is not None:
        found.append(deprived)
    return tuple(sorted(found, key=lambda each: each.index))


def _deprived_of_turn(edition: str, made: Sequence[AuctionCall], read: AuctionAsCalled) -> Detected | None:
    legal = list(read.legal)
    if not read.ended or len(legal) < 4 or made[legal[-1]].call == "AP":
        return None
    closers, before = legal[-3:], legal[-4]
    if any(made[i].call != "Pass" for i in closers):
        return None
    due = [next_seat(read.seats[before], step) for step in (1, 2, 3)]
    called = [read.seats[i] for i in closers]
    missing = [seat for seat in due if seat not in called]
    out_of_rotation = [
        call.index for call in read.irregular if call.index in closers and call.kind == "out_of_rotation"
    ]
    if not missing or not out_of_rotation:
        return None
    first = out_of_rotation[0]
    cancelled = tuple(i for i in closers if i >= first)
    ui = DEPRIVED_UI_LAW[edition]
    text = _(
        "three passes, one out of rotation, followed %(call)s, and %(seat)s lost his turn to call: the auction does "
        "not end; it reverts to %(seat)s, the passes from %(offender)s's on are cancelled and the auction proceeds "
        "normally",
        call=made[before].call,
        seat=SEAT_WORDS[missing[0]],
        offender=SEAT_WORDS[read.seats[first]],
    )
    if ui:
        text = _("%(text)s (Law %(law)s applies to the cancelled passes)", text=text, law=ui)
    return Detected(
        "deprived_of_turn",
        first,
        read.seats[first],
        made[first].call,
        DEPRIVED_LAW[edition],
        text,
        deprived=missing[0],
        cancelled=cancelled,
    )


def _required_passes(edition: str, made: Sequence[AuctionCall], read: AuctionAsCalled) -> list[Detected]:
    """Each standing call other than a pass by a player a recorded rectification obliged to pass."""
    owed: list[tuple[int, str, str]] = []  # (from the call after this index, seat, how long)
    for call in read.irregular:
        offender, partner = obligation(edition, call.law)
        if offender:
            owed.append((call.index, call.seat, offender))
        if partner:
            owed.append((call.index, partner_of(call.seat), partner))
    marked = {call.index for call in read.irregular}
    found: list[Detected] = []
    legal = list(read.legal)
    for start, seat, how_long in owed:
        own = [i for i in legal if i > start and read.seats[i] == seat]
        for i in own[:1] if how_long == "next" else own:
            if made[i].call in ("Pass", "AP") or i in marked or any(each.index == i for each in found):
                continue
            lho_called = any(j > i and read.seats[j] == next_seat(seat) for j in legal)
            rectification = inadmissible_call(edition, "required_pass", lho_called=lho_called)
            found.append(
                Detected(
                    "required_pass",
                    i,
                    seat,
                    made[i].call,
                    rectification.law,
                    _(
                        "%(seat)s had to pass (Law %(law)s, call %(n)s) and called %(call)s: %(text)s",
                        seat=SEAT_WORDS[seat],
                        law=next(c.law for c in read.irregular if c.index == start),
                        n=start + 1,
                        call=made[i].call,
                        text=rectification.text,
                    ),
                    facts={
                        "kind": "inadmissible_call",
                        "call_number": i + 1,
                        "inadmissible": "required_pass",
                        "lho_called": lho_called,
                    },
                )
            )
    return found


__all__ = ["DEPRIVED_LAW", "Detected", "detect", "obligation", "partner_of"]
