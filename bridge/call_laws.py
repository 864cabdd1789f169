"""The Laws of the auction's irregularities per edition (1997, 2007, 2017): the rectification and
the choice they all give, Law 23 per edition (``LAW_23``), and Laws 35-39 (inadmissible calls).
Laws 25 and 27 are tables in ``bridge.replacement_laws``, Laws 26 and 29-32 in
``bridge.rotation_laws``. ``bridge.irregularities`` re-exports every public name here
(docs/irregularities.md names them there).

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.deals import STRAINS, DealError
from bridge.messages import Message

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._

EDITIONS = ("1997", "2007", "2017")
STATUSES = ("", "accepted", "condoned", "cancelled", "withdrawn", "pending")
STANDING = ("", "accepted", "condoned")
REMOVED = ("cancelled", "withdrawn")
# Whose turn it was, seen from the offender: his right-hand opponent's, his partner's, his left-hand opponent's.
TURNS = ("rho", "partner", "lho")


class IrregularityError(DealError):
    """Facts of an irregularity that cannot be right; ``field`` names the fact."""


def check_edition(edition: str) -> None:
    if edition not in EDITIONS:
        raise IrregularityError(
            "edition", _("'%(edition)s' is not an edition of the Laws: 1997, 2007 or 2017", edition=edition)
        )


def side(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def bid_rank(bid: str) -> tuple[int, int]:
    return int(bid[0]), STRAINS.index(bid[1:])


def is_bid(call: str) -> bool:
    return call[:1].isdigit()


# --- Rectifications ------------------------------------------------------------------------


@dataclass(frozen=True)
class Rectification:
    """What a law does after an irregular call.

    ``law`` the sub-section applied; ``text`` in words; ``stands`` whether the irregular call
    stands as legal; ``offender_must_pass`` and ``partner_must_pass``: ``""``, ``"next"``
    (at the next turn only) or ``"throughout"`` (whenever it is his turn, to the end of the
    auction); ``partner_may_not_double`` (30B2b: at that turn); ``offender_must_repeat``
    (31A1, 32B1); ``lead_restriction`` (Law 26 may apply); ``adjustment`` the law under which
    the director may still adjust the score (27D, 23, 72C, 23C, 16); ``score_cap`` (1997
    25B2b2: ``"average_minus"``); ``change_of_call`` (the call is treated under Law 25)."""

    law: str
    text: Message
    stands: bool = False
    offender_must_pass: str = ""
    partner_must_pass: str = ""
    partner_may_not_double: bool = False
    offender_must_repeat: bool = False
    lead_restriction: bool = False
    adjustment: str = ""
    score_cap: str = ""
    change_of_call: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "law": self.law,
            **messages.stored(self.text),
            "stands": self.stands,
            "offender_must_pass": self.offender_must_pass,
            "partner_must_pass": self.partner_must_pass,
            "partner_may_not_double": self.partner_may_not_double,
            "offender_must_repeat": self.offender_must_repeat,
            "lead_restriction": self.lead_restriction,
            "adjustment": self.adjustment,
            "score_cap": self.score_cap,
            "change_of_call": self.change_of_call,
        }


@dataclass(frozen=True)
class Choice:
    """One option a director offers: ``key`` (stable: what the record stores), who chooses
    (``lho`` the offender's left-hand opponent, ``offender``, ``declarer``, ``director``),
    and the rectification it brings."""

    key: str
    chooser: str
    rectification: Rectification

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "chooser": self.chooser, **self.rectification.to_dict()}


@dataclass(frozen=True)
class Law23:
    """What each edition's Law 23 (or, 2017, its successor 72C) does for the auction's
    rectifications: ``damage`` the law under which the director adjusts when the offender could
    have known that his partner's enforced pass would damage the non-offending side;
    ``comparable`` the paragraph defining the comparable call, ``no_rectification`` the one that
    lets it end the matter and ``comparable_damage`` the one that adjusts after it (2017 only;
    empty where the edition has no comparable call)."""

    damage: str
    comparable: str = ""
    no_rectification: str = ""
    comparable_damage: str = ""


# 1997 Law 23 "Enforced Pass" (catalogued unverified): "Whenever, in the Director's opinion, at
# the time of an irregularity the offender could have known that the enforced pass of partner would
# be likely to damage the non-offending side, the Director shall require the auction and play to
# continue and afterwards award an adjusted score if he considers that the offending side gained an
# advantage through the irregularity." 2007 Law 23 "Awareness of Potential Damage": "Whenever, in
# the opinion of the Director, an offender could have been aware at the time of his irregularity
# that this could well damage the non-offending side, he shall require the auction and play to
# continue (if not completed). When play is completed the Director awards an adjusted score if he
# considers the offending side has gained an advantage through the irregularity." 2017 moves these
# words to Law 72C and makes Law 23 the comparable call: 23A "A call that replaces a withdrawn call
# is a comparable call, if it: 1. has the same or similar meaning as that attributable to the
# withdrawn call, or 2. defines a subset of the possible meanings attributable to the withdrawn
# call, or 3. has the same purpose (e.g. an asking bid or a relay) as that attributable to the
# withdrawn call" (the director's judgement: the facts' ``comparable``); 23B "When a call is
# cancelled (as per Law 29B) and the offender chooses at his proper turn to replace the
# irregularity with a comparable call, then both the auction and play continue without further
# rectification. Law 16C2 does not apply, but see C following"; 23C "If following the substitution
# of a comparable call [see Laws 27B1(b), 30B1(b)(i), 31A2(a) and 32A2(a)] the Director judges at
# the end of the play that without the assistance gained through the infraction the outcome of the
# board could well have been different, and in consequence the non-offending side is damaged, he
# shall award an adjusted score".
LAW_23: dict[str, Law23] = {
    "1997": Law23("23"),
    "2007": Law23("23"),
    "2017": Law23("72C", comparable="23A", no_rectification="23B", comparable_damage="23C"),
}
assert set(LAW_23) == set(EDITIONS)


def damage_law(edition: str) -> str:
    """The law that lets the director adjust when the offenders' partner, made to pass, could
    have known it would damage the other side: Law 23 in 1997 and 2007, 72C in 2017 (``LAW_23``)."""
    check_edition(edition)
    return LAW_23[edition].damage


def lowest_sufficient(bid: str, last_bid: str) -> str:
    """The lowest sufficient bid in the denomination of ``bid`` over ``last_bid``."""
    level = int(last_bid[0]) + (0 if STRAINS.index(bid[1:]) > STRAINS.index(last_bid[1:]) else 1)
    return f"{level}{bid[1:]}"


# Laws 35-39

# The rectifications that cancel the inadmissible call and every call after it (36A; 1997 35A:
# the double the left-hand opponent called over; 38B: a bid above seven).
LATER_CALLS_CANCELLED = ("36A", "35A", "38")


def later_calls_cancelled(law: str, *, index: int, later_calls: int, total: int) -> tuple[int, ...]:
    """The positions (0-based) of the calls ``law`` cancels after the inadmissible call at
    ``index``: the ``later_calls`` made before the director ruled, which must be in the auction
    of ``total`` calls. Law 36A: "the inadmissible call and all subsequent calls are cancelled";
    the auction reverts to the player whose turn it was and proceeds as though there had been
    no irregularity. Other rectifications cancel no later call."""
    if later_calls < 0 or index + later_calls >= total:
        raise IrregularityError(
            "later_calls",
            _(
                "there is no call %(last)s in the auction: it ends at call %(total)s",
                last=index + later_calls + 1,
                total=total,
            ),
        )
    if law not in LATER_CALLS_CANCELLED:
        return ()
    if law in ("36A", "35A") and later_calls == 0:
        raise IrregularityError(
            "later_calls",
            _(
                "Law %(law)s: the left-hand opponent called over the inadmissible call: say how many calls were made "
                "after it before the director ruled; they are cancelled with it",
                law=law,
            ),
        )
    return tuple(range(index + 1, index + later_calls + 1))


INADMISSIBLE = ("double", "required_pass", "above_seven", "after_auction")


def inadmissible_call(edition: str, kind: str, *, lho_called: bool, out_of_rotation: bool = False) -> Rectification:
    """An inadmissible call (Law 35): ``double`` a double or redouble Law 19 does not allow
    (36A: the left-hand opponent called before rectification, every call from it on is
    cancelled; 36B: it is cancelled, the offender makes a legal call and his partner passes
    throughout); ``required_pass`` a call by a player who had to pass (37A: the calls stand;
    37B: replaced by a pass, the offending side passes throughout); ``above_seven`` (38); a
    call ``after_auction`` ended (39: cancelled; a pass by the defenders' side has no
    rectification, any other call by a defender brings lead restrictions). The 1997 Laws
    number the calls the left-hand opponent condoned in Law 35 (35A the double, 35B the call
    by a player who had to pass) and have no sub-sections in 36 and 37."""
    check_edition(edition)
    if kind not in INADMISSIBLE:
        raise IrregularityError(
            "kind",
            _(
                "'%(text)s' is not an inadmissible call: double, required_pass, above_seven or after_auction",
                text=kind,
            ),
        )
    damage = damage_law(edition)
    if kind == "double":
        if lho_called:
            return Rectification(
                "35A" if edition == "1997" else "36A",
                _(
                    "the left-hand opponent called before rectification: every call from the inadmissible double on "
                    "is cancelled and the auction goes on as if nothing had happened"
                ),
            )
        return Rectification(
            "36" if edition == "1997" else "36B",
            _(
                "cancelled: the offender makes a legal call and his partner must pass whenever it is his turn; Law 26 "
                "lead restrictions may apply"
            ),
            partner_must_pass="throughout",
            lead_restriction=True,
            adjustment=damage,
        )
    if kind == "required_pass":
        if lho_called:
            return Rectification(
                "35B" if edition == "1997" else "37A",
                _("the left-hand opponent called before rectification: every call stands; a pass still owed is owed"),
                stands=True,
            )
        return Rectification(
            "37" if edition == "1997" else "37B",
            _("replaced by a pass: each member of the offending side must pass whenever it is his turn"),
            offender_must_pass="throughout",
            partner_must_pass="throughout",
            lead_restriction=True,
            adjustment=damage,
        )
    if kind == "above_seven":
        return Rectification(
            "38",
            _(
                "no contract above seven is played: the bid and any later calls are cancelled, a pass replaces it; "
                "the offending side must pass throughout"
            ),
            offender_must_pass="throughout",
            partner_must_pass="throughout",
            lead_restriction=True,
            adjustment=damage,
        )
    return Rectification(
        "39",
        _(
            "a call after the final pass is cancelled; a pass by a defender, or any call by declarer's side, has no "
            "further rectification; another call by a defender may bring Law 26 lead restrictions"
        ),
        lead_restriction=True,
    )


__all__ = [
    "Choice",
    "EDITIONS",
    "INADMISSIBLE",
    "LATER_CALLS_CANCELLED",
    "LAW_23",
    "Law23",
    "IrregularityError",
    "REMOVED",
    "Rectification",
    "STANDING",
    "STATUSES",
    "TURNS",
    "bid_rank",
    "check_edition",
    "damage_law",
    "inadmissible_call",
    "is_bid",
    "later_calls_cancelled",
    "lowest_sufficient",
    "side",
]
