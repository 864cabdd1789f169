"""Who may do what: one table, one question.

``may(user, action, obj)`` answers for every step a person can take (``TABLE`` below, action ->
who), and ``visible(user, action, queryset)`` narrows a queryset to the records the same rule
lets ``user`` read. Every write service calls ``require(user, action, obj)`` first, which refuses
with the rule's own message (``PermissionDenied``, in the reader's language); pages and templates
show a step's button from ``may``, the API answers the service's refusal: they cannot disagree.
A Celery task or a management command acts as ``SYSTEM``, which takes only the steps whose rule
says ``system=True``.

core is below every app (docs/architecture.md), so this module imports none of their models.
It works from what a user and a record say about themselves (duck typing):

- a person's places come from the reverse relations the apps declare on the user:
  ``user.officiating`` (``scoring.TournamentOfficial``: tournament and role), ``user.auditing``
  (``scoring.AuditorAssignment``: authority) and the players' entries (``Contestant.members``,
  ``Contestant.captain``, reached from the user's model through Django's meta API);
- a record names its tournament, authority, table and body by attribute (``obj.tournament``,
  ``obj.authority_id``, ``obj.sitting()``, ``obj.body()``), and a queryset's rows by the lookup
  paths of their ``Scope``.

The superuser passes every rule whose ``superuser`` is True, except a step of a body they are a
member of without sitting on it (recused): there they are held to their seat like anyone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NoReturn

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from core import roles

# --- Who: what a person is to a record ---------------------------------------------------------

DIRECTOR = roles.DIRECTOR  # an official of the record's tournament in that role
CHIEF_DIRECTOR = roles.CHIEF_DIRECTOR
SCORER = roles.SCORER
APPEALS_MEMBER = roles.APPEALS_MEMBER
AUDITOR = "auditor"  # assigned to audit the record's regulating authority
ENTRANT = "entrant"  # a player entered in the tournament, or a team's captain (playing or not)
AT_TABLE = "at_table"  # a member of a side at the record's table
CAPTAIN = "captain"  # the captain of a side at the record's table
SITTING = "sitting"  # a member sitting on the case's body (appointed, not recused)
REGISTERED = "registered"  # a player registered with the record's authority (``Player.authority``)

OFFICIAL_ROLES = frozenset({DIRECTOR, CHIEF_DIRECTOR, SCORER, APPEALS_MEMBER})
DIRECTORS = frozenset({DIRECTOR, CHIEF_DIRECTOR})
CHIEF = frozenset({CHIEF_DIRECTOR})
RECORD_WRITERS = frozenset(roles.RECORD_WRITERS)
NOBODY: frozenset[str] = frozenset()  # the superuser alone (or nobody, with superuser=False)

# How each "who" reads in the docs and the role matrix.
WHO = {
    DIRECTOR: "director of the tournament",
    CHIEF_DIRECTOR: "chief director (director in charge) of the tournament",
    SCORER: "scorer of the tournament",
    APPEALS_MEMBER: "appeals member appointed at the tournament",
    AUDITOR: "national auditor of the tournament's regulating authority",
    ENTRANT: "player entered in the tournament, or captain of a team entered (playing or not)",
    AT_TABLE: "player at the table",
    CAPTAIN: "captain of a team at the table",
    SITTING: "member sitting on the case's body",
    REGISTERED: "player registered with the regulating authority",
}


# --- Where: how a queryset's rows reach their tournament, authority and table ----------------


@dataclass(frozen=True)
class Scope:
    """Lookup paths from a record to what the rules ask about. ``tournament`` is "" for a
    tournament itself and None for a record above tournaments (an authority); ``authority``
    "" for an authority itself; ``sides`` the contestants at its table; ``case`` the appeal
    ("" for an appeal itself), for the members sitting on it."""

    tournament: str | None
    authority: str
    sides: tuple[str, ...] = ()
    case: str | None = None


TOURNAMENT = Scope(tournament="", authority="authority")
AUTHORITY = Scope(tournament=None, authority="")
BY_AUTHORITY = Scope(tournament=None, authority="authority")  # a record of an authority's (a casebook)
_RULING_T = "board__session__event__tournament"
RULING = Scope(tournament=_RULING_T, authority=f"{_RULING_T}__authority", sides=("result__ns", "result__ew"))
_APPEAL_T = "ruling__result__board__session__event__tournament"
APPEAL = Scope(
    tournament=_APPEAL_T,
    authority=f"{_APPEAL_T}__authority",
    sides=("ruling__result__ns", "ruling__result__ew"),
    case="",
)


@dataclass(frozen=True)
class Rule:
    """``who`` may take the step (any one of them); ``superuser``: whether the superuser may
    without being one; ``group``: a role (Django group) the person must also have; ``scope``:
    for a read, the rows it lets them see; ``what``: the step in words, for the docs;
    ``refusal``: what ``require`` tells someone the rule refuses (in the reader's language);
    ``system``: whether a task or a command (``SYSTEM``) takes the step; ``audience``: its
    answer for the whole site is a function of what every shared page's audience holds (the
    superuser flag, the roles, whether one audits anywhere: scoring.selectors.audience), so the
    header may ask it and the page's render stays shared (core/renders.py)."""

    who: frozenset[str]
    what: str
    superuser: bool = True
    group: str = ""
    scope: Scope | None = None
    refusal: Any = None
    system: bool = False
    audience: bool = False

    @property
    def read(self) -> bool:
        """A read: answered for a record by its scope's queryset (``visible``)."""
        return self.scope is not None and self.what.startswith("read ")


