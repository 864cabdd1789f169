"""Laws 48A and 49-56 (exposed cards, penalty cards, a penalty card not played, leads out of
turn) as tables, one per edition (1997, 2007, 2017): each row is one paragraph of that edition's text, its words beside it
(``words``, English, the Law's own where quoted) and what it does (the rectification's fields).
The functions below only name the situation the facts meet; the edition's row gives the law
cited and the rectification, so the irregularity page's options, the service's checks (which
options accept a lead, which retract it into a penalty card, which make declarer dummy) and the
ruling's citations read the same row. The editions differ where their texts differ:

- 1997 has no Law 50E: what a penalty card tells the offender's partner is in 50D1 ("other
  information arising from facing of the penalty card is unauthorised for partner") and 50C
  ("see Law 16A"); 2007 and 2017 put it in 50E1-50E3, the director adjusting under 50E3.
- 1997 has no 54E (an opening lead by the declaring side); 2007 and 2017 send it to Law 24.
- 2017 54C: declarer who could have seen dummy's cards "must accept the lead and the presumed
  declarer then becomes declarer" (he may not spread his hand under 54A); 1997 and 2007 54C say
  only "he must accept the lead".
- 2017 53A: a lead out of turn may be treated as correct "prior to the thirteenth trick" (one at
  trick 13 must be withdrawn), and 55A accepts declarer's lead "as provided in Law 53".
- 1997 55A does not say whose choice prevails when the defenders choose differently; 2007 and
  2017 give it to "the player next in turn" (the options offered are the same).
- 1997 Law 52 speaks of a card "played" instead of a penalty card, 2007 and 2017 of one "led or
  played" (the options offered are the same).

``bridge.play_irregularities`` re-exports every public name.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.deals import RANKS, next_seat, parse_seat
from bridge.irregularities import EDITIONS, IrregularityError, check_edition
from bridge.messages import Message, gettext_noop

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._

HONOURS = "AKQJT"


def parse_card(text: str, field: str = "card") -> str:
    """A card as ``SQ`` (``10`` read as ``T``); refused naming ``field`` otherwise."""
    card = (text or "").strip().upper().replace("10", "T")
    if len(card) != 2 or card[0] not in "SHDC" or card[1] not in RANKS:
        raise IrregularityError(field, _("'%(text)s' is not a card: write the suit and the rank, e.g. SQ", text=text))
    return card


@dataclass(frozen=True)
class PlayRectification:
    """What a law of the play does: ``law``, ``text``, ``accepted`` (the card stands as a
    correct lead or play), ``penalty_card`` (``""``, ``"major"`` or ``"minor"``),
    ``declarer_becomes_dummy`` (54A), ``restored`` (the card goes back to the hand without
    rectification), ``adjustment`` (the law under which the director may still adjust)."""

    law: str
    text: Message
    accepted: bool = False
    penalty_card: str = ""
    declarer_becomes_dummy: bool = False
    restored: bool = False
    adjustment: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "law": self.law,
            **messages.stored(self.text),
            "accepted": self.accepted,
            "penalty_card": self.penalty_card,
            "declarer_becomes_dummy": self.declarer_becomes_dummy,
            "restored": self.restored,
            "adjustment": self.adjustment,
        }


@dataclass(frozen=True)
class PlayChoice:
    """An option offered: ``key`` (what the record stores), ``chooser`` (``declarer``,
    ``defender``, ``offender``) and the rectification."""

    key: str
    chooser: str
    rectification: PlayRectification

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "chooser": self.chooser, **self.rectification.to_dict()}


@dataclass(frozen=True)
class PlayRow:
    """One paragraph of an edition's Laws of the play: ``law`` as that edition numbers it,
    ``words`` (its words, English; "summary:" where they are not quoted), ``text`` the
    rectification's template (a msgid), the rectification's fields, ``options`` (54C: the
    situations still offered) and ``before_trick`` (2017 53A: offered only before trick 13)."""

    law: str
    words: str
    text: str = ""
    accepted: bool = False
    penalty_card: str = ""
    declarer_becomes_dummy: bool = False
    restored: bool = False
    adjustment: str = ""
    options: tuple[str, ...] = ()
    before_trick: int = 0

    def rectification(self, **params: Any) -> PlayRectification:
        return PlayRectification(
            self.law,
            Message(self.text, **params),
            accepted=self.accepted,
            penalty_card=self.penalty_card,
            declarer_becomes_dummy=self.declarer_becomes_dummy,
            restored=self.restored,
            adjustment=self.adjustment,
        )


# --- The texts (msgids; several paragraphs say the same) --------------------------------------

DECLARERS_CARD = gettext_noop(
    "a card of declarer's or dummy's hand never becomes a penalty card: declarer is not subject to rectification "
    "for exposing it"
)
MINOR = gettext_noop(
    "a minor penalty card: the offender may not play another card of that suit below an honour before it "
    "(he may play an honour instead); his partner has no lead restriction"
)
MAJOR = gettext_noop(
    "a major penalty card: it must be played at the first legal opportunity, and when the offender's partner "
    "is to lead declarer chooses under Law 50D2"
)
REQUIRE = gettext_noop("declarer requires the lead of %(suit)s: the penalty cards of that suit are picked up")
PROHIBIT = gettext_noop(
    "declarer prohibits the lead of %(suit)s for as long as the offender's partner keeps the lead: the "
    "penalty cards of that suit are picked up"
)
PROHIBIT_ALL = gettext_noop(
    "declarer prohibits the lead of every suit of a penalty card: all the penalty cards are picked up"
)
NO_LEAD_RESTRICTION = gettext_noop("declarer neither requires nor prohibits a lead: any lead, the penalty cards stay")
LATER_ACCEPTED = gettext_noop("declarer accepts: the lead stands as correct")
RETRACTED = gettext_noop(
    "declarer has the card retracted: it becomes a major penalty card, and at the offender's partner's next "
    "lead declarer chooses under Law 50D2"
)
SPREAD = gettext_noop("declarer spreads his hand: he becomes dummy and his partner declares")
OPENING_ACCEPTED = gettext_noop(
    "declarer accepts the lead: dummy is spread and declarer plays the second card from his own hand"
)
DECLARERS_SIDE_LEAD = gettext_noop(
    "declarer's side does not make the opening lead: a card faced by them is not a lead (Law 24, 48)"
)
DEFENDER_ACCEPTS = gettext_noop("a defender accepts the lead: it stands as a correct lead")
AT_DEFENDERS_TURN = gettext_noop(
    "it was a defender's turn to lead: the card goes back to declarer's hand without rectification"
)
WRONG_HAND = gettext_noop("declarer led from the wrong hand: the card is retracted and he leads from the correct hand")
OTHER_CARD_ACCEPTED = gettext_noop(
    "declarer accepts the card led or played instead of the penalty card: it stands, and the penalty card stays on "
    "the table"
)
OTHER_CARD_MUST_BE_ACCEPTED = gettext_noop(
    "declarer has played to the trick since: he must accept the card led or played, and the penalty card stays on "
    "the table"
)
PENALTY_CARD_SUBSTITUTED = gettext_noop(
    "declarer does not accept it: the defender plays the penalty card instead, and the card he led or played becomes "
    "a major penalty card"
)


# --- The paragraphs --------------------------------------------------------------------------

# Words all three editions share (compared on the 1997 text of jfr.pzbs.pl/laws, the 2007 and 2017
# English texts as the PZBS publishes them, pzbs.pl/sedziowie/mpb/2007/ang and .../2017/en).
W_48A_1997 = (
    "Declarer is not subject to penalty for exposing a card, and no card of declarer's or dummy's hand ever "
    "becomes a penalty card."
)
W_48A = (
    "Declarer is not subject to restriction for exposing a card (but see Law 45C2), and no card of declarer's or "
    "dummy's hand ever becomes a penalty card."
)
W_50B = (
    "A single card below the rank of an honour and exposed inadvertently (as in playing two cards to a trick, or "
    "in dropping a card accidentally) becomes a minor penalty card. Any card of honour rank, or any card exposed "
    "through deliberate play (as in leading out of turn, or in revoking and then correcting), becomes a major "
    "penalty card; when one defender has two or more penalty cards, all such cards become major penalty cards."
)
W_50C = (
    "When a defender has a minor penalty card, he may not play any other card of the same suit below the rank of "
    "an honour until he has first played the penalty card"
)
W_50D1 = (
    "A major penalty card must be played at the first legal opportunity, whether in leading, following suit, "
    "discarding or trumping."
)
W_50D2A = (
    "to require the defender to lead the suit of the penalty card, or to prohibit him from leading that suit for "
    "as long as he retains the lead"
)
W_50D2B = (
    "not to require or prohibit a lead, in which case the defender may lead any card; the penalty card remains a "
    "penalty card"
)
W_51B1A = (
    "declarer requires the defender's partner to lead that suit: the cards of that suit are no longer penalty cards"
)
W_51B1B = "declarer prohibits the defender's partner from leading that suit: the defender picks up every penalty card in that suit"
W_51B2A = "declarer may require the defender's partner to lead a suit in which the defender has a penalty card"
W_51B2B = (
    "declarer may prohibit the defender's partner from leading one or more of such suits; the defender then picks "
    "up every penalty card in every suit prohibited by declarer"
)
W_53A = (
    "any lead faced out of turn may be treated as a correct lead. It becomes a correct lead if declarer or either "
    "defender, as the case may be, accepts it by making a statement to that effect, or if a play is made from the "
    "hand next in rotation to the irregular lead"
)
W_54A = (
    "After a faced opening lead out of turn, declarer may spread his hand; he becomes dummy. If declarer begins to "
    "spread his hand, and in doing so exposes one or more cards, he must spread his entire hand. Dummy becomes "
    "declarer."
)
W_54B = (
    "When a defender faces the opening lead out of turn declarer may accept the irregular lead as provided in Law "
    "53, and dummy is spread in accordance with Law 41. The second card to the trick is played from declarer's hand."
)
W_54C = (
    "If declarer could have seen any of dummy's cards (except cards that dummy may have exposed during the auction "
    "and that were subject to Law 24), he must accept the lead"
)
W_55A = (
    "If declarer has led out of turn from his or dummy's hand, either defender may accept the lead as provided in "
    "Law 53, or require its retraction (after misinformation, see Law 47E1)."
)
W_55B1 = (
    "If declarer has led from his or dummy's hand when it was a defender's turn to lead, and if either defender "
    "requires him to retract such lead, declarer restores the card led in error to the proper hand."
)
W_55B2 = (
    "If declarer has led from the wrong hand when it was his turn to lead from his hand or dummy's, and if either "
    "defender requires him to retract the lead, he withdraws the card led in error."
)
W_56 = (
    "summary: declarer requires a defender to retract his lead out of turn; the card is a major penalty card (Law 50D)"
)

LEAD_SITUATIONS = ("opening_spread", "opening_accepted", "opening_retracted")


def _penalty_rows(edition: str) -> dict[str, PlayRow]:
    """The edition's paragraphs of Laws 48A and 49-51, by the situation each rules."""
    penalty_adjustment = "16" if edition == "1997" else "50E3"
    rows: dict[str, PlayRow] = {
        "declarers_card": PlayRow("48A", W_48A_1997 if edition == "1997" else W_48A, DECLARERS_CARD, restored=True),
        "exposed": PlayRow(
            "49",
            "summary: a defender's card his partner could see, or one he names as in his hand, becomes a penalty card (Law 50)",
        ),
        "major_or_minor": PlayRow("50B", W_50B),
        "minor": PlayRow(
            "50C",
            W_50C + (". Offender's partner is not subject to lead penalty" if edition == "1997" else "."),
            MINOR,
            penalty_card="minor",
            adjustment=penalty_adjustment,
        ),
        "major": PlayRow(
            "50D",
            "When a defender has a major penalty card, both the offender and his partner may be subject to restriction",
            MAJOR,
            penalty_card="major",
            adjustment=penalty_adjustment,
        ),
        "first_opportunity": PlayRow("50D1" if edition == "1997" else "50D1a", W_50D1),
        "lead_require": PlayRow("50D2a", W_50D2A, REQUIRE),
        "lead_prohibit": PlayRow("50D2a", W_50D2A, PROHIBIT),
        "lead_none": PlayRow("50D2b", W_50D2B, NO_LEAD_RESTRICTION),
        "several_to_play": PlayRow("51A", "declarer designates which is to be played at that turn"),
        "lead_require_one_suit": PlayRow("51B1a", W_51B1A, REQUIRE),
        "lead_prohibit_one_suit": PlayRow("51B1b", W_51B1B, PROHIBIT),
        "lead_require_suits": PlayRow("51B2a", W_51B2A, REQUIRE),
        "lead_prohibit_suits": PlayRow("51B2b", W_51B2B, PROHIBIT),
        "lead_prohibit_all": PlayRow("51B2b", W_51B2B, PROHIBIT_ALL),
    }
    if edition == "1997":
        rows["information"] = PlayRow(
            "50D1",
            "the requirement that offender must play the card is authorised information for his partner; however, "
            "other information arising from facing of the penalty card is unauthorised for partner",
            adjustment="16",
        )
        return rows
    rows.update(
        {
            "information": PlayRow("50E", "Information from a Penalty Card", adjustment="50E3"),
            "information_authorised": PlayRow(
                "50E1",
                "Knowledge of the requirements for playing a penalty card is authorised information for all players.",
            ),
            "information_unauthorised": PlayRow(
                "50E2",
                "Other information derived from sight of a penalty card is unauthorised for the partner of the player "
                "who has the penalty card (but authorised for declarer).",
            ),
            "information_damage": PlayRow(
                "50E3",
                "If the Director judges that the exposed card conveyed such information as to damage the non-offending "
                "side he shall award an adjusted score.",
            ),
        }
    )
    return rows


