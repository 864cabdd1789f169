"""Who a contestant is, as scoring programs number them (issue #29): a Mitchell's N-S pair 1 and
E-W pair 1 are two pairs; sections that each start at 1 (ACBL's A, B, ...) keep their letters;
pairs numbered across sections and a Howell's pairs are their numbers alone."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from bridge.interchange import ResultIn, SessionFile, identify
from core import policy
from scoring import recalculation, services
from scoring.importers.session_import import ImportRefused, import_file
from scoring.models import Contestant, Event, Result, Standing

pytestmark = pytest.mark.django_db
DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
COLUMNS = "Section\\1R;Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"


def pbn(rows, names=""):
    """Two boards, one ScoreTable each; ``rows`` per board: (section, table, ns, ew, contract, declarer, tricks)."""
    games = ['% PBN 2.1\n[Event "Club game"]\n[Scoring "MP"]\n']
    if names:
        games.append(f'[TotalScoreTable "Section\\1R;PairId\\2R;Direction\\2L;Names\\20L"]\n{names}\n')
    for board, lines in rows.items():
        body = "\n".join(" ".join(map(str, line)) for line in lines)
        games.append(
            f'[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n[ScoreTable "{COLUMNS}"]\n{body}\n'
        )
    return "\n".join(games).encode()


# A Mitchell of three tables: N-S pairs 1-3 stay, E-W pairs 1-3 move; table 1 round 1 is N-S 1
# against E-W 1. Board 1: +420, +450, -50; board 2: -110, +50, 0 (N-S).
MITCHELL = {
    1: [("A", 1, 1, 1, 1, "4S", "N", 10), ("A", 2, 1, 2, 2, "4S", "N", 11), ("A", 3, 1, 3, 3, "4S", "N", 9)],
    2: [("A", 1, 1, 1, 1, "2H", "E", 8), ("A", 2, 1, 2, 2, "1NT", "N", 7), ("A", 3, 1, 3, 3, "Pass", "-", "-")],
}


@pytest.fixture
def pairs(record):
    return services.create_event(
        tournament=record.tournament, name="Club Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )


def test_a_mitchell_pair_1_at_n_s_and_pair_1_at_e_w_are_two_pairs(pairs):
    summary = import_file(event=pairs, data=pbn(MITCHELL))
    assert (summary.boards, summary.results) == (2, 6)
    assert [str(i) for i in summary.contestants_created] == ["1 N-S", "1 E-W", "2 N-S", "2 E-W", "3 N-S", "3 E-W"]
    labels = [c.label for c in Contestant.objects.filter(event=pairs)]
    assert labels == ["1 N-S", "1 E-W", "2 N-S", "2 E-W", "3 N-S", "3 E-W"]
    first = Result.objects.get(board__number=1, table__number=1)
    assert (first.ns.label, first.ew.label, first.score_ns) == ("1 N-S", "1 E-W", 420)
    recalculation.rescore_everything(pairs)
    # N-S on board 1: 420, 450, -50 -> 2, 4, 0 matchpoints on a top of 4.
    points = [r.board_score.ns for r in Result.objects.filter(board__number=1).order_by("table__number")]
    assert points == [Decimal(2), Decimal(4), Decimal(0)]
    # Each direction is its own field in the standings, as the programs rank a Mitchell.
    fields = {s.contestant.label: s.field for s in Standing.objects.filter(event=pairs, session=None)}
    assert fields["1 N-S"] == "NS" and fields["1 E-W"] == "EW"


def test_the_same_mitchell_file_twice_is_already_imported(pairs):
    import_file(event=pairs, data=pbn(MITCHELL))
    with pytest.raises(ImportRefused) as caught:
        import_file(event=pairs, data=pbn(MITCHELL))
    assert caught.value.refusals == [
        "This file is already imported: Session 1 of Club Pairs holds the same boards and results."
    ]


def test_a_second_session_finds_the_mitchell_pairs_of_the_first(pairs):
    import_file(event=pairs, data=pbn(MITCHELL))
    second = {b + 2: rows for b, rows in MITCHELL.items()}
    summary = import_file(event=pairs, data=pbn(second))
    assert summary.contestants_created == [] and Contestant.objects.filter(event=pairs).count() == 6


def test_acbl_sections_that_each_start_at_1_keep_their_letters(pairs):
    rows = {b: lines + [("B",) + line[1:] for line in lines] for b, lines in MITCHELL.items()}
    names = 'A 1 NS "Ann - Bob"\nA 1 EW "Cy - Di"\nB 1 NS "Ed - Flo"'
    summary = import_file(event=pairs, data=pbn(rows, names))
    assert summary.results == 12
    by_label = {c.label: c.name for c in Contestant.objects.filter(event=pairs)}
    assert sorted(by_label) == [
        "A1 E-W",
        "A1 N-S",
        "A2 E-W",
        "A2 N-S",
        "A3 E-W",
        "A3 N-S",
        "B1 E-W",
        "B1 N-S",
        "B2 E-W",
        "B2 N-S",
        "B3 E-W",
        "B3 N-S",
    ]
    assert (by_label["A1 N-S"], by_label["A1 E-W"], by_label["B1 N-S"], by_label["B1 E-W"]) == (
        "Ann - Bob",
        "Cy - Di",
        "Ed - Flo",
        "",
    )
    result = Result.objects.get(board__number=1, table__number=1, table__section__name="B")
    assert (result.ns.label, result.ew.label) == ("B1 N-S", "B1 E-W")


def test_pairs_numbered_across_sections_keep_their_numbers_alone(pairs):
    # A Howell-like numbering: section A pairs 1-6, section B pairs 7-12, nobody at both sides of a board.
    rows = {
        1: [
            ("A", 1, 1, 1, 4, "4S", "N", 10),
            ("A", 2, 1, 2, 5, "4S", "N", 10),
            ("B", 1, 1, 7, 10, "4S", "N", 9),
            ("B", 2, 1, 8, 11, "4S", "N", 11),
        ],
    }
    import_file(event=pairs, data=pbn(rows))
    assert [c.label for c in Contestant.objects.filter(event=pairs)] == ["1", "2", "4", "5", "7", "8", "10", "11"]


def test_a_howell_pair_is_one_contestant_on_either_side(pairs):
    rows = {
        1: [("A", 1, 1, 1, 2, "4S", "N", 10), ("A", 2, 1, 3, 4, "4S", "N", 10)],
        2: [("A", 1, 2, 2, 3, "3NT", "N", 9), ("A", 2, 2, 4, 1, "3NT", "N", 9)],
    }
    import_file(event=pairs, data=pbn(rows))
    assert [c.label for c in Contestant.objects.filter(event=pairs)] == ["1", "2", "3", "4"]
    one = Contestant.objects.get(event=pairs, number=1)
    assert one.results_as_ns.count() == 1 and one.results_as_ew.count() == 1


def test_one_contestant_per_section_direction_and_number(pairs):
    services.enter_contestant(event=pairs, number=1, direction="NS", members=[], by=policy.SYSTEM)
    services.enter_contestant(event=pairs, number=1, direction="EW", members=[], by=policy.SYSTEM)
    services.enter_contestant(event=pairs, number=1, section="B", direction="NS", members=[], by=policy.SYSTEM)
    with pytest.raises(ValidationError, match="Section, Direction and Number already exists"):
        services.enter_contestant(event=pairs, number=1, direction="NS", members=[], by=policy.SYSTEM)
    with pytest.raises(IntegrityError), transaction.atomic():
        Contestant.objects.create(event=pairs, kind="pair", number=1, direction="NS")
    with pytest.raises(IntegrityError), transaction.atomic():
        Contestant.objects.create(event=pairs, kind="pair", number=2, direction="NW")


def test_identify_reads_the_movement_from_the_results():
    def session(*rows, mitchell=()):
        file = SessionFile(format="PBN", mitchell=set(mitchell))
        file.results = [ResultIn(board=b, line=1, section=s, ns=ns, ew=ew) for s, b, ns, ew in rows]
        identify(file)
        return [(str(r.ns_id), str(r.ew_id)) for r in file.results]

    # A Howell: nobody on both sides of one board.
    assert session(("", 1, 1, 2), ("", 2, 2, 1)) == [("1", "2"), ("2", "1")]
    # One number at both sides of a board: a Mitchell.
    assert session(("", 1, 1, 2), ("", 1, 2, 3)) == [("1 N-S", "2 E-W"), ("2 N-S", "3 E-W")]
    # The file says so (an ACBLscore total table with directions).
    assert session(("", 1, 1, 2), mitchell=[""]) == [("1 N-S", "2 E-W")]
    # Two sections that both have a pair 1: letters kept; a Mitchell section beside a Howell one.
    assert session(("A", 1, 1, 1), ("B", 1, 1, 2)) == [("A1 N-S", "A1 E-W"), ("B1", "B2")]
