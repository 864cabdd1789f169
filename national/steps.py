"""The national body's steps, each declared once (core/steps.py): a casebook's publishing and
finalising (``on="casebook"``, asked of the casebook's authority) and a tournament's push to the
national body (``on="tournament"``): the chief director publishes, the worker sends; and the
desk's decision that a received player and another of its membership number are one person, and
its undoing (``on="player"``, asked of the player's authority, issue #41). Their states are the
tables of national/lifecycle.py."""

from core import steps
from core.steps import ANY, START, Step
from national.federation.models import PlayerMatch, Push


def _push_state(tournament):
    """The state of the tournament's latest push; START before it was ever published."""
    return Push.objects.filter(tournament=tournament).values_list("state", flat=True).first()


def _authority(record):
    return record.authority


def _match_state(player):
    """The state of the player's latest match; START before it was ever matched."""
    matches = PlayerMatch.objects.filter(player=player).order_by("-matched_at", "-pk")
    return matches.values_list("state", flat=True).first()


steps.kind("casebook", "national.lifecycle.CASEBOOK", lambda casebook: casebook.state)
steps.kind("push", "national.lifecycle.PUSH", _push_state)
steps.kind("player_match", "national.lifecycle.PLAYER_MATCH", _match_state)

steps.declare(
    Step(
        "publish",
        "casebook",
        "casebook",
        ("casebook",),
        "national.casebooks.publish_casebook",
        "publish a casebook without commentary",
        moves=("publish",),
        about=_authority,
        door="national:casebook-publish",
        audit="casebook.published",
    ),
    Step(
        "finalise",
        "casebook",
        "casebook",
        ("casebook",),
        "national.casebooks.finalise_casebook",
        "finalise a casebook with its commentary",
        moves=("finalise",),
        about=_authority,
        door="national:casebook-finalise",
        audit="casebook.finalised",
    ),
    Step(
        "publish",
        "tournament",
        "push",
        ("publish",),
        "national.federation.push.publish",
        "publish the tournament to the national body",
        states=ANY,
        door="national:federation-publish",
    ),
    Step(
        "send",
        "tournament",
        "push",
        ("send_push",),
        "national.federation.push.run",
        "send the push (the worker)",
        moves=("send", "refuse", "deliver"),
        states=ANY,
    ),
    Step(
        "give_up",
        "tournament",
        "push",
        ("send_push",),
        "national.federation.push.give_up",
        "stop the push once its retries are spent (the worker)",
        moves=("give_up",),
        states=ANY,
    ),
    Step(
        "match",
        "player",
        "player_match",
        ("match_players",),
        "national.federation.players.match",
        "match a received player kept apart to another of its membership number: one person",
        states=(START, PlayerMatch.State.UNMATCHED),
        about=_authority,
        door="national:federation-player-match",
        audit="player.matched",
    ),
    Step(
        "unmatch",
        "player",
        "player_match",
        ("match_players",),
        "national.federation.players.unmatch",
        "undo a player's match: two people again",
        moves=("unmatch",),
        about=_authority,
        door="national:federation-player-unmatch",
        audit="player.unmatched",
    ),
)