def _rule(who: frozenset[str] | set[str], what: str, **options: Any) -> Rule:
    return Rule(frozenset(who), what, **options)


# --- The table: action -> who --------------------------------------------------------------------

TABLE: dict[str, Rule] = {
    # Reads. A record outside them answers 404.
    "view_tournament": _rule(
        OFFICIAL_ROLES | {AUDITOR, ENTRANT}, "read a tournament and its competition record", scope=TOURNAMENT
    ),
    "view_ruling": _rule(OFFICIAL_ROLES | {AUDITOR, AT_TABLE, CAPTAIN}, "read a ruling", scope=RULING),
    "view_appeal": _rule(
        {DIRECTOR, CHIEF_DIRECTOR, SCORER, AUDITOR, SITTING, AT_TABLE, CAPTAIN}, "read an appeal", scope=APPEAL
    ),
    # A person's own tables: the rulings and appeals at the tables of the sides they play in or
    # captain, a non-playing captain's too (Law 92A: a contestant or its captain appeals; 92D: the
    # captain concurs). The home page's card and /appeals/mine/ list what this rule gives (``own``).
    "own_tables": _rule(
        {AT_TABLE, CAPTAIN},
        "have a ruling or an appeal listed as one's own (a player of either side at its table, or a side's captain)",
        superuser=False,
        scope=RULING,
    ),
    "view_private_details": _rule(OFFICIAL_ROLES | {AUDITOR}, "see membership numbers and personal data"),
    "view_settings": _rule({AUDITOR}, "read a regulating authority's settings", scope=AUTHORITY),
    "national": _rule(
        {AUDITOR},
        "read the national body's pages",
        group=roles.NATIONAL_AUDITOR,
        refusal=_("Only the national body's auditors may read these pages."),
        audience=True,  # the header's links to them
    ),
    "national_records": _rule(
        {AUDITOR},
        "read the records of the bodies one audits: their tournaments, casebooks and organisers",
        group=roles.NATIONAL_AUDITOR,
        scope=AUTHORITY,
        refusal=_("Only the national body's auditors read its casebooks."),
    ),
    "read_precedents": _rule(
        OFFICIAL_ROLES | {AUDITOR, SITTING, REGISTERED},
        "read the published cases (precedents) of a national body one belongs to",
        scope=AUTHORITY,
        refusal=_("Published cases are read by the members and officials of their national body."),
    ),
    # The competition record.
    "write_record": _rule(
        RECORD_WRITERS,
        "change the competition record (boards, results, postings)",
        scope=TOURNAMENT,
        refusal=_("Only a director, chief director or scorer of this tournament may change its record."),
        system=True,
    ),
    "post_scores": _rule(
        RECORD_WRITERS,
        "post a session's official score (it starts the correction and appeal periods)",
        refusal=_("Only a director, chief director or scorer of this tournament may post its official score."),
        system=True,
    ),
    "import": _rule(
        RECORD_WRITERS,
        "import a scoring program's results file (and record the program's scoring method)",
        scope=TOURNAMENT,
        refusal=_("Only the tournament's directors, chief directors and scorers import results."),
        system=True,
    ),
    "choose_vp_scale": _rule(
        {CHIEF_DIRECTOR, SCORER},
        "choose an event's victory-point scale",
        refusal=_("Only the tournament's chief director or scorer chooses an event's victory-point scale."),
    ),
    "match_penalty": _rule(
        DIRECTORS,
        "give or withdraw a penalty against a team in a match",
        refusal=_("Only a director or chief director of this tournament gives or withdraws a penalty."),
    ),
    "settings": _rule(
        NOBODY,
        "record an authority's regulations and scales; create an authority",
        refusal=_("Only a superuser records a regulating authority's regulations and its scales."),
        system=True,
    ),
    "setup": _rule(
        NOBODY,
        "set up an authority's record: create it and its tournaments, register players, appoint officials",
        refusal=_("Only a superuser sets up a regulating authority, its tournaments, players and officials."),
        system=True,
    ),
    "confirm_corrections": _rule(
        {AUDITOR},
        "confirm the corrections an authority's preset brings to its regulations",
        group=roles.NATIONAL_AUDITOR,
        system=True,
    ),
    "choose_scoring_method": _rule(
        {CHIEF_DIRECTOR, SCORER},
        "change an event's scoring method",
        refusal=_("Only the tournament's chief director or scorer changes an event's scoring method."),
    ),
    # Rulings.
    "ruling": _rule(
        DIRECTORS,
        "record, give, change and complete a ruling",
        scope=TOURNAMENT,
        refusal=_("Only a director or chief director of this tournament records rulings."),
    ),
    "finalise_rulings": _rule(
        NOBODY,
        "make the given rulings final once their appeal and correction periods have ended",
        superuser=False,
        system=True,
    ),
    "remind_decisions": _rule(
        NOBODY, "remind the bodies and chief directors of the decisions falling due", superuser=False, system=True
    ),
    "double_dummy": _rule(
        NOBODY, "solve a ruling's deal double dummy and store the table", superuser=False, system=True
    ),
    "confirm_score": _rule(
        DIRECTORS,
        "confirm another director's adjusted score before it reaches the standings (where the authority asks)",
        refusal=_("Only a director or chief director of this tournament confirms an adjusted score."),
    ),
    "confirm_upload": _rule(
        CHIEF,
        "confirm or correct a flag of a club's upload to a field before the upload joins the field's matchpoints",
        refusal=_("Only the chief director of this tournament confirms or corrects a club's upload to its field."),
    ),
    "correction": _rule(
        DIRECTORS,
        "correct a given ruling (Law 82C, 79C)",
        refusal=_("Only a director or chief director of this tournament changes its rulings."),
    ),
    # Appeals at the event (docs/appeals.md).
    "lodge": _rule(DIRECTORS, "lodge an appeal, answer a player's request to appeal"),
    "request_appeal": _rule(
        {AT_TABLE, CAPTAIN},
        "ask a director to appeal a ruling",
        superuser=False,
        refusal=_("Only a player or captain of either side at the table asks to appeal %(r)s, for themselves."),
    ),
    "file_memo": _rule(
        DIRECTORS | {AT_TABLE, CAPTAIN},
        "file a player's memo on a ruling (received, numbered and timed)",
        refusal=_("Only a player of the table, their captain, or a director of the tournament files a memo on %(r)s."),
    ),
    "receive_memo": _rule(
        DIRECTORS,
        "receive a player's memo at the desk for them",
        refusal=_("A player files a memo for themselves; a director may receive one at the desk."),
    ),
    "filings": _rule(DIRECTORS, "read the register of filings received at the desk"),
    "see_effect": _rule(
        DIRECTORS | {SCORER, AUDITOR},
        "see what an open case does to the match and the standings (kept from its body until it decides)",
    ),
    "sit_on_cases": _rule(
        {APPEALS_MEMBER}, "see the cases one sits on, as an appeals member of a tournament", superuser=False
    ),
    "validity": _rule({SITTING}, "decide whether an appeal received late is valid, with the reason"),
    "extend_period": _rule(CHIEF, "extend the appeal period"),
    "extend_decision": _rule(CHIEF, "give a case more time to be decided"),
    "revoke_hall_address": _rule(
        CHIEF,
        "revoke the hall screen's address handed out, and issue a new one",
        refusal=_("Only the chief director of %(t)s revokes the hall screen's address."),
    ),
    "concurrence": _rule(DIRECTORS, "record the players' concurrence (Law 92D)"),
    "statements": _rule(DIRECTORS, "record and lock the statements"),
    "unlock_statements": _rule(CHIEF, "unlock agreed statements"),
    "deposit": _rule(DIRECTORS, "take, return or forfeit a deposit"),
    "withdrawal": _rule(DIRECTORS, "record the appellants' request to withdraw"),
    "body": _rule(CHIEF, "form the body that hears an appeal, appoint its members"),
    "withdraw_unheard": _rule(CHIEF, "let the appellants withdraw before a body sits"),
    "hear_alone": _rule(CHIEF, "hear an appeal alone as the director in charge (Law 93A)"),
    "merit_alone": _rule(CHIEF, "judge the merit of an appeal the director in charge decided alone"),
    "law_part": _rule(CHIEF, "decide a part about law or regulation (Law 93B1)"),
    "appeal_law_decision": _rule(DIRECTORS, "send the law decision on to the body"),
    "hearing": _rule(DIRECTORS, "schedule a hearing"),
    "hearing_record": _rule(DIRECTORS | {SITTING}, "record a hearing's attendance and notes"),
    "seat": _rule(
        {SITTING},
        "declare interests, recuse, vote",
        superuser=False,
        refusal=_("Only the member in the seat declares their interests, recuses or votes, in person."),
    ),
    "decision": _rule({SITTING}, "record the body's decision, accept a withdrawal, judge merit"),
    "recommendation": _rule({SITTING}, "recommend to the director in charge"),
    "respond": _rule(CHIEF, "answer the body's recommendation"),
    "further_appeal": _rule(DIRECTORS, "lodge a further appeal (Law 93C), refer a case as director"),
    "refer_further": _rule({SITTING}, "refer a case to the regulating authority as its body"),
    "national_body": _rule(
        {AUDITOR},
        "form the regulating authority's body, take a further appeal's deposit",
        refusal=_("The regulating authority (%(body)s) forms its own appeals body."),
    ),
    # The national body.
    "casebook": _rule(
        {AUDITOR},
        "compile, edit and publish a casebook",
        group=roles.NATIONAL_AUDITOR,
        refusal=_("Only the national body's auditors edit its casebooks."),
    ),
    "publish": _rule(
        CHIEF,
        "publish the tournament's record to the national body",
        refusal=_("Only a tournament's chief director may publish it."),
        system=True,
    ),
    "print_casebook": _rule(NOBODY, "print a casebook an auditor asked for", superuser=False, system=True),
    "push_target": _rule(
        NOBODY,
        "set the national body this instance publishes to",
        refusal=_("Only a superuser sets where this instance publishes its tournaments."),
        system=True,
    ),
    "send_push": _rule(NOBODY, "send a queued push to the national body (the worker)", superuser=False, system=True),
    "receive": _rule(
        {AUDITOR},
        "receive a tournament pushed by a registered organiser's instance (the API: its token checked first; "
        "the desk's page: a push carried on a file)",
        group=roles.NATIONAL_AUDITOR,
        refusal=_("Only the national body's auditors of the organiser's regulating authority receive its tournaments."),
        system=True,
    ),
    # Logins (core/logins.py): a chief director of any tournament, for the whole site.
    "unlock_logins": _rule(
        CHIEF,
        "see the logins locked out after wrong passwords and unlock them",
        refusal=_("Only a chief director or a superuser may unlock logins."),
    ),
    "federation": _rule(
        {AUDITOR},
        "register an organiser's instance, issue and revoke its token",
        group=roles.NATIONAL_AUDITOR,
        refusal=_("Only the national body's auditors register an organiser's instance and issue or revoke its tokens."),
        system=True,
    ),
    "match_players": _rule(
        {AUDITOR},
        "decide that a received player and another of the same membership number are one person, or undo it",
        group=roles.NATIONAL_AUDITOR,
        refusal=_(
            "Only the national body's auditors of the players' regulating authority match or unmatch its players."
        ),
    ),
}