def _lead_rows(edition: str) -> dict[str, PlayRow]:
    """The edition's paragraphs of Laws 53-56, by the situation each rules."""
    older = edition != "2017"
    information = "72B1" if edition == "1997" else "50E3"  # 1997 Law 50: "when he deems that Law 72B1 applies"
    must_accept = W_54C + ("." if older else " and the presumed declarer then becomes declarer.")
    rows: dict[str, PlayRow] = {
        "later_accepted": PlayRow(
            "53A",
            W_53A if older else "Prior to the thirteenth trick, " + W_53A,
            LATER_ACCEPTED,
            accepted=True,
            before_trick=0 if older else 13,
        ),
        "opening_spread": PlayRow("54A", W_54A, SPREAD, accepted=True, declarer_becomes_dummy=True),
        "opening_accepted": PlayRow("54B", W_54B, OPENING_ACCEPTED, accepted=True),
        "opening_must_accept": PlayRow(
            "54C", must_accept, options=("opening_spread", "opening_accepted") if older else ("opening_accepted",)
        ),
        "opening_retracted": PlayRow(
            "54D",
            "Declarer may require the defender to retract his faced opening lead out of turn. Law 56 applies."
            if edition == "1997"
            else "Declarer may require a defender to retract his faced opening lead out of turn. The withdrawn card "
            "becomes a major penalty card and Law 50D applies.",
            RETRACTED,
            penalty_card="major",
            adjustment=information,
        ),
        "declarer_accepted": PlayRow(
            "55A",
            W_55A
            if edition == "1997"
            else W_55A + " If the defenders choose differently the option expressed by the "
            "player next in turn shall prevail.",
            DEFENDER_ACCEPTS,
            accepted=True,
            before_trick=0 if older else 13,
        ),
        "declarer_at_defenders_turn": PlayRow("55B1", W_55B1, AT_DEFENDERS_TURN, restored=True, adjustment="55C"),
        "declarer_wrong_hand": PlayRow("55B2", W_55B2, WRONG_HAND, restored=True, adjustment="55C"),
        "declarer_informed": PlayRow(
            "55C",
            "When declarer adopts a line of play that could have been based on information obtained through the "
            "infraction, the Director may award an adjusted score.",
        ),
        "later_retracted": PlayRow("56", W_56, RETRACTED, penalty_card="major", adjustment=information),
    }
    if edition != "1997":
        rows["opening_by_declarers_side"] = PlayRow(
            "54E",
            "If a player of the declaring side attempts to make an opening lead Law 24 applies.",
            DECLARERS_SIDE_LEAD,
        )
    return rows


