"""A poll's stored data read and checked (issue #44): ``Ruling.poll``'s validator and its
players as bridge.polls answers. Apart from the services, for the model's field checks it too."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from bridge.call_laws import IrregularityError
from bridge.polls import Answer, check_answers
from core.i18n import translate


def answers_of(votes: list[dict[str, Any]]) -> list[Answer]:
    """The poll's stored players as bridge.polls answers (a poll recorded before issue #44 has
    no alternatives and counts every pollee as a peer)."""
    answers = []
    for vote in votes:
        considered = vote.get("considered") or [] if isinstance(vote, dict) else None
        if not isinstance(vote, dict) or not isinstance(considered, list):
            raise ValidationError({"poll_votes": _("List the players polled and the action each chose.")})
        answers.append(
            Answer(
                player=str(vote.get("player") or "").strip(),
                action=str(vote.get("action") or "").strip(),
                considered=tuple(str(a).strip() for a in considered if str(a).strip()),
                level=str(vote.get("level") or "peer").strip().lower(),
            )
        )
    return answers


def validate_poll(value: Any) -> None:
    """The poll as stored: {"question", "level", "table_action", "players": [...], "count"}; each
    player checked by bridge.polls (a pollee with no action, an alternative equal to the action
    chosen, a level not among LEVELS), the refusal naming the pollee (a field's validator: the
    message alone, the field is the model's ``poll``)."""
    if value in (None, {}):
        return
    if not isinstance(value, dict) or not isinstance(value.get("players", []), list):
        raise ValidationError(_("List the players polled and the action each chose."))
    try:
        answers = answers_of(value.get("players", []))
    except ValidationError as error:
        raise ValidationError(error.message_dict["poll_votes"]) from None
    try:
        check_answers(answers)
    except IrregularityError as error:
        raise ValidationError(translate(error)) from None


def poll_line(vote: dict[str, Any]) -> str:
    """One stored pollee as the form's poll box writes them (services.parse_poll_lines reads it)."""
    line = f"{vote.get('player', '')}: {vote.get('action', '')}"
    if vote.get("considered"):
        line += "; also " + ", ".join(vote["considered"])
    if (vote.get("level") or "peer") != "peer":
        line += f"; {vote['level']}"
    return line
