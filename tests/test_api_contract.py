"""The API keeps its own contract (issue #19, "The API contract"): schemathesis runs over the
whole OpenAPI schema, in-process against the WSGI app, as the superuser and as a player, each
with an API token, and every check must pass: no server error, every response (status code,
content type, headers, body) as the schema documents it, invalid requests refused with 400 and
valid ones not refused with 400.

- The records are tests/roles/world.py's two tournaments (a ruling and an appeal in every state),
  built once for this module inside a transaction rolled back at its end; each request runs in a
  savepoint of its own, so a write one example makes is gone for the next.
- A generated ``{id}`` is most often swapped for the id of a real record of that resource
  (chosen from the generated number), so detail endpoints answer with bodies to check rather
  than 404s only.
- Examples are bounded (a fixed seed, a few per operation and phase) to keep the run well under
  a minute or two on a small machine; the stateful phase is off (each request is rolled back).
"""

import json

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import override_settings
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig

from tests.roles.world import build_world

# Roles the contract is run as: the superuser sees and may try everything; a player sees their
# own tournament's record and is refused every write.
ROLES = ("superuser", "player")
# The mark makes pytest-django create the test database even when this module runs alone.
pytestmark = pytest.mark.django_db
MAX_EXAMPLES = 3

CONFIG = {
    "seed": 19,
    "suppress-health-check": ["all"],
    "generation": {"max-examples": MAX_EXAMPLES, "database": "none", "mode": "all", "with-security-parameters": False},
    "phases": {"stateful": {"enabled": False}},
}
# The player's run: the same, less the coverage phase (its boundary values of every field are
# the superuser's run's to try; a player is refused every write before the body is read).
PLAYER_CONFIG = {**CONFIG, "phases": {"stateful": {"enabled": False}, "coverage": {"enabled": False}}}


@pytest.fixture(scope="module")
def contract_world(django_db_setup, django_db_blocker):
    """The role matrix's records, a token per role, and real ids per API collection."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        with transaction.atomic():
            world = build_world()
            world.tokens = {role: Token.objects.create(user=world.users[role]).key for role in ROLES}
            world.ids = {}
            for target in world.targets.values():
                collection = {
                    "tournament": "tournaments",
                    "event": "events",
                    "session": "sessions",
                    "contestant": "contestants",
                    "board": "boards",
                    "result": "results",
                    "ruling": "rulings",
                    "appeal": "appeals",
                    "upload": "field-uploads",
                }.get(target.key.split(":")[0].split("@")[0])
                if collection:
                    world.ids.setdefault(collection, []).append(target.pk)
            yield world
            transaction.set_rollback(True)


def _load_schema(config):
    """The schema /api/schema/ serves, made in-process at collection (no request, no database)."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    document = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))
    loaded = schemathesis.openapi.from_dict(document, config=SchemathesisConfig.from_dict(config))
    # Every request, the checks' own probes too, goes to the WSGI app in this process.
    loaded.app = get_wsgi_application()
    return loaded


schema = _load_schema(CONFIG)
player_schema = _load_schema(PLAYER_CONFIG)


@pytest.fixture(scope="module")
def wsgi_app(contract_world):
    # As Django's test client does: a request's end must not close the connection that holds
    # the module's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schema.app
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _on_a_real_record(case, world):
    """Most generated ids become the id of a real record of the collection in the path."""
    generated = case.path_parameters.get("id")
    collection = case.path.strip("/").split("/")[2]
    known = world.ids.get(collection)
    if isinstance(generated, int) and known and generated % 5:
        case.path_parameters["id"] = known[generated % len(known)]


def _check(case, world, app, role):
    _on_a_real_record(case, world)
    # The API's throttles count in the cache: each example starts with none, so the run checks
    # the contract, not the rate (tests/reliability checks the 429).
    cache.clear()
    with transaction.atomic():
        case.call_and_validate(headers={"Authorization": f"Token {world.tokens[role]}"})
        transaction.set_rollback(True)


@schema.parametrize()
def test_api_contract_as_superuser(case, contract_world, wsgi_app):
    _check(case, contract_world, wsgi_app, "superuser")


@player_schema.parametrize()
def test_api_contract_as_player(case, contract_world, wsgi_app):
    _check(case, contract_world, wsgi_app, "player")