def _failure_rows(edition: str) -> dict[str, PlayRow]:
    """The edition's paragraphs of Law 52 (a penalty card not played when it had to be). 1997
    speaks of a card "played"; 2007 and 2017 of a card "led or played"."""
    other = "played" if edition == "1997" else "led or played"
    such = "such play" if edition == "1997" else "such lead or play"
    return {
        "failure": PlayRow(
            "52A",
            "summary: a defender who failed to play a penalty card as Law 50 requires may not withdraw, on his own "
            "initiative, any other card he has played"
            if edition == "1997"
            else "When a defender fails to lead or play a penalty card as required by Law 50 or Law 51, he may not, "
            "on his own initiative, withdraw any other card he has played.",
        ),
        "failure_accepted": PlayRow(
            "52B1a",
            f"If a defender has {'played' if edition == '1997' else 'led or played'} another card when required by law "
            f"to play a penalty card, declarer may accept {such}.",
            OTHER_CARD_ACCEPTED,
            accepted=True,
        ),
        "failure_must_accept": PlayRow(
            "52B1b",
            f"Declarer must accept {such} if he has thereafter played from his own hand or dummy.",
            OTHER_CARD_MUST_BE_ACCEPTED,
            accepted=True,
        ),
        "failure_card_remains": PlayRow(
            "52B1c",
            "If the played card is accepted under either (a) or (b), any unplayed penalty card remains a penalty card.",
        ),
        "failure_refused": PlayRow(
            "52B2",
            f"If declarer does not accept the card illegally {other}, the defender must substitute the penalty card for "
            f"the card illegally {other}. Every card illegally led or played by the defender in the course of committing "
            "the irregularity becomes a major penalty card.",
            PENALTY_CARD_SUBSTITUTED,
            penalty_card="major",
        ),
    }


