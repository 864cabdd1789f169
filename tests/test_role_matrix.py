"""Every role against every page and API endpoint, reading and writing, on its own tournament and
on another body's (issue #6, "Roles, finished").

- The rows are in tests/roles/matrix.py (appeal_rows.py, national_rows.py), the rules they are
  checked against in tests/roles/rules.py, read from the policy's table (core.policy.TABLE); the
  records (two tournaments under two regulating authorities, with a ruling and an appeal in
  every state a step needs) in tests/roles/world.py. They are built once for this module, inside a transaction
  rolled back at its end; each case runs in its own savepoint, so a write one case makes is gone
  for the next.
- For every (row, role, record) the status is checked; a read of something the role may read
  shows the record (its text, its id, or its place in a list); a write changes something exactly
  when the role may make it; and no response shows a role a record it may not read (each ruling
  and appeal carries its own marker text, each tournament its name, each player a membership
  number that only officials and auditors see).
- ``test_every_url_pattern_is_in_the_matrix`` fails when a URL pattern (or an API method) has no
  row, so the matrix cannot go stale silently; the few patterns outside it are listed in EXEMPT
  with the reason.
"""

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Max, signals
from django.shortcuts import resolve_url
from django.test import Client, override_settings
from django.urls import URLResolver, get_resolver, resolve
from rest_framework.test import APIClient
from rest_framework.views import APIView

from audit.models import AuditEntry
from core import steps
from core.permissions import CompetitionRecordPermission
from tests.roles import matrix, rules
from tests.roles.world import NAMES, ROLES, SIDES, build_world, marker
from tests.security import page_problems

pytestmark = pytest.mark.second_round

# URL patterns the matrix leaves out, by the start of their route, and why.
EXEMPT = {
    "admin/": "the Django admin: superusers only, guarded by the admin's own permissions",
    "login/": "logging in: open to everyone, no record",
    "logout/": "logging out: no record",
    "i18n/": "the language switch (set_language): no record",
    "api/schema/": "the OpenAPI schema: describes the API, holds no record",
    "api/docs/": "the browsable API docs (Swagger UI): no record",
    "static/": "static files, where DEBUG serves them",
    "api/federation/": (
        "the national body's receiving endpoints: an organiser's token, not a signed-in role "
        "(tests/national/test_federation_api.py, issue #32)"
    ),
    "hall/": (
        "the hall's screen: its signed address is the permission, not a signed-in role; shown to "
        "anyone who has it, refused for another token (tests/appeals/test_hall_screen.py, issue #42)"
    ),
    "national/federation/": (
        "publishing to the national body: who may read, issue, revoke and publish is checked in "
        "tests/national/test_federation_receive.py (issue #32); its players kept apart are walked (WALKED)"
    ),
}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The records and a logged-in session per role, made once and rolled back at the end."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        with transaction.atomic():
            built = build_world()
            built.sessions = {}
            for role, user in built.users.items():
                if user is not None:
                    client = Client()
                    client.force_login(user)
                    built.sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
            yield built
            transaction.set_rollback(True)


def client_for(world, role):
    client = APIClient()
    if role != "anonymous":
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    return client


class Writes:
    """Counts the rows a request saves or deletes (sessions aside), through Django's signals:
    every service writes through ``save()`` (its ``full_clean()`` first), ``create()`` or a
    many-to-many ``set()``; the audit trail's entry is itself a saved row."""

    SIGNALS = (signals.post_save, signals.post_delete, signals.m2m_changed)

    def __enter__(self):
        self.rows = []
        for signal in self.SIGNALS:
            signal.connect(self.saw, dispatch_uid="role-matrix")
        return self

    def __exit__(self, *exc):
        for signal in self.SIGNALS:
            signal.disconnect(dispatch_uid="role-matrix")

    def saw(self, sender, **kwargs):
        if sender is not Session and kwargs.get("action", "post_").startswith("post_"):
            self.rows.append(sender._meta.label)


def send(client, method, path, data, api):
    call = getattr(client, method.lower())
    if method == "GET":
        return call(path)
    if api:
        # A file goes as multipart/form-data (the results-file import); every other body as JSON.
        upload = any(hasattr(value, "read") for value in (data or {}).values())
        return call(path, data or {}, format="multipart" if upload else "json")
    return call(path, data or {})


