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

from tests.roles.world import NAMES, ROLES, SIDES, marker

# --- Who is who -------------------------------------------------------------------------------

OFFICIALS = {"director", "chief", "scorer", "appeals", "appeals_idle"}  # TournamentOfficials of A
RECORD_WRITERS = {"director", "chief", "scorer"}
DIRECTORS = {"director", "chief"}
CHIEF = {"chief"}
MEMBER = {"appeals"}  # sits on the bodies of side A's cases "seated", "heard", "decided", "further"
NATIONAL_READERS = {"auditor", "superuser"}


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


def reads_record(role, target):
    return role == "superuser" or (target.side == "A" and role in OFFICIALS | {"auditor", "player"})


def reads_ruling(role, target):
    return role == "superuser" or (
        target.side == "A" and (role in OFFICIALS | {"auditor"} or (role == "player" and target.at_player_table))
    )


def reads_appeal(role, target):
    return role == "superuser" or (
        target.side == "A"
        and (
            role in {"director", "chief", "scorer", "auditor"}
            or (role == "appeals" and target.member_sits)
            or (role == "player" and target.at_player_table)
        )
    )


def sees_membership_numbers(role):
    return role in OFFICIALS | {"auditor", "superuser"}


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
    # 404 naming the field (the API contract, scoring/api_contract.py).
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
        if role in DIRECTORS | {"superuser"}:
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


# --- The rows ---------------------------------------------------------------------------------

API, PAGE = True, False
ROWS = []

