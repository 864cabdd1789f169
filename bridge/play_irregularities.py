"""The play as played: leads and plays out of turn, premature plays and exposed cards (Laws
49-57), per edition of the Laws (1997, 2007, 2017).

A board's record (``bridge.auction.Auction``) keeps the tricks as the cards were played to
them and, in ``Auction.play_irregularities``, one ``PlayIrregularity`` per irregularity: a
lead out of turn (``lead_out_of_turn``: the opening lead, Law 54; a defender's later lead, 53
and 56; declarer's from either hand, 55), a premature lead or play by a defender before his
partner played (``premature``, 57), a defender's card exposed (``exposed``, 49: a penalty card,
50), and declarer's choice when the offender's partner came to lead while a major penalty card
was on the table (``penalty_card_lead``, 50D2 and 51B). Each says who drew attention and who
accepted the card, and the option chosen.

``lead_out_of_turn``, ``penalty_card``, ``exposed_card`` and ``penalty_card_lead_options``
read each law's options and rectification from the edition's table of Laws 48A and 49-56
(``bridge.play_laws.PLAY_LAWS``, re-exported here), ``premature_play`` from Law 57's; ``trick_leaders`` gives the seat that led each
trick as played (an accepted lead out of turn starts the trick from the wrong seat; after
Law 54A declarer's partner declares); ``penalty_cards_through_play`` follows every penalty card
from its exposure until it is played or picked up, and offers declarer's lead options (50D2,
51B) at the trick where the offender's partner is to lead. docs/irregularities.md has the
Law -> function table.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.deals import SEAT_WORDS, DealError, next_seat, parse_seat, winning_index
from bridge.irregularities import EDITIONS, IrregularityError, check_edition, side
from bridge.messages import Message, gettext_noop
from bridge.play_laws import (
    DECLARER_BECOMES_DUMMY,
    HONOURS,
    LEAD_ACCEPTING,
    LEAD_RETRACTING,
    PLAY_LAWS,
    PlayChoice,
    PlayRectification,
    PlayRow,
    exposed_card,
    information_law,
    lead_out_of_turn,
    parse_card,
    penalty_card,
    penalty_card_lead_options,
    penalty_card_not_played,
    penalty_card_obligation,
)

# Law 52B2: the card led or played instead of the penalty card becomes a major penalty card.
NOT_PLAYED_PENALTY = frozenset(
    row.law for table in PLAY_LAWS.values() for key, row in table.items() if key == "failure_refused"
)

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._

KINDS = ("lead_out_of_turn", "premature", "exposed", "not_played", "penalty_card_lead")
_card = parse_card


@dataclass
class PlayIrregularity:
    """One irregularity in the play, as the record keeps it.

    ``kind`` one of ``lead_out_of_turn``, ``premature``, ``exposed``, ``not_played`` (a card led
    or played instead of a penalty card, 52: ``option`` ``52B1a``, ``52B1b`` or ``52B2``),
    ``penalty_card_lead``;
    ``trick`` the trick (1-13) it happened in (a premature lead to the next trick: that next
    trick); ``seat`` the offender (for ``penalty_card_lead`` the defender about to lead);
    ``card`` the card led, played or exposed (empty for ``penalty_card_lead``);
    ``attention_by`` the seat that drew attention (empty: nobody, the next player played);
    ``accepted_by`` the seat that accepted a lead out of turn (53A, 54, 55A); ``option`` the
    option chosen: ``54A``, ``54B``, ``54D`` (opening lead out of turn), ``53A`` or ``56``
    (a defender's later lead out of turn), ``55A``, ``55B1``, ``55B2`` (declarer's),
    ``57A1``, ``57A2``, ``57A3:<suit>`` (premature play), ``require:<suit>``,
    ``prohibit:<suit>[,<suit>]`` or ``none`` (50D2, 51B); ``deliberate`` an exposed card was
    exposed through deliberate play (50B); ``note`` the director's remark."""

    kind: str
    trick: int
    seat: str
    card: str = ""
    attention_by: str = ""
    accepted_by: str = ""
    option: str = ""
    deliberate: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise IrregularityError(
                "kind",
                _(
                    "'%(text)s' is not an irregularity of the play: lead_out_of_turn, premature, exposed, not_played "
                    "or penalty_card_lead",
                    text=self.kind,
                ),
            )
        if not isinstance(self.trick, int) or not 1 <= self.trick <= 13:
            raise IrregularityError("trick", _("the trick is a number from 1 to 13, not %(trick)s", trick=self.trick))
        self.seat = parse_seat(self.seat, "seat")
        if self.card:
            self.card = _card(self.card)
        elif self.kind != "penalty_card_lead":
            raise IrregularityError("card", _("say which card was led, played or exposed"))
        for name in ("attention_by", "accepted_by"):
            if getattr(self, name):
                setattr(self, name, parse_seat(getattr(self, name), name))

    @property
    def accepted(self) -> bool:
        """A lead out of turn treated as correct (53A, 54A, 54B, 55A)."""
        return bool(self.accepted_by) or self.option in LEAD_ACCEPTING

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "trick": self.trick,
            "seat": self.seat,
            "card": self.card,
            "attention_by": self.attention_by,
            "accepted_by": self.accepted_by,
            "option": self.option,
            "deliberate": self.deliberate,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayIrregularity:
        names = cls.__dataclass_fields__
        return cls(**{key: value for key, value in data.items() if key in names})


