"""``bridge`` is the game with no Django: every module imports in a fresh interpreter with no
settings, and a scorer outside the web app can use the engine (``python -m bridge.engine``, and
the older ``python -m scoring.engine``)."""

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import bridge

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(bridge.__path__, "bridge.") if not info.name.endswith("__main__")
)
BOARD = {"kind": "matchpoints", "results": [{"id": "A", "ns": 420}, {"id": "B", "ns": 450}, {"id": "C", "ns": 420}]}


def _python(*args, stdin=None):
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )


def test_every_module_imports_without_django():
    assert {
        "bridge.deals",
        "bridge.pbn",
        "bridge.lin",
        "bridge.auction",
        "bridge.diagrams",
        "bridge.engine.matchpoints",
    } <= set(MODULES)
    script = (
        f"import importlib, sys\nfor name in {MODULES!r}:\n    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    completed = _python("-c", script)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "[]"


def test_scoring_engine_is_an_alias_of_bridge_engine():
    outputs = []
    for module in ("bridge.engine", "scoring.engine"):
        completed = _python("-m", module, stdin=json.dumps(BOARD))
        assert completed.returncode == 0, completed.stderr
        outputs.append(json.loads(completed.stdout))
    assert outputs[0] == outputs[1]
    assert {row["id"]: row["ns"] for row in outputs[0]["results"]} == {"A": "1", "B": "4", "C": "1"}