# --- The question ----------------------------------------------------------------------------------


def rule(action: str) -> Rule:
    try:
        return TABLE[action]
    except KeyError:
        raise LookupError(f"No rule for {action!r}: add it to core.policy.TABLE.") from None


@dataclass(frozen=True)
class SystemActor:
    """Who acts in a Celery task or a management command: no person, so no role anywhere; it
    takes the steps whose rule says ``system=True`` and nothing else. The services record it as
    no user (``person``)."""

    name: str
    is_authenticated = True
    is_superuser = False
    is_staff = False
    pk = None

    def __str__(self) -> str:
        return self.name


SYSTEM = SystemActor("system")

# What require says of a step whose rule has no words of its own and no words for the step
# (an appeal step gives its own, ``what``: the refusal then names the person, _REFUSED_TO).
_REFUSED = _("You may not take this step.")


def person(user: Any) -> Any:
    """The user to record as having acted: None for ``SYSTEM``."""
    return None if isinstance(user, SystemActor) else user


class Questions:
    """What a page asked of the policy while it was made (``watch``): ``shareable`` while every
    question was a step on a tournament itself, whose answer what the reader is to the tournament
    decides (core/renders.py); a read, a step on another record or on the whole site, or a
    queryset narrowed to what the reader sees, makes the page the reader's own."""

    def __init__(self) -> None:
        self.shareable = True


