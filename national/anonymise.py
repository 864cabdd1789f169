"""Hiding players, teams and captains in a published casebook, as the regulating authority sets
it (the ``casebook_names`` setting): by seat only ("North"), by masterpoint rank instead of the
name ("North, Regional Master"), or not at all.

Names are hidden in two ways. Every structured place a player appears (the table's seats, the
sides, the appellants) is written from a label, never from the name. Free text (the facts, the
statements, the reasoning, the hearing record) is rewritten: every name of every player and team
of the tournament is replaced, longest first, as a whole word; in Hebrew also behind the
one-letter prefixes the language attaches to a word (ו, ה, ב, ל, מ, ש, כ). What a rewrite cannot
catch (a misspelt name, a nickname) is left to the editor, who is shown every place where any
form of a hidden name survives, case-insensitively, before the casebook can be published.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext as _

HEBREW_PREFIXES = "ובהלמשכ"
_HEBREW = re.compile(r"[\u0590-\u05ff]")
SEAT_LABELS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_label(seat):
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}[seat]


def side_label(side):
    return _("North-South") if side == "NS" else _("East-West")


@lru_cache(maxsize=64)  # one casebook's cases share their tournament's names
def _combined(forms, flags=0):
    """One pattern for every form (longest first, so "Dana Levi" wins over "Levi"), matching a
    whole word, and in Hebrew also behind prefix letters: group ``prefix`` and group ``name``."""

    def alternatives(names):
        return "|".join(re.escape(name) for name in names)

    hebrew = [form for form in forms if _HEBREW.search(form)]
    other = [form for form in forms if not _HEBREW.search(form)]
    parts = []
    if hebrew:
        parts.append(rf"(?P<prefix>[{HEBREW_PREFIXES}]{{0,2}})(?P<hebrew>{alternatives(hebrew)})")
    if other:
        parts.append(rf"(?P<name>{alternatives(other)})")
    if not parts:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)", flags)


@dataclass(frozen=True)
class Hidden:
    """One person or team to hide: every written form of the name, and what replaces it."""

    forms: tuple
    label: str


def player_forms(player):
    """The ways a player's name is written: in full both ways round, the last name, the first
    name, the membership number (and, for a received player kept apart as ``<instance>~<number>``,
    the number as its instance and the table wrote it, issue #41)."""
    first, last = player.first_name.strip(), player.last_name.strip()
    number = player.membership_number.strip()
    forms = [f"{first} {last}", f"{last} {first}", last, first, number, number.partition("~")[2].strip()]
    return tuple(form for form in dict.fromkeys(forms) if len(form.strip()) >= 2)


class Anonymiser:
    """Rewrites free text with every hidden name replaced by its label. ``Anonymiser([])`` (names
    shown) returns texts unchanged and finds no survivors."""

    def __init__(self, hidden):
        """``hidden`` in order of precedence: where two people share a name (two players called
        Levi), the first one listed takes it (the table's players come before the rest)."""
        self.hidden = list(hidden)
        labels: dict[str, str] = {}
        for item in self.hidden:
            for form in item.forms:
                labels.setdefault(form, item.label)
        self._labels = labels
        self._lower = {form.lower(): form for form in labels}
        forms = tuple(sorted(labels, key=lambda form: (-len(form), form)))
        self._replace = _combined(forms)
        self._check = _combined(forms, re.IGNORECASE)

    def __call__(self, text):
        if not text or self._replace is None:
            return text
        return self._replace.sub(self._placed, text)

    @staticmethod
    def _matched(match):
        """(prefix letters, the name) of a match of ``_combined``."""
        groups = match.groupdict()
        if groups.get("hebrew"):
            return groups["prefix"] or "", groups["hebrew"]
        return "", groups["name"]

    def _placed(self, match):
        """The label, with a capital where it starts a sentence ("another player said...")."""
        prefix, name = self._matched(match)
        label = self._labels[name]
        before = match.string[: match.start()].rstrip()
        if not prefix and (not before or before[-1] in ".!?:\n"):
            label = label[:1].upper() + label[1:]
        return prefix + label

    def survivors(self, text):
        """Every hidden name still readable in ``text`` (in any case), longest first; a name
        inside a longer one found (Levi in Miriam Levi) is not listed again."""
        if not text or self._check is None:
            return []
        found = {self._lower[self._matched(match)[1].lower()] for match in self._check.finditer(text)}
        listed: list[str] = []
        for form in sorted(found, key=lambda form: (-len(form), form)):
            if not any(form.lower() in longer.lower() for longer in listed):
                listed.append(form)
        return listed


def labels_for(ruling, names, seating_players):
    """What the casebook writes for each seat, side and captain at the ruling's table.

    ``names`` is ``"seats"``, ``"masterpoints"`` or ``"names"``; ``seating_players`` maps the
    seats recorded on the ruling to their players. Returns ``(seats, sides, people)``: labels by
    seat and by side, and for each player and contestant at the table the label that replaces
    their name in free text."""
    result = ruling.result
    contestants = {"NS": result.ns, "EW": result.ew}
    team_event = result.ns.kind == result.ns.Kind.TEAM

    def with_rank(label, player):
        if names != "masterpoints":
            return label
        rank = player.masterpoint_rank or _("rank not recorded")
        return _("%(who)s (%(rank)s)") % {"who": label, "rank": rank}

    seats, people = {}, {}
    for seat in "NESW":
        player = seating_players.get(seat)
        if player is None:
            seats[seat] = seat_label(seat)
            continue
        if names == "names":
            seats[seat] = _("%(seat)s: %(name)s") % {"seat": seat_label(seat), "name": player}
        else:
            seats[seat] = with_rank(seat_label(seat), player)
        people[player.pk] = with_rank(seat_label(seat), player)
    sides = {}
    for side, contestant in contestants.items():
        label = (_("the %(side)s team") if team_event else _("the %(side)s pair")) % {"side": side_label(side)}
        sides[side] = str(contestant) if names == "names" else label
        people[("contestant", contestant.pk)] = label
        for member in contestant.members.all():
            people.setdefault(member.pk, with_rank(_("a %(side)s player") % {"side": side_label(side)}, member))
        if contestant.captain_id:
            people.setdefault(
                contestant.captain_id,
                with_rank(_("the %(side)s captain") % {"side": side_label(side)}, contestant.captain),
            )
    return seats, sides, people


def anonymiser_for(ruling, names, seating_players, players, contestants):
    """The rewriter for one case: the table's people by their labels, every other player and
    contestant of the tournament as "another player" / "another pair" or "another team"."""
    if names == "names":
        return Anonymiser([])
    _seats, _sides, people = labels_for(ruling, names, seating_players)
    # The table's people first: they take a name they share with someone else in the tournament.
    players = sorted(players, key=lambda player: player.pk not in people)
    # Translated once here, not once for each of a big tournament's players.
    another, with_rank, unranked = _("another player"), _("%(who)s (%(rank)s)"), _("rank not recorded")
    another_team, another_pair = _("another team"), _("another pair")
    hidden = []
    for player in players:
        label = people.get(player.pk)
        if label is None:
            label = another
            if names == "masterpoints":
                label = with_rank % {"who": label, "rank": player.masterpoint_rank or unranked}
        hidden.append(Hidden(player_forms(player), label))
    for contestant in contestants:
        label = people.get(("contestant", contestant.pk))
        if label is None:
            label = another_team if contestant.kind == contestant.Kind.TEAM else another_pair
        if contestant.name.strip() and len(contestant.name.strip()) >= 2:
            hidden.append(Hidden((contestant.name.strip(),), label))
    return Anonymiser(hidden)