def _table(edition: str) -> dict[str, PlayRow]:
    """The edition's paragraphs of Laws 48A and 49-56, by the situation each rules."""
    return {**_penalty_rows(edition), **_failure_rows(edition), **_lead_rows(edition)}


PLAY_LAWS: dict[str, dict[str, PlayRow]] = {edition: _table(edition) for edition in EDITIONS}

# The options the record stores, read from the rows: those that accept a lead out of turn (the
# trick starts from the offender), those that retract it into a major penalty card, and the one
# that makes the auction's declarer dummy.
LEAD_ACCEPTING = frozenset(
    row.law
    for table in PLAY_LAWS.values()
    for key, row in table.items()
    if row.accepted and key in ("later_accepted", "opening_spread", "opening_accepted", "declarer_accepted")
)
LEAD_RETRACTING = frozenset(
    row.law
    for table in PLAY_LAWS.values()
    for key, row in table.items()
    if key in ("opening_retracted", "later_retracted")
)
DECLARER_BECOMES_DUMMY = frozenset(
    row.law for table in PLAY_LAWS.values() for row in table.values() if row.declarer_becomes_dummy
)


# --- Leads out of turn (53-56) -------------------------------------------------------------


def _choices(table: dict[str, PlayRow], situations: Sequence[str], chooser: str, trick: int) -> list[PlayChoice]:
    return [
        PlayChoice(table[s].law, chooser, table[s].rectification())
        for s in situations
        if not (table[s].before_trick and trick >= table[s].before_trick)
    ]


