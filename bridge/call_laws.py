"""The Laws of the auction's irregularities per edition (1997, 2007, 2017): what Laws 25-39 and
26 do after an irregular call, and the options a director offers. ``bridge.irregularities``
re-exports every public name here (docs/irregularities.md names them there).

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.deals import STRAINS, DealError, normalise_call
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
        params: dict[str, object] = getattr(self.text, "params", {})
        return {
            "law": self.law,
            "text": str(self.text),
            "text_template": getattr(self.text, "template", str(self.text)),
            "text_params": {key: str(value) for key, value in params.items()},
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


def damage_law(edition: str) -> str:
    """The law that lets the director adjust when the offenders' partner, made to pass, could
    have known it would damage the other side: Law 23 in 1997 and 2007, 72C in 2017."""
    return "72C" if edition == "2017" else "23"


def lowest_sufficient(bid: str, last_bid: str) -> str:
    """The lowest sufficient bid in the denomination of ``bid`` over ``last_bid``."""
    level = int(last_bid[0]) + (0 if STRAINS.index(bid[1:]) > STRAINS.index(last_bid[1:]) else 1)
    return f"{level}{bid[1:]}"


# Law 27


@dataclass(frozen=True)
class InsufficientBid:
    """The facts of an insufficient bid (Law 27).

    ``bid`` the insufficient bid, ``last_bid`` the bid it had to overcall; ``accepted`` the
    offender's left-hand opponent accepted it (27A1: he called over it); ``out_of_rotation``
    (27A2: Law 31 applies); ``replacement`` the call that replaced it (empty: not replaced
    yet); ``artificial`` whether the insufficient bid or its replacement was (or may have been)
    artificial (1997 "conventional", 2017 "incontrovertibly not artificial" read the other
    way round); ``comparable`` the director's judgement that the replacement is a comparable
    call (2017, Law 23A) or, 2007 27B1b, has the same or a more precise meaning contained in
    the insufficient bid's; ``second_insufficient`` the replacement was itself insufficient
    (27B4 2007/2017; treated as a pass)."""

    bid: str
    last_bid: str
    accepted: bool = False
    out_of_rotation: bool = False
    replacement: str = ""
    artificial: bool = False
    comparable: bool = False

    def check(self) -> None:
        for name in ("bid", "last_bid"):
            value = getattr(self, name)
            try:
                normal = normalise_call(value)
            except DealError:
                normal = ""
            if not is_bid(normal):
                raise IrregularityError(name, _("'%(text)s' is not a bid", text=value))
        if bid_rank(normalise_call(self.bid)) > bid_rank(normalise_call(self.last_bid)):
            raise IrregularityError(
                "bid",
                _(
                    "%(bid)s is sufficient over %(last)s: it is not an insufficient bid",
                    bid=self.bid,
                    last=self.last_bid,
                ),
            )
        if self.replacement:
            normalise_call(self.replacement)


def insufficient_bid(edition: str, facts: InsufficientBid) -> Rectification:
    """Law 27 in ``edition`` for the facts: accepted (27A1), out of rotation (27A2, Law 31),
    replaced (27B1a, 27B1b, 27B2, 27B3, 27B4), or not yet replaced (27B: the offender must
    replace it with a legal call)."""
    check_edition(edition)
    facts.check()
    bid, last = normalise_call(facts.bid), normalise_call(facts.last_bid)
    adjust = "27D" if edition != "1997" else "27B1b"
    if facts.accepted:
        return Rectification(
            "27A1", _("accepted by the left-hand opponent: the bid stands and the auction goes on"), stands=True
        )
    if facts.out_of_rotation:
        return Rectification("27A2", _("an insufficient bid out of rotation: Law 31 applies"))
    if not facts.replacement:
        return Rectification(
            "27B",
            _("not accepted: the offender replaces it with a legal call; the rectification depends on the call"),
        )
    replacement = normalise_call(facts.replacement)
    lowest = lowest_sufficient(bid, last)
    partner_passes = Rectification(
        "27B2",
        _("the offender's partner must pass whenever it is his turn to call; Law 26 lead restrictions may apply"),
        partner_must_pass="throughout",
        lead_restriction=True,
        adjustment=damage_law(edition),
    )
    if replacement in ("X", "XX"):
        # 2007 27B1(b) "corrected by a legal call that ... has the same meaning as, or a more
        # precise meaning than, the insufficient bid" (a double is a legal call; 27B3 is the
        # attempted double that is not); 2017 27B3 "Except as provided in B1(b)".
        if edition != "1997" and facts.comparable:
            return _replaced_by_comparable(edition)
        if edition == "1997":
            return Rectification(
                "27B3",
                _(
                    "a double or redouble cannot replace an insufficient bid: it is treated as a pass, the offender's "
                    "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
                ),
                partner_must_pass="throughout",
                lead_restriction=True,
                adjustment="23",
            )
        return Rectification(
            "27B3",
            _(
                "the attempted double or redouble is cancelled: the offender must make another legal call and his "
                "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
            ),
            partner_must_pass="throughout",
            lead_restriction=True,
            adjustment=damage_law(edition),
        )
    if is_bid(replacement) and bid_rank(replacement) <= bid_rank(last):
        if edition == "1997":
            return Rectification(
                "27B2",
                _(
                    "a second insufficient bid cannot replace the first: the offender must make a legal call and his "
                    "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
                ),
                partner_must_pass="throughout",
                lead_restriction=True,
                adjustment="23",
            )
        return Rectification(
            "27B4",
            _(
                "the attempt to replace it with another insufficient bid is cancelled: the offender must make a legal "
                "call and his partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
            ),
            partner_must_pass="throughout",
            lead_restriction=True,
            adjustment=damage_law(edition),
        )
    if replacement == lowest and not facts.artificial:
        return Rectification(
            "27B1a",
            _(
                "replaced by the lowest sufficient bid in the same denomination, neither bid artificial: the auction "
                "goes on without further rectification"
            ),
            adjustment=adjust,
        )
    if edition != "1997" and facts.comparable:
        return _replaced_by_comparable(edition)
    return partner_passes


def _replaced_by_comparable(edition: str) -> Rectification:
    """27B1(b): 2017 "corrected with a comparable call (see Law 23A)"; 2007 "a legal call that in
    the opinion of the Director has the same meaning as, or a more precise meaning than, the
    insufficient bid": the auction proceeds without further rectification (27D)."""
    return Rectification(
        "27B1b",
        _("replaced by a comparable call: the auction goes on without further rectification")
        if edition == "2017"
        else _(
            "replaced by a call with the same or a more precise meaning as the insufficient bid: the auction goes "
            "on without further rectification"
        ),
        adjustment="27D",
    )


