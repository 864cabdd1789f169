"""docs/architecture.md stays true (issue #38): every dotted name its "Where is the rule for..."
table gives is importable, every file it names exists, and each state diagram is its table's."""

import importlib
import re
from pathlib import Path

import pytest

from appeals.lifecycle import DEPOSIT_STATES
from national.lifecycle import CASEBOOK, PLAYER_MATCH, PRINT, PUSH
from rulings.lifecycle import RULING, SCORE_CHECK

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text()
PACKAGES = ("bridge", "core", "audit", "scoring", "rulings", "appeals", "national", "config")
DOTTED = re.compile(r"^[a-z_]+(\.[A-Za-z_]+)+$")


def rule_table():
    """{question: [each `name` of its answer]} from the section "Where is the rule for..."."""
    section = DOC.split("## Where is the rule for...", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("question", "---"):
            rows[cells[0]] = re.findall(r"`([^`]+)`", cells[1])
    return rows


def resolve(name):
    """The object ``name`` names: a module, or a name inside one (a class's attribute too)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in parts[cut:]:
            found = getattr(found, part)
        return found
    raise ModuleNotFoundError(name)


def test_the_rule_table_has_its_rows():
    rows = rule_table()
    assert len(rows) >= 20
    assert all(rows.values()), [question for question, names in rows.items() if not names]


@pytest.mark.parametrize(
    "name",
    sorted(
        {
            name
            for names in rule_table().values()
            for name in names
            if DOTTED.match(name) and name.split(".")[0] in PACKAGES
        }
    ),
)
def test_every_dotted_name_of_the_rule_table_is_importable(name):
    assert resolve(name) is not None


def test_every_file_of_the_rule_table_exists():
    files = [name for names in rule_table().values() for name in names if "/" in name or name.endswith(".toml")]
    assert files
    assert [name for name in files if not (ROOT / name).exists()] == []


def test_the_appeal_period_is_found_where_it_is_computed():
    [names] = [
        names for question, names in rule_table().items() if question.startswith("the appeal and correction periods")
    ]
    assert names[0] == "scoring.deadlines.deadline"
    assert "scoring.deadlines.check_in_period" in names


@pytest.mark.parametrize(
    "table", [RULING, SCORE_CHECK, DEPOSIT_STATES, CASEBOOK, PRINT, PUSH, PLAYER_MATCH], ids=lambda table: table.name
)
def test_each_state_diagram_is_drawn_from_its_table(table):
    drawn = DOC.split("<!-- state tables: begin -->", 1)[1].split("<!-- state tables: end -->", 1)[0]
    assert f"```mermaid\n{table.mermaid()}\n```" in drawn