# Law 57A's options naming a suit, per edition, each beside its text. 1997 and 2007 57A3: "forbid
# offender's partner to play a card of a different suit specified by declarer"; 2017 57A3 "require
# offender's partner to play a card of another suit specified by declarer", 57A4 "forbid ... a card
# of another suit specified by declarer".
FORBID_1997 = gettext_noop(
    "the card is a penalty card; the offender's partner may not play a card of the suit declarer names (%(suit)s)"
)
FORBID = gettext_noop(
    "the card is a major penalty card; the offender's partner may not play a card of the suit declarer names (%(suit)s)"
)
REQUIRE = gettext_noop(
    "the card is a major penalty card; the offender's partner plays a card of the suit declarer names (%(suit)s)"
)
PREMATURE_SUIT_OPTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "1997": (("57A3", FORBID_1997),),
    "2007": (("57A3", FORBID),),
    "2017": (("57A3", REQUIRE), ("57A4", FORBID)),
}


def premature_play(
    edition: str, *, partner_suits: str = "SHDC", declarer_played_both_hands: bool = False, dummy_played: bool = False
) -> list[PlayChoice]:
    """Law 57A: a defender led to the next trick before his partner played to this one, or
    played out of turn before his partner: the card is a major penalty card and declarer may
    have the offender's partner play the highest card of the suit led (57A1), the lowest
    (57A2), or the edition's options naming another suit (``PREMATURE_SUIT_OPTIONS``: 1997 and
    2007 57A3 forbid it; 2017 57A3 require it, 57A4 forbid it; key ``<law>:<suit>``). No rectification when declarer had played from both hands, or
    dummy had played or been told to (57C)."""
    check_edition(edition)
    if declarer_played_both_hands or dummy_played:
        return [
            PlayChoice(
                "57C",
                "declarer",
                PlayRectification(
                    "57C",
                    _("declarer had already played from both hands (or dummy had played): no rectification"),
                    accepted=True,
                ),
            )
        ]
    choices = [
        PlayChoice(
            "57A1",
            "declarer",
            PlayRectification(
                "57A1",
                _(
                    "the card is a major penalty card; the offender's partner plays the highest card he holds of the suit led"
                ),
                penalty_card="major",
            ),
        ),
        PlayChoice(
            "57A2",
            "declarer",
            PlayRectification(
                "57A2",
                _(
                    "the card is a major penalty card; the offender's partner plays the lowest card he holds of the suit led"
                ),
                penalty_card="major",
            ),
        ),
    ]
    for law, text in PREMATURE_SUIT_OPTIONS[edition]:
        for suit in partner_suits:
            choices.append(
                PlayChoice(
                    f"{law}:{suit}",
                    "declarer",
                    PlayRectification(law, Message(text, suit=suit), penalty_card="major"),
                )
            )
    return choices


# --- The play as played --------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyCardState:
    """A penalty card on the table: its ``seat``, the ``card``, ``major``, where it came from
    (``trick``, ``law``) and what became of it (``played_at`` the trick it was played to,
    ``picked_up_at`` the trick at whose lead declarer's choice picked it up)."""

    seat: str
    card: str
    major: bool
    trick: int
    law: str
    played_at: int | None = None
    picked_up_at: int | None = None


