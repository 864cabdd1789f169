"""The examples in docs/scoring.md give the outputs shown there."""

import json
import re
from pathlib import Path

import pytest

from bridge.engine.__main__ import run
from bridge.engine.scores import EngineInputError

DOC = (Path(__file__).resolve().parents[3] / "docs" / "scoring.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(
    r"```sh\npython -m bridge\.engine <<'EOF'\n(?P<input>.*?)\nEOF\n```\n\n"
    r"(?:```json\n(?P<output>.*?)\n```|prints `(?P<error>[^`]*)`)",
    re.S,
)
EXAMPLES = list(EXAMPLE.finditer(DOC))


def test_the_doc_has_examples():
    assert len(EXAMPLES) >= 9


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda m: json.loads(m["input"])["kind"])
def test_doc_example(example):
    if example["error"]:
        with pytest.raises(EngineInputError) as error:
            run(example["input"])
        assert f"error: {error.value}" == example["error"]
    else:
        assert run(example["input"]) == json.loads(example["output"])
