"""Pages show a step by the policy's own answer (issue #38): ``{% may "action" obj as flag %}``
asks core.policy.may in the template, and no view passes a permission flag of its own."""

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from core import policy

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

# Flags that are not who may act but what the record allows now (a print to ask again, a
# session to rule at, a ruling still open to a request): the views compute them from the state.
STATE_FLAGS = {"can_print", "can_open", "can_request"}


def shown(user, action, obj):
    request = RequestFactory().get("/")
    request.user = user
    template = Template(
        '{% load policy %}{% may "' + action + '" obj as flag %}{% if flag %}yes{% else %}no{% endif %}'
    )
    return template.render(Context({"request": request, "obj": obj}))


@pytest.mark.django_db
def test_the_tag_answers_as_the_policy_does(record, people):
    tournament = record.tournament
    assert shown(people.director, "ruling", tournament) == "yes"
    assert shown(people.scorer, "ruling", tournament) == "no"
    assert shown(people.scorer, "post_scores", tournament) == "yes"
    assert shown(people.outsider, "post_scores", tournament) == "no"
    assert shown(people.chief, "unlock_logins", None) == "yes"
    assert shown(people.director, "unlock_logins", None) == "no"
    for user in vars(people).values():
        for action in ("ruling", "post_scores", "match_penalty", "import", "choose_vp_scale"):
            assert (shown(user, action, tournament) == "yes") == policy.may(user, action, tournament)


def test_every_permission_flag_a_template_reads_is_the_policys_answer_in_that_template():
    computed_by_views = {}
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        asked = set(re.findall(r"{% may \"\w+\"(?: [\w.]+)? as (\w+) %}", text))
        for flag in set(re.findall(r"\b((?:can|may)_\w+)\b", text)) - asked - STATE_FLAGS:
            computed_by_views.setdefault(flag, []).append(str(path.relative_to(TEMPLATES)))
    assert computed_by_views == {}, 'use {% may "action" obj as flag %} (core/templatetags/policy.py)'


# The case page's flags before the registry of steps answered it (core.steps.available), and the
# home page's before it asked the policy.
FORMER_FLAGS = re.compile(
    r"\b(is_director|is_chief|records_hearing|national_officer|is_official|is_auditor|is_appeals_member|is_player)\b"
)


def test_no_template_reads_a_flag_the_registry_of_steps_replaced():
    found = {
        str(path.relative_to(TEMPLATES)): sorted(set(FORMER_FLAGS.findall(path.read_text())))
        for path in TEMPLATES.rglob("*.html")
        if FORMER_FLAGS.search(path.read_text())
    }
    assert found == {}, 'ask {% if "step" in steps %} (core.steps.available) or {% may %}'


@pytest.mark.django_db
def test_the_home_page_shows_each_card_by_the_policys_answer_and_its_view_passes_no_flag(client, record, people):
    from core import roles
    from tests.conftest import make_user

    # In a role's group but appointed nowhere: not an official, no appeals to sit on.
    unappointed = [make_user(f"new_{role}", role=role) for role in (roles.DIRECTOR, roles.APPEALS_MEMBER)]
    cards = {
        "officiate": "Tournaments you officiate at",
        "appeals": "<h2>Appeals</h2>",
        "audit": "National bodies you audit",
    }
    seen = {}
    for user in [people.director, people.scorer, people.appeals, people.player, *unappointed]:
        client.force_login(user)
        response = client.get("/")
        assert not {"is_official", "is_auditor", "is_appeals_member", "is_player"} & set(response.context.keys())
        page = response.content.decode()
        seen[user.username] = {card for card, heading in cards.items() if heading in page}
    assert seen == {
        "director": {"officiate"},
        "scorer": {"officiate"},
        "appeals": {"appeals"},
        "player": set(),
        "new_director": set(),
        "new_appeals_member": set(),
    }
    # The chief director is also offered the locked-out logins (unlock_logins); a director is not.
    client.force_login(people.chief)
    assert 'id="locked-logins-link"' in client.get("/").content.decode()
    client.force_login(people.director)
    assert 'id="locked-logins-link"' not in client.get("/").content.decode()
