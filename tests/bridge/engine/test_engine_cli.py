"""``python -m bridge.engine``: JSON in, JSON out, exit status 2 and a message on bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run(document):
    text = document if isinstance(document, str) else json.dumps(document)
    return subprocess.run(
        [sys.executable, "-m", "bridge.engine"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def ok(document):
    completed = run(document)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def refused(document):
    completed = run(document)
    assert completed.returncode == 2
    assert completed.stdout == ""
    return completed.stderr.strip()


def test_matchpoint_board_with_a_weighted_score():
    results = [{"id": name, "ns": points} for name, points in zip("ABCDEF", [450, 420, 420, 170, 140, -50])]
    results.append({"id": "X", "ns": [[420, 0.5], [450, "0.3"], [-50, "1/5"]]})
    out = ok({"kind": "matchpoints", "expected": 7, "scale": "2/1", "results": results})
    assert out["top"] == "12"
    by_id = {row["id"]: row for row in out["results"]}
    assert [by_id[k]["ns"] for k in "ABCDEFX"] == ["11.7", "7.9", "7.9", "4.4", "2.4", "0.2", "7.5"]
    assert by_id["X"]["ns_percent"] == "62.5"
    assert by_id["B"]["ns_percent"] == "395/6"
    assert by_id["B"]["display"] == {"ns": "7.9", "ns_percent": "65.83", "ew": "4.1", "ew_percent": "34.17"}


def test_fouled_board_groups_and_ebu_display():
    results = [{"id": f"a{k}", "ns": 700 - 100 * k, "group": "A"} for k in range(7)]
    results += [{"id": f"b{k}", "ns": 420 - 10 * k, "group": "B"} for k in range(3)]
    out = ok({"kind": "matchpoints", "expected": 10, "results": results})
    shown = [row["display"]["ns"] for row in out["results"][:7]]
    assert shown == ["17.6", "14.7", "11.9", "9.0", "6.1", "3.3", "0.4"]
    assert out["results"][0]["ns"] == "123/7"
    acbl = ok({"kind": "matchpoints", "expected": 10, "rounding": "acbl", "results": results})
    assert acbl["results"][0]["display"]["ns"] == "17.57"


def test_split_and_artificial_results():
    out = ok(
        {
            "kind": "matchpoints",
            "results": [
                {"id": 1, "ns": 450},
                {"id": 2, "ns": 420},
                {"id": 3, "ns": 420, "ew": 450},
                {"id": 4, "ns": "AVE+", "ew": "AVE-"},
            ],
        }
    )
    rows = {row["id"]: row for row in out["results"]}
    assert rows[4]["ns_percent"] == "60" and rows[4]["ew_percent"] == "40"
    # N-S: 3 real results scaled to 4; result 3 ties one +420: (1 + 1) x 4/3 - 1
    assert rows[3]["ns"] == "5/3" and rows[3]["display"]["ns"] == "1.7"
    assert rows[3]["ew"] == "5/3"  # E-W: +450 ties the other +450


def test_team_match():
    out = ok(
        {
            "kind": "team_match",
            "scale_boards": 16,
            "boards": [
                {"board": 1, "open": 420, "closed": 170},
                {"board": 2, "open": [[420, 0.6], [-50, 0.4]], "closed": 170},
                {"board": 3, "open": {"ns": 420, "ew": 450}, "closed": {"ns": 170}},
            ],
        }
    )
    assert [(b["home"], b["away"]) for b in out["boards"]] == [("6", "-6"), ("1.2", "-1.2"), ("6", "-7")]
    assert (out["home_imps"], out["away_imps"]) == ("13.2", "-14.2")
    assert out["vp_scale"] == "wbf2013-20" and out["scale_boards"] == 16
    knockout = ok({"kind": "team_match", "knockout": True, "boards": [{"open": {"ns": 420, "ew": 450}, "closed": 170}]})
    assert knockout["boards"][0] == {"board": 1, "home": "6.5", "away": "-6.5"}


def test_cross_imps_and_butler():
    out = ok({"kind": "cross_imps", "results": [{"id": i, "ns": p} for i, p in enumerate([620, 170, 140, 140, -100])]})
    assert [r["ns"] for r in out["results"]] == ["10.5", "-0.25", "-1.25", "-1.25", "-7.75"]
    assert out["results"][1]["display"]["ns"] == "-0.25"
    out = ok(
        {
            "kind": "butler",
            "drop": 1,
            "results": [{"id": i, "ns": p} for i, p in enumerate([-650, -170, -1440, 100, -170, -200])],
        }
    )
    assert out["datum"] == "-300"
    assert [r["ns"] for r in out["results"]] == ["-8", "4", "-15", "9", "4", "3"]


def test_imps_vp_session_and_contract():
    assert ok({"kind": "imps", "points": 420})["imps"] == 9
    assert ok({"kind": "imps", "points": -4000})["imps"] == -24
    vp = ok({"kind": "vp", "margin": 20, "boards": 16})
    assert (vp["home"], vp["away"]) == ("15.00", "5.00")
    assert ok({"kind": "vp", "margin": -40, "boards": 16})["away"] == "18.09"
    session = ok(
        {
            "kind": "session",
            "boards": [
                {"matchpoints": 10, "top": 12},
                {"matchpoints": 9, "top": 12},
                {"matchpoints": 11, "top": 12},
                {"matchpoints": "7.2", "top": 12, "kind": "AVE+"},
            ],
        }
    )
    assert session["boards"][3] == "10" and session["display"]["percent"] == "83.33"
    assert (
        ok({"kind": "contract", "contract": "4Dx", "declarer": "E", "tricks": 7, "vulnerability": "EW"})["ns_score"]
        == 800
    )
    assert ok({"kind": "contract", "contract": "3NT", "declarer": "N", "tricks": 9, "board": 2})["ns_score"] == 600


@pytest.mark.parametrize(
    "document, message",
    [
        ("{not json", "error: input: not JSON"),
        ("[1, 2]", 'error: input: give one JSON object with a "kind"'),
        ({"kind": "poker"}, "error: input, kind: 'poker' is not one of"),
        (
            {
                "kind": "matchpoints",
                "results": [
                    {"id": 1, "ns": 1},
                    {"id": 2, "ns": 2},
                    {"id": 3, "table": 7, "ns": [[420, 0.5], [450, 0.4]]},
                ],
            },
            "error: result 3 (table 7), ns: weights add up to 0.9, not 1",
        ),
        (
            {"kind": "matchpoints", "weight_decimals": 2, "results": [{"id": "X", "ns": [[420, 0.333], [450, 0.667]]}]},
            "error: result 1 (id X), ns: weight 0.333 has more than 2 decimals",
        ),
        ({"kind": "matchpoints", "results": [{"id": "Y", "ns": "AVE+"}]}, "error: result 1 (id Y), ew: missing"),
        (
            {"kind": "matchpoints", "expected": 1, "results": [{"id": 1, "ns": 1}, {"id": 2, "ns": 2}]},
            "error: board, expected: 1 results expected but the board has 2",
        ),
        (
            {"kind": "matchpoints", "results": [{"id": 1, "ns": 420, "ew": "AVE"}, {"id": 2, "ns": "4S"}]},
            "error: result 2 (id 2), ns: '4S' is not a score",
        ),
        ({"kind": "team_match", "boards": [{"board": 5, "open": 420}]}, "error: board 5, closed: missing"),
        (
            {"kind": "team_match", "boards": [{"board": 5, "open": {"ns": "60%", "ew": "40%"}, "closed": 1}]},
            "error: board 5 (open room), ns: 60% is a percentage",
        ),
        ({"kind": "vp", "margin": 20}, "error: input, boards: missing"),
        (
            {"kind": "contract", "contract": "8NT", "declarer": "N", "tricks": 9, "vulnerability": "NS"},
            "error: input, contract: '8NT' has level 8",
        ),
        (
            {"kind": "contract", "contract": "3NT", "declarer": "N", "tricks": 14, "vulnerability": "NS"},
            "error: input, tricks: 14 tricks",
        ),
        ('{"kind": "imps", "points": NaN}', "error: input: not JSON: NaN is not a number"),
    ],
)
def test_bad_input_is_refused(document, message):
    assert refused(document).startswith(message)
