"""The rows of the role matrix and the rules they are checked against.

The rules are written here from docs/architecture.md ("Who sees what") and docs/appeals.md ("Who
may do what"), not read from the code under test:

- The competition record of a tournament is read by its officials (director, chief director,
  scorer, appeals member), the auditors of its regulating authority and the players entered in
  it, and written by its directors, chief directors and scorers.
- A ruling is read by every official and auditor of its tournament, and by the players of its
  table; it is recorded and given by the tournament's directors and chief directors.
- An appeal is read by the directors, chief directors and scorers of its tournament, the
  authority's auditors, the members sitting on its body and the players of its table. Each step
  is taken by whom docs/appeals.md names; nobody else writes.
- The national pages are for national auditors. An auditor writes nothing.
- Anonymous users are sent to log in (pages) or refused (API, 403: session authentication sends
  no challenge). Another body's records answer 404 (or 403, or a 404 naming the field of the
  body that names the record, where the code deliberately says so: the row says which).
- The superuser passes every check except those that need a seat on the body.

A row is one URL pattern (by name) and one method, run against one or more records
(``world.Target`` names such as ``"appeal:heard@A"``) for every role; ``expect(role, target,
world)`` says what must come back. ``read``, ``listing`` and ``write`` build rows from the rules
above; a new page or endpoint needs a row (test_role_matrix.py fails while a URL pattern or an
API method has none), and a new state of a record a target in tests/roles/world.py.
"""

import datetime
import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import get_resolver, reverse
from django.utils import timezone

from core import policy
from tests.roles.world import NAMES, ROLES, SIDES

# --- Who is who: the policy's "who" (core.policy) for each person of the world -----------------
#
# What each role of tests/roles/world.py is to side A's records. A person's relations that
# depend on the record (a player at its table, a member sitting on its body) hold only where the
# target says so (``Target.at_player_table``, ``Target.member_sits``).
RELATIONS = {
    "director": {policy.DIRECTOR},
    "chief": {policy.CHIEF_DIRECTOR},
    "scorer": {policy.SCORER},
    "appeals": {policy.APPEALS_MEMBER, policy.SITTING},
    "appeals_idle": {policy.APPEALS_MEMBER},
    "auditor": {policy.AUDITOR},
    "player": {policy.ENTRANT, policy.AT_TABLE, policy.REGISTERED},
}


def relations(role, target=None):
    found = set(RELATIONS.get(role, ()))
    if target is not None and not target.at_player_table:
        found.discard(policy.AT_TABLE)
    if target is not None and not target.member_sits:
        found.discard(policy.SITTING)
    return found


def allowed(action, target=None):
    """The roles of side A that the policy's table lets take ``action`` (on ``target``)."""
    return {role for role in RELATIONS if relations(role, target) & policy.who_may(action)}


def superuser(action, refusal):
    """True if the policy lets the superuser take ``action``, else how they are refused."""
    return True if policy.rule(action).superuser else refusal


OFFICIALS = {role for role in RELATIONS if relations(role) & policy.OFFICIAL_ROLES}  # TournamentOfficials of A
NATIONAL_READERS = allowed("national") | {"superuser"}


@functools.cache
def _namespaces():
    """{url name: its app's namespace} of the site's pages (the API's names have none)."""
    found = {}
    for pattern in get_resolver().url_patterns:
        for inner in getattr(pattern, "url_patterns", []) if getattr(pattern, "namespace", None) else []:
            if getattr(inner, "name", None):
                found[inner.name] = pattern.namespace
    return found


def qualified(name):
    """``"ruling"`` -> ``"rulings:ruling"``: a row's URL name as reverse() needs it."""
    namespace = _namespaces().get(name)
    return f"{namespace}:{name}" if namespace else name


def reads(action):
    """A read's rule from the policy: the superuser, and side A's roles the table lets read."""
    return lambda role, target: role == "superuser" or (target.side == "A" and role in allowed(action, target))


reads_record = reads("view_tournament")
reads_ruling = reads("view_ruling")
reads_appeal = reads("view_appeal")


