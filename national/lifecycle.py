"""The casebook's states, its print request's and the push to the national body's, each as one
table (core/transitions.py).

A casebook is drafted, published without commentary (its text frozen), then finalised with the
experts' commentary (frozen for good). A print request waits for a worker, is printing once a
worker claims it, and ends ready (its file kept) or failed (with the reason): the browser could
not print it, no worker could be reached, or none finished it in time and it was asked for again. A push waits for its task, is sending while the task runs
(again after an interruption, or after it stopped and the chief director published again), and
ends delivered or refused by the national body; it stops when the task's retries are spent.
A player match (issue #41) is made matched by the auditor's decision and undone by another:
unmatched, kept as it was decided.
"""

from core.transitions import Table, Transition
from national.federation.models import PlayerMatch, Push
from national.models import Casebook, CasebookPrint

CASEBOOK = Table(
    "casebook",
    Casebook.State,
    [
        Transition("publish", (Casebook.State.DRAFT,), Casebook.State.PUBLISHED, "national.casebooks.publish_casebook"),
        Transition(
            "finalise", (Casebook.State.PUBLISHED,), Casebook.State.FINAL, "national.casebooks.finalise_casebook"
        ),
    ],
)

_WAITING, _PRINTING = CasebookPrint.State.PENDING, CasebookPrint.State.PRINTING

PRINT = Table(
    "casebook print",
    CasebookPrint.State,
    [
        Transition("claim", (_WAITING,), _PRINTING, "national.printing.print_casebook"),
        Transition("print", (_PRINTING,), CasebookPrint.State.READY, "national.printing.print_casebook"),
        Transition("fail", (_PRINTING,), CasebookPrint.State.FAILED, "national.printing.print_casebook"),
        # A request no worker finished in time (asked for again), or none could be reached.
        Transition("give_up", (_WAITING, _PRINTING), CasebookPrint.State.FAILED, "national.printing.request_print"),
    ],
)

# The states a push may be sent (again) from, or stopped in: not once it has ended.
UNFINISHED = (Push.State.WAITING, Push.State.SENDING, Push.State.STOPPED)

PUSH = Table(
    "push",
    Push.State,
    [
        Transition("send", UNFINISHED, Push.State.SENDING, "national.federation.push.run"),
        Transition("refuse", (Push.State.SENDING,), Push.State.REFUSED, "national.federation.push.run"),
        Transition("deliver", (Push.State.SENDING,), Push.State.DELIVERED, "national.federation.push.run"),
        Transition("give_up", UNFINISHED, Push.State.STOPPED, "national.federation.push.give_up"),
    ],
)

PLAYER_MATCH = Table(
    "player match",
    PlayerMatch.State,
    [
        Transition(
            "unmatch",
            (PlayerMatch.State.MATCHED,),
            PlayerMatch.State.UNMATCHED,
            "national.federation.players.unmatch",
        ),
    ],
)
