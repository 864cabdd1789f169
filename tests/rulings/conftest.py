"""The director who rules at the tables of the ``field`` fixture (tests/conftest.py)."""

import pytest

from core import policy, roles
from scoring import services as scoring_services
from tests.conftest import make_user


@pytest.fixture
def director(field):
    """Dana, a director of the field's tournament."""
    user = make_user("dana", first_name="Dana")
    scoring_services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user