def forbidden_texts(world, role):
    """The texts of what ``role`` may not read."""
    if role == "superuser":
        return []
    texts = []
    for target in world.targets.values():
        kind = target.key.split("@")[0].split(":")[0]
        if kind == "tournament" and not rules.reads_record(role, target):
            texts.append(NAMES[target.side][1])
        if kind == "ruling" and not rules.reads_ruling(role, target):
            texts.append(marker(target.side, target.short, "ruling"))
        if kind == "appeal" and not rules.reads_appeal(role, target):
            texts.append(marker(target.side, target.short, "grounds"))
    if not rules.sees_membership_numbers(role):
        texts += [f"{NAMES[side][0]}-{i}" for side in SIDES for i in range(1, 9)]
    return texts


def listed_ids(body):
    items = body["results"] if isinstance(body, dict) and "results" in body else body
    return {item.get("id") for item in items} if isinstance(items, list) else set()


# The audit codes the registry's steps declare (core/steps.py), by the URL names of their doors
# and API actions: a request to one that writes must write one of them.
STEP_AUDITS: dict[str, set[str]] = {}
for _step in steps.registry().values():
    for _name in (_step.door, _step.api):
        if _name and _step.audit:
            STEP_AUDITS.setdefault(_name.split(":")[-1], set()).add(_step.audit)


def check(world, row, role, target):
    """What is wrong with what ``role`` gets at ``row`` for ``target``: nothing, if the rules hold.
    The request runs in a savepoint rolled back at once, so one role's write is gone for the next."""
    path = row.path(world, target)
    expect = row.expect(role, target, world)
    data = row.data(world, target) if row.data else None
    # A draft saved at a step's door (a correction not yet given) is not the step taken.
    draft = isinstance(data, dict) and data.get("draft")
    declared = STEP_AUDITS.get(row.name, set()) if row.method != "GET" and not draft else set()
    try:
        with transaction.atomic(), Writes() as writes:
            last = AuditEntry.objects.aggregate(last=Max("pk"))["last"] or 0 if declared else 0
            response = send(client_for(world, role), row.method, path, data, row.api)
            # The audit trail's entries are written in bulk (no signal): read back the new ones.
            audits = set(AuditEntry.objects.filter(pk__gt=last).values_list("action", flat=True)) if declared else set()
            transaction.set_rollback(True)
        wrote = bool(writes.rows)
    except Exception as error:  # noqa: BLE001 - an error page (500) is a finding like any other
        return [f"{role} {row.method} {path} {data or ''} raised {type(error).__name__}: {error}"]
    body = response.content.decode("utf-8", "replace")
    where = f"{role} {row.method} {path} {data or ''} -> {response.status_code}: {body[:300]}"
    if response.status_code != expect.status:
        return [f"expected {expect.status}: {where}"]
    # Issue #30: every page and answer carries the Content-Security-Policy and Permissions-Policy,
    # and no page has inline script or style.
    problems = page_problems(response, where[:200])
    if wrote != expect.wrote:
        problems.append(f"{'wrote' if wrote else 'wrote nothing'}: {where}")
    if wrote and declared and not declared & audits:
        problems.append(f"wrote no audit entry {sorted(declared)} (core.steps), but {sorted(audits)}: {where}")
    if response.status_code == 302:
        went_to_login = response["Location"].startswith(resolve_url(settings.LOGIN_URL) + "?next=")
        if went_to_login != expect.login or (expect.goes_to and response["Location"] != expect.goes_to):
            problems.append(f"redirected to {response['Location']}: {where}")
    if expect.error and expect.error not in response.json():
        problems.append(f"the refusal does not name {expect.error!r}: {where}")
    problems += [f"{text!r} is not shown: {where}" for text in expect.shows if text not in body]
    if expect.json_id and response.json().get("id") != expect.json_id:
        problems.append(f"not record {expect.json_id}: {where}")
    if expect.listed:
        ids = listed_ids(response.json()) if row.api else None
        for needle, present in expect.listed:
            if (needle in ids if row.api else needle in body) != present:
                problems.append(f"{needle!r} {'missing from' if present else 'shown in'}: {where}")
    leaked = [text for text in forbidden_texts(world, role) if text in body]
    if leaked:
        problems.append(f"shows what {role} may not read, {leaked}: {where}")
    return problems


CASES = [(row, target) for row in matrix.ROWS for target in row.targets or (None,)]


@pytest.mark.parametrize("row,target_name", CASES, ids=[row.id(target) for row, target in CASES])
def test_role_matrix(world, db, row, target_name):
    """One row and one record, for every role (each role's answer is checked on its own, and
    every wrong one is reported)."""
    target = world.targets[target_name] if target_name else None
    path = row.path(world, target)
    assert resolve(path.split("?")[0]).url_name == row.name, f"{path} is not {row.name}"
    problems = [problem for role in ROLES for problem in check(world, row, role, target)]
    assert not problems, "\n".join(problems)