_watching: ContextVar[Questions | None] = ContextVar("policy_questions", default=None)


@contextmanager
def watch() -> Iterator[Questions]:
    """Note the questions asked of the policy in this block (``Questions``)."""
    questions = Questions()
    token = _watching.set(questions)
    try:
        yield questions
    finally:
        _watching.reset(token)


def _asked(the_rule: Rule, obj: Any) -> None:
    questions = _watching.get()
    if obj is None and the_rule.audience:
        return  # answered alike for every reader of a shared render's audience
    if questions is not None and (obj is None or the_rule.read or not _is_tournament(obj)):
        questions.shareable = False


def may(user: Any, action: str, obj: Any, scope: Scope | None = None) -> bool:
    """Whether ``user`` may take ``action`` on ``obj``: a tournament, an authority, a record with
    a ``tournament`` (a ruling, an appeal), a body (``sitting()``); for a read, any record of its
    rule's scope, or of ``scope`` where the record is not the rule's own (``visible``'s: a
    casebook, ``BY_AUTHORITY``)."""
    the_rule = rule(action)
    _asked(the_rule, obj)
    if user is None or not user.is_authenticated:
        return False
    if isinstance(user, SystemActor):
        return the_rule.system
    if the_rule.read:
        return visible(user, action, obj._meta.model._default_manager.filter(pk=obj.pk), scope).exists()
    if user.is_superuser and the_rule.superuser and not _recused_member(user, the_rule, obj):
        return True
    if the_rule.group and the_rule.group not in roles.roles_of(user):
        return False
    return _holds(user, the_rule.who, obj)


