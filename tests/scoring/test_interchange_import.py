"""Importing every form of results file into an event (scoring/importers/session_import.py):
the record written, the matchpoints and IMPs that follow, and every refusal, all or nothing."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from audit.models import AuditEntry
from core import policy
from scoring import recalculation, services
from scoring.importers.session_import import ImportRefused, import_file
from scoring.models import Board, Contestant, EffectiveScore, Event, MatchScore, RecalculationRequest, Result

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "interchange"
pytestmark = pytest.mark.django_db


def data(name):
    return (FIXTURES / name).read_bytes()


@pytest.fixture
def pairs(record):
    return services.create_event(
        tournament=record.tournament, name="Tuesday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )


@pytest.fixture
def teams(record):
    return services.create_event(
        tournament=record.tournament, name="Teams of Four", kind=Event.Kind.TEAMS_SWISS, by=policy.SYSTEM
    )


def refused(event, raw, **options):
    with pytest.raises(ImportRefused) as caught:
        import_file(event=event, data=raw, **options)
    assert not Result.objects.filter(board__session__event=event).exists()
    assert not event.sessions.exists()
    return caught.value.refusals


def ns_points(event, board):
    results = Result.objects.filter(board__session__event=event, board__number=board).select_related("board_score")
    return [r.board_score.ns for r in results.order_by("table__number")]


def test_one_game_per_table_result_imports_each_result_and_matchpoints_follow(pairs):
    summary = import_file(event=pairs, data=data("per_table_games.pbn"))
    assert (summary.boards, summary.results, summary.format) == (2, 6, "PBN")
    recalculation.rescore_everything(pairs)
    # Board 1: +420, +450, +400 -> 2, 4, 0 on a top of 4; board 2: -110, +50, 0 -> 0, 4, 2.
    assert ns_points(pairs, 1) == [Decimal(2), Decimal(4), Decimal(0)]
    assert ns_points(pairs, 2) == [Decimal(0), Decimal(4), Decimal(2)]
    assert AuditEntry.objects.filter(action="session.imported").count() == 1


def test_sections_byes_and_artificial_codes(pairs):
    summary = import_file(event=pairs, data=data("sections_and_byes.pbn"))
    assert (summary.boards, summary.results) == (2, 10)
    session = pairs.sessions.get()
    assert sorted(session.sections.values_list("name", flat=True)) == ["A", "B"]
    adjusted = {
        (e.result.board.number, e.result.table.section.name, e.result.table.number): e.score
        for e in EffectiveScore.objects.filter(result__board__session=session).select_related(
            "result__board", "result__table__section"
        )
    }
    assert adjusted == {(1, "B", 2): {"ns": "AVE+", "ew": "AVE-"}, (2, "A", 2): {"ns": "60%", "ew": "40%"}}
    not_played = Result.objects.get(board__session=session, board__number=1, table__section__name="B", table__number=3)
    assert not_played.not_played and not EffectiveScore.objects.filter(result=not_played).exists()
    assert "recorded as not played (NP), with no score: give it an adjusted score" in " ".join(summary.warnings)
    assert "line 13: ScoreTable: board 1: a sit-out (-) has no result to record" in summary.warnings
    assert Contestant.objects.get(event=pairs, number=1).name == "Zoë Lefèvre - José Muñoz"


def test_teams_file_makes_matches_and_imps(teams):
    summary = import_file(event=teams, data=data("teams.pbn"))
    assert summary.results == 4
    recalculation.rescore_everything(teams)
    score = MatchScore.objects.get(match__home__number=1, match__away__number=2)
    # Board 1: +420 open, 170 to the away team closed: +250, 6 IMPs; board 2: 0 and +110 for the home
    # team in the closed room (E-W): 3 IMPs.
    assert (score.home_imps, score.away_imps) == (Decimal(9), Decimal(-9))
    assert Contestant.objects.get(event=teams, number=1).name == "Lions"


def test_usebio_file_imports_results_hand_records_and_artificial_scores(pairs):
    summary = import_file(event=pairs, data=data("event.usebio.xml"))
    assert (summary.format, summary.boards, summary.results) == ("USEBIO", 2, 6)
    board = Board.objects.get(session__event=pairs, number=2)
    assert (board.dealer, board.vulnerability, board.deal[:13]) == ("E", "NS", "N:AJ532.AT83.")
    assert summary.artificial == ["board 2, table 2: A6040"]
    doubled = Result.objects.get(board__session__event=pairs, board__number=1, table__number=3)
    assert (doubled.contract, doubled.score_ns) == ("3NTX", -100)


@pytest.mark.parametrize(
    "name, kind, expected",
    [
        (
            "individual.pbn",
            Event.Kind.MP_PAIRS,
            "line 7: ScoreTable: an individual table (PlayerId_North, ...) cannot be recorded: this system records each "
            "result between one contestant at N-S and one at E-W.",
        ),
        (
            "teams.pbn",
            Event.Kind.MP_PAIRS,
            "line 4: Scoring: the file is scored in IMPs, but Wrong kind is Matchpoint pairs: import it into an event "
            "scored that way, or have the program export it as such.",
        ),
        (
            "per_table_games.pbn",
            Event.Kind.IMP_PAIRS_BUTLER,
            "line 5: Scoring: the file is scored in matchpoints, but Wrong kind is IMP pairs (Butler): import it into "
            "an event scored that way, or have the program export it as such.",
        ),
    ],
)
def test_a_file_for_another_kind_of_event_is_refused(record, name, kind, expected):
    event = services.create_event(tournament=record.tournament, name="Wrong kind", kind=kind, by=policy.SYSTEM)
    assert refused(event, data(name))[0] == expected


def test_an_individual_movement_is_refused_naming_its_form_even_in_an_individual_event(record):
    individual = services.create_event(
        tournament=record.tournament, name="Individual", kind=Event.Kind.INDIVIDUAL, by=policy.SYSTEM
    )
    assert refused(individual, data("individual.pbn")) == [
        "line 7: ScoreTable: an individual table (PlayerId_North, ...) cannot be recorded: this system records each "
        "result between one contestant at N-S and one at E-W."
    ]
    usebio = data("event.usebio.xml").replace(b'EVENT_TYPE="MP_PAIRS"', b'EVENT_TYPE="INDIVIDUAL"')
    assert refused(individual, usebio) == [
        "EVENT_TYPE: 'INDIVIDUAL' is an individual event: its results cannot be recorded, as this system records "
        "each result between one contestant at N-S and one at E-W"
    ]


def test_butler_file_into_a_matchpoint_event_is_refused(pairs):
    raw = data("per_table_games.pbn").replace(b'[Scoring "MP"]', b'[Scoring "Butler"]')
    assert refused(pairs, raw)[0].startswith("line 5: Scoring: the file is scored in Butler IMPs, but Tuesday Pairs")


BUTLER_FROM_RUTER = """% PBN 2.1
[Event "Monday Butler"]
[Generator "Ruter 3.2.1"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "Butler"]
[Table "1"]
[PairId_NS "1"]
[PairId_EW "3"]
[Declarer "E"]
[Contract "2S"]
[Result "10"]