# --- The matrix covers every URL pattern -------------------------------------------------------


def url_patterns(patterns=None, prefix=""):
    """(route, pattern) for every URL pattern, routes written out from the root."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern.url_patterns, route)
        else:
            yield route, pattern


# Routes under an exemption that the matrix walks all the same.
WALKED = ("national/federation/players/",)  # the desk's players kept apart (issue #41)


def exempt(route):
    return any(route.startswith(start) for start in EXEMPT) and not route.startswith(WALKED)


def offered_methods(pattern):
    """The methods an API view answers, or None for a page (which takes any)."""
    actions = getattr(pattern.callback, "actions", None)
    if actions:  # DRF maps HEAD with GET, and answers OPTIONS everywhere: neither is a separate right
        return {method.upper() for method in actions} & set(METHODS)
    view = getattr(pattern.callback, "cls", None)
    if view is not None and issubclass(view, APIView):
        return {method for method in METHODS if hasattr(view, method.lower())}
    return None


def test_every_url_pattern_is_in_the_matrix():
    rows = {(row.name, row.method) for row in matrix.ROWS}
    names = {name for name, _method in rows}
    missing, seen, routes = [], set(), {}
    for route, pattern in url_patterns():
        if exempt(route):
            continue
        seen.add(pattern.name)
        if "format" not in pattern.pattern.regex.groupindex:  # a format suffix (".json") is the same view
            routes.setdefault(pattern.name, []).append(route)
        if pattern.name is None:
            missing.append(f"{route} has no name")
            continue
        for method in sorted(offered_methods(pattern) or {"GET"}):
            if (pattern.name, method) not in rows:
                missing.append(f"{method} {route} ({pattern.name})")
    assert not missing, "URL patterns with no row in tests/roles/matrix.py:\n" + "\n".join(sorted(set(missing)))
    assert names <= seen, f"rows for URL patterns that no longer exist: {sorted(names - seen)}"
    # A row names one pattern, and so does {% url %}: two patterns with one name are one too many.
    shared = {name: found for name, found in routes.items() if len(found) > 1}
    assert not shared, f"URL names given to more than one pattern: {shared}"


def test_no_record_hides_behind_an_exemption():
    for route, _pattern in url_patterns():
        if exempt(route):
            assert not route.startswith(("api/v1/", "rulings/", "appeals/", "tournaments/", "events/")), route


# --- Methods the API does not offer --------------------------------------------------------------


def unoffered():
    by_name = {}
    for row in matrix.ROWS:
        by_name.setdefault(row.name, row)
    for route, pattern in url_patterns():
        offered = offered_methods(pattern)
        if exempt(route) or offered is None or "format" in pattern.pattern.regex.groupindex:
            continue  # not the API, or the same view again with a format suffix (".json")
        for method in METHODS:
            if method not in offered and pattern.name in by_name:  # (no row: the test above says so)
                yield by_name[pattern.name], method, pattern.callback.cls


UNOFFERED = list(unoffered())


# Which answer a method the API does not offer gets depends only on whether the role is logged
# in, whether its group writes the competition record, and whether it is the superuser: DELETE is
# tried by every role, the other methods by one role of each kind.
ONE_OF_EACH_KIND = ("anonymous", "auditor", "scorer", "superuser")


@pytest.mark.parametrize("row,method,view", UNOFFERED, ids=[f"{m}-{row.name}" for row, m, _view in UNOFFERED])
def test_methods_the_api_does_not_offer(world, db, row, method, view):
    """No endpoint deletes, and none takes a method it does not list: 405, after the permission
    check (so anonymous users and, on the competition record, roles that never write get 403)."""
    target = world.targets[row.targets[0]] if row.targets else None
    path = row.path(world, target)
    record_permission = CompetitionRecordPermission in view.permission_classes
    wrong = []
    for role in ROLES if method == "DELETE" else ONE_OF_EACH_KIND:
        with transaction.atomic(), Writes() as writes:
            response = send(client_for(world, role), method, path, {}, api=True)
            transaction.set_rollback(True)
        if writes.rows:
            wrong.append(f"{role} {method} {path} wrote {writes.rows}")
        if role == "anonymous" or (
            record_permission and method != "GET" and role not in rules.allowed("write_record") | {"superuser"}
        ):
            expected = 403
        else:
            expected = 405
        if response.status_code != expected:
            wrong.append(f"{role} {method} {path}: {response.status_code}, not {expected}")
    assert not wrong, "\n".join(wrong)