def require(user: Any, action: str, obj: Any, what: Any = None, scope: Scope | None = None) -> None:
    """The first thing every write service does: ``PermissionDenied`` with the rule's own
    message unless ``user`` may take ``action`` on ``obj`` (``may``, ``scope`` for a read of a
    record that is not the rule's own). ``what``: the step in the service's words (an appeal
    step's), for a refusal that names the person and the record."""
    if not may(user, action, obj, scope):
        refuse(action, user, obj, what)


# A step's refusal naming the person and the record, by who its rule names, where the rule has
# no words of its own (the appeal steps: ``what`` says the step, e.g. "records its decision").
_REFUSED_TO = {
    DIRECTORS: _("%(user)s is not a director of %(t)s: %(what)s"),
    CHIEF: _("Only the director in charge of %(t)s %(what)s; %(user)s is not."),
    frozenset({SITTING}): _("Only a member sitting on the %(body)s %(what)s; %(user)s does not sit on it."),
    DIRECTORS | {SITTING}: _("Only a director of %(t)s or a member sitting on the case %(what)s; %(user)s is neither."),
}


def refuse(action: str, user: Any = None, obj: Any = None, what: Any = None) -> NoReturn:
    """``action``'s refusal, the same words as ``require``'s: the rule's own message, or, given
    the step in words (``what``), one that names ``user`` and ``obj``'s tournament or body; also
    for a page that finds nothing the reader may take it on (no session they direct)."""
    the_rule = rule(action)
    message = str(the_rule.refusal or (_REFUSED_TO.get(the_rule.who) if what is not None else None) or _REFUSED)
    if "%(" not in message:
        raise PermissionDenied(message)
    raise PermissionDenied(message % _refusal_params(the_rule, user, obj, what))