[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "Butler"]
[Table "2"]
[PairId_NS "2"]
[PairId_EW "4"]
[Declarer "N"]
[Contract "4S"]
[Result "6"]
"""


@pytest.mark.parametrize(("rounding", "warned"), [("half-up", True), ("half-away", False)])
def test_a_butler_file_is_scored_with_its_programs_datum_rounding_whatever_the_regulations_say(
    record, rounding, warned
):
    # N-S -170 and -200 (two results: nothing dropped): the mean, -185, ends in 5. Ruter rounds
    # it away from zero, to -190: +20 (1 IMP) and -10 (0); half up would give -180: 0 and -1.
    # The program's method is recorded with the event (issue #40), whatever the regulations say.
    if rounding != "half-up":  # half-up is the default
        services.set_authority_setting(
            authority=record.tournament.authority,
            key="butler_rounding",
            value=rounding,
            effective_from=record.tournament.start_date,
            by=policy.SYSTEM,
        )
    event = services.create_event(
        tournament=record.tournament, name="Monday Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=BUTLER_FROM_RUTER.encode())
    assert [r.score_ns for r in Result.objects.filter(board__session__event=event).order_by("table__number")] == [
        -170,
        -200,
    ]
    recalculation.rescore_everything(event)
    assert ns_points(event, 1) == [Decimal(1), Decimal(0)]
    event.refresh_from_db()
    assert event.scoring_method == {"butler_rounding": "half-away", "ranking": "one-list"}
    warning = (
        "Scoring method: Ruter 3.2.1 scores butler_rounding half-away, ranking one-list, where the regulations here "
        "say butler_rounding half-up, ranking by-direction: recorded as this event's scoring method, so its standings are the program's. The "
        "event's page shows it and can change it."
    )
    assert (warning in summary.warnings) is warned
    assert any(w.startswith("Scoring method: Ruter 3.2.1 scores") for w in summary.warnings)  # ranking differs


def test_a_stated_percentage_at_imps_is_refused_and_averages_are_mapped(record):
    event = services.create_event(
        tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    raw = data("sections_and_byes.pbn").replace(b"MatchPoints", b"Butler")
    assert refused(event, raw.replace(b"60%", b"55%")) == [
        "line 26: 55%: a stated percentage has no meaning at IMPs; only 60/50/40 (average plus, average, average "
        "minus) can be imported."
    ]
    summary = import_file(event=event, data=raw)
    assert summary.artificial[-1] == "board 2, table 2: A6040"
    assert EffectiveScore.objects.get(
        result__board__number=2, result__table__number=2, result__table__section__name="A"
    ).score == {"ns": "AVE+", "ew": "AVE-"}


def test_every_refusal_is_listed_and_nothing_is_written(pairs):
    raw = data("per_table_games.pbn").replace(b'[PairId_EW "6"]', b'[PairId_EW "4"]')
    # E-W pair 4 would play board 1 twice and board 2 twice.
    refusals = refused(pairs, raw)
    assert len(refusals) == 2 and all(r.startswith("line ") for r in refusals)
    assert not Contestant.objects.filter(event=pairs).exists()


def test_dry_run_writes_nothing_and_says_what_it_would_do(pairs):
    summary = import_file(event=pairs, data=data("per_table_games.pbn"), dry_run=True)
    assert summary.dry_run and (summary.boards, summary.results) == (2, 6)
    assert not pairs.sessions.exists() and not AuditEntry.objects.filter(action="session.imported").exists()


def test_an_oversized_file_is_refused_with_its_size_and_the_limit(pairs, settings):
    settings.INTERCHANGE_MAX_FILE_BYTES = 1000
    raw = data("per_table_games.pbn")
    assert refused(pairs, raw) == [
        f"The file is {len(raw)} bytes; the limit is 1000 bytes (INTERCHANGE_MAX_FILE_BYTES). Nothing was read."
    ]


def test_import_command_reads_usebio_and_dry_run(pairs, capsys):
    call_command("import_pbn", str(FIXTURES / "event.usebio.xml"), "--event", str(pairs.pk), "--dry-run")
    out = capsys.readouterr().out
    assert "Would import 2 boards and 6 results" in out and "Nothing was written" in out
    assert not pairs.sessions.exists()
    with pytest.raises(CommandError, match="individual table"):
        call_command("import_pbn", str(FIXTURES / "individual.pbn"), "--event", str(pairs.pk))


# --- replacing an imported session -------------------------------------------------------------


def board_one(event, session_number=1):
    return sorted(
        Result.objects.filter(board__session__event=event, board__session__number=session_number, board__number=1)
        .order_by("table__number")
        .values_list("table__number", "contract", "declarer", "tricks")
    )


def test_replace_swaps_the_sessions_results_with_an_audit_entry(pairs, people):
    import_file(event=pairs, data=data("per_table_games.pbn"))
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 11), (3, "3NT", "S", 9)]
    corrected = data("per_table_games.pbn").replace(b'[Result "11"]', b'[Result "9"]', 1)
    summary = import_file(event=pairs, data=corrected, session_number=1, replace=True, by=people.scorer)
    assert summary.replaced == {"boards": 2, "results": 6} and (summary.boards, summary.results) == (2, 6)
    assert pairs.sessions.count() == 1  # the same session, not a second one
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 9), (3, "3NT", "S", 9)]
    assert Result.objects.filter(board__session__event=pairs).count() == 6
    entry = AuditEntry.objects.get(action="session.replaced")
    assert (entry.actor, entry.before, entry.after["results"]) == (people.scorer, {"boards": 2, "results": 6}, 6)
    # The recalculation is asked for the new boards (in the swap's one transaction); the old boards'
    # requests went with them.
    pending = RecalculationRequest.objects.filter(finished_at__isnull=True)
    assert set(pending.values_list("board__number", flat=True)) == {1, 2}
    assert set(pending.values_list("board__session__event", flat=True)) == {pairs.pk}
    recalculation.rescore_everything(pairs)
    # Board 1 now: +420, -50 (4S one down), +400 -> 4, 0, 2 on a top of 4.
    assert ns_points(pairs, 1) == [Decimal(4), Decimal(0), Decimal(2)]


def test_replace_dry_run_writes_nothing(pairs):
    import_file(event=pairs, data=data("per_table_games.pbn"))
    raw = data("per_table_games.pbn").replace(b'[Result "11"]', b'[Result "10"]', 1)
    summary = import_file(event=pairs, data=raw, session_number=1, replace=True, dry_run=True)
    assert summary.dry_run and summary.replaced == {"boards": 2, "results": 6}
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 11), (3, "3NT", "S", 9)]
    assert not AuditEntry.objects.filter(action="session.replaced").exists()


def test_replace_needs_an_existing_session(pairs):
    raw = data("per_table_games.pbn")
    with pytest.raises(ImportRefused) as caught:
        import_file(event=pairs, data=raw, replace=True)
    assert caught.value.refusals == ["Session: give the number of the session to replace."]
    with pytest.raises(ImportRefused) as caught:
        import_file(event=pairs, data=raw, session_number=4, replace=True)
    assert caught.value.refusals == ["Session: Tuesday Pairs has no session 4, so there is nothing to replace."]
    assert not pairs.sessions.exists()


def test_a_ruling_on_the_session_blocks_the_replace_naming_it(pairs, people):
    from rulings import services as ruling_services

    import_file(event=pairs, data=data("per_table_games.pbn"))
    result = Result.objects.get(board__session__event=pairs, board__number=1, table__number=2)
    ruling = ruling_services.record_ruling(director=people.director, kind="law_applied", result=result)
    before = board_one(pairs)
    with pytest.raises(ImportRefused) as caught:
        import_file(event=pairs, data=data("per_table_games.pbn"), session_number=1, replace=True)
    assert caught.value.refusals == [
        f"Ruling {ruling.number} (board 1, table 2) refers to Session 1 of Tuesday Pairs: a replace would take its "
        "board, table or result from under it. Correct those results one by one instead, or import the file as "
        "another session."
    ]
    assert board_one(pairs) == before  # nothing changed
    ruling.refresh_from_db()
    assert ruling.result == result


def test_import_command_replace(pairs, capsys, tmp_path):
    import_file(event=pairs, data=data("per_table_games.pbn"))
    path = tmp_path / "corrected.pbn"
    path.write_bytes(data("per_table_games.pbn").replace(b'[Result "11"]', b'[Result "10"]', 1))
    with pytest.raises(CommandError, match="already imported"):
        call_command("import_pbn", str(FIXTURES / "per_table_games.pbn"), "--event", str(pairs.pk), "--session", "1")
    call_command("import_pbn", str(path), "--event", str(pairs.pk), "--session", "1", "--replace")
    out = capsys.readouterr().out
    assert "Replaced 2 boards and 6 results of Session 1." in out
    assert "Imported 2 boards and 6 results into Club Championship: Tuesday Pairs, Session 1" in out
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 10), (3, "3NT", "S", 9)]


# --- the upload page ---------------------------------------------------------------------------


def test_upload_preview_then_confirm(client, pairs, people, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    url = reverse("scoring:import-results", args=[pairs.pk])
    client.force_login(people.scorer)
    assert 'name="file"' in client.get(url).content.decode()
    page = client.post(
        url,
        {"action": "preview", "session": "3", "file": SimpleUploadedFile("tuesday.pbn", data("per_table_games.pbn"))},
    )
    body = page.content.decode()
    assert page.status_code == 200 and "Preview" in body and "tuesday.pbn" in body
    assert "line 20: Scoring: a second Scoring tag in the same game" in body
    assert not pairs.sessions.exists()  # a preview writes nothing
    token = page.context["token"]
    # Someone else cannot confirm another's preview.
    client.force_login(people.director)
    assert (
        "The preview has expired or belongs to someone else"
        in client.post(url, {"action": "import", "token": token}).content.decode()
    )
    client.force_login(people.scorer)
    done = client.post(url, {"action": "import", "token": token})
    assert "2 boards and 6 results are in Session 3" in done.content.decode()
    assert Result.objects.filter(board__session__event=pairs, board__session__number=3).count() == 6
    entry = AuditEntry.objects.get(action="session.imported")
    assert entry.actor == people.scorer
    assert not list(tmp_path.joinpath("imports").glob("*"))  # the waiting file is gone


def test_results_the_file_holds_but_cannot_place_are_counted_in_the_preview(client, pairs, people, settings, tmp_path):
    # One game per table naming no pairs: "2 boards and 0 results" said nothing more (issue #29).
    settings.VAR_DIR = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    games = "".join(
        f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n\n'
        for n in (1, 1, 2)
    )
    url = reverse("scoring:import-results", args=[pairs.pk])
    client.force_login(people.scorer)
    page = client.post(url, {"action": "preview", "file": SimpleUploadedFile("nopairs.pbn", games.encode())})
    body = page.content.decode()
    assert page.context["summary"].results == 0 and page.context["summary"].left_out == 3
    assert "3 table results of the file cannot be placed: the warnings below say why." in body
    assert "is not imported: it names no pairs" in body
    done = client.post(url, {"action": "import", "token": page.context["token"]}).content.decode()
    assert "3 table results of the file are left out: the warnings below say why." in done
    assert AuditEntry.objects.get(action="session.imported").after["left_out"] == 3


def test_cancel_on_the_preview_removes_the_waiting_file(client, pairs, people, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    url = reverse("scoring:import-results", args=[pairs.pk])
    client.force_login(people.scorer)
    page = client.post(
        url, {"action": "preview", "file": SimpleUploadedFile("tuesday.pbn", data("per_table_games.pbn"))}
    )
    assert 'value="cancel"' in page.content.decode()
    token = page.context["token"]
    assert len(list(tmp_path.joinpath("imports").glob(f"{token}.*"))) == 2
    # Only the uploader cancels it.
    client.force_login(people.director)
    assert "belongs to someone else" in client.post(url, {"action": "cancel", "token": token}).content.decode()
    client.force_login(people.scorer)
    body = client.post(url, {"action": "cancel", "token": token}).content.decode()
    assert "Cancelled: nothing was imported" in body
    assert not list(tmp_path.joinpath("imports").glob("*"))
    assert not pairs.sessions.exists()
    # The cancelled preview cannot be imported afterwards.
    assert "The preview has expired" in client.post(url, {"action": "import", "token": token}).content.decode()


def test_upload_refusals_are_listed_with_their_lines(client, pairs, people, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    client.force_login(people.director)
    raw = data("per_table_games.pbn").replace(b'[Scoring "MP"]', b'[Scoring "Butler"]')
    body = client.post(
        reverse("scoring:import-results", args=[pairs.pk]),
        {"action": "preview", "file": SimpleUploadedFile("bad.pbn", raw)},
    ).content.decode()
    assert "Refused: nothing was imported" in body and "line 5: Scoring: the file is scored in Butler IMPs" in body
    settings.INTERCHANGE_MAX_FILE_BYTES = 100
    response = client.post(
        reverse("scoring:import-results", args=[pairs.pk]),
        {"action": "preview", "file": SimpleUploadedFile("big.pbn", raw)},
    )
    # Stopped as it arrives, before the view reads it (config/upload_limits.py): 413, the limit named.
    assert response.status_code == 413
    assert "File too large" in response.content.decode() and "100" in response.content.decode()


def test_upload_replace_preview_then_confirm(client, pairs, people, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    import_file(event=pairs, data=data("per_table_games.pbn"))
    raw = data("per_table_games.pbn").replace(b'[Result "11"]', b'[Result "10"]', 1)
    url = reverse("scoring:import-results", args=[pairs.pk])
    client.force_login(people.director)
    page = client.post(
        url, {"action": "preview", "session": "1", "replace": "on", "file": SimpleUploadedFile("fixed.pbn", raw)}
    )
    body = page.content.decode()
    assert "Replaces" in body and "2 boards and 6 results now in the session" in body
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 11), (3, "3NT", "S", 9)]
    done = client.post(url, {"action": "import", "token": page.context["token"]}).content.decode()
    assert "They replace the 2 boards and 6 results the session held." in done
    assert board_one(pairs) == [(1, "4S", "N", 10), (2, "4S", "N", 10), (3, "3NT", "S", 9)]
    assert AuditEntry.objects.filter(action="session.replaced", actor=people.director).count() == 1


def test_only_writers_of_the_record_import(client, pairs, people):
    from django.urls import reverse

    url = reverse("scoring:import-results", args=[pairs.pk])
    for user, status in ((people.player, 403), (people.appeals, 403), (people.outsider, 404), (people.chief, 200)):
        client.force_login(user)
        assert client.get(url).status_code == status


# --- export -----------------------------------------------------------------------------------


def test_pbn_export_reads_back_with_the_same_results_and_matchpoints(pairs, tmp_path):
    from bridge.pbn import parse_pbn, session_from_pbn
    from scoring.importers.export import session_pbn

    import_file(event=pairs, data=data("sections_and_byes.pbn"))
    recalculation.rescore_everything(pairs)
    session = pairs.sessions.get()
    text = session_pbn(session)
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n") and "\n" not in text.replace("\r\n", "")
    games = parse_pbn(text)
    for name in (
        "Event",
        "Site",
        "Date",
        "Board",
        "West",
        "North",
        "East",
        "South",
        "Dealer",
        "Vulnerable",
        "Deal",
        "Scoring",
        "Declarer",
        "Contract",
        "Result",
    ):
        assert all(name in g.tags or getattr(g, name.lower(), None) is not None for g in games), name
    again = session_from_pbn(games)
    before = sorted(
        (
            r.board,
            r.section,
            r.table,
            r.ns,
            r.ew,
            r.kind,
            r.contract,
            r.declarer,
            r.tricks,
            r.score and tuple(sorted(r.score.items())),
        )
        for r in read_back(data("sections_and_byes.pbn"))
    )
    after = sorted(
        (
            r.board,
            r.section,
            r.table,
            r.ns,
            r.ew,
            r.kind,
            r.contract,
            r.declarer,
            r.tricks,
            r.score and tuple(sorted(r.score.items())),
        )
        for r in again.results
    )
    assert after == before
    # The MP columns are the recalculated matchpoints.
    scores = {
        (r.board.number, r.table.section.name, r.table.number): r.board_score.ns
        for r in Result.objects.filter(board__session=session).select_related("board", "table__section", "board_score")
    }
    for row in games[0].score_rows:
        want = scores[(1, row["Section"], int(row["Table"]))]
        assert (Decimal(row["MP_NS"]) if row["MP_NS"] else None) == want
    assert games[0].tables["TotalScoreTable"].rows[0]["PairId"]


def read_back(raw):
    from bridge.interchange import decode
    from bridge.pbn import parse_pbn, session_from_pbn

    return session_from_pbn(parse_pbn(decode(raw))).results


def test_usebio_export_reads_back(pairs):
    from bridge.usebio import parse_usebio
    from scoring.importers.export import session_usebio

    import_file(event=pairs, data=data("event.usebio.xml"))
    recalculation.rescore_everything(pairs)
    again = parse_usebio(session_usebio(pairs.sessions.get()))
    original = parse_usebio(data("event.usebio.xml"))
    key = lambda r: (r.board, r.ns, r.ew, r.kind, r.contract, r.declarer, r.tricks, r.score)  # noqa: E731
    assert sorted(map(key, again.results), key=str) == sorted(map(key, original.results), key=str)
    assert [b.deal for b in again.boards] == [b.deal for b in original.boards]


def test_export_command_and_download(client, pairs, people, tmp_path):
    from django.urls import reverse

    import_file(event=pairs, data=data("per_table_games.pbn"))
    out = tmp_path / "out.pbn"
    call_command("export_results", "--event", str(pairs.pk), "--session", "1", "--output", str(out))
    assert out.read_bytes().startswith(b"% PBN 2.1\r\n")
    client.force_login(people.player)
    session = pairs.sessions.get()
    response = client.get(reverse("scoring:session-export", args=[session.pk, "usebio"]))
    assert response.status_code == 200 and b"<USEBIO" in response.content
    assert client.get(reverse("scoring:session-export", args=[session.pk, "doc"])).status_code == 404


def test_a_damaged_bridgemate_file_is_refused_cleanly(pairs):
    raw = b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 4000
    assert refused(pairs, raw) == [
        "the Bridgemate file: this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)"
    ]


def test_a_bridgemate_row_not_played_imports_with_a_warning_not_a_refusal(pairs, monkeypatch):
    from bridge.bridgemate import session_from_received_data
    from scoring.importers import session_import
    from tests.bridge.test_bridgemate import row

    rows = [
        row(),
        row(ID=2, Table=2, PairNS=2, PairEW=5, Contract="", Remarks="Not played", Result=""),
        row(ID=3, Table=3, PairNS=3, PairEW=6, Contract="", Remarks="Arbitral score", Result="A60-40"),
    ]
    monkeypatch.setattr(session_import, "read_bws", lambda data: session_from_received_data(rows))
    summary = import_file(event=pairs, data=b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 100)
    assert (summary.results, summary.not_played, summary.artificial) == (
        3,
        ["board 1, table 2: Not played"],
        ["board 1, table 3: A6040"],
    )
    assert summary.warnings == [
        "ReceivedData row 2: board 1, table 2: recorded as not played (Not played), with no score: give it an "
        "adjusted score."
    ]


# --- never anything but a refusal --------------------------------------------------------------


def test_mutated_files_through_the_importer_give_an_import_or_a_refusal(pairs):
    """The whole import (reader, checks against the event, the services) on mutated files: an
    ImportRefused or a summary, never another exception. Bounded to run in make test."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.bridge.test_interchange_fuzz import SEEDS, XML_SEEDS, mutated

    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(mutated(SEEDS + XML_SEEDS) | st.binary(max_size=200))
    def run(raw):
        try:
            import_file(event=pairs, data=raw, dry_run=True)
        except ImportRefused as refusal:
            assert refusal.refusals and all(isinstance(text, str) and text for text in refusal.refusals)

    run()
    assert not pairs.sessions.exists()


