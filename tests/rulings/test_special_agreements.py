"""Law 40B's special partnership understandings as the regulating authority's election (issue
#39): its dated setting ``special_agreements`` (Law 40B2(a)(i): "allow, disallow, or allow
conditionally, any special partnership understanding"; 1997 Law 40D), stated in every preset
(default, not checked, where no body's source was found), and shown on a ruling that cites a
paragraph of Law 40B (1997: 40D)."""

import datetime

import pytest
from django.urls import reverse

from core import policy
from scoring import presets
from scoring import services as scoring_services
from tests.rulings.test_revoke_rulings import edition, open_ruling


def _cite(ruling, director, law):
    from rulings import services

    services.cite_laws(ruling=ruling, by=director, laws=[law])


@pytest.mark.parametrize("code", ["laws", "ebu", "acbl", "abf", "ebl", "ibf", "ufsb"])
def test_every_preset_states_the_election(code):
    (entry,) = presets.load(code).entries_for("special_agreements")
    assert entry.value == "regulated" and entry.status == "default"
    assert "not checked" in entry.reason.lower()


@pytest.mark.parametrize(
    "laws, law, setting, shown",
    [
        ("2017", "40B2a", "regulated", "the regulating authority restricts them"),
        ("2017", "40B2a", "unrestricted", "the regulating authority allows any"),
        ("2007", "40B", "regulated", "the regulating authority restricts them"),
        ("1997", "40D", "unrestricted", "the regulating authority allows any"),
    ],
)
def test_a_ruling_citing_law_40b_shows_the_authoritys_election(client, field, director, laws, law, setting, shown):
    edition(field, laws)
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="special_agreements",
        value=setting,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    ruling = open_ruling(field, director)
    _cite(ruling, director, law)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert 'id="special-agreements"' in page and shown in page


def test_a_ruling_citing_no_law_40b_does_not_show_it(client, field, director):
    ruling = open_ruling(field, director)
    _cite(ruling, director, "64A2")
    client.force_login(director)
    assert 'id="special-agreements"' not in client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