def _refusal_params(the_rule: Rule, user: Any, obj: Any, what: Any) -> dict[str, Any]:
    """What a refusal may name: the person, the step, the record (``r``), its tournament (``t``)
    and the body the rule asks about: the one whose sitting members may, or, for a step of the
    regulating authority's own body, the authority."""
    tournament = tournament_of(obj)
    body = _body_of(obj) if SITTING in the_rule.who else None
    return {
        "user": user,
        "what": what,
        "r": obj,
        "t": tournament,
        "body": body.get_kind_display().lower() if body is not None else tournament.authority,
    }


def holds(user: Any, role: str, obj: Any) -> bool:
    """Whether ``user`` is ``role`` (one of the "who" above) to ``obj`` in person, the superuser
    not excepted: for a warning about who a person is (the chief director seating himself on a
    body), not a permission."""
    if user is None or not user.is_authenticated or isinstance(user, SystemActor):
        return False
    return _holds(user, frozenset({role}), obj)


def _is_tournament(obj: Any) -> bool:
    return hasattr(obj, "officials")


def tournament_of(obj: Any) -> Any:
    if _is_tournament(obj):
        return obj
    if hasattr(obj, "sitting") and hasattr(obj, "appeal"):  # a body
        return obj.appeal.tournament
    return obj.tournament


def _body_of(obj: Any) -> Any:
    """The body whose sitting members a rule asks about: ``obj`` itself, or a case's body."""
    if hasattr(obj, "sitting"):
        return obj
    if hasattr(obj, "bodies"):
        return obj.body()
    return None


def _recused_member(user: Any, the_rule: Rule, obj: Any) -> bool:
    if SITTING not in the_rule.who or not hasattr(obj, "sitting"):
        return False
    return obj.members.filter(user=user).exists() and not obj.sitting().filter(user=user).exists()


def _holds(user: Any, who: frozenset[str], obj: Any) -> bool:
    """Whether ``user`` is any of ``who`` to ``obj`` (one query per kind of relation asked)."""
    official = who & OFFICIAL_ROLES
    if official and obj is None:  # a step for the whole site: an official of any tournament
        if user.officiating.filter(role__in=sorted(official)).exists():
            return True
    elif official:
        tournament = tournament_of(obj)
        if user.officiating.filter(tournament=tournament, role__in=sorted(official)).exists():
            return True
    if AUDITOR in who:
        if obj is None:  # an auditor of any authority
            if user.auditing.exists():
                return True
        elif user.auditing.filter(
            authority_id=obj.pk if hasattr(obj, "auditors") else tournament_of(obj).authority_id
        ).exists():
            return True
    if SITTING in who:
        body = _body_of(obj)
        if body is not None and body.sitting().filter(user=user).exists():
            return True
    if ENTRANT in who and _is_tournament(obj):
        if _contestants(user).filter(_sides(user, {AT_TABLE, CAPTAIN}), event__tournament=obj).exists():
            return True
    if (AT_TABLE in who or CAPTAIN in who) and _result_of(obj) is not None:
        result = _result_of(obj)
        if _contestants(user).filter(_sides(user, who), pk__in=[result.ns_id, result.ew_id]).exists():
            return True
    return False


def _sides(user: Any, who: frozenset[str] | set[str]) -> Q:
    """The contestants ``user`` is ``who`` to: a member of (``AT_TABLE``), the captain of
    (``CAPTAIN``, a non-playing one too)."""
    players = Q(pk__in=[])
    if AT_TABLE in who:
        players |= Q(members__user=user)
    if CAPTAIN in who:
        players |= Q(captain__user=user)
    return players


def own_entries(user: Any) -> QuerySet:
    """The contestants whose tables are ``user``'s own by the ``own_tables`` rule: the pairs and
    teams they play in and the teams they captain, playing or not. The home page's "Your entries"
    and its card of rulings at one's tables are shown from these."""
    if user is None or not user.is_authenticated or isinstance(user, SystemActor):
        from django.contrib.auth import get_user_model

        return _contestants(get_user_model()).none()
    return _contestants(user).filter(_sides(user, rule("own_tables").who)).distinct()


def own(user: Any, queryset: QuerySet, scope: Scope | None = None) -> QuerySet:
    """``queryset`` (rulings; appeals with ``scope=APPEAL``) narrowed to those at ``user``'s own
    tables (``own_tables``) that ``user`` may also read (``view_ruling``, ``view_appeal``): the
    one answer of the home page and /appeals/mine/."""
    read = "view_appeal" if scope is APPEAL else "view_ruling"
    return visible(user, "own_tables", visible(user, read, queryset, scope), scope)