# Pages of the competition record.
ROWS += [
    # An auditor's home is the national body's page.
    listing(
        "home",
        [(f"tournament@{side}", reads_record) for side in SIDES],
        api=PAGE,
        needle=lambda t: f'href="{reverse("scoring:tournament", args=[t.pk])}"',
        elsewhere={"auditor": "national-home"},
    ),
    read("tournament", both("tournament"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("event", both("event"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("standings", both("event"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    # The results-file upload: its form, and a preview (an empty file is refused, so nothing is written).
    write("import-results", "GET", both("event"), None, api=PAGE, reads=reads_record, may=RECORD_WRITERS, success=200),
    write(
        "import-results",
        "POST",
        both("event"),
        import_upload,
        api=PAGE,
        reads=reads_record,
        may=RECORD_WRITERS,
        success=200,
        writes=False,
    ),
    # A session as a results file (PBN or USEBIO), for whoever reads the record.
    Row(
        "session-export",
        "GET",
        PAGE,
        both("session"),
        lambda world, target: reverse("scoring:session-export", args=[target.pk, "pbn"]),
        read("session", both("session"), reads_record, api=PAGE).expect,
    ),
    read("session", both("session"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("board", both("board"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("contestant", both("contestant"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
]

# Pages of rulings.
RULING_READS = ("ruling:free@A", "ruling:table2@A", "ruling:free@B")
ROWS += [
    listing(
        "rulings",
        [(t, reads_ruling) for t in RULING_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    read("ruling", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: [marker(t.side, t.short, "ruling")]),
    read("ruling-svg", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: ["<svg"]),
    read("ruling-pbn", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: ['[Deal "N:']),
    write("ruling-new", "GET", both("result:t1"), None, api=PAGE, reads=reads_record, may=DIRECTORS, success=200),
    write(
        "ruling-new",
        "POST",
        both("result:t1"),
        data(kind="claim", laws="70D1", ruling_text="Recorded by the matrix", outcome="result_stands"),
        api=PAGE,
        reads=reads_record,
        may=DIRECTORS,
        success=302,
    ),
    # Giving is a POST; a GET only goes back to the ruling, whoever asks.
    goes_back_on_get("ruling-give", "ruling:draft"),
    write("ruling-give", "POST", both("ruling:draft"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=302),
    # A draft is completed (the result in since), a given ruling corrected (Law 82C, 79C).
    write("ruling-edit", "GET", both("ruling:draft"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=200),
    write(
        "ruling-edit",
        "POST",
        both("ruling:draft"),
        data(kind="claim", laws="70D1", ruling_text="Completed by the matrix", outcome="result_stands", draft="1"),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=302,
    ),
    write("ruling-correct", "GET", both("ruling:free"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=200),
    write(
        "ruling-correct",
        "POST",
        both("ruling:free"),
        data(
            correction_basis="82C",
            correction_reason="Corrected by the matrix",
            kind="claim",
            laws="70D1",
            ruling_text="Corrected by the matrix",
            outcome="result_stands",
            draft="1",
        ),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=302,
    ),
    # Board and table number straight to the form: only a tournament's directors have sessions to pick.
    Row("ruling-open", "GET", PAGE, (), lambda world, target: ruling_open_path(world), open_expect(200)),
    Row(
        "ruling-open",
        "POST",
        PAGE,
        (),
        lambda world, target: ruling_open_path(world),
        open_expect(302),
        data=data(kind="claim", laws="70D1", ruling_text="Opened by the matrix", outcome="result_stands", draft="1"),
    ),
    # Revokes, defective tricks and claims worked out from the play (rulings/revoke_views.py).
    write("ruling-revoke", "GET", both("ruling:draft"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=200),
    write(
        "ruling-revoke",
        "POST",
        both("ruling:draft"),
        data(
            action="defective",
            **{"defective-trick": 5, "defective-offender": "W", "defective-offending_side_won_from_then": "on"},
        ),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=302,
    ),
    write("ruling-claim", "GET", both("ruling:draft"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=200),
    # No play is attached to the matrix's rulings: the claim is refused on the page, nothing written.
    write(
        "ruling-claim",
        "POST",
        both("ruling:draft"),
        data(action="claim", **{"claim-claimer": "N", "claim-statement": "The rest are mine"}),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=200,
        writes=False,
    ),
    # An irregular call or card and the option chosen (rulings/irregularity_views.py). No auction is
    # attached to the matrix's rulings: the options are refused on the page, nothing written.
    write(
        "ruling-irregularity",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=200,
    ),
    write(
        "ruling-irregularity",
        "POST",
        both("ruling:draft"),
        data(action="options", kind="insufficient_bid", call_number=2, inserted="1D"),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=200,
        writes=False,
    ),
]

# An attachment of a ruling: read by whoever reads the ruling.
ATTACHMENT_READS = ("ruling:free@A", "ruling:table2@A", "ruling:free@B")
ROWS.append(read("ruling-attachment", ATTACHMENT_READS, reads_ruling, api=PAGE, shows=lambda t: ["%PDF-"]))
ROWS[-1].path = lambda world, target: ruling_attachment_path(target)

# Pages of appeals.
APPEAL_READS = ("appeal:heard@A", "appeal:table2@A", "appeal:heard@B")


def grounds(target):
    return [marker(target.side, target.short, "grounds")]


ROWS += [
    listing(
        "appeals",
        [(t, reads_appeal) for t in ("appeal:new@A",) + APPEAL_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("appeals:appeal", args=[t.pk])}"',
    ),
    read("appeal", APPEAL_READS, reads_appeal, api=PAGE, shows=grounds),
    read("appeal-form", APPEAL_READS, reads_appeal, api=PAGE, shows=grounds),
    write("appeal-lodge", "GET", both("ruling:free"), None, api=PAGE, reads=reads_ruling, may=DIRECTORS, success=200),
    write(
        "appeal-lodge",
        "POST",
        both("ruling:free"),
        data(origin="player", player=player(0), grounds="We object"),
        api=PAGE,
        reads=reads_ruling,
        may=DIRECTORS,
        success=302,
    ),
    # A player's own page lists the rulings of their tables (nobody else's); a request to appeal is
    # theirs alone to make (the service refuses everyone else, superuser included: 403 and why).
    listing(
        "appeals-mine",
        [(t, lambda role, t: role == "player" and t.side == "A" and t.at_player_table) for t in RULING_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    write(
        "appeal-request",
        "POST",
        both("ruling:free"),
        data(grounds="The hesitation was not clear"),
        api=PAGE,
        reads=reads_ruling,
        may={"player"},
        success=302,
        superuser="403",
    ),
    goes_back_on_get("appeal-request", "ruling:free"),
    write(
        "appeal-lodge",
        "POST",
        both("ruling:free"),
        data(action="extend", until=lambda w, t: later(3), reason="They were not told (Law 83)"),
        api=PAGE,
        reads=reads_ruling,
        may=CHIEF,
        success=302,
        label="extend",
    ),
]

# The steps of a case on its page, one door each (appeals/step_views.py, URL name "case-<step>"):
# step, case, data, who, how others are refused.
# Who may take a step is decided by the service that takes it (appeals/services); a person it
# refuses gets a page saying why, with 403, exactly as the API answers (API_STEPS below).
PAGE_STEPS = [
    ("concurrence", "new", data(player=player(1), how="in_person"), DIRECTORS, "403", True),
    ("deposit", "new", data(), DIRECTORS, "403", True),
    ("statements", "new", data(respondents_statement="They hesitated"), DIRECTORS, "403", True),
    ("lock-statements", "new", data(agreed_by=lambda w, t: [player(0)(w, t), player(4)(w, t)]), DIRECTORS, "403", True),
    ("withdrawal", "new", data(player=player(0), reason="We think again"), DIRECTORS, "403", True),
    ("constitute", "new", data(kind="referee", members=lambda w, t: [body_member(w, t)], chair=""), CHIEF, "403", True),
    (
        "law-part",
        "seated",
        data(part=law_part, **{"law-decision": "uphold", "law-reasons": "70D1 was applied"}),
        CHIEF,
        "403",
        True,
    ),
    (
        "schedule",
        "heard",
        data(starts_at=lambda w, t: later(2), mode="in_person", place="Room 2"),
        DIRECTORS,
        "403",
        True,
    ),
    # Steps of a member in person: nobody else has a seat to act from (not even the superuser).
    ("declare", "seated", data(conflict=""), MEMBER, "404", "404"),
    ("recuse", "seated", data(reason="I know them"), MEMBER, "404", "404"),
    ("vote", "heard", data(outcome="uphold"), MEMBER, "404", "404"),
    # Steps of the body.
    (
        "decide",
        "heard",
        data(**{"decide-decision": "uphold", "decide-reasons": "The claim stands"}),
        MEMBER,
        "403",
        True,
    ),
    ("recommend", "heard", data(about="law", text="Look at 70D1 again"), MEMBER, "403", True),
    ("accept-withdrawal", "heard", data(), MEMBER, "403", True),
    ("without-merit", "decided", data(reasons="No case was made"), MEMBER, "403", True),
    # The hearing's record: a director, or a member sitting on the case.
    ("attendance", "heard", data(player=player(0)), DIRECTORS | MEMBER, "403", True),
    ("hearing-notes", "heard", data(notes="The scribe's record"), DIRECTORS | MEMBER, "403", True),
    # The chief director answers the body's recommendation.
    ("respond", "decided", data(recommendation=recommendation, accepted="no", response="Declined"), CHIEF, "403", True),
    ("return-deposit", "decided", data(deposit=deposit), DIRECTORS, "403", True),
    ("law-to-body", "decided", data(part=law_part), DIRECTORS, "403", True),
    ("further", "decided", data(player=player(0), grounds="We go on"), DIRECTORS, "403", True),
    ("forfeit-deposit", "further", data(deposit=deposit, reason="Without merit"), DIRECTORS, "403", True),
    # Only the regulating authority's body decides, and nobody of the matrix sits on it.
    (
        "decide-further",
        "further",
        data(**{"further-decision": "uphold", "further-reasons": "It stands"}),
        set(),
        "403",
        True,
    ),
    # The director in charge unlocks agreed statements: none are locked here, so the step is
    # refused on the page (302, nothing written) to him, and to everyone else as a person (403).
    ("unlock-statements", "new", data(reason="East misremembered"), CHIEF, "403", True, False),
    # The director (or a sitting member) refers the case to the regulating authority.
    ("refer-further", "decided", data(origin="director", grounds="A question of principle"), DIRECTORS, "403", True),
]
for step, case, values, may, refuse, superuser, *wrote in PAGE_STEPS:
    ROWS.append(
        write(
            f"case-{step}",
            "POST",
            both(f"appeal:{case}"),
            values,
            api=PAGE,
            reads=reads_appeal,
            may=may,
            success=302,
            refuse=refuse,
            superuser=superuser,
            writes=wrote[0] if wrote else None,
        )
    )
    # A step is a POST; a GET only goes back to the case, whoever asks.
    ROWS.append(goes_back_on_get(f"case-{step}", f"appeal:{case}"))

# National pages: auditors (of their own body) and superusers.
NATIONAL_RULINGS = [
    ("ruling:free@A", lambda role, t: role in NATIONAL_READERS),
    ("ruling:free@B", lambda role, t: role == "superuser"),
]
NATIONAL_TOURNAMENTS = [
    ("tournament@A", lambda role, t: role in NATIONAL_READERS),
    ("tournament@B", lambda role, t: role == "superuser"),
]
ROWS += [
    listing("national-home", NATIONAL_TOURNAMENTS, api=PAGE, only=NATIONAL_READERS, needle=tournament_name),
    listing(
        "national-search",
        NATIONAL_RULINGS,
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    listing(
        "national-search",
        NATIONAL_RULINGS,
        api=PAGE,
        only=NATIONAL_READERS,
        path=fixed("national-search", "?format=csv"),
        needle=lambda t: f"/rulings/{t.pk}/",
    ),
    listing("national-statistics", NATIONAL_TOURNAMENTS, api=PAGE, only=NATIONAL_READERS, needle=tournament_name),
]
ROWS[-2].label = "csv"

# Precedents (national/precedent_views.py): the published cases of a body are read by its
# officials, auditors and players (Player.authority); a user of no body is refused (403), another
# body's case answers 404.
PRECEDENT_READERS = OFFICIALS | {"auditor", "player", "superuser"}


def indexed_case(world, target):
    from national import precedents
    from national.models import PrecedentCase

    row = PrecedentCase.objects.filter(casebook=target.obj).first()
    if row is None:  # the world is built in one transaction: its publish tasks never ran
        precedents.index_casebook(target.obj.pk)
        row = PrecedentCase.objects.filter(casebook=target.obj).first()
    return reverse("national:precedent", args=[row.pk])


def precedent_expect(role, target, world):
    if role == "anonymous":
        return LOGIN
    if role not in PRECEDENT_READERS:
        return REFUSALS["403"]
    return Expect(200) if role == "superuser" or target.side == "A" else REFUSALS["404"]


ROWS += [
    listing("precedents", [], api=PAGE, only=PRECEDENT_READERS),
    Row("precedent", "GET", PAGE, both("casebook:published"), indexed_case, precedent_expect),
]


# Casebooks (national/casebook_views.py): the auditors of the casebook's body read and write
# them; another body's auditor gets 404; everyone else 403 (anonymous: log in).
def reads_casebook(role, target):
    return role == "superuser" or (target.side == "A" and role == "auditor")


def casebook_of_case(name):
    return lambda world, target: reverse(qualified(name), args=[target.obj.casebook_id, target.pk])


def casebook_step(name, targets, values, *, method="POST", success=302, writes=True, path=None, label=""):
    return write(
        name,
        method,
        both(targets),
        values,
        api=PAGE,
        reads=reads_casebook,
        may={"auditor"},
        success=success,
        gate={"auditor"},
        writes=writes,
        path=path,
        label=label,
    )


def casebook_page(name, targets, *, success=200):
    """A page of a casebook that its body's auditors read: a GET that writes nothing."""
    return casebook_step(name, targets, None, method="GET", success=success, writes=False)


def not_a_get(name, targets, path=None):
    """A POST-only page: a GET is refused (405) before anything else, whoever asks."""
    return Row(name, "GET", PAGE, both(targets), path or url(name), lambda role, target, world: Expect(405))


def casebook_title(target):
    return [marker(target.side, target.short, "casebook")]


def verify_expect(role, _target, world):
    if role == "anonymous":
        return LOGIN
    if role not in NATIONAL_READERS:
        return REFUSALS["403"]
    return Expect(302, goes_to=reverse("national:national-home"))


def compile_expect(role, _target, world):
    if role == "anonymous":
        return LOGIN
    if role not in NATIONAL_READERS:
        return REFUSALS["403"]
    return Expect(302, wrote=True)


ROWS += [
    listing(
        "casebooks",
        [(t, reads_casebook) for t in both("casebook:draft")],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("national:casebook", args=[t.pk])}"',
    ),
    Row(
        "casebooks",
        "POST",
        PAGE,
        (),
        fixed("casebooks"),
        compile_expect,
        data=lambda world, target: {"authority": world.sides["A"].record.authority.pk, "title": "Compiled"},
    ),
    casebook_page("casebook", "casebook:draft"),
    casebook_page("casebook-book", "casebook:published"),
    casebook_page("casebook-json", "casebook:published"),
    # The PDF's page (its print's state), asking a worker to print it, and the printed file (with
    # none printed yet, the page that prints one).
    casebook_page("casebook-pdf", "casebook:draft"),
    casebook_step("casebook-pdf", "casebook:draft", None),
    casebook_page("casebook-pdf-file", "casebook:published", success=302),
    casebook_step("casebook-publish", "casebook:draft", None),
    casebook_step("casebook-finalise", "casebook:published", None),
    casebook_step(
        "casebook-commentary",
        "case:published",
        data(commentary="A model decision."),
        path=casebook_of_case("casebook-commentary"),
    ),
    casebook_step(
        "casebook-redact", "case:draft", data(field="facts", text="Reworded."), path=casebook_of_case("casebook-redact")
    ),
    casebook_step("casebook-remove", "case:draft", None, path=casebook_of_case("casebook-remove")),
    not_a_get("casebook-publish", "casebook:draft"),
    not_a_get("casebook-finalise", "casebook:published"),
    not_a_get("casebook-commentary", "case:published", path=casebook_of_case("casebook-commentary")),
    not_a_get("casebook-redact", "case:draft", path=casebook_of_case("casebook-redact")),
    not_a_get("casebook-remove", "case:draft", path=casebook_of_case("casebook-remove")),
    # The full verification of the audit trail: national readers only; it changes no record.
    Row("audit-verify", "POST", PAGE, (), fixed("audit-verify"), verify_expect),
    Row("audit-verify", "GET", PAGE, (), fixed("audit-verify"), lambda role, target, world: Expect(405)),
]
# The API: the competition record. Reads for every role that reads the tournament; writes for its
# directors, chief directors and scorers (CompetitionRecordPermission lets only their groups in).
ROWS += [
    listing("api-root", [], api=API),
    listing("tournament-list", [(t, reads_record) for t in both("tournament")], api=API),
    read("tournament-detail", both("tournament"), reads_record, api=API, detail=True),
    listing("event-list", [(t, reads_record) for t in both("event")], api=API),
    read("event-detail", both("event"), reads_record, api=API, detail=True),
    read("event-standings", both("event"), reads_record, api=API),
    read("event-matches", both("event"), reads_record, api=API),
    listing("session-list", [(t, reads_record) for t in both("session")], api=API),
    read("session-detail", both("session"), reads_record, api=API, detail=True),
    listing("contestant-list", [(t, reads_record) for t in both("contestant")], api=API),
    read("contestant-detail", both("contestant"), reads_record, api=API, detail=True),
    read("contestant-scorecard", both("contestant"), reads_record, api=API),
    read("contestant-score-changes", both("contestant"), reads_record, api=API),
    listing("board-list", [(t, reads_record) for t in both("board")], api=API),
    read("board-detail", both("board"), reads_record, api=API, detail=True),
    read("board-traveller", both("board"), reads_record, api=API),
    listing("result-list", [(t, reads_record) for t in both("result:t1")], api=API),
    read("result-detail", both("result:t1"), reads_record, api=API, detail=True),
    listing("official-score-list", [(t, reads_record) for t in both("posting")], api=API),
]
RECORD = dict(api=API, reads=reads_record, may=RECORD_WRITERS, gate=RECORD_WRITERS)
ROWS += [
    # A create names another tournament's session or board: refused as not theirs to change (403).
    write(
        "board-list",
        "POST",
        both("session"),
        data(session=lambda w, t: t.pk, number=9),
        success=201,
        invisible="403",
        path=fixed("board-list"),
        **RECORD,
    ),
    # A results file through the API: an empty file is refused (409) before anything is written.
    write("event-import", "POST", both("event"), import_file_upload, success=409, writes=False, **RECORD),
    write("board-detail", "PUT", both("board:spare"), board_data, success=200, **RECORD),
    write("board-detail", "PATCH", both("board:spare"), data(dealer="W"), success=200, **RECORD),
    write(
        "result-list",
        "POST",
        both("board:spare"),
        result_data,
        success=201,
        invisible="403",
        path=fixed("result-list"),
        **RECORD,
    ),
    write("result-detail", "PUT", both("result:t2"), corrected_result, success=200, **RECORD),
    write("result-detail", "PATCH", both("result:t2"), data(tricks=11), success=200, **RECORD),
    write(
        "result-effective-score",
        "POST",
        both("result:t2"),
        data(kind="weighted", score={"ns": [[420, "0.5"], [-50, "0.5"]]}, reason="Law 16B"),
        success=201,
        **RECORD,
    ),
    write(
        "official-score-list",
        "POST",
        both("session"),
        data(session=lambda w, t: t.pk),
        success=201,
        invisible="403",
        path=fixed("official-score-list"),
        **RECORD,
    ),
]

# The API: rulings and the law catalogue.
ROWS += [
    listing("ruling-list", [(t, reads_ruling) for t in RULING_READS], api=API),
    read("ruling-detail", RULING_READS, reads_ruling, api=API, detail=True),
    listing("law-list", [], api=API),
    # Another tournament's result "does not exist" for the caller (404 on "result").
    write(
        "ruling-list",
        "POST",
        both("result:t1"),
        data(result=lambda w, t: t.pk, kind="claim", laws=["70D1"], ruling_text="Recorded by the matrix"),
        api=API,
        reads=reads_record,
        may=DIRECTORS,
        success=201,
        invisible="result",
        path=fixed("ruling-list"),
    ),
    write(
        "ruling-api-give", "POST", both("ruling:draft"), data(), api=API, reads=reads_ruling, may=DIRECTORS, success=200
    ),
    # No auction is attached to the matrix's rulings: refused (409), nothing written.
    write(
        "ruling-api-irregularity",
        "POST",
        both("ruling:draft"),
        data(kind="insufficient_bid", facts={"call_number": 2, "inserted": "1D"}, chosen="27B2"),
        api=API,
        reads=reads_ruling,
        may=DIRECTORS,
        success=409,
        writes=False,
    ),
    write(
        "ruling-change",
        "POST",
        both("ruling:free"),
        data(reason="Second thoughts", ruling_text="Changed"),
        api=API,
        reads=reads_ruling,
        may=DIRECTORS,
        success=200,
    ),
]

# The API: appeals, one endpoint per step (appeals/api.py): action, case, data, who, refusal.
API_STEPS = [
    ("concurrence", "new", data(player=player(1), how="in_person"), DIRECTORS, "403", True),
    ("deposit", "new", data(), DIRECTORS, "403", True),
    ("statements", "new", data(respondents_statement="They hesitated"), DIRECTORS, "403", True),
    ("lock-statements", "new", data(agreed_by=lambda w, t: [player(0)(w, t), player(4)(w, t)]), DIRECTORS, "403", True),
    ("withdrawal", "new", data(player=player(0), reason="We think again"), DIRECTORS, "403", True),
    ("constitute", "new", data(kind="referee", members=lambda w, t: [body_member(w, t)]), CHIEF, "403", True),
    ("declare", "seated", data(conflict=""), MEMBER, "403", "403"),
    ("recuse", "seated", data(reason="I know them"), MEMBER, "403", "403"),
    (
        "decide-law-part",
        "seated",
        data(part=law_part, outcome="uphold", reasons="70D1 was applied"),
        CHIEF,
        "403",
        True,
    ),
    (
        "schedule",
        "heard",
        data(starts_at=lambda w, t: later(2), mode="in_person", place="Room 2"),
        DIRECTORS,
        "403",
        True,
    ),
    # The hearing's record: a director, or a member sitting on the case (its scribe).
    ("attendance", "heard", data(hearing=hearing, player=player(0)), DIRECTORS | MEMBER, "403", True),
    ("hearing-notes", "heard", data(hearing=hearing, notes="North spoke first"), DIRECTORS | MEMBER, "403", True),
    ("vote", "heard", data(outcome="uphold"), MEMBER, "403", "403"),
    ("decide", "heard", data(outcome="uphold", reasons="The claim stands"), MEMBER, "403", True),
    ("recommendation", "heard", data(about="law", text="Look at 70D1 again"), MEMBER, "403", True),
    ("accept-withdrawal", "heard", data(), MEMBER, "403", True),
    ("return-deposit", "decided", data(deposit=deposit), DIRECTORS, "403", True),
    ("without-merit", "decided", data(reasons="No case was made"), MEMBER, "403", True),
    ("further-appeal", "decided", data(player=player(0), grounds="We go on"), DIRECTORS, "403", True),
    ("appeal-law-decision", "decided", data(part=law_part), DIRECTORS, "403", True),
    (
        "respond-to-recommendation",
        "decided",
        data(recommendation=recommendation, accepted=True, response="Agreed"),
        CHIEF,
        "403",
        True,
    ),
    ("forfeit-deposit", "further", data(deposit=deposit, reason="Without merit"), DIRECTORS, "403", True),
    # Only the regulating authority's body decides, and nobody of the matrix sits on it.
    ("decide-further-appeal", "further", data(outcome="uphold", reasons="The decision stands"), set(), "403", True),
]
ROWS += [
    listing("appeal-list", [(t, reads_appeal) for t in ("appeal:new@A",) + APPEAL_READS], api=API),
    read("appeal-detail", APPEAL_READS, reads_appeal, api=API, detail=True),
    write(
        "appeal-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, player=player(0), grounds="We object"),
        api=API,
        reads=reads_ruling,
        may=DIRECTORS,
        success=201,
        refuse="403",
        path=fixed("appeal-list"),
    ),
    write(
        "appeal-extension-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, until=lambda w, t: later(3), reason="They were not told (Law 83)"),
        api=API,
        reads=reads_ruling,
        may=CHIEF,
        success=201,
        refuse="403",
        path=fixed("appeal-extension-list"),
    ),
]
for action, case, values, may, refuse, superuser in API_STEPS:
    ROWS.append(
        write(
            f"appeal-{action}",
            "POST",
            both(f"appeal:{case}"),
            values,
            api=API,
            reads=reads_appeal,
            may=may,
            success=200,
            refuse=refuse,
            superuser=superuser,
        )
    )
# A referral further is the director's or the body's, checked by the service.
ROWS += [
    write(
        "appeal-further-appeal",
        "POST",
        both("appeal:decided"),
        data(origin="director", grounds="Refer it"),
        api=API,
        reads=reads_appeal,
        may=DIRECTORS,
        success=200,
        refuse="403",
        label="director",
    ),
    write(
        "appeal-further-appeal",
        "POST",
        both("appeal:decided"),
        data(origin="body", grounds="Refer it"),
        api=API,
        reads=reads_appeal,
        may=MEMBER,
        success=200,
        refuse="403",
        label="body",
    ),
]


# Another body's records asked for by id in a filter: the list stays empty of them (the
# superuser's aside), and the page shows nothing of them (the name "Bravo Open" included).
def filtered(name, **params):
    """The list's path with filters naming records: ``filtered("rulings", tournament="tournament@B")``."""

    def path(world, _target):
        query = "&".join(f"{key}={world.targets[value].pk}" for key, value in params.items())
        return f"{reverse(qualified(name))}?{query}"

    return path


def nobody(role, target):
    return False


def superuser_only(role, target):
    return role == "superuser"


ROWS += [
    listing(
        "rulings",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
        path=filtered("rulings", tournament="tournament@B"),
    ),
    listing(
        "national-search",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
        path=filtered("national-search", tournament="tournament@B"),
    ),
    listing(
        "national-statistics",
        [("tournament@B", superuser_only)],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=tournament_name,
        path=filtered("national-statistics", tournament="tournament@B"),
    ),
    listing(
        "ruling-list",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=API,
        path=filtered("ruling-list", tournament="tournament@B"),
    ),
    listing("board-list", [("board@B", superuser_only)], api=API, path=filtered("board-list", session="session@B")),
    listing("result-list", [("result:t1@B", superuser_only)], api=API, path=filtered("result-list", board="board@B")),
    listing(
        "contestant-list",
        [("contestant@B", superuser_only)],
        api=API,
        path=filtered("contestant-list", event="event@B"),
    ),
]
for row in ROWS[-7:]:
    row.label = "B by id"


# Regulating authorities (scoring/authority_views.py, scoring/authority_api.py): the settings page
# and the API are read by the superuser and the authority's own auditors (another body's answers
# 404); only the superuser creates an authority (with a preset); every logged-in role reads the
# list of presets. The rows run against each side's tournament, at its authority.
def reads_authority(role, target):
    return role == "superuser" or (target.side == "A" and role == "auditor")


def authority_read(name, *, api):
    def expect(role, target, world):
        if role == "anonymous":
            return REFUSALS["403"] if api else LOGIN
        if not reads_authority(role, target):
            return REFUSALS["404"]
        if api:
            return Expect(200, json_id=target.obj.authority_id)
        return Expect(200, shows=(target.obj.authority.name,))

    return Row(
        name,
        "GET",
        api,
        both("tournament"),
        lambda world, target: reverse(qualified(name), args=[target.obj.authority_id]),
        expect,
    )


def authority_create(role, _target, world):
    if role == "superuser":
        return Expect(201, wrote=True)
    return REFUSALS["403"]


ROWS += [
    authority_read("authority-settings", api=PAGE),
    authority_read("authority-detail", api=API),
    listing(
        "authority-list",
        [(t, reads_authority) for t in both("tournament")],
        api=API,
        needle=lambda t: t.obj.authority_id,
    ),
    Row(
        "authority-list",
        "POST",
        API,
        (),
        fixed("authority-list"),
        authority_create,
        data=lambda world, target: {"name": "Matrix Federation", "code": "matrix", "preset": "ebu"},
    ),
    listing("authority-presets", [], api=API),
]


# Penalties against a team in a match (scoring/views.match_detail, scoring/match_penalty_api.py):
# read with the competition record; given and withdrawn by the tournament's directors and chief
# directors only (a scorer reads the match but gives no penalty: 403).
def match_penalty_data(world, target):
    return {"match": target.pk, "team": target.obj.home_id, "amount": "1", "unit": "vps", "offence": "matrix"}


ROWS += [
    read("match", both("match"), reads_record, api=PAGE, shows=lambda t: [f"Team 1 {t.side}"]),
    write(
        "match",
        "POST",
        both("match"),
        lambda world, target: {"action": "add", **match_penalty_data(world, target)},
        api=PAGE,
        reads=reads_record,
        may=DIRECTORS,
        success=302,
    ),
    listing("match-penalty-list", [(t, reads_record) for t in both("match-penalty")], api=API),
    read("match-penalty-detail", both("match-penalty"), reads_record, api=API, detail=True),
    write(
        "match-penalty-list",
        "POST",
        both("match"),
        match_penalty_data,
        api=API,
        reads=reads_record,
        may=DIRECTORS,
        success=201,
        invisible="match",
        path=fixed("match-penalty-list"),
    ),
    write(
        "match-penalty-withdraw",
        "POST",
        both("match-penalty"),
        data(reason="matrix"),
        api=API,
        reads=reads_record,
        may=DIRECTORS,
        success=200,
    ),
]
