"""The policy's table (core/policy.py) and its copy for readers (docs/architecture.md, "Who sees
what") say the same: every action, its step and who may take it."""

import re
from pathlib import Path

from core import policy

WORDS = {
    "director": policy.DIRECTOR,
    "chief director": policy.CHIEF_DIRECTOR,
    "scorer": policy.SCORER,
    "appeals member": policy.APPEALS_MEMBER,
    "auditor": policy.AUDITOR,
    "entrant": policy.ENTRANT,
    "at the table": policy.AT_TABLE,
    "captain": policy.CAPTAIN,
    "sitting member": policy.SITTING,
}


def documented():
    text = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text()
    rows = {}
    for action, step, who, superuser in re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \| (yes|no) \|$", text, re.M):
        who = re.sub(r" \(and the `\w+` group\)", "", who.strip())
        people = set() if who == "-" else {WORDS[word.strip()] for word in who.split(",")}
        rows[action] = (step.strip(), frozenset(people), superuser == "yes")
    return rows


def test_the_architecture_page_shows_the_policy_table_as_it_is():
    assert documented() == {action: (rule.what, rule.who, rule.superuser) for action, rule in policy.TABLE.items()}


def test_an_unknown_action_is_an_error_not_a_refusal():
    import pytest

    with pytest.raises(LookupError, match="add it to core.policy.TABLE"):
        policy.may(None, "no_such_step", None)


def test_each_step_of_the_appeal_table_names_an_action_of_the_policy():
    from appeals import lifecycle

    rules = [rule for machine in (lifecycle.APPEAL, lifecycle.FURTHER) for rule in machine.rules.values()]
    assert rules and all(rule.action in policy.TABLE for rule in rules)