def test_sections_with_different_deals_for_one_board_number_are_refused(pairs):
    deal_a = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    deal_b = "N:QJ82.T942.J.KT64 AK96.KJ8.T74.Q93 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    table = '[ScoreTable "Table;PairId_NS;PairId_EW;Contract;Declarer;Result"]\n'
    text = (
        f'[Section "A"]\n[Board "1"]\n[Deal "{deal_a}"]\n{table}1 1 2 Pass - -\n\n'
        f'[Section "B"]\n[Board "1"]\n[Deal "{deal_b}"]\n{table}1 11 12 Pass - -\n'
    )
    assert refused(pairs, text.encode()) == [
        "line 7: Deal: board 1 has one deal in section A and another in section B: a session keeps one deal per "
        "board number, so import each section as a session of its own."
    ]


def test_team_games_named_by_home_and_visiting_team(teams):
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    games = []
    for room, contract, declarer, result in (("Open", "4S", "N", "10"), ("Closed", "4S", "S", "9")):
        games.append(
            f'[Board "1"]\n[Deal "{deal}"]\n[Scoring "IMP"]\n[HomeTeam "Lions"]\n[VisitTeam "Tigers"]\n'
            f'[Room "{room}"]\n[Table "1"]\n[Round "1"]\n[Declarer "{declarer}"]\n[Contract "{contract}"]\n'
            f'[Result "{result}"]\n'
        )
    summary = import_file(event=teams, data="\n".join(games).encode())
    assert summary.results == 2 and [str(i) for i in summary.contestants_created] == ["1", "2"]
    lions = Contestant.objects.get(event=teams, name="Lions")
    open_room = Result.objects.get(board__session__event=teams, table__number=1)
    closed_room = Result.objects.get(board__session__event=teams, table__number=2)
    assert (open_room.ns, closed_room.ew) == (lions, lions)
    assert (open_room.score_ns, closed_room.score_ns) == (420, -50)
    recalculation.rescore_everything(teams)
    # Lions +420 in the open room, +50 defending in the closed room: +470, 10 IMPs.
    assert MatchScore.objects.get(match__home=lions).home_imps == Decimal(10)
