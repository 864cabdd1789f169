"""The national body's steps, each declared once (core/steps.py): a casebook's publishing and
finalising (``on="casebook"``, asked of the casebook's authority) and a tournament's push to the
national body (``on="tournament"``): the chief director publishes, the worker sends. Their
states are the tables of national/lifecycle.py."""

from core import steps
from core.steps import ANY, Step
from national.federation.models import Push


def _push_state(tournament):
    """The state of the tournament's latest push; START before it was ever published."""
    return Push.objects.filter(tournament=tournament).values_list("state", flat=True).first()


def _authority(casebook):
    return casebook.authority


steps.kind("casebook", "national.lifecycle.CASEBOOK", lambda casebook: casebook.state)
steps.kind("push", "national.lifecycle.PUSH", _push_state)

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
)