def sees_membership_numbers(role):
    return role == "superuser" or role in allowed("view_private_details")


# --- What comes back --------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    status: int
    wrote: bool = False  # whether the request changed anything (see test_role_matrix.fingerprint)
    error: str = ""  # the field a 400 or 404 names
    login: bool = False  # a redirect to the login page
    shows: tuple = ()  # texts the body contains
    json_id: int = 0  # the id a detail answers with
    listed: tuple = ()  # (needle, expected present) pairs: ids in an API list, texts in a page
    goes_to: str = ""  # where a redirect leads (other than to log in)


LOGIN = Expect(302, login=True)
REFUSALS = {
    "403": Expect(403),
    "404": Expect(404),
    # "There is no such result." (rulings API): a body naming a record the caller cannot see is a
    # 404 naming the field (the API contract, core/api_contract.py).
    "result": Expect(404, error="result"),
    # The same for a match penalty that names a match the caller cannot see.
    "match": Expect(404, error="match"),
}


@dataclass
class Row:
    name: str  # the URL pattern's name
    method: str
    api: bool
    targets: tuple  # world target names; () for a URL with no record
    path: Callable  # (world, target) -> path
    expect: Callable  # (role, target, world) -> Expect
    data: Callable = None  # (world, target) -> request data
    label: str = ""  # tells rows of one URL and method apart

    def id(self, target):
        label = f"[{self.label}]" if self.label else ""
        return f"{self.method}-{self.name}{label}-{target or 'none'}"


def both(*names):
    return tuple(f"{name}@{side}" for name in names for side in SIDES)


def url(name):
    """The path of a URL pattern with the target's id (if any)."""
    return lambda world, target: reverse(qualified(name), args=[target.pk] if target is not None else [])


def fixed(name, query=""):
    return lambda world, target: reverse(qualified(name)) + query


# --- Reads ------------------------------------------------------------------------------------


def tournament_name(target):
    return NAMES[target.side][1]


def read(name, targets, reads, *, api, shows=None, detail=False):
    def expect(role, target, world):
        if role == "anonymous":
            return REFUSALS["403"] if api else LOGIN
        if target is not None and not reads(role, target):
            return REFUSALS["404"]
        return Expect(
            200, shows=tuple(shows(target)) if shows else (), json_id=target.pk if detail and target is not None else 0
        )

    return Row(name, "GET", api, targets, url(name), expect)


def listing(name, members, *, api, path=None, needle=None, only=None, elsewhere=None):
    """A list: every member the role reads is in it, and no other. ``members`` are (target, rule);
    ``only``: the roles let in (others 403); ``elsewhere``: {role: URL name it is sent on to}."""
    needle = needle or (lambda target: target.pk)

    def expect(role, _target, world):
        if role == "anonymous":
            return REFUSALS["403"] if api else LOGIN
        if only is not None and role not in only:
            return REFUSALS["403"]
        if elsewhere and role in elsewhere:
            return Expect(302, goes_to=reverse(qualified(elsewhere[role])))
        return Expect(
            200, listed=tuple((needle(world.targets[key]), rule(role, world.targets[key])) for key, rule in members)
        )

    return Row(name, "GET", api, (), path or fixed(name), expect)


# --- Writes -----------------------------------------------------------------------------------


def write(
    name,
    method,
    targets,
    data,
    *,
    api,
    reads,
    may,
    success,
    refuse="403",
    invisible="404",
    gate=None,
    superuser=True,
    label="",
    path=None,
    writes=None,
):
    """``may``: the roles of side A allowed; ``refuse``: how a role that reads the target but may
    not act is refused (a kind, or {role: kind, "*": kind}); ``invisible``: how a role that does not
    read it is answered; ``gate``: roles an API permission class lets through at all (others 403
    before the record is looked up); ``superuser``: True, or how the superuser is refused."""
    writes = method != "GET" if writes is None else writes

    def refusal(role):
        kind = refuse.get(role, refuse["*"]) if isinstance(refuse, dict) else refuse
        return REFUSALS[kind]

    def expect(role, target, world):
        if role == "anonymous":
            return REFUSALS["403"] if api else LOGIN
        if gate is not None and role not in gate | {"superuser"}:
            return REFUSALS["403"]
        if not reads(role, target):
            return REFUSALS[invisible]
        if role == "superuser":
            return Expect(success, wrote=writes) if superuser is True else REFUSALS[superuser]
        if role in may:
            return Expect(success, wrote=writes)
        return refusal(role)

    return Row(name, method, api, targets, path or url(name), expect, data=data, label=label)


