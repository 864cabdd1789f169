"""The revoke Laws 61-64 and the defective trick's Law 67 (with dummy's 43B2b) as tables, one per
edition (1997, 2007, 2017): each row is one paragraph of that edition's text, its words beside it
(``words``, English; "summary:" where they are not quoted) and what it does (``tricks``
transferred, ``equity`` whether Law 64C stays open, ``text`` the rectification's template, a
msgid). ``bridge.revokes`` names the situation the facts meet and reads the row: the law cited,
the tricks and the reason come from it, so the revoke page's choices (63A's ways of
establishment), the service's transfer and the ruling's citations read the same row. The editions
differ where their texts differ:

- 1997 letters Law 63 A, B, C: 63B "Attention Is Illegally Drawn" (a violation of Law 61B: the
  revoker substitutes a legal card and Law 64 applies as if the revoke were established; the
  facts' ``attention_illegally_drawn``, refused in 2007 and 2017) and 63C
  "Revoke May Not Be Corrected"; 2007 and 2017 have no such 63B, their 63B is "Revoke May Not Be
  Corrected". Dummy's question to declarer (43B2b) is its own paragraph in every edition, cited
  alone (issue #39: one citation a law).
- 1997 64A2 transfers one trick and "also, if an additional trick was subsequently won by the
  offending player with a card that he could legally have played to the revoke trick, one such
  trick": up to two; 2007 and 2017 64A2 transfer one.
- 1997 64B has six exemptions; 2007 and 2017 add 64B7 (both sides revoked on the same board).
- 2007 62C3: a claim of revoke does not warrant inspection of quitted tricks; 2017 62C3: both
  sides revoked on the same trick and only one side has played to the next: both are corrected.
- 2017 62D2: a defender's revoke on trick 12 before his partner's turn, Law 16C applies.
- 2017 63A4: a revoke is also established when agreement to an opponent's claim or concession is
  established (Law 69A); 1997 and 2007 have 63A1-63A3 (1997 63A3 "makes or acquiesces in" a claim).

Sources: the 1997 text as jfr.pzbs.pl/laws publishes it (Law 63 quoted), the EBU White Book's
quotation of 1997 64A2, the 2017 English text as the PZBS publishes it
(pzbs.pl/sedziowie/mpb/2017/en/l62.html, l63.html); the rest is marked "summary:".

Plain Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridge.messages import Message, gettext_noop

EDITIONS = ("1997", "2007", "2017")


@dataclass(frozen=True)
class RevokeRow:
    """One paragraph of an edition's revoke or defective-trick Laws: ``law`` as that edition
    numbers it, ``words`` (English; "summary:" where not quoted), ``text`` the rectification's
    template (a msgid; empty for a paragraph that only defines or explains), ``tricks`` the tricks
    it transfers and ``equity`` whether Law 64C stays open after it."""

    law: str
    words: str
    text: str = ""
    tricks: int = 0
    equity: bool = False

    def reason(self, **params: Any) -> Message:
        return Message(self.text, **params)


# --- The texts (msgids; several paragraphs say the same) --------------------------------------

NOT_ESTABLISHED = gettext_noop("the revoke was not established: it is corrected and no trick is transferred")
AS_IF_ESTABLISHED = gettext_noop(
    "corrected, but dummy was the first to ask declarer about it: Law 64 applies as if the revoke "
    "had been established (%(laws)s); %(reason)s"
)
ILLEGALLY_DRAWN = gettext_noop(
    "corrected, but attention was drawn to it in violation of Law 61B: Law 64 applies as if the revoke had "
    "been established (63B); %(reason)s"
)
WON_AND_LATER = gettext_noop(
    "the offending player won the revoke trick: it is transferred, with one later trick the offending side won"
)
WON_ONLY = gettext_noop("the offending player won the revoke trick: it is transferred (his side won no later trick)")
NOT_WON = gettext_noop(
    "the offending player did not win the revoke trick: one trick is transferred, as his side won "
    "that trick or a later one"
)
NOT_WON_LEGAL_CARD = gettext_noop(
    "the offending player did not win the revoke trick; his side won a trick from then on, and he "
    "later won a trick with a card he could have played to the revoke trick: two tricks are "
    "transferred (1997)"
)
NOT_WON_LEGAL_CARD_CAPPED = gettext_noop(
    "the offending player did not win the revoke trick; he later won a trick with a card he could "
    "have played to it, but his side won only one trick from the revoke on: one trick is "
    "transferred (1997)"
)
NO_TRICK = gettext_noop("no transfer: the offending side won neither the revoke trick nor any later trick")
SAME_SUIT = gettext_noop("no transfer: a second revoke in the same suit by the same player")
FACED = gettext_noop(
    "no transfer: the revoke was a failure to play a faced card or a card of a hand faced on the table "
    "(dummy's included)"
)
NEXT_CALL = gettext_noop(
    "no transfer: attention was first drawn to the revoke after the non-offending side called on the next board"
)
ROUND = gettext_noop("no transfer: attention was first drawn to the revoke after the round ended")
TWELFTH = gettext_noop("no transfer: the revoke was on the twelfth trick (corrected, Law 62D)")
BOTH_SIDES = gettext_noop("no transfer: both sides revoked on the board (the director restores equity, 64C)")
DEFECTIVE_SUPPLIED = gettext_noop(
    "attention drawn before both sides played to the next trick: the offender supplies a card he can "
    "legally play to the trick; nothing is transferred"
)
DEFECTIVE_TOO_MANY_BEFORE = gettext_noop(
    "attention drawn before both sides played to the next trick: the trick is put right under Law "
    "45E (a fifth card played to it) or 58B (cards played at once from one hand); nothing is "
    "transferred"
)
DEFECTIVE_TOO_MANY = gettext_noop(
    "too many cards played to the trick: the extra cards go back to the hand and the trick stands; a card "
    "that should have been played to an earlier trick is a revoke of its own"
)
DEFECTIVE_NO_PENALTY = gettext_noop(
    "the offender places a card of the suit led among his played cards: no penalty (1997)"
)
DEFECTIVE_NOTHING_TO_TRANSFER = gettext_noop(
    "deemed a revoke, but the offending side won neither that trick nor a later one: nothing to transfer"
)
DEFECTIVE_DEEMED = gettext_noop("deemed a revoke on the defective trick: one trick is transferred (as Law 64A2)")

# --- The words ------------------------------------------------------------------------------

W_63A1 = (
    "when the offender or his partner leads or plays to the following trick (any such play, legal or illegal, "
    "establishes the revoke)."
)
W_63A2 = "when the offender or his partner names or otherwise designates a card to be played to the following trick."
W_63A3_1997 = (
    "when a member of the offending side makes or acquiesces in a claim or concession of tricks orally or by "
    "facing his hand (or in any other fashion)."
)
W_63A3_2007 = (
    "summary: when a member of the offending side makes or agrees to a claim or concession of tricks, orally, by "
    "facing his hand or in any other fashion"
)
W_63A3_2017 = (
    "when a member of the offending side makes a claim or concession of tricks orally or by facing his hand or "
    "in any other way."
)
W_62A_1997 = "summary: a player must correct his revoke if he becomes aware of it before it becomes established"
W_62A = "A player must correct his revoke if attention is drawn to the irregularity before it becomes established."
W_62B1 = "A card so withdrawn becomes a major penalty card (Law 50) if it was played from a defender's unfaced hand."
W_62D1 = (
    "On the twelfth trick, a revoke, even if established, must be corrected if discovered before all four hands "
    "have been returned to the board."
)
W_64A1 = (
    "summary: the trick on which the revoke occurred was won by the offending player: at the end of play that "
    "trick, plus one of any subsequent tricks won by the offending side, are transferred to the non-offending side"
)
W_64A2_1997 = (
    "and the trick on which the revoke occurred was not won by the offending player, then, if the offending side "
    "won that or any subsequent trick, (penalty) after play ceases, one trick is transferred to the non-offending "
    "side; also, if an additional trick was subsequently won by the offending player with a card that he could "
    "legally have played to the revoke trick, one such trick is transferred to the non-offending side."
)
W_64A2 = (
    "summary: the trick on which the revoke occurred was not won by the offending player: if the offending side "
    "won that or any subsequent trick, at the end of play one trick is transferred to the non-offending side"
)
W_64B = (
    "summary: there is no automatic trick adjustment after an established revoke (1997: no penalty) if: ",
    {
        "64B1": "the offending side did not win either the revoke trick or any subsequent trick",
        "64B2": "it is a subsequent revoke in the same suit by the same player",
        "64B3": "the revoke was made in failing to play any card faced on the table or belonging to a hand faced "
        "on the table, including a card from dummy's hand",
        "64B4": "attention was first drawn to the revoke after a member of the non-offending side made a call on "
        "the subsequent deal",
        "64B5": "attention was first drawn to the revoke after the round has ended",
        "64B6": "the revoke was on the twelfth trick",
        "64B7": "both sides have revoked on the same board",
    },
)
W_64C = (
    "summary: when, after any established revoke, including those not subject to rectification, the Director "
    "deems that the non-offending side is insufficiently compensated by this Law for the damage caused, he "
    "assigns an adjusted score"
)
W_43B2B = (
    "summary: dummy, having forfeited his rights, is the first to ask declarer whether he has a card of the suit "
    "led: declarer must correct a revoke, and Law 64 applies as if the revoke had been established"
)

# Where each exemption of 64B is read from the facts, in the Laws' order.
EXEMPTIONS = ("64B1", "64B2", "64B3", "64B4", "64B5", "64B6", "64B7")
_EXEMPTION_TEXTS = {
    "64B1": NO_TRICK,
    "64B2": SAME_SUIT,
    "64B3": FACED,
    "64B4": NEXT_CALL,
    "64B5": ROUND,
    "64B6": TWELFTH,
    "64B7": BOTH_SIDES,
}


def _law_61(edition: str) -> dict[str, RevokeRow]:
    rows = {
        "definition": RevokeRow(
            "61A",
            "summary: failure to follow suit in accordance with Law 44, or failure to lead or play, when able, a card "
            "or suit required by law or specified by an opponent in rectification of an irregularity, is a revoke",
        ),
        "inquiry": RevokeRow(
            "61B",
            "summary: declarer may ask a defender who has failed to follow suit whether he has a card of the suit "
            "led; dummy may ask declarer (but see Law 43B2(b)); the defenders may ask declarer and, unless the "
            "regulations prohibit it, each other",
        ),
    }
    if edition != "1997":
        rows.update(
            {
                "inquiry_declarer": RevokeRow("61B1", "summary: declarer may ask a defender"),
                "inquiry_dummy": RevokeRow("61B2a", "summary: dummy may ask declarer (but see Law 43B2(b))"),
                "inquiry_dummy_defender": RevokeRow("61B2b", "summary: dummy may not ask a defender"),
                "inquiry_defenders": RevokeRow(
                    "61B3",
                    "summary: the defenders may ask declarer and, unless the regulations prohibit it, each other",
                ),
            }
        )
    return rows


def _law_62(edition: str) -> dict[str, RevokeRow]:
    rows = {
        "corrected": RevokeRow("62A", W_62A_1997 if edition == "1997" else W_62A, NOT_ESTABLISHED),
        "corrected_defender": RevokeRow("62B1", W_62B1),
        "corrected_declarer": RevokeRow(
            "62B2",
            "The card may be replaced without further rectification if it was played from declarer's [subject to Law "
            "43B2(b)] or dummy's hand, or if it was a defender's faced card."
            if edition == "2017"
            else "summary: the card may be replaced without further rectification (1997: without penalty) if it was "
            "played from declarer's or dummy's hand, or if it was a defender's faced card",
        ),
        "withdrawn_non_offenders": RevokeRow(
            "62C1",
            "Each member of the non-offending side may withdraw and return to his hand any card he may have played "
            "after the revoke but before attention was drawn to it (see Law 16C)."
            if edition == "2017"
            else "summary: each member of the non-offending side may, without rectification, withdraw any card he "
            "played after the revoke but before attention was drawn to it",
        ),
        "withdrawn_partner": RevokeRow(
            "62C2",
            "After a non-offender so withdraws a card, the player of the offending side next in rotation may withdraw "
            "his played card, which becomes a penalty card if the player is a defender (see Law 16C)."
            if edition == "2017"
            else "summary: after a non-offender so withdraws a card, the hand of the offending side next in rotation "
            "may withdraw its played card, a penalty card if the player is a defender",
        ),
        "twelfth": RevokeRow("62D1", W_62D1),
        "twelfth_partner": RevokeRow(
            "62D2",
            "If a defender revokes on the twelfth trick before his partner's turn to play to the trick, Law 16C applies."
            if edition == "2017"
            else "summary: a defender revoked on the twelfth trick before his partner played to it: his partner, "
            "holding cards of two suits, may not choose the play the revoke card could have suggested",
        ),
    }
    if edition == "2007":
        rows["inspection"] = RevokeRow(
            "62C3",
            "summary: a claim of revoke does not warrant inspection of quitted tricks except as Law 66C permits",
        )
    if edition == "2017":
        rows["both_on_one_trick"] = RevokeRow(
            "62C3",
            "If both sides revoke on the same trick and only one side has played to the subsequent trick, then both "
            "revokes must be corrected (see Law 16C2). Every card withdrawn by the defending side becomes a penalty "
            "card.",
        )
    return rows


def _law_63(edition: str) -> dict[str, RevokeRow]:
    rows = {
        "established_next_trick": RevokeRow("63A1", W_63A1),
        "established_named": RevokeRow("63A2", W_63A2),
        "established_claim": RevokeRow(
            "63A3", {"1997": W_63A3_1997, "2007": W_63A3_2007, "2017": W_63A3_2017}[edition]
        ),
        "not_corrected": RevokeRow(
            "63C" if edition == "1997" else "63B",
            "Once a revoke is established, it may no longer be corrected (except as provided in Law 62D for a revoke "
            "on the twelfth trick), and the trick on which the revoke occurred stands as played (but see Law 43B2(b))."
            if edition == "1997"
            else "Once a revoke is established, it may no longer be corrected (except as provided in Law 62D for a "
            "revoke on the twelfth trick or as in Law 62C3), and the trick on which the revoke occurred stands as "
            "played."
            if edition == "2017"
            else "summary: once a revoke is established, it may no longer be corrected (except as Law 62D provides "
            "for a revoke on the twelfth trick), and the trick on which it occurred stands as played",
        ),
    }
    if edition == "2017":
        rows["established_agreement"] = RevokeRow(
            "63A4",
            "when agreement is established (as per Law 69A) to an opponent's claim or concession; the offending side "
            "having raised no objection to it before the end of the round, or before making a call on a subsequent "
            "board.",
        )
    if edition == "1997":
        rows["attention_illegally_drawn"] = RevokeRow(
            "63B",
            "When there has been a violation of Law 61B, the revoker must substitute a legal card and the penalty "
            "provisions of Law 64 apply as if the revoke had been established.",
            ILLEGALLY_DRAWN,
        )
    return rows


def _law_64(edition: str) -> dict[str, RevokeRow]:
    older = edition == "1997"
    rows = {
        "won_and_later": RevokeRow("64A1", W_64A1, WON_AND_LATER, tricks=2, equity=True),
        "won_only": RevokeRow("64A1", W_64A1, WON_ONLY, tricks=1, equity=True),
        "not_won": RevokeRow("64A2", W_64A2_1997 if older else W_64A2, NOT_WON, tricks=1, equity=True),
        "equity": RevokeRow("64C", W_64C),
    }
    if older:
        rows["not_won_legal_card"] = RevokeRow("64A2", W_64A2_1997, NOT_WON_LEGAL_CARD, tricks=2, equity=True)
        rows["not_won_legal_card_capped"] = RevokeRow(
            "64A2", W_64A2_1997, NOT_WON_LEGAL_CARD_CAPPED, tricks=1, equity=True
        )
    preamble, exemptions = W_64B
    for law in EXEMPTIONS[:6] if older else EXEMPTIONS:
        rows[law] = RevokeRow(law, preamble + exemptions[law], _EXEMPTION_TEXTS[law], equity=True)
    return rows


def _law_67(edition: str) -> dict[str, RevokeRow]:
    older = edition == "1997"
    return {
        "defective_supplied": RevokeRow(
            "67A1",
            "summary: attention drawn before both sides play to the next trick: the offender who failed to play "
            "supplies a card he can legally play",
            DEFECTIVE_SUPPLIED,
        ),
        "defective_too_many_before": RevokeRow(
            "67A2",
            "summary: attention drawn before both sides play to the next trick: the offender who played too many "
            "cards withdraws the extra cards (Law 45E, 58B)",
            DEFECTIVE_TOO_MANY_BEFORE,
        ),
        "defective_could_follow": RevokeRow(
            "67B1a",
            "summary: the offender who failed to play to the trick had a card of the suit led: he places one among "
            "his played cards, without penalty"
            if older
            else "summary: the offender who failed to play to the trick had a card of the suit led: he places one "
            "among his played cards and is deemed to have revoked (one trick under Law 64A2)",
            DEFECTIVE_NO_PENALTY if older else DEFECTIVE_DEEMED,
            tricks=0 if older else 1,
            equity=not older,
        ),
        "defective_could_not_follow": RevokeRow(
            "67B1b",
            "summary: the offender who failed to play to the trick had no card of the suit led: he places any card "
            "among his played cards and is deemed to have revoked (one trick transferred)",
            DEFECTIVE_DEEMED,
            tricks=1,
            equity=True,
        ),
        "defective_too_many": RevokeRow(
            "67B2",
            "summary: the offender played more than one card to the trick: the extra cards go back to his hand, the "
            "trick stands; a card that should have been played earlier is a revoke of its own",
            DEFECTIVE_TOO_MANY,
        ),
    }


def _as_if(edition: str) -> dict[str, RevokeRow]:
    return {"as_if_established": RevokeRow("43B2b", W_43B2B, AS_IF_ESTABLISHED)}


def _table(edition: str) -> dict[str, RevokeRow]:
    return {
        **_law_61(edition),
        **_law_62(edition),
        **_law_63(edition),
        **_law_64(edition),
        **_law_67(edition),
        **_as_if(edition),
    }


REVOKE_LAWS: dict[str, dict[str, RevokeRow]] = {edition: _table(edition) for edition in EDITIONS}

# The ways a revoke becomes established, read from the rows: 63A1-63A3 in every edition, and the
# 2017 63A4 (agreement to an opponent's claim or concession established under Law 69A).
ESTABLISHMENT = ("established_next_trick", "established_named", "established_claim", "established_agreement")
ESTABLISHED_BY = tuple(dict.fromkeys(t[k].law for t in REVOKE_LAWS.values() for k in ESTABLISHMENT if k in t))


def establishment_laws(edition: str) -> tuple[str, ...]:
    """The edition's paragraphs of 63A, in order (1997, 2007: 63A1-63A3; 2017: 63A1-63A4)."""
    table = REVOKE_LAWS[edition]
    return tuple(table[key].law for key in ESTABLISHMENT if key in table)


def exemptions(edition: str) -> tuple[str, ...]:
    """The edition's 64B paragraphs, in the Laws' order (1997: 64B1-64B6; 2007, 2017: 64B1-64B7)."""
    return tuple(law for law in EXEMPTIONS if law in REVOKE_LAWS[edition])


__all__ = [
    "ESTABLISHED_BY",
    "ESTABLISHMENT",
    "EXEMPTIONS",
    "REVOKE_LAWS",
    "RevokeRow",
    "establishment_laws",
    "exemptions",
]