def lead_out_of_turn(
    edition: str,
    *,
    offender: str,
    declarer: str,
    opening: bool,
    dummy_seen: bool = False,
    trick: int = 0,
    proper_leader: str = "",
) -> list[PlayChoice]:
    """The options after a card faced as a lead out of turn by ``offender``, each the row of the
    edition's table (``PLAY_LAWS``).

    The opening lead by a defender (Law 54): declarer spreads his hand and becomes dummy (54A),
    accepts it, dummy goes down and declarer plays second from his own hand (54B), or has it
    retracted: a major penalty card (54D; 1997 54D and 56), declarer's lead options of 50D2 at the
    partner's first lead. When he could have seen dummy's cards (``dummy_seen``) he must accept
    (54C: the options the edition's row leaves, 2017 54B alone). A later lead by a defender:
    accepted (53A) or retracted, a major penalty card (56). A lead by declarer from either hand: a
    defender accepts (55A) or has it retracted: restored without rectification when a defender was
    to lead (55B1), from the correct hand when declarer led from the wrong one (55B2); 55C lets the
    director adjust if declarer gained from it. ``trick`` the trick (0: not known): in 2017 a lead
    out of turn is accepted only before the thirteenth trick (53A, 55A). ``proper_leader`` the seat
    whose turn it was to lead (empty: not known): declarer's lead at a defender's turn is 55B1's,
    from the wrong hand of his side 55B2's, and only that paragraph's retraction is offered."""
    check_edition(edition)
    table = PLAY_LAWS[edition]
    offender, declarer = parse_seat(offender, "offender"), parse_seat(declarer, "declarer")
    if offender in (declarer, next_seat(declarer, 2)):
        if opening:
            # 54E (2007, 2017): Law 24 applies; 1997 has no 54E, and the card is no lead either.
            raise IrregularityError("offender", Message(DECLARERS_SIDE_LEAD))
        retractions: tuple[str, ...] = ("declarer_at_defenders_turn", "declarer_wrong_hand")
        if proper_leader:
            declarers_side = (declarer, next_seat(declarer, 2))
            at_their_turn = proper_leader in declarers_side
            retractions = ("declarer_wrong_hand",) if at_their_turn else ("declarer_at_defenders_turn",)
        return _choices(table, ("declarer_accepted", *retractions), "defender", trick)
    if not opening:
        return _choices(table, ("later_accepted", "later_retracted"), "declarer", trick)
    situations = table["opening_must_accept"].options if dummy_seen else LEAD_SITUATIONS
    return _choices(table, situations, "declarer", trick)