def _result_of(obj: Any) -> Any:
    """The table result a ruling or a case is about (None before the ruling has one)."""
    if hasattr(obj, "ruling"):
        obj = obj.ruling
    return getattr(obj, "result", None)


# --- What a person may read -----------------------------------------------------------------------


def _contestants(user: Any) -> QuerySet:
    """The contestants (pairs, teams) of the project, reached from the user's model: the
    players a user is (``Player.user``, related name ``player``) and their entries."""
    return _players(user).model._meta.get_field("entries").related_model._default_manager.all()


def _players(user: Any) -> QuerySet:
    """The players of the project (``Player``, registered with an authority), reached from the
    user's model (``Player.user``, related name ``player``)."""
    return user._meta.get_field("player").related_model._default_manager.all()


def _of_authority(scope: Scope, authorities: QuerySet) -> Q:
    """The rows of ``scope`` whose authority is one of ``authorities`` (a subquery)."""
    return Q(**{_path(scope.authority, "pk__in" if not scope.authority else "in"): authorities})


def _path(prefix: str, lookup: str) -> str:
    return f"{prefix}__{lookup}" if prefix else lookup


def visible(user: Any, action: str, queryset: QuerySet, scope: Scope | None = None) -> QuerySet:
    """``queryset`` narrowed to the rows that ``action``'s rule lets ``user`` read; ``scope``
    says how its rows reach their tournament and authority when they are not the rule's own
    records (``BY_AUTHORITY``: casebooks under the rule of authorities). One small subquery per
    reason to see a row: an OR over many-valued joins in one filter takes PostgreSQL far longer
    to plan than to run (issue #19)."""
    the_rule = rule(action)
    scope = scope or the_rule.scope
    if scope is None:
        raise LookupError(f"{action!r} is a step, not a read: it has no scope.")
    questions = _watching.get()
    if questions is not None and not _is_tournament(queryset.model):  # rows the reader sees: theirs
        questions.shareable = False
    if user is None or not user.is_authenticated or isinstance(user, SystemActor):
        return queryset.none()
    if user.is_superuser and the_rule.superuser:
        return queryset
    if the_rule.group and the_rule.group not in roles.roles_of(user):
        return queryset.none()
    who = the_rule.who
    reasons = []
    official = who & OFFICIAL_ROLES
    if official:
        places = (
            user.officiating.all() if official == OFFICIAL_ROLES else user.officiating.filter(role__in=sorted(official))
        )
        if scope.tournament is not None:
            reasons.append(
                Q(**{_path(scope.tournament, "pk__in" if not scope.tournament else "in"): places.values("tournament")})
            )
        else:  # a record above tournaments: the authorities of the tournaments they officiate
            reasons.append(_of_authority(scope, places.values("tournament__authority")))
    if AUDITOR in who:
        reasons.append(_of_authority(scope, user.auditing.values("authority")))
    if SITTING in who:
        seats = user.appeal_seats.filter(recused_at__isnull=True)
        if scope.case is not None:
            reasons.append(Q(**{_path(scope.case, "pk__in" if not scope.case else "in"): seats.values("body__appeal")}))
        elif scope.tournament is None:  # the authorities of the cases they sit on
            reasons.append(_of_authority(scope, seats.values(f"body__appeal__{APPEAL.authority}")))
    if REGISTERED in who:
        reasons.append(_of_authority(scope, _players(user).filter(user=user).values("authority")))
    if ENTRANT in who and scope.tournament == "":
        entries = _contestants(user).filter(_sides(user, {AT_TABLE, CAPTAIN}))
        reasons.append(Q(pk__in=entries.values("event__tournament")))
    if (AT_TABLE in who or CAPTAIN in who) and scope.sides:
        entries = _contestants(user).filter(_sides(user, who)).values("pk")
        for side in scope.sides:
            reasons.append(Q(**{f"{side}__in": entries}))
    if not reasons:
        return queryset.none()
    condition = reasons[0]
    for reason in reasons[1:]:
        condition |= reason
    return queryset.filter(condition)


def who_may(action: str) -> frozenset[str]:
    """The "who" of ``action`` (the role matrix builds its expectations from it)."""
    return rule(action).who
