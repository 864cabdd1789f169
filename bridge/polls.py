"""A Law 16B1 poll as data, and the logical alternatives found from it by a regulating
authority's threshold (issue #44).

Each pollee's answer is the action they chose, the other actions they say they seriously
considered (the ACBL's polling guidance asks each pollee for both) and their level: ``peer``
(the class of players in question, Law 16B1(b)), ``stronger``, ``weaker`` or ``director`` (a
director consulted). Only peers are counted: Law 16B1(b) asks what "a significant proportion
of the class of players in question" would seriously consider.

The Laws give no number for "a significant proportion"; a regulating authority may
(``Threshold``, its dated setting ``logical_alternative_threshold``): a share of the peers polled
who would seriously consider the action (or choose it), reached or exceeded, and the share
choosing the table action above which no other logical alternative exists. Without a share
the proposal is the Laws' words alone: any action a peer would seriously consider, which the
director judges. Weights (Law 12C1(c)) are proposed over the logical alternatives other than
the table action, in proportion to the peers who chose each, unless the authority forbids
weighting. docs/irregularities.md, "Polls as data".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bridge.call_laws import IrregularityError
from bridge.messages import Message, _, gettext_noop

LEVELS = ("peer", "stronger", "weaker", "director")
COUNTS = ("considered", "chose")
MAX_POLLEES = 60
MAX_CONSIDERED = 6


def fraction(text: Any) -> Fraction:
    """A share from 0 to 1 written "1/5", "0.2" or "20%"; ValueError otherwise."""
    value = str(text).strip()
    try:
        number = Fraction(value[:-1]) / 100 if value.endswith("%") else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(value) from None
    if not 0 < number <= 1:
        raise ValueError(value)
    return number


def share_text(share: Fraction) -> str:
    """A share as a reader reads it: "1/5", "3/4"."""
    return f"{share.numerator}/{share.denominator}"


@dataclass(frozen=True)
class Threshold:
    """The authority's threshold: ``share`` of the peers polled (None: the Laws' words, no
    number), ``more_than`` whether it must be exceeded (else reached), ``counts`` what counts
    towards it (``considered``: chose it or seriously considered it; ``chose``: chose it), and
    ``table_action`` the share choosing the table action above which no other logical
    alternative exists (None: no such rule)."""

    share: Fraction | None = None
    more_than: bool = False
    counts: str = "considered"
    table_action: Fraction | None = None

    @classmethod
    def from_setting(cls, value: dict[str, Any] | None) -> Threshold:
        value = value or {}
        share = value.get("share")
        table = value.get("table_action")
        return cls(
            share=fraction(share) if share not in (None, "") else None,
            more_than=bool(value.get("more_than")),
            counts=str(value.get("counts") or "considered"),
            table_action=fraction(table) if table not in (None, "") else None,
        )

    def reaches(self, number: int, peers: int) -> bool:
        if not peers or not number:
            return False
        if self.share is None:
            return True
        part = Fraction(number, peers)
        return part > self.share if self.more_than else part >= self.share

    def describe(self) -> list[Message]:
        if self.share is None:
            words = [
                _(
                    "The regulating authority sets no share: an action any peer polled would seriously consider "
                    "is proposed, and the director judges whether a significant proportion would (Law 16B1b)."
                )
            ]
        else:
            template = {
                (False, "considered"): gettext_noop(
                    "The regulating authority's threshold: an action is a logical alternative when at least "
                    "%(share)s of the player's peers polled would seriously consider it."
                ),
                (True, "considered"): gettext_noop(
                    "The regulating authority's threshold: an action is a logical alternative when more than "
                    "%(share)s of the player's peers polled would seriously consider it."
                ),
                (False, "chose"): gettext_noop(
                    "The regulating authority's threshold: an action is a logical alternative when at least "
                    "%(share)s of the player's peers polled would choose it."
                ),
                (True, "chose"): gettext_noop(
                    "The regulating authority's threshold: an action is a logical alternative when more than "
                    "%(share)s of the player's peers polled would choose it."
                ),
            }[(self.more_than, self.counts)]
            words = [Message(template, share=share_text(self.share))]
        if self.table_action is not None:
            words.append(
                _(
                    "When more than %(share)s of the peers polled chose the action taken at the table, no other "
                    "logical alternative exists.",
                    share=share_text(self.table_action),
                )
            )
        return words


@dataclass(frozen=True)
class Answer:
    """One pollee's answer: the ``action`` chosen, the other actions ``considered`` seriously,
    and their ``level`` (one of LEVELS)."""

    player: str
    action: str
    considered: tuple[str, ...] = ()
    level: str = "peer"


def _same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def check_answers(answers: list[Answer]) -> None:
    """Refuse a poll that cannot be right, naming the pollee (``poll_votes``)."""
    if len(answers) > MAX_POLLEES:
        raise IrregularityError("poll_votes", _("At most %(n)s players can be polled.", n=MAX_POLLEES))
    for number, answer in enumerate(answers, start=1):
        if not answer.player.strip():
            raise IrregularityError("poll_votes", _("Pollee %(n)s: give the player's name.", n=number))
        if not answer.action.strip():
            raise IrregularityError(
                "poll_votes", _("Pollee %(n)s (%(player)s): say the action they chose.", n=number, player=answer.player)
            )
        if answer.level not in LEVELS:
            raise IrregularityError(
                "poll_votes",
                _(
                    "Pollee %(n)s (%(player)s): '%(level)s' is not a level: peer, stronger, weaker or director.",
                    n=number,
                    player=answer.player,
                    level=answer.level,
                ),
            )
        if len(answer.considered) > MAX_CONSIDERED:
            raise IrregularityError(
                "poll_votes",
                _(
                    "Pollee %(n)s (%(player)s): at most %(most)s other actions seriously considered.",
                    n=number,
                    player=answer.player,
                    most=MAX_CONSIDERED,
                ),
            )
        for other in answer.considered:
            if _same(other, answer.action):
                raise IrregularityError(
                    "poll_votes",
                    _(
                        "Pollee %(n)s (%(player)s): %(action)s is the action they chose; list only the other "
                        "actions they seriously considered.",
                        n=number,
                        player=answer.player,
                        action=answer.action,
                    ),
                )


@dataclass(frozen=True)
class Tally:
    """One action of the poll: the peers who chose it and who chose or seriously considered it."""

    action: str
    chose: int
    considered: int
    logical: bool = False
    weight: Fraction | None = None


@dataclass(frozen=True)
class PollFinding:
    peers: int
    others: int
    tallies: tuple[Tally, ...]
    logical: tuple[str, ...]
    words: tuple[Message, ...]
    weights: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "peers": self.peers,
            "others": self.others,
            "tallies": [
                {"action": t.action, "chose": t.chose, "considered": t.considered, "logical": t.logical}
                for t in self.tallies
            ],
            "logical": list(self.logical),
            "weights": [{"action": a, "weight": w} for a, w in self.weights],
        }


def tallies(answers: list[Answer]) -> list[Tally]:
    """Each action the peers chose or seriously considered, most chosen first, spelt as first written."""
    names: dict[str, str] = {}
    chose: dict[str, int] = {}
    considered: dict[str, int] = {}
    for answer in answers:
        if answer.level != "peer":
            continue
        actions = [answer.action, *[a for a in answer.considered if a.strip()]]
        for number, action in enumerate(actions):
            key = action.strip().lower()
            names.setdefault(key, action.strip())
            considered[key] = considered.get(key, 0) + 1
            if number == 0:
                chose[key] = chose.get(key, 0) + 1
    order = sorted(names, key=lambda k: (-chose.get(k, 0), -considered[k]))
    return [Tally(names[k], chose.get(k, 0), considered[k]) for k in order]


def _weights(logical: list[Tally], weighting_allowed: bool) -> tuple[tuple[tuple[str, str], ...], Message | None]:
    if not logical:
        return (), None
    if not weighting_allowed:
        return (), _(
            "No weights proposed: the regulating authority does not allow weighted scores (Law 12C1c); one "
            "result is assigned (Law 12C1e)."
        )
    if len(logical) == 1:
        return (), _("No weights proposed: one logical alternative, so one result is assigned (Law 12C1).")
    total = sum(t.chose for t in logical)
    shares = [Fraction(t.chose, total) if total else Fraction(1, len(logical)) for t in logical]
    weights = tuple((t.action, share_text(s)) for t, s in zip(logical, shares, strict=True) if s)
    text = ", ".join(f"{a} {w}" for a, w in weights)
    return weights, _(
        "Weights proposed from the poll (Law 12C1c), in proportion to the peers who chose each: %(weights)s.",
        weights=text,
    )


def find(
    answers: list[Answer], threshold: Threshold, table_action: str = "", *, weighting_allowed: bool = True
) -> PollFinding:
    """The logical alternatives to ``table_action`` (every action, when it is not known) that
    the peers' answers reach ``threshold``, and the weights proposed over them."""
    check_answers(answers)
    peers = sum(1 for a in answers if a.level == "peer")
    rows = tallies(answers)
    words = list(threshold.describe())
    table = next((t for t in rows if table_action and _same(t.action, table_action)), None)
    if not peers:
        words.append(_("None of the players polled is of the player's level (peer): nothing is counted."))
        return PollFinding(0, len(answers), tuple(rows), (), tuple(words))
    evident = (
        table is not None
        and threshold.table_action is not None
        and Fraction(table.chose, peers) > threshold.table_action
    )
    marked = []
    for row in rows:
        number = row.considered if threshold.counts == "considered" else row.chose
        is_table = table is not None and row is table
        marked.append(
            Tally(
                row.action, row.chose, row.considered, not is_table and not evident and threshold.reaches(number, peers)
            )
        )
    logical = [t for t in marked if t.logical]
    if evident and table is not None:
        words.append(
            _(
                "%(n)s of %(peers)s peers polled chose %(action)s, the action taken at the table: no other logical "
                "alternative exists.",
                n=table.chose,
                peers=peers,
                action=table.action,
            )
        )
    elif logical:
        words.append(
            _("Logical alternatives found from the poll: %(actions)s.", actions=", ".join(t.action for t in logical))
        )
    else:
        words.append(_("No logical alternative is found from the poll."))
    weights, said = _weights(logical, weighting_allowed)
    if said is not None:
        words.append(said)
    weight_of = dict(weights)
    final = tuple(
        Tally(
            t.action, t.chose, t.considered, t.logical, fraction(weight_of[t.action]) if t.action in weight_of else None
        )
        for t in marked
    )
    return PollFinding(peers, len(answers) - peers, final, tuple(t.action for t in logical), tuple(words), weights)
