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

from django.utils.translation import gettext as _

HEBREW_PREFIXES = "ובהלמשכ"
_HEBREW = re.compile(r"[\u0590-\u05ff]")
SEAT_LABELS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_label(seat):
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}[seat]


def side_label(side):
    return _("North-South") if side == "NS" else _("East-West")


def _pattern(name, flags=0):
    prefix = f"[{HEBREW_PREFIXES}]{{0,2}}" if _HEBREW.search(name) else ""
    return re.compile(rf"(?<!\w)({prefix}){re.escape(name)}(?!\w)", flags)


@dataclass(frozen=True)
class Hidden:
    """One person or team to hide: every written form of the name, and what replaces it."""

    forms: tuple
    label: str


def player_forms(player):
    """The ways a player's name is written: in full both ways round, the last name, the first
    name, the membership number."""
    first, last = player.first_name.strip(), player.last_name.strip()
    forms = [f"{first} {last}", f"{last} {first}", last, first, player.membership_number.strip()]
    return tuple(form for form in dict.fromkeys(forms) if len(form.strip()) >= 2)


class Anonymiser:
    """Rewrites free text with every hidden name replaced by its label. ``Anonymiser([])`` (names
    shown) returns texts unchanged and finds no survivors."""

    def __init__(self, hidden):
        """``hidden`` in order of precedence: where two people share a name (two players called
        Levi), the first one listed takes it (the table's players come before the rest)."""
        self.hidden = list(hidden)
        labels = {}
        for item in self.hidden:
            for form in item.forms:
                labels.setdefault(form, item.label)
        # Longest first, so "Dana Levi" goes before "Levi" and "Dana".
        forms = sorted(labels, key=len, reverse=True)
        self._replacements = [(_pattern(form), labels[form]) for form in forms]
        self._checks = [(form, _pattern(form, re.IGNORECASE)) for form in forms]

    def __call__(self, text):
        if not text:
            return text
        for pattern, label in self._replacements:
            text = pattern.sub(lambda match, label=label: self._placed(match, label), text)
        return text

    @staticmethod
    def _placed(match, label):
        """The label, with a capital where it starts a sentence ("another player said...")."""
        before = match.string[:match.start()].rstrip()
        if not match.group(1) and (not before or before[-1] in ".!?:\n"):
            label = label[:1].upper() + label[1:]
        return match.group(1) + label

    def survivors(self, text):
        """Every hidden name still readable in ``text`` (in any case), in order of length."""
        if not text:
            return []
        found = []
        for form, pattern in self._checks:
            if pattern.search(text) and not any(form.lower() in longer.lower() for longer in found):
                found.append(form)
        return found


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
            people.setdefault(contestant.captain_id, with_rank(
                _("the %(side)s captain") % {"side": side_label(side)}, contestant.captain))
    return seats, sides, people


def anonymiser_for(ruling, names, seating_players, players, contestants):
    """The rewriter for one case: the table's people by their labels, every other player and
    contestant of the tournament as "another player" / "another pair" or "another team"."""
    if names == "names":
        return Anonymiser([])
    _seats, _sides, people = labels_for(ruling, names, seating_players)
    # The table's people first: they take a name they share with someone else in the tournament.
    players = sorted(players, key=lambda player: player.pk not in people)
    hidden = []
    for player in players:
        label = people.get(player.pk)
        if label is None:
            label = _("another player")
            if names == "masterpoints":
                label = _("%(who)s (%(rank)s)") % {"who": label,
                                                    "rank": player.masterpoint_rank or _("rank not recorded")}
        hidden.append(Hidden(player_forms(player), label))
    for contestant in contestants:
        label = people.get(("contestant", contestant.pk))
        if label is None:
            label = _("another team") if contestant.kind == contestant.Kind.TEAM else _("another pair")
        if contestant.name.strip() and len(contestant.name.strip()) >= 2:
            hidden.append(Hidden((contestant.name.strip(),), label))
    return Anonymiser(hidden)
