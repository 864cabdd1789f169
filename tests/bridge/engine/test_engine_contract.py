"""Law 77 contract scores: the checks of the domain notes, and refused input."""

import pytest

from bridge.engine.contract import (
    Contract,
    ContractError,
    board_dealer,
    board_vulnerability,
    contract_score,
    ns_score,
    parse_contract,
    vulnerable_for,
)


@pytest.mark.parametrize(
    "contract, tricks, vulnerable, score",
    [
        ("2H", 8, True, 110),  # 2H= vul
        ("2HX", 8, False, 470),  # 2Hx= not vul: 120 doubled makes game
        ("4DX", 7, True, -800),  # 4Dx-3 vul: 200 + 300 + 300
        ("4DXX", 7, False, -1000),  # 4Dxx-3 not vul: (100 + 200 + 200) x 2
        ("5SXX", 12, True, 1600),  # 5Sxx+1 vul: 600 + 500 + 100 + 400
        ("7S", 13, True, 2210),  # 7S= vul
        ("3NT", 11, True, 660),  # 3NT+2 vul
        ("6NT", 13, False, 1020),  # 6NT+1 not vul
        ("3NT", 8, True, -100),
        ("3NT", 9, True, 600),
        ("3NT", 10, True, 630),
    ],
)
def test_domain_checks(contract, tricks, vulnerable, score):
    assert contract_score(contract, tricks, vulnerable) == score


@pytest.mark.parametrize(
    "contract, tricks, vulnerable, score",
    [
        ("1C", 7, False, 70),  # part-score: 20 + 50
        ("1NT", 7, False, 90),  # 40 + 50
        ("2NT", 8, False, 120),  # 70 + 50
        ("3NT", 9, False, 400),  # 100 + 300
        ("4S", 10, False, 420),
        ("4S", 10, True, 620),
        ("5C", 11, True, 600),
        ("6H", 12, False, 980),  # 180 + 300 + 500
        ("7NT", 13, True, 2220),  # 220 + 500 + 1500
        ("1CX", 7, False, 140),  # 40 + 50 + 50 insult
        ("1CXX", 7, False, 230),  # 80 + 50 + 100
        ("1NTXX", 7, True, 760),  # 160 makes game: 160 + 500 + 100
        ("4SX", 11, True, 990),  # 240 + 500 + 50 + 200
        ("4SX", 11, False, 690),  # 240 + 300 + 50 + 100
        ("4S", 13, False, 510),  # overtricks at trick value
        ("3NT", 6, False, -150),
        ("3NTX", 6, False, -500),  # 100 + 200 + 200
        ("3NTX", 5, False, -800),  # + 300
        ("3NTXX", 5, True, -2200),  # (200 + 300 x 3) x 2
        ("7NTXX", 0, True, -7600),  # 13 down: (200 + 300 x 12) x 2
        ("7NTX", 0, False, -3500),  # 100 + 200 + 200 + 300 x 10
    ],
)
def test_hand_worked(contract, tricks, vulnerable, score):
    assert contract_score(contract, tricks, vulnerable) == score


def test_passed_out_scores_zero():
    assert contract_score("PASS", 0, True) == 0
    assert ns_score("Pass", None, None, "All") == 0
    assert parse_contract("passed out").passed_out


def test_parse_contract_forms():
    assert parse_contract("3ntx") == Contract(3, "NT", 1)
    assert parse_contract("4N") == Contract(4, "NT", 0)
    assert parse_contract(" 6h** ") == Contract(6, "H", 2)
    assert str(parse_contract("7nTxx")) == "7NTXX"


def test_ns_score_follows_declarer_and_board_vulnerability():
    assert ns_score("4S", "N", 10, "NS") == 620
    assert ns_score("4S", "E", 10, "NS") == -420
    assert ns_score("4S", "W", 9, "EW") == 100
    assert ns_score("3NT", "S", 9, board_vulnerability(4)) == 600


def test_board_cycle():
    assert [board_dealer(n) for n in (1, 2, 3, 4, 5, 17)] == ["N", "E", "S", "W", "N", "N"]
    assert [board_vulnerability(n) for n in range(1, 17)] == [
        "None",
        "NS",
        "EW",
        "All",
        "NS",
        "EW",
        "All",
        "None",
        "EW",
        "All",
        "None",
        "NS",
        "All",
        "None",
        "NS",
        "EW",
    ]
    assert board_vulnerability(17) == "None"
    assert vulnerable_for("E", "All") and not vulnerable_for("E", "NS")


def test_level_eight_is_refused():
    with pytest.raises(ContractError) as error:
        parse_contract("8NT")
    assert error.value.field == "contract"
    assert "level 8" in error.value.message


@pytest.mark.parametrize("text", ["", "4", "NT", "4Z", "4SXXX", "0S", "10H"])
def test_malformed_contracts(text):
    with pytest.raises(ContractError) as error:
        parse_contract(text)
    assert error.value.field == "contract"


@pytest.mark.parametrize("tricks", [14, -1, "10", 9.5, True, None])
def test_impossible_tricks(tricks):
    with pytest.raises(ContractError) as error:
        contract_score("4S", tricks, False)
    assert error.value.field == "tricks"
    assert str(error.value).startswith("tricks: ")


@pytest.mark.parametrize("declarer", ["X", "", None, "NS", "n"])
def test_bad_declarer(declarer):
    with pytest.raises(ContractError) as error:
        ns_score("4S", declarer, 10, "None")
    assert error.value.field == "declarer"


def test_bad_vulnerability_and_board():
    with pytest.raises(ContractError) as error:
        ns_score("4S", "N", 10, "Both")
    assert error.value.field == "vulnerability"
    with pytest.raises(ContractError):
        board_vulnerability(0)


def test_the_possible_scores_of_a_vulnerability_are_every_contracts_and_only_those():
    from bridge.engine.contract import possible_ns_scores

    none, ns = possible_ns_scores("None"), possible_ns_scores("NS")
    assert {420, 450, 400, -50, 690, 0, 1520, 7000, -7000} <= none  # 7NTXX-13 not vulnerable: 7000
    assert 620 not in none and 425 not in none and all(score % 10 == 0 for score in none)
    assert {620, 600, 630, -100, 50} <= ns and -50 not in ns and 430 not in ns
    assert possible_ns_scores("EW") == {-score for score in ns}
