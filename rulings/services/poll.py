"""The Law 16B1a poll as data (issue #44): the question, the action taken at the table, and each
pollee's answer: the action they chose, the other actions they seriously considered, their
level (bridge.polls). The logical alternatives and weights are found from it by
``rulings.selectors.poll_finding`` with the authority's threshold in force."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from bridge.call_laws import IrregularityError
from bridge.polls import LEVELS, check_answers
from core import policy
from core.i18n import translate
from rulings.models import Ruling
from rulings.poll_data import answers_of, validate_poll

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def parse_poll_lines(text: str | None) -> list[dict[str, Any]]:
    """The form's poll box, a pollee a line: 'Name: action', then optionally '; also X, Y' (the
    other actions seriously considered) and '; level' (peer, stronger, weaker, director) ->
    [{"player", "action", "considered", "level"}]."""
    votes = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        head, *rest = line.split(";")
        player, sep, action = head.partition(":")
        if not sep or not player.strip() or not action.strip():
            raise ValidationError(
                {
                    "poll_votes": _(
                        'Line %(n)s: write the player, a colon, and the action they chose, e.g. "A. Cohen: pass".'
                    )
                    % {"n": number}
                }
            )
        vote: dict[str, Any] = {"player": player.strip(), "action": action.strip(), "considered": [], "level": "peer"}
        for part in (p.strip() for p in rest):
            if part.lower().startswith("also"):
                vote["considered"] = [a.strip() for a in part[4:].split(",") if a.strip()]
            elif part:
                vote["level"] = part.lower()
        votes.append(vote)
    return votes


def record_poll(
    *,
    by: User,
    ruling: Ruling,
    question: str,
    votes: list[dict[str, Any]],
    level: str = "",
    table_action: str = "",
) -> dict[str, Any]:
    """A Law 16B1a poll: the question, the action taken at the table, each pollee's answer
    (action, the others seriously considered, level); the count by action chosen is worked out
    here, not typed."""
    policy.require(by, "ruling", ruling)
    errors = {}
    if not (question or "").strip():
        errors["poll_question"] = _("Write the question the players were asked.")
    if not votes:
        errors["poll_votes"] = _("List the players polled and the action each chose.")
    if errors:
        raise ValidationError(errors)
    answers = answers_of(votes)
    try:
        check_answers(answers)
    except IrregularityError as error:
        raise ValidationError({error.field: translate(error)}) from None
    count: dict[str, int] = {}
    for answer in answers:
        matched = next((k for k in count if k.lower() == answer.action.lower()), answer.action)
        count[matched] = count.get(matched, 0) + 1
    ruling.poll = {
        "question": question.strip(),
        "level": (level or "").strip(),
        "table_action": (table_action or "").strip(),
        "players": [
            {"player": a.player, "action": a.action, "considered": list(a.considered), "level": a.level}
            for a in answers
        ],
        "count": dict(sorted(count.items(), key=lambda item: -item[1])),
    }
    Ruling.objects.filter(pk=ruling.pk).update(poll=ruling.poll)
    return ruling.poll


__all__ = ["LEVELS", "answers_of", "parse_poll_lines", "record_poll", "validate_poll"]