@dataclass(frozen=True)
class LeadOptions:
    """At ``trick``, ``leader`` (a defender) is to lead while his partner has major penalty
    cards ``penalty_cards``: declarer's options and the one recorded (``chosen``, empty when
    none is)."""

    trick: int
    leader: str
    penalty_cards: tuple[str, ...]
    choices: tuple[PlayChoice, ...]
    chosen: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "leader": self.leader,
            "penalty_cards": list(self.penalty_cards),
            "choices": [c.to_dict() for c in self.choices],
            "chosen": self.chosen,
        }


def declarer_after(declarer: str, irregularities: Sequence[PlayIrregularity]) -> str:
    """The seat that declares: after Law 54A (declarer spread his hand on an opening lead out of
    turn), the partner of the auction's declarer."""
    for irregularity in irregularities:
        if (
            irregularity.kind == "lead_out_of_turn"
            and irregularity.trick == 1
            and irregularity.option in DECLARER_BECOMES_DUMMY
        ):
            return next_seat(declarer, 2)
    return declarer


def trick_leaders(
    declarer: str, tricks: Sequence[Sequence[str]], irregularities: Sequence[PlayIrregularity], strain: str
) -> list[str]:
    """The seat that led each trick as played: the seat after the one that won the trick before
    (declarer's left-hand opponent to the first), except where a lead out of turn was accepted
    (53A, 54A, 54B, 55A, or the next player played to it): that trick starts from the
    offender. After 54A the partner of the auction's declarer declares. Raises DealError when
    an accepted lead out of turn is not the card the trick starts with."""
    real_declarer = declarer_after(declarer, irregularities)
    accepted = {
        i.trick: i
        for i in irregularities
        if i.kind == "lead_out_of_turn" and (i.accepted or not (i.option or i.attention_by))
    }
    leaders: list[str] = []
    leader = next_seat(real_declarer)
    for number, trick in enumerate(tricks, 1):
        lead = accepted.get(number)
        if lead is not None:
            if not trick or trick[0] != lead.card:
                raise DealError(
                    "play",
                    _(
                        "trick %(n)s: the lead out of turn %(card)s was accepted, but the trick starts with %(first)s",
                        n=number,
                        card=lead.card,
                        first=trick[0] if trick else "-",
                    ),
                )
            if not (number == 1 and lead.option in DECLARER_BECOMES_DUMMY):
                leader = lead.seat
        leaders.append(leader)
        if len(trick) == 4:
            leader = next_seat(leader, winning_index(list(trick), strain))
    return leaders