# --- Penalty cards (48A, 49-52) ------------------------------------------------------------


def penalty_card(edition: str, *, card: str, deliberate: bool, other_penalty_cards: int = 0) -> PlayRectification:
    """Law 50B: a single card below the rank of an honour exposed unintentionally is a minor
    penalty card (50C: the offender may not play another card of that suit below an honour
    before it; no lead restriction for his partner); an honour, a card exposed through
    deliberate play, or any card when the defender has two or more penalty cards, is a major
    penalty card (50D: played at the first legal opportunity; declarer's options when the
    partner is to lead). The adjustment is the edition's row's: 50E3 (2007, 2017), Law 16 (1997,
    whose 50C and 50D1 make the information unauthorised for partner)."""
    check_edition(edition)
    card = parse_card(card)
    minor = not deliberate and card[1] not in HONOURS and other_penalty_cards == 0
    return PLAY_LAWS[edition]["minor" if minor else "major"].rectification()


def exposed_card(
    edition: str, *, seat: str, declarer: str, card: str, deliberate: bool, other_penalty_cards: int = 0
) -> PlayRectification:
    """A card exposed by ``seat``: Law 48A when it is declarer or dummy (no penalty card, the
    card goes back to the hand), otherwise a defender's penalty card (``penalty_card``;
    ``other_penalty_cards`` those he already has on the table, 50B)."""
    check_edition(edition)
    if seat in (declarer, next_seat(declarer, 2)):
        parse_card(card)
        return PLAY_LAWS[edition]["declarers_card"].rectification()
    return penalty_card(edition, card=card, deliberate=deliberate, other_penalty_cards=other_penalty_cards)


