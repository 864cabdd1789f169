"""The Law 16B1a poll: the question, each player polled and the action they chose."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core import policy
from rulings.models import Ruling

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def parse_poll_lines(text: str | None) -> list[dict[str, str]]:
    """'Name: action' per line (the form's poll box) -> [{"player": ..., "action": ...}]."""
    votes = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        player, sep, action = line.partition(":")
        if not sep or not player.strip() or not action.strip():
            raise ValidationError(
                {
                    "poll_votes": _(
                        'Line %(n)s: write the player, a colon, and the action they chose, e.g. "A. Cohen: pass".'
                    )
                    % {"n": number}
                }
            )
        votes.append({"player": player.strip(), "action": action.strip()})
    return votes


def record_poll(
    *, by: User, ruling: Ruling, question: str, votes: list[dict[str, str]], level: str = ""
) -> dict[str, Any]:
    """A Law 16B1a poll: the question, each player polled and the action they chose; the count
    by action is worked out here, not typed."""
    policy.require(by, "ruling", ruling)
    errors = {}
    if not (question or "").strip():
        errors["poll_question"] = _("Write the question the players were asked.")
    if not votes:
        errors["poll_votes"] = _("List the players polled and the action each chose.")
    if errors:
        raise ValidationError(errors)
    count: dict[str, int] = {}
    for vote in votes:
        key = vote["action"].strip()
        matched = next((k for k in count if k.lower() == key.lower()), key)
        count[matched] = count.get(matched, 0) + 1
    ruling.poll = {
        "question": question.strip(),
        "level": (level or "").strip(),
        "players": votes,
        "count": dict(sorted(count.items(), key=lambda item: -item[1])),
    }
    Ruling.objects.filter(pk=ruling.pk).update(poll=ruling.poll)
    return ruling.poll
