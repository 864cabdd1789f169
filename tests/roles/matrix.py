"""The rows of the role matrix (test_role_matrix.py runs each against every role).

The rules they are checked against are the policy's (core.policy.TABLE: action -> who), read
through tests/roles/rules.py, which also says how each refusal looks on a page and in the API:

- The competition record of a tournament is read by its officials (director, chief director,
  scorer, appeals member), the auditors of its regulating authority and the players entered in
  it, and written by its directors, chief directors and scorers.
- A ruling is read by every official and auditor of its tournament, and by the players of its
  table; it is recorded and given by the tournament's directors and chief directors.
- An appeal is read by the directors, chief directors and scorers of its tournament, the
  authority's auditors, the members sitting on its body and the players of its table. Each step
  is taken by whom the policy names; nobody else writes.
- The national pages are for national auditors. An auditor writes nothing.
- Anonymous users are sent to log in (pages) or refused (API, 403: session authentication sends
  no challenge). Another body's records answer 404 (or 403, or a 404 naming the field of the
  body that names the record, where the code deliberately says so: the row says which).
- The superuser passes every check except those the policy holds them to (a seat on the body).

A row is one URL pattern (by name) and one method, run against one or more records
(``world.Target`` names such as ``"appeal:heard@A"``) for every role; ``expect(role, target,
world)`` says what must come back. ``read``, ``listing`` and ``write`` build rows from the rules;
a new page or endpoint needs a row (test_role_matrix.py fails while a URL pattern or an API
method has none), and a new state of a record a target in tests/roles/world.py. The rows of
appeals are in appeal_rows.py, those of the national body in national_rows.py.
"""

from django.urls import reverse

from tests.roles import appeal_rows, national_rows
from tests.roles.rules import (
    API,
    LOGIN,
    NATIONAL_READERS,
    PAGE,
    REFUSALS,
    RULING_READS,
    SIDES,
    Expect,
    Row,
    allowed,
    board_data,
    both,
    corrected_result,
    data,
    fixed,
    goes_back_on_get,
    import_file_upload,
    import_upload,
    listing,
    open_expect,
    qualified,
    read,
    reads,
    reads_record,
    reads_ruling,
    result_data,
    ruling_attachment_path,
    ruling_open_path,
    tournament_name,
    write,
)
from tests.roles.world import marker

ROWS = []

