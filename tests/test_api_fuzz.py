"""Every date, time and number the API's schema takes, fuzzed (issue #41): a bad value (a day
that is no day, a month 13, a year beyond the calendar's ends at the far time zones, words,
numbers beyond 64 bits, fractions, lists, objects) in a request body or a query parameter is
refused with a 400 (or a 404 for a record that does not exist) naming the field, never a 500.
The fields are read from the OpenAPI schema /api/schema/ serves, so a new one is fuzzed as it
is added. Bounded in ``make test``; ``make fuzz`` runs many more examples (tests/fuzz.py)."""

import json

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.fuzz import fuzz
from tests.roles.world import build_world

pytestmark = pytest.mark.django_db
WRITES = ("post", "put", "patch")


def _schema():
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def _kind(spec):
    if spec.get("format") in ("date", "date-time", "time"):
        return spec["format"]
    if spec.get("type") in ("integer", "number"):
        return "number"
    return None


def _fields():
    """(method, path, where, field, kind) of every date, time and number the schema takes."""
    document = _schema()
    components = document["components"]["schemas"]

    def resolve(spec):
        while "$ref" in spec:
            spec = components[spec["$ref"].split("/")[-1]]
        return spec

    found = []
    for path, operations in sorted(document["paths"].items()):
        for method, operation in sorted(operations.items()):
            for parameter in operation.get("parameters", []):
                kind = _kind(resolve(parameter.get("schema", {})))
                if parameter.get("in") == "query" and kind:
                    found.append((method, path, "query", parameter["name"], kind))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if method in WRITES and body:
                for name, spec in resolve(body["schema"]).get("properties", {}).items():
                    spec = resolve(spec)
                    if not spec.get("readOnly") and _kind(spec):
                        found.append((method, path, "body", name, _kind(spec)))
    return found


FIELDS = _fields()

WORDS = st.sampled_from(["", "yesterday", "now", "null", "1e400", "0x10", "12abc", "--1", "½"])
HUGE = st.one_of(st.integers(min_value=2**63, max_value=2**80), st.integers(max_value=-(2**63) - 1, min_value=-(2**80)))
SHAPES = st.one_of(
    st.lists(st.integers(0, 9), max_size=2), st.dictionaries(st.just("a"), st.integers(0, 9), max_size=1)
)
NOT_A_DAY = st.sampled_from(
    ["2026-02-30", "2026-13-01", "2026-00-10", "0000-01-01", "10000-01-01", "2026-1-1x", "31/12/2026"]
)
BAD = {
    "number": st.one_of(
        WORDS, HUGE, SHAPES, st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != int(x))
    ),
    "date": st.one_of(WORDS, NOT_A_DAY, SHAPES, st.integers()),
    "date-time": st.one_of(
        WORDS,
        SHAPES,
        st.integers(),
        NOT_A_DAY.map(lambda day: day + "T10:00:00Z"),
        st.sampled_from(
            [
                "0001-01-01T00:00:00+14:00",
                "9999-12-31T23:59:59-12:00",
                "2026-05-01T25:00:00Z",
                "2026-05-01T10:00:00+25:00",
            ]
        ),
    ),
    "time": st.one_of(WORDS, SHAPES, st.sampled_from(["25:00", "10:61", "24:00:01", "10:00:00+99:00"])),
}


@pytest.fixture(scope="module")
def api_world(django_db_setup, django_db_blocker):
    """The role matrix's records (tests/roles/world.py) and the superuser's token, built once for the
    module inside a transaction rolled back at its end."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        with transaction.atomic():
            world = build_world()
            world.client = APIClient()
            world.client.credentials(
                HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=world.users['superuser']).key}"
            )
            world.ids = {}
            for target in world.targets.values():
                world.ids.setdefault(target.key.split(":")[0].split("@")[0], []).append(target.pk)
            yield world
            transaction.set_rollback(True)


COLLECTIONS = {
    "tournaments": "tournament",
    "events": "event",
    "sessions": "session",
    "boards": "board",
    "results": "result",
    "rulings": "ruling",
    "appeals": "appeal",
    "contestants": "contestant",
}


def _url(world, path):
    """The path with a real record's id for each ``{...}`` (the collection's first), so the
    request reaches the fields' checks."""
    parts = path.strip("/").split("/")
    for index, part in enumerate(parts):
        if part.startswith("{"):
            collection = COLLECTIONS.get(parts[index - 1], "")
            parts[index] = str((world.ids.get(collection) or [1])[0])
    return "/" + "/".join(parts) + "/"


def _names(answer):
    try:
        body = answer.json()
    except ValueError:
        return set()
    return {key.split(".")[0] for key in body} if isinstance(body, dict) else set()


@pytest.mark.parametrize(
    ("method", "path", "where", "field", "kind"), FIELDS, ids=[f"{m} {p} {f}" for m, p, _w, f, _k in FIELDS]
)
def test_a_bad_date_time_or_number_is_refused_naming_the_field(api_world, method, path, where, field, kind):
    @fuzz(4)
    @given(BAD[kind])
    def check(value):
        cache.clear()  # the throttles count in the cache: each example starts with none
        url = _url(api_world, path)
        with transaction.atomic():
            if where == "query":
                shown = value if isinstance(value, str) else json.dumps(value)
                answer = getattr(api_world.client, method)(url, {field: shown})
            else:
                answer = getattr(api_world.client, method)(url, {field: value}, format="json")
            transaction.set_rollback(True)
        assert answer.status_code < 500, (method, url, field, value, answer.content[:300])
        if answer.status_code == 400 or (answer.status_code == 404 and _names(answer) - {"detail"}):
            assert field in _names(answer) or where == "query" and answer.status_code == 404, (
                method,
                url,
                field,
                value,
                answer.content[:300],
            )

    check()


@pytest.mark.parametrize("field", ["session", "board", "table", "round"])
def test_a_drafts_number_beyond_what_it_can_be_is_refused_naming_it(api_world, field):
    """The draft's numbers were taken up to any size and looked up (board 2**63 passed the
    serializer): each is refused at its bound, naming it, the other fields valid."""
    cache.clear()
    body = {"session": 1, "board": 1, "table": 1, "round": 1, "form": {}, field: 2**63}
    answer = api_world.client.post("/api/v1/ruling-drafts/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json(), answer.content


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "/api/v1/rulings/", {"result": 1.5, "kind": "ruling"}, "result"),  # was taken as result 1
        ("put", "/api/v1/results/{result}/", {"ew": 1.5}, "ew"),  # was taken as contestant 1
        ("post", "/api/v1/rulings/", {"tray_delay_seconds": 2**63}, "tray_delay_seconds"),  # no bound on SQLite
    ],
)
def test_an_id_that_is_a_fraction_or_a_number_past_its_field_is_refused_naming_it(api_world, method, path, body, field):
    cache.clear()
    answer = getattr(api_world.client, method)(path.format(result=api_world.ids["result"][0]), body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json(), answer.content