def penalty_card_lead_options(edition: str, penalty_cards: Sequence[str]) -> list[PlayChoice]:
    """Declarer's options when the offender's partner is to lead while the offender has one or
    more major penalty cards: require the lead of a penalty card's suit (key
    ``require:<suit>``: the penalty cards of that suit are picked up; 50D2a, 51B1a, 51B2a),
    prohibit it for as long as the partner keeps the lead (``prohibit:<suit>``: picked up;
    with several suits, declarer may prohibit one or more of them, 51B2b), or neither
    (``none``: any lead, the penalty cards stay, 50D2b)."""
    check_edition(edition)
    table = PLAY_LAWS[edition]
    cards = [parse_card(c) for c in penalty_cards]
    if not cards:
        raise IrregularityError("penalty_cards", _("there is no penalty card"))
    suits = [s for s in "SHDC" if any(c[0] == s for c in cards)]
    several = len(suits) > 1

    def row(kind: str, suit: str) -> PlayRow:
        if several:
            return table[f"lead_{kind}_suits"]
        if len([c for c in cards if c[0] == suit]) > 1:
            return table[f"lead_{kind}_one_suit"]
        return table[f"lead_{kind}"]

    choices = [
        PlayChoice(f"{kind}:{suit}", "declarer", row(kind, suit).rectification(suit=suit))
        for kind in ("require", "prohibit")
        for suit in suits
    ]
    if several:
        choices.append(
            PlayChoice("prohibit:" + ",".join(suits), "declarer", table["lead_prohibit_all"].rectification())
        )
    choices.append(PlayChoice("none", "declarer", table["lead_none"].rectification()))
    return choices


def penalty_card_not_played(
    edition: str, *, declarer_played: bool = False, seat: str = "", declarer: str = ""
) -> list[PlayChoice]:
    """Law 52B: a defender led or played (1997: played) another card when he had to play a penalty
    card. Declarer may accept it (52B1a) or not (52B2: the penalty card is substituted, the card
    led or played becomes a major penalty card); once he has played from his hand or dummy after
    it (``declarer_played``) he must accept it (52B1b). An accepted card leaves the penalty card on
    the table (52B1c). ``seat`` the offender: declarer and dummy have no penalty card (48A)."""
    check_edition(edition)
    table = PLAY_LAWS[edition]
    if seat and declarer and parse_seat(seat, "seat") in (declarer, next_seat(declarer, 2)):
        raise IrregularityError("seat", Message(DECLARERS_CARD))
    situations = ("failure_must_accept",) if declarer_played else ("failure_accepted", "failure_refused")
    return _choices(table, situations, "declarer", 0)


def penalty_card_obligation(
    hand: Sequence[str], penalty_cards: Sequence[str], major: bool, suit_led: str | None
) -> tuple[str, ...]:
    """The cards the offender may play now with penalty cards on the table (50C, 50D1, 51A):
    following suit comes first; a major penalty card that can be played legally must be (declarer
    designates which when there are several); with a minor penalty card he may not play another
    card of its suit below an honour first. ``hand`` holds every card he has, penalty cards
    included. The same in every edition (1997 50D1, 2007 and 2017 50D1a and 50D1b)."""
    cards = [parse_card(c) for c in hand]
    penalties = [parse_card(c) for c in penalty_cards if parse_card(c) in cards]
    legal = [c for c in cards if suit_led is None or c[0] == suit_led] or cards
    playable = [c for c in penalties if c in legal]
    if not playable:
        return tuple(legal)
    if major:
        return tuple(playable)
    blocked = {c for c in legal if c not in penalties and c[1] not in HONOURS and any(p[0] == c[0] for p in playable)}
    return tuple(c for c in legal if c not in blocked)


def information_law(edition: str) -> PlayRow:
    """Where the edition says what a penalty card tells the players, and the law of any
    adjustment: 1997 50D1 (Law 16), 2007 and 2017 50E (50E3)."""
    check_edition(edition)
    return PLAY_LAWS[edition]["information"]


__all__ = [
    "DECLARER_BECOMES_DUMMY",
    "HONOURS",
    "LEAD_ACCEPTING",
    "LEAD_RETRACTING",
    "PLAY_LAWS",
    "PlayChoice",
    "PlayRectification",
    "PlayRow",
    "exposed_card",
    "information_law",
    "lead_out_of_turn",
    "parse_card",
    "penalty_card",
    "penalty_card_lead_options",
    "penalty_card_not_played",
    "penalty_card_obligation",
]