# Pages of the competition record.
ROWS += [
    # An auditor's home is the national body's page.
    listing(
        "home",
        [(f"tournament@{side}", reads_record) for side in SIDES],
        api=PAGE,
        needle=lambda t: f'href="{reverse("scoring:tournament", args=[t.pk])}"',
        elsewhere={"auditor": "national-home"},
    ),
    read("tournament", both("tournament"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("event", both("event"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("standings", both("event"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    # The results-file upload: its form, and a preview (an empty file is refused, so nothing is written).
    write(
        "import-results", "GET", both("event"), None, api=PAGE, reads=reads_record, may=allowed("import"), success=200
    ),
    write(
        "import-results",
        "POST",
        both("event"),
        import_upload,
        api=PAGE,
        reads=reads_record,
        may=allowed("import"),
        success=200,
        writes=False,
    ),
    # A session as a results file (PBN or USEBIO), for whoever reads the record.
    Row(
        "session-export",
        "GET",
        PAGE,
        both("session"),
        lambda world, target: reverse("scoring:session-export", args=[target.pk, "pbn"]),
        read("session", both("session"), reads_record, api=PAGE).expect,
    ),
    read("session", both("session"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    # The session's public change log (issue #44), for whoever reads the record.
    read("session-changes", both("session"), reads_record, api=PAGE),
    # The session's score checks (issue #44): read, accepted and corrected by whoever writes the record.
    write(
        "session-checks",
        "GET",
        both("session"),
        None,
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=200,
        writes=False,
    ),
    write(
        "session-check-accept",
        "POST",
        both("session"),
        data(result=lambda w, t: w.targets[f"result:t2@{t.side}"].pk, code="far_from_field"),
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=302,
    ),
    goes_back_on_get("session-check-accept", "session"),
    write(
        "session-check-correct",
        "POST",
        both("session"),
        data(result=lambda w, t: w.targets[f"result:t2@{t.side}"].pk, contract="4S", declarer="N", tricks="11"),
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=302,
    ),
    goes_back_on_get("session-check-correct", "session"),
    # A club's upload to a field (issue #44): read by whoever writes the record, each flag
    # confirmed or corrected by the chief director (the last answer joins the upload).
    write(
        "field-upload",
        "GET",
        both("upload"),
        None,
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=200,
        writes=False,
    ),
    write(
        "field-upload-confirm",
        "POST",
        both("upload"),
        data(flag=lambda w, t: t.obj.flags.get().pk),
        api=PAGE,
        reads=reads_record,
        may=allowed("confirm_upload"),
        success=302,
    ),
    goes_back_on_get("field-upload-confirm", "upload"),
    write(
        "field-upload-correct",
        "POST",
        both("upload"),
        data(flag=lambda w, t: t.obj.flags.get().pk, contract="3NT", declarer="N", tricks="9", score_ns="600"),
        api=PAGE,
        reads=reads_record,
        may=allowed("confirm_upload"),
        success=302,
    ),
    goes_back_on_get("field-upload-correct", "upload"),
    # The official score posted (again) from the session's page, by whoever writes the record.
    write(
        "session-post-score",
        "POST",
        both("session"),
        data(note="Posted again"),
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=302,
    ),
    goes_back_on_get("session-post-score", "session"),
    read("board", both("board"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
    read("contestant", both("contestant"), reads_record, api=PAGE, shows=lambda t: [tournament_name(t)]),
]

# Pages of rulings.
RULING_READS = ("ruling:free@A", "ruling:table2@A", "ruling:free@B")
ROWS += [
    listing(
        "rulings",
        [(t, reads_ruling) for t in RULING_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    read("ruling", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: [marker(t.side, t.short, "ruling")]),
    read("ruling-svg", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: ["<svg"]),
    read("ruling-pbn", RULING_READS, reads_ruling, api=PAGE, shows=lambda t: ['[Deal "N:']),
    write(
        "ruling-new", "GET", both("result:t1"), None, api=PAGE, reads=reads_record, may=allowed("ruling"), success=200
    ),
    write(
        "ruling-new",
        "POST",
        both("result:t1"),
        # Every role rules at the same table in turn: each after the first is a further ruling (issue #41).
        data(
            kind="claim",
            laws="70D1",
            ruling_text="Recorded by the matrix",
            outcome="result_stands",
            further_ruling="on",
        ),
        api=PAGE,
        reads=reads_record,
        may=allowed("ruling"),
        success=302,
    ),
    # Giving is a POST; a GET only goes back to the ruling, whoever asks.
    goes_back_on_get("ruling-give", "ruling:draft"),
    write(
        "ruling-give",
        "POST",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=302,
    ),
    # A second director's check (issue #44): the door takes a director of the tournament to the
    # service, which finds no check awaiting on the world's given rulings (its authority asks for
    # none) and says so on the ruling page: nothing is written; tests/rulings/test_second_director_check.py
    # confirms an awaiting score.
    goes_back_on_get("ruling-confirm-score", "ruling:free"),
    write(
        "ruling-confirm-score",
        "POST",
        both("ruling:free"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("confirm_score"),
        success=302,
        writes=False,
    ),
    # A draft is completed (the result in since), a given ruling corrected (Law 82C, 79C).
    write(
        "ruling-edit",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    write(
        "ruling-edit",
        "POST",
        both("ruling:draft"),
        data(kind="claim", laws="70D1", ruling_text="Completed by the matrix", outcome="result_stands", draft="1"),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=302,
    ),
    write(
        "ruling-correct",
        "GET",
        both("ruling:free"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    write(
        "ruling-correct",
        "POST",
        both("ruling:free"),
        data(
            correction_basis="82C",
            correction_reason="Corrected by the matrix",
            kind="claim",
            laws="70D1",
            ruling_text="Corrected by the matrix",
            outcome="result_stands",
            draft="1",
        ),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=302,
    ),
    # Board and table number straight to the form: only a tournament's directors have sessions to pick.
    Row("ruling-open", "GET", PAGE, (), lambda world, target: ruling_open_path(world), open_expect(200)),
    Row(
        "ruling-open",
        "POST",
        PAGE,
        (),
        lambda world, target: ruling_open_path(world),
        open_expect(302),
        data=data(kind="claim", laws="70D1", ruling_text="Opened by the matrix", outcome="result_stands", draft="1"),
    ),
    # Revokes, defective tricks and claims worked out from the play (rulings/revoke_views.py).
    write(
        "ruling-revoke",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    write(
        "ruling-revoke",
        "POST",
        both("ruling:draft"),
        data(
            action="defective",
            **{"defective-trick": 5, "defective-offender": "W", "defective-offending_side_won_from_then": "on"},
        ),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=302,
    ),
    write(
        "ruling-claim",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    # No play is attached to the matrix's rulings: the claim is refused on the page, nothing written.
    write(
        "ruling-claim",
        "POST",
        both("ruling:draft"),
        data(action="claim", **{"claim-claimer": "N", "claim-statement": "The rest are mine"}),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
        writes=False,
    ),
    # An irregular call or card and the option chosen (rulings/irregularity_views.py). No auction is
    # attached to the matrix's rulings: the options are refused on the page, nothing written.
    # Law 16's page (rulings/unauthorised_views.py): read by whoever may rule.
    write(
        "ruling-unauthorised",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    write(
        "ruling-irregularity",
        "GET",
        both("ruling:draft"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    write(
        "ruling-irregularity",
        "POST",
        both("ruling:draft"),
        data(action="options", kind="insufficient_bid", call_number=2, inserted="1D"),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
        writes=False,
    ),
]

# An attachment of a ruling: read by whoever reads the ruling.
ATTACHMENT_READS = ("ruling:free@A", "ruling:table2@A", "ruling:free@B")
ROWS.append(read("ruling-attachment", ATTACHMENT_READS, reads_ruling, api=PAGE, shows=lambda t: ["%PDF-"]))
ROWS[-1].path = lambda world, target: ruling_attachment_path(target)

ROWS += appeal_rows.PAGE_ROWS
ROWS += national_rows.ROWS

# The API: the competition record. Reads for every role that reads the tournament; writes for its
# directors, chief directors and scorers (CompetitionRecordPermission lets only their groups in).
ROWS += [
    listing("api-root", [], api=API),
    listing("tournament-list", [(t, reads_record) for t in both("tournament")], api=API),
    read("tournament-detail", both("tournament"), reads_record, api=API, detail=True),
    listing("event-list", [(t, reads_record) for t in both("event")], api=API),
    read("event-detail", both("event"), reads_record, api=API, detail=True),
    read("event-standings", both("event"), reads_record, api=API),
    read("event-matches", both("event"), reads_record, api=API),
    listing("session-list", [(t, reads_record) for t in both("session")], api=API),
    read("session-detail", both("session"), reads_record, api=API, detail=True),
    listing("contestant-list", [(t, reads_record) for t in both("contestant")], api=API),
    read("contestant-detail", both("contestant"), reads_record, api=API, detail=True),
    read("contestant-scorecard", both("contestant"), reads_record, api=API),
    read("contestant-score-changes", both("contestant"), reads_record, api=API),
    listing("board-list", [(t, reads_record) for t in both("board")], api=API),
    read("board-detail", both("board"), reads_record, api=API, detail=True),
    read("board-traveller", both("board"), reads_record, api=API),
    listing("result-list", [(t, reads_record) for t in both("result:t1")], api=API),
    read("result-detail", both("result:t1"), reads_record, api=API, detail=True),
    listing("official-score-list", [(t, reads_record) for t in both("posting")], api=API),
]
RECORD = dict(api=API, reads=reads_record, may=allowed("write_record"), gate=allowed("write_record"))
ROWS += [
    # A create names another tournament's session or board: refused as not theirs to change (403).
    write(
        "board-list",
        "POST",
        both("session"),
        data(session=lambda w, t: t.pk, number=9),
        success=201,
        invisible="403",
        path=fixed("board-list"),
        **RECORD,
    ),
    # A results file through the API: an empty file is refused (409) before anything is written.
    write("event-import", "POST", both("event"), import_file_upload, success=409, writes=False, **RECORD),
    write("board-detail", "PUT", both("board:spare"), board_data, success=200, **RECORD),
    write("board-detail", "PATCH", both("board:spare"), data(dealer="W"), success=200, **RECORD),
    write(
        "result-list",
        "POST",
        both("board:spare"),
        result_data,
        success=201,
        invisible="403",
        path=fixed("result-list"),
        **RECORD,
    ),
    write("result-detail", "PUT", both("result:t2"), corrected_result, success=200, **RECORD),
    write("result-detail", "PATCH", both("result:t2"), data(tricks=11), success=200, **RECORD),
    write(
        "result-effective-score",
        "POST",
        both("result:t2"),
        data(kind="weighted", score={"ns": [[420, "0.5"], [-50, "0.5"]]}, reason="Law 16B"),
        success=201,
        **RECORD,
    ),
    write(
        "official-score-list",
        "POST",
        both("session"),
        data(session=lambda w, t: t.pk),
        success=201,
        invisible="403",
        path=fixed("official-score-list"),
        **RECORD,
    ),
    # A club's upload to a field (issue #44): sent by whoever writes the record (a clean row of
    # board 2 at table 2: it joins at once), read by them, its flags answered by the chief director.
    write(
        "club-upload-list",
        "POST",
        both("session"),
        data(
            session=lambda w, t: t.pk,
            club="Hillside BC",
            results=[
                {"board": 2, "round": 1, "table": 2, "ns": 2, "ew": 4, "contract": "3NT", "declarer": "N"}
                | {"tricks": 9, "score_ns": 600}
            ],
        ),
        success=201,
        invisible="403",
        path=fixed("club-upload-list"),
        **RECORD,
    ),
    write(
        "club-upload-detail",
        "GET",
        both("upload"),
        None,
        api=API,
        reads=reads_record,
        may=allowed("write_record"),
        success=200,
        writes=False,
    ),
    write(
        "club-upload-confirm",
        "POST",
        both("upload"),
        data(flag=lambda w, t: t.obj.flags.get().pk),
        api=API,
        reads=reads_record,
        may=allowed("confirm_upload"),
        gate=allowed("write_record"),
        success=200,
    ),
    write(
        "club-upload-correct",
        "POST",
        both("upload"),
        data(flag=lambda w, t: t.obj.flags.get().pk, contract="3NT", declarer="N", tricks=9, score_ns=600),
        api=API,
        reads=reads_record,
        may=allowed("confirm_upload"),
        gate=allowed("write_record"),
        success=200,
    ),
]


def draft_expect(role, target, world):
    """A ruling drafted on a phone offline, sent when the network returns (issue #31)."""
    if role == "anonymous":
        return REFUSALS["403"]
    if role in allowed("ruling") | {"superuser"}:
        return Expect(201, wrote=True)
    return REFUSALS["403"]


def draft_data(world, target):
    """Board 2 at table 1 of side A's session, drafted on the phone."""
    session = world.sides["A"].record.session
    form = {"kind": "claim", "laws": "70D1", "ruling_text": "Drafted offline by the matrix", "outcome": "result_stands"}
    return {"session": str(session.pk), "board": "2", "table": "1", "device_time": "2026-05-01T12:00:00Z", "form": form}


def anyone(role, target, world):
    return Expect(200)


def signed_in(role, target, world):
    return LOGIN if role == "anonymous" else Expect(200)


# The phone's offline pages (issue #31): the service worker, the manifest and the page shown for
# a page the phone did not keep hold no record; what a phone keeps of a tournament is for its
# readers; the law catalogue for anyone signed in; the drafts page for those who rule.
ROWS += [
    Row("service-worker", "GET", PAGE, (), fixed("service-worker"), anyone),
    Row("web-manifest", "GET", PAGE, (), fixed("web-manifest"), anyone),
    Row("offline-fallback", "GET", PAGE, (), fixed("offline-fallback"), anyone),
    read("offline-bundle", both("tournament"), reads_record, api=PAGE),
    Row(
        "law-catalogue",
        "GET",
        PAGE,
        (),
        lambda world, target: reverse("rulings:law-catalogue", args=["2017"]),
        signed_in,
    ),
    Row("ruling-drafts", "GET", PAGE, (), fixed("ruling-drafts"), open_expect(200)),
]

# The API: rulings and the law catalogue.
ROWS += [
    Row("ruling-draft-send", "POST", API, (), fixed("ruling-draft-send"), draft_expect, data=draft_data),
    listing("ruling-list", [(t, reads_ruling) for t in RULING_READS], api=API),
    read("ruling-detail", RULING_READS, reads_ruling, api=API, detail=True),
    listing("law-list", [], api=API),
    # Another tournament's result "does not exist" for the caller (404 on "result").
    write(
        "ruling-list",
        "POST",
        both("result:t1"),
        data(
            result=lambda w, t: t.pk,
            kind="claim",
            laws=["70D1"],
            ruling_text="Recorded by the matrix",
            further_ruling=True,  # every role rules at the same table in turn (issue #41)
        ),
        api=API,
        reads=reads_record,
        may=allowed("ruling"),
        success=201,
        invisible="result",
        path=fixed("ruling-list"),
    ),
    write(
        "ruling-api-give",
        "POST",
        both("ruling:draft"),
        data(),
        api=API,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
    # Law 16 with nothing said of it: refused (400, the fields named), nothing written.
    write(
        "ruling-api-unauthorised",
        "POST",
        both("ruling:draft"),
        data(),
        api=API,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=400,
        writes=False,
    ),
    # No auction is attached to the matrix's rulings: refused (409), nothing written.
    write(
        "ruling-api-irregularity",
        "POST",
        both("ruling:draft"),
        data(kind="insufficient_bid", facts={"call_number": 2, "inserted": "1D"}, chosen="27B2"),
        api=API,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=409,
        writes=False,
    ),
    write(
        "ruling-change",
        "POST",
        both("ruling:free"),
        data(reason="Second thoughts", ruling_text="Changed"),
        api=API,
        reads=reads_ruling,
        may=allowed("ruling"),
        success=200,
    ),
]

ROWS += appeal_rows.API_ROWS


# Another body's records asked for by id in a filter: the list stays empty of them (the
# superuser's aside), and the page shows nothing of them (the name "Bravo Open" included).
def filtered(name, **params):
    """The list's path with filters naming records: ``filtered("rulings", tournament="tournament@B")``."""

    def path(world, _target):
        query = "&".join(f"{key}={world.targets[value].pk}" for key, value in params.items())
        return f"{reverse(qualified(name))}?{query}"

    return path


def nobody(role, target):
    return False


def superuser_only(role, target):
    return role == "superuser"


ROWS += [
    listing(
        "rulings",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
        path=filtered("rulings", tournament="tournament@B"),
    ),
    listing(
        "national-search",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
        path=filtered("national-search", tournament="tournament@B"),
    ),
    listing(
        "national-statistics",
        [("tournament@B", superuser_only)],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=tournament_name,
        path=filtered("national-statistics", tournament="tournament@B"),
    ),
    listing(
        "national-quality",
        [("tournament@B", superuser_only)],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=tournament_name,
        path=filtered("national-quality", tournament="tournament@B"),
    ),
    listing(
        "ruling-list",
        [("ruling:free@A", nobody), ("ruling:free@B", superuser_only)],
        api=API,
        path=filtered("ruling-list", tournament="tournament@B"),
    ),
    listing("board-list", [("board@B", superuser_only)], api=API, path=filtered("board-list", session="session@B")),
    listing("result-list", [("result:t1@B", superuser_only)], api=API, path=filtered("result-list", board="board@B")),
    listing(
        "contestant-list",
        [("contestant@B", superuser_only)],
        api=API,
        path=filtered("contestant-list", event="event@B"),
    ),
]
for row in ROWS[-8:]:
    row.label = "B by id"


# Regulating authorities (scoring/authority_views.py, scoring/authority_api.py): the settings page
# and the API are read by the superuser and the authority's own auditors (another body's answers
# 404); only the superuser creates an authority (with a preset); every logged-in role reads the
# list of presets. The rows run against each side's tournament, at its authority.
reads_authority = reads("view_settings")


def authority_read(name, *, api):
    def expect(role, target, world):
        if role == "anonymous":
            return REFUSALS["403"] if api else LOGIN
        if not reads_authority(role, target):
            return REFUSALS["404"]
        if api:
            return Expect(200, json_id=target.obj.authority_id)
        return Expect(200, shows=(target.obj.authority.name,))

    return Row(
        name,
        "GET",
        api,
        both("tournament"),
        lambda world, target: reverse(qualified(name), args=[target.obj.authority_id]),
        expect,
    )


def authority_create(role, _target, world):
    if role in allowed("settings") | {"superuser"}:
        return Expect(201, wrote=True)
    return REFUSALS["403"]


ROWS += [
    authority_read("authority-settings", api=PAGE),
    # The corrections a preset brings (issue #43): read with the settings, confirmed by the body's
    # national auditors and the superuser. The world's bodies hold their presets as they stand, so
    # a confirmation writes nothing (200, "nothing to correct" refused by name).
    authority_read("authority-corrections", api=PAGE),
    write(
        "authority-corrections",
        "POST",
        both("tournament"),
        lambda world, target: {},
        api=PAGE,
        reads=reads_authority,
        may=allowed("confirm_corrections"),
        success=200,
        writes=False,
        path=lambda world, target: reverse(qualified("authority-corrections"), args=[target.obj.authority_id]),
    ),
    authority_read("authority-detail", api=API),
    listing(
        "authority-list",
        [(t, reads_authority) for t in both("tournament")],
        api=API,
        needle=lambda t: t.obj.authority_id,
    ),
    Row(
        "authority-list",
        "POST",
        API,
        (),
        fixed("authority-list"),
        authority_create,
        data=lambda world, target: {"name": "Matrix Federation", "code": "matrix", "preset": "ebu"},
    ),
    listing("authority-presets", [], api=API),
]


# Penalties against a team in a match (scoring/views.match_detail, scoring/match_penalty_api.py):
# read with the competition record; given and withdrawn by the tournament's directors and chief
# directors only (a scorer reads the match but gives no penalty: 403).
def match_penalty_data(world, target):
    return {"match": target.pk, "team": target.obj.home_id, "amount": "1", "unit": "vps", "offence": "matrix"}


ROWS += [
    read("match", both("match"), reads_record, api=PAGE, shows=lambda t: [f"Team 1 {t.side}"]),
    write(
        "match",
        "POST",
        both("match"),
        lambda world, target: {"action": "add", **match_penalty_data(world, target)},
        api=PAGE,
        reads=reads_record,
        may=allowed("match_penalty"),
        success=302,
    ),
    listing("match-penalty-list", [(t, reads_record) for t in both("match-penalty")], api=API),
    read("match-penalty-detail", both("match-penalty"), reads_record, api=API, detail=True),
    write(
        "match-penalty-list",
        "POST",
        both("match"),
        match_penalty_data,
        api=API,
        reads=reads_record,
        may=allowed("match_penalty"),
        success=201,
        invisible="match",
        path=fixed("match-penalty-list"),
    ),
    write(
        "match-penalty-withdraw",
        "POST",
        both("match-penalty"),
        data(reason="matrix"),
        api=API,
        reads=reads_record,
        may=allowed("match_penalty"),
        success=200,
    ),
]


# Locked-out logins (core/logins.py): a chief director (of any tournament) and the superuser
# read them and unlock one (audited); everyone else 403.
def locked_login(world, target):
    from axes.models import AccessAttempt
    from django.utils import timezone

    AccessAttempt.objects.get_or_create(
        username="locked-official",
        ip_address="192.0.2.77",
        user_agent="matrix",
        defaults={"failures_since_start": 9, "attempt_time": timezone.now(), "get_data": "", "post_data": ""},
    )
    return {"kind": "username", "value": "locked-official"}


def unlocks(success, wrote):
    def expect(role, _target, world):
        if role == "anonymous":
            return LOGIN
        if role != "superuser" and role not in allowed("unlock_logins"):
            return REFUSALS["403"]
        return Expect(success, wrote=wrote)

    return expect


ROWS += [
    Row("locked-logins", "GET", PAGE, (), fixed("locked-logins"), unlocks(200, False)),
    Row("locked-logins", "POST", PAGE, (), fixed("locked-logins"), unlocks(302, True), data=locked_login),
]
