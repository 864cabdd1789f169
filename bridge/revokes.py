"""The trick transfer after a revoke (Laws 61-64) and after a defective trick (Law 67), per
edition of the Laws, and the double-dummy guide for Law 64C.

``revoke_transfer(edition, facts)`` returns a ``Transfer``: how many tricks go to the
non-offending side and the law sub-section that says so (``64A1``, ``64A2``, ``64B1``..
``64B7``, or ``62A`` for a revoke corrected before it was established). The editions differ:

- 64A1 (all editions): the offending player won the revoke trick: that trick, plus one more
  if the offending side won a later trick.
- 64A2 (2007, 2017): the offending player did not win the revoke trick: one trick, if the
  offending side won that trick or a later one.
- 64A2 (1997): the same one trick, and one further trick if the offending player later won a
  trick with a card he could legally have played to the revoke trick: up to two.
- 64B1-6 (all editions) and 64B7 (2007, 2017: both sides revoked on the board) take away the
  transfer; the 1997 code has no 64B7, so there each side's revoke is rectified on its own.
- Only tricks the offending side won from the revoke trick on can be transferred.

64C (equity) lets the director give the non-offending side more after any established
revoke, with or without a transfer; ``equity_guide`` compares the tricks they have after the
transfer with the tricks they would take double dummy from the revoke on.

``defective_trick_transfer(edition, facts)``: Law 67B1, a player who failed to play to a
trick. 1997: no penalty when he could follow suit (67B1a), otherwise a deemed revoke with one
trick transferred (67B1b). 2007 and 2017: deemed to have revoked either way, one trick under
64A2. 67B2 (too many cards played to a trick) transfers nothing for the defective trick
itself.

The paragraphs themselves, each with its words, are the rows of ``bridge.revoke_laws.REVOKE_LAWS``
(one table per edition, re-exported here): ``revoke_situation`` names the row the facts meet, and
the law, the tricks and the reason of every ``Transfer`` are that row's.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from bridge import messages
from bridge.messages import Message, MessageError
from bridge.play import SEATS, PlayRecord, Revoke, next_seat, other_side, side_of, side_tricks_from
from bridge.revoke_laws import (
    DEFECTIVE_NOTHING_TO_TRANSFER,
    EDITIONS,
    ESTABLISHED_BY,
    ESTABLISHMENT,
    EXEMPTIONS,
    REVOKE_LAWS,
    RevokeRow,
    establishment_laws,
    exemptions,
)

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._


class RevokeError(MessageError):
    """Facts of a revoke or defective trick that cannot be right; ``field`` names the fact."""

    def __init__(self, field: str, message: Message) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class RevokeFacts:
    """What the director finds about one revoke.

    ``trick`` 1-13; ``offender`` the seat that revoked; ``established`` and how (Law 63A1 a
    card of the offending side to the next trick, 63A2 a card named or designated for it,
    63A3 a claim or concession made or agreed by the offending side); who won the revoke trick
    (``offender_won_revoke_trick`` the offending player himself, declarer and dummy being
    separate players; ``offending_side_won_revoke_trick`` he or his partner);
    ``offending_side_tricks_after`` the tricks the offending side won after the revoke trick;
    ``offender_won_with_legal_card`` the offending player later won a trick with a card he
    could legally have played to the revoke trick (1997 64A2). The rest are the exemptions:
    ``subsequent_same_suit`` (64B2), ``faced_card`` (64B3), ``noticed_after_next_call``
    (64B4), ``noticed_after_round`` (64B5), ``both_sides_revoked`` (64B7, 2007 and 2017).
    """

    trick: int
    offender: str
    established: bool
    offender_won_revoke_trick: bool
    offending_side_won_revoke_trick: bool
    offending_side_tricks_after: int
    established_by: str = ""
    offender_won_with_legal_card: bool = False
    subsequent_same_suit: bool = False
    faced_card: bool = False
    noticed_after_next_call: bool = False
    noticed_after_round: bool = False
    both_sides_revoked: bool = False
    # Dummy was the first to ask declarer about a possible revoke (Law 43B2b): declarer corrects
    # it, but Law 64 applies as if it were established.
    as_if_established: bool = False
    # 1997 Law 63B: attention was drawn to the revoke in violation of Law 61B: the revoker
    # substitutes a legal card, and Law 64 applies as if the revoke had been established.
    attention_illegally_drawn: bool = False

    @property
    def offending_side(self) -> str:
        return side_of(self.offender)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RevokeFacts:
        names = cls.__dataclass_fields__
        return cls(**{key: value for key, value in data.items() if key in names})

    def check(self) -> None:
        """Raise RevokeError naming the fact that cannot be right."""
        if not isinstance(self.trick, int) or not 1 <= self.trick <= 13:
            raise RevokeError("trick", _("the revoke trick is a trick from 1 to 13, not %(trick)s", trick=self.trick))
        if self.trick == 13:
            raise RevokeError("trick", _("nobody can revoke on the 13th trick: each player has one card left"))
        if self.offender not in SEATS:
            raise RevokeError("offender", _("'%(text)s' is not a seat: write N, E, S or W", text=self.offender))
        if self.established and self.established_by not in ESTABLISHED_BY:
            raise RevokeError(
                "established_by",
                _(
                    "say how the revoke was established: 63A1 (played to the next trick), 63A2 (a card named for it) "
                    "or 63A3 (a claim or concession)"
                ),
            )
        if not self.established and self.established_by:
            raise RevokeError("established_by", _("a revoke that was not established has no way it was established"))
        if self.offender_won_revoke_trick and not self.offending_side_won_revoke_trick:
            raise RevokeError(
                "offending_side_won_revoke_trick", _("the offending player won the revoke trick, so his side won it")
            )
        left = 13 - self.trick
        if not isinstance(self.offending_side_tricks_after, int) or not 0 <= self.offending_side_tricks_after <= left:
            raise RevokeError(
                "offending_side_tricks_after",
                _(
                    "after trick %(trick)s the offending side can win 0 to %(left)s tricks, not %(n)s",
                    trick=self.trick,
                    left=left,
                    n=self.offending_side_tricks_after,
                ),
            )
        if self.offender_won_with_legal_card and self.offending_side_tricks_after == 0:
            raise RevokeError(
                "offender_won_with_legal_card",
                _(
                    "the offending side won no trick after the revoke trick, so the offender won none with a card "
                    "of the suit led"
                ),
            )


@dataclass(frozen=True)
class Transfer:
    """Tricks transferred to the non-offending side, the law sub-section that says so, and why.
    ``equity`` is True when Law 64C (the director's duty to restore equity) is open."""

    tricks: int
    law: str
    reason: Message
    equity: bool

    def to_dict(self) -> dict[str, Any]:
        params: dict[str, object] = getattr(self.reason, "params", {})
        return {
            "tricks": self.tricks,
            "law": self.law,
            "reason": str(self.reason),
            "reason_template": getattr(self.reason, "template", str(self.reason)),
            "reason_params": {key: str(value) for key, value in params.items()},
            "equity": self.equity,
        }


def _check_edition(edition: str) -> None:
    if edition not in EDITIONS:
        raise RevokeError(
            "edition", _("'%(edition)s' is not an edition of the Laws: 1997, 2007 or 2017", edition=edition)
        )


def as_if_established_laws(edition: str) -> tuple[str, ...]:
    """The law under which a corrected revoke is rectified as if established: 43B2b (dummy,
    having forfeited his rights, first to ask declarer about a possible revoke), the row
    ``as_if_established`` of every edition. One citation a law: the 1997 63B (attention drawn in
    violation of Law 61B) is another paragraph, and citing it here named a violation that did
    not happen."""
    _check_edition(edition)
    return (REVOKE_LAWS[edition]["as_if_established"].law,)


def illegally_drawn_laws(edition: str) -> tuple[str, ...]:
    """The law under which a revoke corrected after attention was drawn to it in violation of Law
    61B is rectified as if established: the 1997 63B, its row ``attention_illegally_drawn``; none
    in 2007 and 2017, which have no such paragraph."""
    _check_edition(edition)
    row = REVOKE_LAWS[edition].get("attention_illegally_drawn")
    return (row.law,) if row else ()


def revoke_situation(edition: str, facts: RevokeFacts) -> str:
    """The key of the edition's row (``REVOKE_LAWS``) the facts of an established revoke meet:
    the first exemption of 64B in the Laws' order that applies, else the case of 64A."""
    applies = {
        "64B1": not facts.offending_side_won_revoke_trick and facts.offending_side_tricks_after == 0,
        "64B2": facts.subsequent_same_suit,
        "64B3": facts.faced_card,
        "64B4": facts.noticed_after_next_call,
        "64B5": facts.noticed_after_round,
        "64B6": facts.trick == 12,
        "64B7": facts.both_sides_revoked,
    }
    for law in exemptions(edition):
        if applies[law]:
            return law
    if facts.offender_won_revoke_trick:
        return "won_and_later" if facts.offending_side_tricks_after else "won_only"
    if facts.offender_won_with_legal_card and "not_won_legal_card" in REVOKE_LAWS[edition]:
        available = int(facts.offending_side_won_revoke_trick) + facts.offending_side_tricks_after
        return "not_won_legal_card" if available >= 2 else "not_won_legal_card_capped"
    return "not_won"


def _transfer(row: RevokeRow, **params: Any) -> Transfer:
    return Transfer(row.tricks, row.law, row.reason(**params), row.equity)


def revoke_transfer(edition: str, facts: RevokeFacts) -> Transfer:
    """The trick transfer of Law 64 for one revoke in ``edition`` (1997, 2007 or 2017), read from
    the edition's row of ``REVOKE_LAWS``."""
    _check_edition(edition)
    facts.check()
    table = REVOKE_LAWS[edition]
    if facts.established and facts.established_by not in establishment_laws(edition):
        raise RevokeError(
            "established_by",
            _(
                "the %(edition)s Laws have no paragraph %(law)s: a revoke is established under %(laws)s",
                edition=edition,
                law=facts.established_by,
                laws=", ".join(establishment_laws(edition)),
            ),
        )
    if facts.attention_illegally_drawn and "attention_illegally_drawn" not in table:
        raise RevokeError(
            "attention_illegally_drawn",
            _(
                "the %(edition)s Laws have no paragraph for a revoke to which attention was drawn in violation of "
                "Law 61B (the 1997 Law 63B)",
                edition=edition,
            ),
        )
    if facts.attention_illegally_drawn and facts.as_if_established:
        raise RevokeError(
            "attention_illegally_drawn",
            _(
                "say one: dummy was the first to ask declarer about the revoke (43B2b), or attention was drawn to it "
                "in violation of Law 61B (63B)"
            ),
        )
    if not facts.established and (facts.as_if_established or facts.attention_illegally_drawn):
        inner = revoke_transfer(
            edition,
            replace(
                facts,
                established=True,
                established_by="63A1",
                as_if_established=False,
                attention_illegally_drawn=False,
            ),
        )
        if facts.attention_illegally_drawn:
            reason = table["attention_illegally_drawn"].reason(reason=inner.reason)
        else:
            reason = table["as_if_established"].reason(
                laws=", ".join(as_if_established_laws(edition)), reason=inner.reason
            )
        return Transfer(inner.tricks, inner.law, reason, inner.equity)
    if not facts.established:
        return _transfer(table["corrected"])
    return _transfer(table[revoke_situation(edition, facts)])


@dataclass(frozen=True)
class DefectiveTrickFacts:
    """Law 67B: ``offender`` failed to play a card to trick ``trick`` (or, with
    ``too_many_cards``, played more than one); ``could_follow`` whether he held the suit led;
    ``offending_side_won_from_then`` whether his side won that trick or a later one;
    ``before_next_trick`` attention was drawn before both sides played to the next trick
    (Law 67A: the trick is put right, nothing is transferred)."""

    trick: int
    offender: str
    could_follow: bool
    offending_side_won_from_then: bool
    too_many_cards: bool = False
    before_next_trick: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        if not isinstance(self.trick, int) or not 1 <= self.trick <= 13:
            raise RevokeError(
                "trick", _("the defective trick is a trick from 1 to 13, not %(trick)s", trick=self.trick)
            )
        if self.offender not in SEATS:
            raise RevokeError("offender", _("'%(text)s' is not a seat: write N, E, S or W", text=self.offender))


def defective_trick_transfer(edition: str, facts: DefectiveTrickFacts) -> Transfer:
    """Law 67 in ``edition``: 67A before both sides played to the next trick (put right, no
    transfer), else 67B: the tricks transferred for a defective trick, read from the edition's
    row of ``REVOKE_LAWS``."""
    _check_edition(edition)
    facts.check()
    table = REVOKE_LAWS[edition]
    if facts.before_next_trick:
        return _transfer(table["defective_too_many_before" if facts.too_many_cards else "defective_supplied"])
    if facts.too_many_cards:
        return _transfer(table["defective_too_many"])
    row = table["defective_could_follow" if facts.could_follow else "defective_could_not_follow"]
    if row.tricks and not facts.offending_side_won_from_then:
        return Transfer(0, row.law, Message(DEFECTIVE_NOTHING_TO_TRANSFER), True)
    return _transfer(row)


def result_after(*, declarer: str, declarer_tricks: int, offender: str, transferred: int) -> int:
    """Declarer's tricks after ``transferred`` tricks go from the offending side to the other."""
    if not 0 <= declarer_tricks <= 13:
        raise RevokeError("tricks", _("declarer takes 0 to 13 tricks, not %(n)s", n=declarer_tricks))
    if side_of(offender) == side_of(declarer):
        return max(0, declarer_tricks - transferred)
    return min(13, declarer_tricks + transferred)


# --- From the play record -----------------------------------------------------------------


def facts_from_play(
    record: PlayRecord,
    revoke: Revoke,
    *,
    faced_card: bool | None = None,
    noticed_after_next_call: bool = False,
    noticed_after_round: bool = False,
    established_by: str | None = None,
) -> RevokeFacts:
    """The facts of ``revoke`` as the play record shows them. The director adds what the record
    cannot show (attention drawn after the next board's call or after the round) and may say
    how it was established when the record stops at the revoke trick (``established_by``).
    A revoke from dummy's hand is a failure to play a faced card (64B3) unless told otherwise.
    Raises RevokeError when the record cannot say who won the revoke trick or the tricks after.
    """
    trick = record.tricks[revoke.trick - 1]
    if trick.winner is None:
        raise RevokeError(
            "trick", _("the play record stops in the revoke trick (%(n)s): enter who won it", n=revoke.trick)
        )
    side = side_of(revoke.seat)
    after = record.won_from(side, revoke.trick + 1)
    if after is None:
        raise RevokeError(
            "offending_side_tricks_after",
            _(
                "the play record stops at trick %(n)s without a claim: enter the tricks the offending side won after "
                "the revoke trick",
                n=len(record.tricks),
            ),
        )
    if established_by is None:
        established_by = ""
        following = record.tricks[revoke.trick] if revoke.trick < len(record.tricks) else None
        if following is not None and any(side_of(following.seat_at(i)) == side for i in range(len(following.cards))):
            established_by = "63A1"
        elif record.claim is not None and revoke.trick == len(record.tricks):
            established_by = "63A3"
    later_tricks = [
        t
        for t in record.tricks
        if t.number > revoke.trick
        and t.winner == revoke.seat
        and t.winning_card is not None
        and t.winning_card[0] == revoke.suit_led
    ]
    same_suit_before = any(
        r.seat == revoke.seat and r.suit_led == revoke.suit_led and r.trick < revoke.trick for r in record.revokes()
    )
    both = any(side_of(r.seat) != side for r in record.revokes())
    return RevokeFacts(
        trick=revoke.trick,
        offender=revoke.seat,
        established=bool(established_by),
        established_by=established_by,
        offender_won_revoke_trick=trick.winner == revoke.seat,
        offending_side_won_revoke_trick=side_of(trick.winner) == side,
        offending_side_tricks_after=after,
        offender_won_with_legal_card=bool(later_tricks),
        subsequent_same_suit=same_suit_before,
        faced_card=revoke.seat == record.dummy if faced_card is None else faced_card,
        noticed_after_next_call=noticed_after_next_call,
        noticed_after_round=noticed_after_round,
        both_sides_revoked=both,
    )


def equity_guide(record: PlayRecord, revoke: Revoke, transfer: Transfer) -> dict[str, Any]:
    """Law 64C's guide: the tricks the non-offending side took from the revoke trick on, with
    the transfer, against the tricks they take double dummy from the position just before the
    revoking card. ``short`` is how many tricks the transfer leaves them below that."""
    non_offending = other_side(side_of(revoke.seat))
    position = record.position(revoke.trick, revoke.position)
    double_dummy = position.won[non_offending] + side_tricks_from(position, record.strain, non_offending)
    at_table = record.won_from(non_offending, 1)
    if at_table is None:
        raise RevokeError(
            "offending_side_tricks_after",
            _(
                "the play record stops at trick %(n)s without a claim: enter the tricks the offending side won after "
                "the revoke trick",
                n=len(record.tricks),
            ),
        )
    return {
        "non_offending": non_offending,
        "double_dummy": double_dummy,
        "at_table": at_table,
        "after_transfer": at_table + transfer.tricks,
        "short": max(0, double_dummy - at_table - transfer.tricks),
    }


__all__ = [
    "EDITIONS",
    "ESTABLISHED_BY",
    "ESTABLISHMENT",
    "EXEMPTIONS",
    "REVOKE_LAWS",
    "RevokeRow",
    "establishment_laws",
    "exemptions",
    "revoke_situation",
    "DefectiveTrickFacts",
    "RevokeError",
    "RevokeFacts",
    "Transfer",
    "defective_trick_transfer",
    "equity_guide",
    "facts_from_play",
    "next_seat",
    "result_after",
    "revoke_transfer",
    "as_if_established_laws",
    "illegally_drawn_laws",
]