def penalty_cards_through_play(
    edition: str,
    declarer: str,
    tricks: Sequence[Sequence[str]],
    leaders: Sequence[str],
    irregularities: Sequence[PlayIrregularity],
) -> tuple[list[PenaltyCardState], list[LeadOptions]]:
    """Every penalty card from the trick it was made until it is played or picked up, and
    declarer's lead options (50D2, 51B) at each trick a defender led while his partner had a
    major penalty card, with the choice recorded for that trick."""
    check_edition(edition)
    real_declarer = declarer_after(declarer, irregularities)
    dummy = next_seat(real_declarer, 2)
    made: dict[int, list[tuple[str, str, bool, str]]] = {}
    for irregularity in irregularities:
        if irregularity.seat in (real_declarer, dummy):
            continue  # declarer's exposed cards are not penalty cards (Law 48A)
        law = ""
        deliberate = irregularity.deliberate
        if irregularity.kind == "lead_out_of_turn" and irregularity.option in LEAD_RETRACTING:
            law, deliberate = irregularity.option, True
        elif irregularity.kind == "premature" and not irregularity.option.startswith("57C"):
            law, deliberate = "57A", True
        elif irregularity.kind == "exposed":
            law = "49"
        elif irregularity.kind == "not_played" and irregularity.option in NOT_PLAYED_PENALTY:
            law, deliberate = irregularity.option, True  # 52B2: "becomes a major penalty card"
        if law:
            made.setdefault(irregularity.trick, []).append((irregularity.seat, irregularity.card, deliberate, law))
    chosen = {i.trick: i.option for i in irregularities if i.kind == "penalty_card_lead"}
    states: list[dict[str, Any]] = []
    options: list[LeadOptions] = []
    for number in range(1, len(tricks) + 1):
        for seat, card, deliberate, law in made.get(number, []):
            states.append(
                {"seat": seat, "card": card, "major": True, "deliberate": deliberate, "trick": number, "law": law}
            )
        # 50B: a lone low card exposed by accident is minor; two or more penalty cards are all major.
        for state in states:
            if state.get("played_at") or state.get("picked_up_at"):
                continue
            others = [
                s
                for s in states
                if s is not state and s["seat"] == state["seat"] and not (s.get("played_at") or s.get("picked_up_at"))
            ]
            state["major"] = bool(state["deliberate"] or state["card"][1] in HONOURS or others)
        trick = tricks[number - 1]
        leader = leaders[number - 1]
        if trick and leader not in (real_declarer, dummy):
            partner = next_seat(leader, 2)
            open_major = [
                s
                for s in states
                if s["seat"] == partner
                and s["major"]
                and not (s.get("played_at") or s.get("picked_up_at"))
                and s["trick"] <= number
            ]
            if open_major:
                cards = tuple(s["card"] for s in open_major)
                choice = chosen.get(number, "")
                options.append(
                    LeadOptions(number, leader, cards, tuple(penalty_card_lead_options(edition, cards)), choice)
                )
                if choice.startswith(("require:", "prohibit:")):
                    picked = choice.split(":", 1)[1].split(",")
                    for s in open_major:
                        if s["card"][0] in picked:
                            s["picked_up_at"] = number
        for offset, card in enumerate(trick):
            seat = next_seat(leader, offset)
            for s in states:
                if s["seat"] == seat and s["card"] == card and not s.get("played_at"):
                    s["played_at"] = number
    result = [
        PenaltyCardState(
            s["seat"], s["card"], s["major"], s["trick"], s["law"], s.get("played_at"), s.get("picked_up_at")
        )
        for s in states
    ]
    return result, options


def describe(irregularity: PlayIrregularity) -> Message:
    """The irregularity in words, for the play record and the diagram."""
    who = SEAT_WORDS[irregularity.seat]
    if irregularity.kind == "lead_out_of_turn":
        if irregularity.accepted:
            return _(
                "trick %(n)s: %(who)s led %(card)s out of turn; accepted",
                n=irregularity.trick,
                who=who,
                card=irregularity.card,
            )
        return _(
            "trick %(n)s: %(who)s led %(card)s out of turn; not accepted (%(law)s)",
            n=irregularity.trick,
            who=who,
            card=irregularity.card,
            law=irregularity.option or "-",
        )
    if irregularity.kind == "premature":
        return _(
            "trick %(n)s: %(who)s played %(card)s before his partner (%(law)s)",
            n=irregularity.trick,
            who=who,
            card=irregularity.card,
            law=irregularity.option or "57A",
        )
    if irregularity.kind == "exposed":
        return _("trick %(n)s: %(who)s exposed %(card)s", n=irregularity.trick, who=who, card=irregularity.card)
    if irregularity.kind == "not_played":
        return _(
            "trick %(n)s: %(who)s played %(card)s instead of a penalty card (%(law)s)",
            n=irregularity.trick,
            who=who,
            card=irregularity.card,
            law=irregularity.option or "52",
        )
    return _(
        "trick %(n)s: %(who)s to lead with a penalty card on the table; declarer chose %(option)s",
        n=irregularity.trick,
        who=who,
        option=irregularity.option or "-",
    )


__all__ = [
    "DECLARER_BECOMES_DUMMY",
    "EDITIONS",
    "HONOURS",
    "KINDS",
    "LEAD_ACCEPTING",
    "LEAD_RETRACTING",
    "PLAY_LAWS",
    "PlayRow",
    "information_law",
    "parse_card",
    "LeadOptions",
    "PenaltyCardState",
    "PlayChoice",
    "PlayIrregularity",
    "PlayRectification",
    "declarer_after",
    "describe",
    "lead_out_of_turn",
    "penalty_card",
    "exposed_card",
    "PREMATURE_SUIT_OPTIONS",
    "penalty_card_lead_options",
    "penalty_card_not_played",
    "penalty_card_obligation",
    "penalty_cards_through_play",
    "premature_play",
    "side",
    "trick_leaders",
]
