"""Files in the forms the scoring programs write them, scored as the program scored them (issue #40):
the same pairs, the same field and the same standings as the file prints. Each file is read for
the comparison by a plain reading of its tags and tables here, not with the importer's reader.

The files under tests/fixtures/programs were built for these tests in each program's form (no
file of these programs with a licence that allows redistribution was found in a public
repository); tests/fixtures/ORIGINS says what each stands for."""

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from scoring import recalculation, services
from scoring.importers.session_import import ImportRefused, import_file
from scoring.models import Contestant, Event, Result, Standing

pytestmark = pytest.mark.django_db
PROGRAMS = Path(__file__).resolve().parent.parent / "fixtures" / "programs"


def tables(text, name):
    """Each ``[name "columns"]`` table of a PBN text as a list of rows (column -> value)."""
    found = []
    for match in re.finditer(rf'^\[{name} "([^"]*)"\]\n((?:[^\[\n].*\n?)*)', text, re.M):
        columns = [c.split("\\")[0] for c in match.group(1).split(";")]
        rows = [
            dict(zip(columns, re.findall(r'"[^"]*"|\S+', line), strict=True)) for line in match.group(2).splitlines()
        ]
        found.append([{k: v.strip('"') for k, v in row.items()} for row in rows if row])
    return found


def cents(value):
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_a_ruter_howell_pair_that_sits_both_ways_is_one_pair_ranked_in_one_list(record):
    # Ruter writes where each pair sat first in a Direction column (E-W as the Scandinavian Ö-V);
    # the movement is a Howell: every pair sits N-S on some boards and E-W on others.
    text = (PROGRAMS / "ruter_howell.pbn").read_text(encoding="utf-8")
    (totals,) = tables(text, "TotalScoreTable")
    event = services.create_event(tournament=record.tournament, name="Klubbkveld", kind=Event.Kind.MP_PAIRS)
    summary = import_file(event=event, data=text.encode())
    assert [str(i) for i in summary.contestants_created] == ["1", "2", "3", "4"]
    named = {c.number: (c.direction, c.name) for c in Contestant.objects.filter(event=event)}
    assert named == {int(row["PairId"]): ("", row["Names"]) for row in totals}
    recalculation.rescore_everything(event)
    for board, rows in enumerate(tables(text, "ScoreTable"), 1):
        for row in rows:
            result = Result.objects.get(board__number=board, table__number=int(row["Table"]))
            score = result.board_score
            assert (result.ns.number, result.ew.number) == (int(row["PairId_NS"]), int(row["PairId_EW"]))
            assert (score.ns, score.ew) == (Decimal(row["MP_NS"]), Decimal(row["MP_EW"]))
    standings = {s.contestant.number: s for s in Standing.objects.filter(event=event, session=None)}
    printed = {
        int(row["PairId"]): (Decimal(row["TotalScoreMP"]), Decimal(row["TotalPercentage"]), int(row["Rank"]))
        for row in totals
    }
    ours = {
        number: (s.total.quantize(Decimal("0.1")), cents(s.percent), int(s.place.rstrip("=")))
        for number, s in standings.items()
    }
    assert ours == printed
    assert {s.field for s in standings.values()} == {""}  # one list, as Ruter ranks a Howell


@pytest.mark.parametrize(("ns", "ew"), [("N-S", "Ö-V"), ("NS", "ØV"), ("N/S", "O-W"), ("NZ", "OW"), ("N-S", "E-O")])
def test_a_mitchell_listed_in_both_directions_names_each_pair_however_the_program_spells_them(record, ns, ew):
    # Pair 1 is listed twice, N-S and E-W: two pairs, each named from its own row.
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    text = (
        '[Scoring "MP"]\n[TotalScoreTable "PairId\\2R;Direction\\3L;Names\\20L"]\n'
        f'1 {ns} "Ann - Bob"\n2 {ns} "Cy - Di"\n1 {ew} "Ed - Flo"\n2 {ew} "Gus - Hal"\n\n'
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
        "1 1 1 4S N 10\n2 2 2 4S N 9\n"
    )
    event = services.create_event(tournament=record.tournament, name="Mitchell", kind=Event.Kind.MP_PAIRS)
    import_file(event=event, data=text.encode())
    named = {c.label: c.name for c in Contestant.objects.filter(event=event)}
    assert named == {"1 N-S": "Ann - Bob", "2 N-S": "Cy - Di", "1 E-W": "Ed - Flo", "2 E-W": "Gus - Hal"}


def ruter_imps(scoring, generator='% <META name=Generator content="Ruter 2.0">\n'):
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    return (
        f'% PBN 2.1\n{generator}[Scoring "{scoring}"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        f'[Deal "{deal}"]\n'
        '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
        "1 1 2 4S N 10\n2 3 4 4S N 9\n3 5 6 3S N 9\n4 7 8 3S N 9\n"
    ).encode()


def test_ruters_cross2_is_read_as_cross_imps_and_refused_by_a_butler_event(record):
    butler = services.create_event(tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER)
    with pytest.raises(ImportRefused) as caught:
        import_file(event=butler, data=ruter_imps("IMP;Cross2"))
    assert caught.value.refusals == [
        "line 3: Scoring: the file is scored in cross-IMPs, but Butler is IMP pairs (Butler): import it into an event "
        "scored that way, or have the program export it as such."
    ]


def test_ruter_named_in_its_meta_generator_comment_is_known_by_its_butler_rounding(record):
    butler = services.create_event(tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER)
    summary = import_file(event=butler, data=ruter_imps("IMP;Butler-2"), dry_run=True)
    assert [w for w in summary.warnings if w.startswith("Generator:")] == [
        "Generator: Ruter 2.0 rounds a Butler datum ending in 5 half away from zero; the regulations here round it "
        "half up (the setting butler_rounding): on a board whose datum ends in 5 the IMPs may differ from the "
        "program's. Set butler_rounding to half-away to score as the program did."
    ]
