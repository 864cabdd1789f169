"""A two-section USEBIO file (each section its own pairs 1-4 and boards 1-2, in EVENT / SESSION /
SECTION as the programs nest them) is read whole, and a two-section session exported as USEBIO
writes a SECTION each, so it reads back with the same pairs and results (issue #40). Before, the
file was refused "board 1 is given twice" and the export's tables of the two sections collided."""

import xml.etree.ElementTree as ElementTree

import pytest

from bridge.usebio import parse_usebio
from core import policy
from scoring import recalculation, services
from scoring.importers.export import session_usebio
from scoring.importers.session_import import import_file
from scoring.models import Contestant, Event, Result

pytestmark = pytest.mark.django_db


def line(table, ns, ew, contract, by, tricks, score):
    return (
        f"<TRAVELLER_LINE><TABLE>{table}</TABLE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>"
        f"<EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER><CONTRACT>{contract}</CONTRACT><PLAYED_BY>{by}</PLAYED_BY>"
        f"<TRICKS>{tricks}</TRICKS><SCORE>{score}</SCORE></TRAVELLER_LINE>"
    )


def pair(number, names):
    players = "".join(f"<PLAYER><PLAYER_NAME>{name}</PLAYER_NAME></PLAYER>" for name in names.split(" - "))
    return f"<PAIR><PAIR_NUMBER>{number}</PAIR_NUMBER>{players}</PAIR>"


SECTIONS = {
    "A": (
        ["Ann - Bob", "Cy - Di", "Ed - Flo", "Gus - Hal"],
        {1: [(1, 1, 2, "4S", "N", 10, 420), (2, 3, 4, "4S", "N", 9, -50)], 2: [(1, 1, 2, "3NT", "S", 9, 600)]},
    ),
    "B": (
        ["Ida - Jo", "Kim - Lou", "Max - Ned", "Olga - Pat"],
        {1: [(1, 1, 2, "3S", "N", 9, 140), (2, 3, 4, "4S", "N", 10, 420)], 2: [(1, 3, 4, "2H", "E", 8, -110)]},
    ),
}


def two_sections():
    sections = []
    for name, (pairs, boards) in SECTIONS.items():
        listed = "".join(pair(n, names) for n, names in enumerate(pairs, 1))
        travellers = "".join(
            f"<BOARD><BOARD_NUMBER>{number}</BOARD_NUMBER>{''.join(line(*row) for row in rows)}</BOARD>"
            for number, rows in boards.items()
        )
        sections.append(
            f'<SECTION SECTION_ID="{name}"><PARTICIPANTS EVENT_TYPE="MP_PAIRS">{listed}</PARTICIPANTS>{travellers}</SECTION>'
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">'
        "<PROGRAM_NAME>EBUScore</PROGRAM_NAME><BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>"
        f"<SESSION>{''.join(sections)}</SESSION></EVENT></USEBIO>"
    ).encode()


def recorded(event):
    """{(section, table, board): (N-S label, E-W label, contract, N-S score)} and {label: name}."""
    results = {
        (r.table.section.name, r.table.number, r.board.number): (r.ns.label, r.ew.label, r.contract, r.score_ns)
        for r in Result.objects.filter(board__session__event=event).select_related(
            "table__section", "board", "ns", "ew"
        )
    }
    return results, {c.label: c.name for c in Contestant.objects.filter(event=event)}


def expected():
    results = {
        (section, table, board): (f"{section}{ns}", f"{section}{ew}", contract, score)
        for section, (_pairs, boards) in SECTIONS.items()
        for board, rows in boards.items()
        for table, ns, ew, contract, _by, _tricks, score in rows
    }
    names = {f"{section}{n}": name for section, (pairs, _b) in SECTIONS.items() for n, name in enumerate(pairs, 1)}
    return results, names


def test_two_sections_with_their_own_boards_and_pairs_are_read_whole(record):
    parsed = parse_usebio(two_sections())
    assert sorted((b.section, b.number) for b in parsed.boards) == [("A", 1), ("A", 2), ("B", 1), ("B", 2)]
    event = services.create_event(
        tournament=record.tournament, name="Two sections", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=two_sections())
    assert len(summary.contestants_created) == 8
    assert recorded(event) == expected()
    recalculation.rescore_everything(event)
    a1 = Result.objects.get(board__session__event=event, board__number=1, table__section__name="A", table__number=1)
    # The sections played the same boards: matchpointed across the field, +420 ties B's +420 and
    # beats +140 and -50: 1 + 2 + 2 of a top of 6.
    assert (a1.board_score.ns, a1.board_score.top) == (5, 6)


def test_a_two_section_session_exported_as_usebio_reads_back(record):
    event = services.create_event(
        tournament=record.tournament, name="Two sections", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    import_file(event=event, data=two_sections())
    recalculation.rescore_everything(event)
    exported = session_usebio(event.sessions.get())
    root = ElementTree.fromstring(exported.split(b"\n", 2)[2])
    assert [s.get("SECTION_ID") for s in root.iter("SECTION")] == ["A", "B"]
    assert [len(s.findall(".//PAIR")) for s in root.iter("SECTION")] == [4, 4]
    again = services.create_event(
        tournament=record.tournament, name="Read back", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    import_file(event=again, data=exported)
    assert recorded(again) == expected()