def goes_back_on_get(name, targets):
    """A page's POST-only step: a GET goes back to the record (302), whoever asks, writing nothing."""
    return write(
        name,
        "GET",
        both(targets),
        None,
        api=PAGE,
        reads=lambda role, t: True,
        may=set(ROLES),
        success=302,
        writes=False,
    )


def side_of(world, target):
    return world.sides[target.side]


def later(hours):
    return (timezone.now() + datetime.timedelta(hours=hours)).isoformat()


# Request data. Each takes the world and the target, and names records of the target's side.
def board_data(world, target):
    s = side_of(world, target).record
    return {"session": s.session.pk, "number": 2, "dealer": "S", "vulnerability": "All", "deal": ""}


def result_form(*, board, table, ns, ew, contract, declarer, tricks):
    """A result's fields: ``board``, ``table``, ``ns`` and ``ew`` index the side's records."""

    def build(world, target):
        s = side_of(world, target).record
        return {
            "board": s.boards[board].pk,
            "round": s.round.pk,
            "table": s.tables[table].pk,
            "ns": s.pairs[ns].pk,
            "ew": s.pairs[ew].pk,
            "contract": contract,
            "declarer": declarer,
            "tricks": tricks,
        }

    return build


result_data = result_form(board=1, table=0, ns=0, ew=2, contract="3NT", declarer="S", tricks=9)
corrected_result = result_form(board=0, table=1, ns=1, ew=3, contract="4S", declarer="N", tricks=8)


def player(index):
    return lambda world, target: side_of(world, target).players[index].pk


def law_part(world, target):
    return target.obj.parts.get(kind="law").pk


def hearing(world, target):
    return target.obj.hearings.get().pk


def deposit(world, target):
    return target.obj.deposits.get(stage="event").pk


def recommendation(world, target):
    return target.obj.recommendations.get().pk


def body_member(world, target):
    return side_of(world, target).member.pk


def import_upload(world, target):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {"action": "preview", "file": SimpleUploadedFile("empty.pbn", b"% PBN 2.1\n")}


def import_file_upload(world, target):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {"dry_run": "true", "file": SimpleUploadedFile("empty.pbn", b"% PBN 2.1\n")}


def data(**values):
    """Request data: each value a constant or a (world, target) -> value function."""
    return lambda world, target: {
        key: value(world, target) if callable(value) else value for key, value in values.items()
    }


def ruling_open_path(world):
    """Board 2 at table 1 of side A's session: no result there (result_data records it)."""
    s = world.sides["A"].record
    return reverse("rulings:ruling-open") + f"?session={s.session.pk}&board=2&table=1"


def open_expect(success):
    def expect(role, target, world):
        if role == "anonymous":
            return LOGIN
        if role in allowed("ruling") | {"superuser"}:
            return Expect(success, wrote=success == 302)
        return REFUSALS["403"]

    return expect


def ruling_attachment_path(target):
    """A PDF attached to the target ruling (once; kept in the module's transaction)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from rulings import services as ruling_services

    ruling = target.obj
    attachment = ruling.attachments.first() or ruling_services.add_attachment(
        ruling=ruling, by=ruling.director, upload=SimpleUploadedFile("claim.pdf", b"%PDF-1.4\n%%EOF\n")
    )
    return reverse("rulings:ruling-attachment", args=[ruling.pk, attachment.pk])


API, PAGE = True, False
RULING_READS = ("ruling:free@A", "ruling:table2@A", "ruling:free@B")
APPEAL_READS = ("appeal:heard@A", "appeal:table2@A", "appeal:heard@B")
