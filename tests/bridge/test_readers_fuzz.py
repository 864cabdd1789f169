"""Every reader of what a director pastes or a program sends refuses bad input with its own
error (a MessageError naming the field and the reason), never another exception: LIN strings
and links, auctions and calls, cards, deals, contracts and the engine's JSON. Valid inputs
mutated at random and plain random text. Bounded in ``make test``; ``make fuzz`` runs many more
examples (tests/fuzz.py)."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.auction import parse_card
from bridge.deals import normalise_call, parse_deal, parse_seat, parse_vulnerability, validate_auction
from bridge.engine.__main__ import run
from bridge.engine.contract import contract_score, parse_contract
from bridge.engine.scores import EngineInputError
from bridge.lin import parse_lin
from bridge.messages import MessageError
from tests.fuzz import fuzz

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LIN_SEEDS = [path.read_text(encoding="utf-8").strip() for path in sorted((FIXTURES / "lin").iterdir())]
DEAL_SEEDS = [
    "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    "E:- - - -",
    "S:AK.Q.J.T - - -",
]
ENGINE_SEEDS = [
    '{"kind": "contract", "contract": "4SX", "declarer": "N", "tricks": 10, "board": 7}',
    '{"kind": "matchpoints", "results": [{"ns": 420}, {"ns": 400}, {"ns": "AVE+"}, {"ns": -50}]}',
    '{"kind": "imps", "difference": 430}',
    '{"kind": "vp", "imps": 23, "boards": 16, "scale": "wbf2013"}',
]
TOKENS = ["|", "||", ",", "md", "mb", "pc", "mc", "sv", "ah", "an", "pn", "lin=", "%7C", "%", "?", "&", "=", "]",
          "[", "http://", "https://", "!", "1", "4", "7", "8", "14", "13", "-1", "NT", "N", "X", "XX", "P", "D", "R",
          "S", "H", "C", "A", "K", "T", "10", "\n", " ", ".", ":", "\x00", "\ufeff", "é", "{", "}", '"', "null",
          "[]", "{}", "1e999", "NaN", "-0", "true"]  # fmt: skip


def refused_cleanly(read, *args):
    try:
        read(*args)
    except MessageError:
        pass  # its own refusal, naming the field and the reason


@st.composite
def mutated(draw, seeds):
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "cut", "repeat"]))
        if action == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS) | st.text(min_size=1, max_size=3)) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif action == "replace" and at < len(text):
            text = text[:at] + draw(st.characters()) + text[at + 1 :]
        elif action == "cut":
            text = text[:at]
        else:
            text = text[:at] + text[at : at + draw(st.integers(1, 30))] + text[at:]
    return text


def some_text():
    return st.text(max_size=40) | st.lists(st.sampled_from(TOKENS), max_size=12).map("".join)


@fuzz(200)
@given(mutated(LIN_SEEDS))
def test_mutated_lin_is_read_or_refused_cleanly(text):
    refused_cleanly(parse_lin, text)


@fuzz(100)
@given(some_text())
def test_any_text_or_link_as_lin_is_read_or_refused_cleanly(text):
    refused_cleanly(parse_lin, text)
    refused_cleanly(parse_lin, "http://" + text)
    refused_cleanly(parse_lin, "https://www.bridgebase.com/tools/handviewer.html?lin=" + text)


@fuzz(150)
@given(
    st.text(max_size=3),
    st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=20),
    st.booleans(),
)
def test_auctions_and_calls_are_read_or_refused_cleanly(dealer, calls, complete):
    refused_cleanly(parse_seat, dealer)
    for call in calls:
        refused_cleanly(normalise_call, call)
        refused_cleanly(parse_card, call)
    refused_cleanly(validate_auction, dealer, calls, complete)
    refused_cleanly(validate_auction, "N", calls, complete)


@fuzz(150)
@given(mutated(DEAL_SEEDS) | some_text(), st.booleans())
def test_deals_are_read_or_refused_cleanly(text, partial):
    refused_cleanly(parse_deal, text, partial)
    refused_cleanly(parse_vulnerability, text)


@fuzz(150)
@given(some_text(), st.integers(-20, 30) | st.none(), st.booleans())
def test_contracts_are_read_or_refused_cleanly(text, tricks, vulnerable):
    try:
        contract = parse_contract(text)
    except MessageError:
        return
    refused_cleanly(contract_score, contract, tricks, vulnerable)


def json_values():
    leaves = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats() | st.text(max_size=8)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )


@st.composite
def engine_documents(draw):
    document = json.loads(draw(st.sampled_from(ENGINE_SEEDS)))
    for key in draw(st.lists(st.sampled_from([*document, "kind", "results", "boards", "scale"]), max_size=3)):
        document[key] = draw(json_values())
    return json.dumps(document)


@fuzz(150)
@given(engine_documents() | mutated(ENGINE_SEEDS))
def test_engine_json_is_scored_or_refused_cleanly(text):
    refused_cleanly(run, text)


@pytest.mark.parametrize(
    ("document", "refusal"),
    [
        ('{"kind": ["vp"]}', "input, kind: ['vp'] is not one of matchpoints, "),
        (
            '{"kind": "contract", "contract": null, "declarer": "N", "tricks": 10, "vulnerability": "None"}',
            'input, contract: null is not a contract: write it as text, e.g. "4S"',
        ),
        (
            '{"kind": "contract", "contract": 4.5, "declarer": "N", "tricks": 10, "vulnerability": "None"}',
            'input, contract: 4.5 is not a contract: write it as text, e.g. "4S"',
        ),
        (
            '{"kind": "matchpoints", "results": [{"ns": 420}, {"ns": 400}], "scale": ["2/1"]}',
            "board, scale: ['2/1'] is not one of 2/1, 1/half",
        ),
    ],
)
def test_engine_fields_of_another_json_type_are_refused_naming_the_field(document, refusal):
    """Found by the fuzz test: each was a TypeError or AttributeError."""
    with pytest.raises(EngineInputError) as error:
        run(document)
    assert str(error.value).startswith(refusal)