def insufficient_bid_options(edition: str, facts: InsufficientBid) -> list[Choice]:
    """Every option at the table, in the order the director offers them: the left-hand
    opponent may accept (27A1); if he does not, the replacements and what each brings: the
    lowest sufficient bid in the same denomination (27B1a, named), a comparable call (27B1b,
    2007 and 2017), any other sufficient bid or pass (27B2), a double or redouble (27B3)."""
    check_edition(edition)
    facts.check()
    bid, last = normalise_call(facts.bid), normalise_call(facts.last_bid)
    if facts.out_of_rotation:
        return [
            Choice("27A1", "lho", insufficient_bid(edition, InsufficientBid(bid, last, accepted=True))),
            Choice("31", "director", insufficient_bid(edition, InsufficientBid(bid, last, out_of_rotation=True))),
        ]
    lowest = lowest_sufficient(bid, last)
    choices = [
        Choice("27A1", "lho", insufficient_bid(edition, InsufficientBid(bid, last, accepted=True))),
        Choice(
            f"27B1a:{lowest}",
            "offender",
            insufficient_bid(edition, InsufficientBid(bid, last, replacement=lowest, artificial=facts.artificial)),
        ),
    ]
    if edition != "1997":
        choices.append(
            Choice(
                "27B1b",
                "offender",
                insufficient_bid(edition, InsufficientBid(bid, last, replacement="Pass", comparable=True)),
            )
        )
    choices.append(
        Choice("27B2", "offender", insufficient_bid(edition, InsufficientBid(bid, last, replacement="Pass")))
    )
    choices.append(Choice("27B3", "offender", insufficient_bid(edition, InsufficientBid(bid, last, replacement="X"))))
    return choices


# Law 25


@dataclass(frozen=True)
class ChangeOfCall:
    """A player changed his call (Law 25). ``unintended`` the first call was not the one he
    meant (a mechanical error or slip of the tongue); ``pause_for_thought`` he paused before
    changing it; ``partner_called`` his partner had called since; ``auction_ended`` the
    auction period was over; ``accepted`` the left-hand opponent called over the second call
    (25B1)."""

    unintended: bool
    pause_for_thought: bool = False
    partner_called: bool = False
    auction_ended: bool = False
    accepted: bool = False


def change_of_call(edition: str, facts: ChangeOfCall) -> Rectification:
    """Law 25: 25A (an unintended call replaced: the second call stands; 1997 and 2007 only
    without pause for thought, 2017 whatever the pause), 25B1 (accepted by the left-hand
    opponent: the second call stands), 25B2 (otherwise the second call is cancelled and the
    first stands; 1997 also lets the offender choose any legal call, his side then getting
    at most average minus, 25B2b2)."""
    check_edition(edition)
    if facts.unintended and not facts.partner_called and not facts.auction_ended:
        if edition == "2017" or not facts.pause_for_thought:
            return Rectification(
                "25A", _("an unintended call replaced: the intended call stands without rectification"), stands=True
            )
    if facts.accepted:
        return Rectification(
            "25B1",
            _("the left-hand opponent called over the second call: it stands and the auction goes on"),
            stands=True,
        )
    if facts.partner_called or facts.auction_ended:
        return Rectification(
            "25A2" if not facts.auction_ended else "25A3",
            _("too late to change the call: the first call stands"),
        )
    if edition == "1997":
        return Rectification(
            "25B2",
            _(
                "the second call is cancelled and the first stands; or the offender may make any legal call, his side "
                "then getting at most average minus (25B2b2); Law 26 lead restrictions may apply"
            ),
            lead_restriction=True,
            score_cap="average_minus",
        )
    return Rectification(
        "25B2",
        _("the second call is cancelled: the first call stands and the auction goes on; Law 16 applies"),
        adjustment="16",
    )


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
    "ChangeOfCall",
    "Choice",
    "EDITIONS",
    "INADMISSIBLE",
    "LATER_CALLS_CANCELLED",
    "InsufficientBid",
    "IrregularityError",
    "REMOVED",
    "Rectification",
    "STANDING",
    "STATUSES",
    "TURNS",
    "bid_rank",
    "change_of_call",
    "check_edition",
    "damage_law",
    "inadmissible_call",
    "insufficient_bid",
    "insufficient_bid_options",
    "is_bid",
    "later_calls_cancelled",
    "lowest_sufficient",
    "side",
]
