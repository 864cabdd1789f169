"""The role matrix's rows of appeals: the pages (PAGE_ROWS) and the API's one endpoint per step
(API_ROWS). Who may take each step is the policy's (core.policy.TABLE), read through
``allowed(action)``; how a refused person is answered is the page's or the API's."""

from django.urls import reverse

from tests.roles.rules import (
    API,
    APPEAL_READS,
    PAGE,
    RULING_READS,
    allowed,
    body_member,
    both,
    data,
    deposit,
    fixed,
    goes_back_on_get,
    hearing,
    later,
    law_part,
    listing,
    player,
    read,
    reads_appeal,
    reads_record,
    reads_ruling,
    recommendation,
    superuser,
    write,
)
from tests.roles.world import marker

PAGE_ROWS = []


def grounds(target):
    return [marker(target.side, target.short, "grounds")]


PAGE_ROWS += [
    listing(
        "appeals",
        [(t, reads_appeal) for t in ("appeal:new@A",) + APPEAL_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("appeals:appeal", args=[t.pk])}"',
    ),
    read("appeal", APPEAL_READS, reads_appeal, api=PAGE, shows=grounds),
    # The hall's notice board: whoever reads the tournament (players too), names as regulated.
    read("notice-board", both("tournament"), reads_record, api=PAGE),
    # The hall screen's address: shown to the officials who hand it out, revoked by the chief director.
    write(
        "hall-address",
        "GET",
        both("tournament"),
        None,
        api=PAGE,
        reads=reads_record,
        may=allowed("write_record"),
        success=200,
    ),
    write(
        "hall-address",
        "POST",
        both("tournament"),
        None,
        api=PAGE,
        reads=reads_record,
        may=allowed("revoke_hall_address"),
        success=302,
    ),
    read("appeal-form", APPEAL_READS, reads_appeal, api=PAGE, shows=grounds),
    write(
        "appeal-lodge",
        "GET",
        both("ruling:free"),
        None,
        api=PAGE,
        reads=reads_ruling,
        may=allowed("lodge"),
        success=200,
    ),
    write(
        "appeal-lodge",
        "POST",
        both("ruling:free"),
        data(origin="player", player=player(0), grounds="We object"),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("lodge"),
        success=302,
    ),
    # A player's own page lists the rulings of their tables (nobody else's); a request to appeal is
    # theirs alone to make (the service refuses everyone else, superuser included: 403 and why).
    listing(
        "appeals-mine",
        [(t, lambda role, t: role == "player" and t.side == "A" and t.at_player_table) for t in RULING_READS],
        api=PAGE,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    write(
        "appeal-request",
        "POST",
        both("ruling:free"),
        data(grounds="The hesitation was not clear"),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("request_appeal"),
        success=302,
        superuser=superuser("request_appeal", "403"),
    ),
    goes_back_on_get("appeal-request", "ruling:free"),
    # Issue #44: a player's memo, received and numbered: a player of the table for themselves
    # (anyone else of theirs is refused as a person), or a director at the desk naming the player.
    write(
        "memo",
        "POST",
        both("ruling:free"),
        data(text="East hesitated before passing", player=player(0)),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("file_memo"),
        success=302,
    ),
    goes_back_on_get("memo", "ruling:free"),
    # The register of filings received, for the tournament's directors.
    write(
        "filings",
        "GET",
        both("tournament"),
        None,
        api=PAGE,
        reads=reads_record,
        may=allowed("filings"),
        success=200,
    ),
    write(
        "appeal-lodge",
        "POST",
        both("ruling:free"),
        data(action="extend", until=lambda w, t: later(3), reason="They were not told (Law 83)"),
        api=PAGE,
        reads=reads_ruling,
        may=allowed("extend_period"),
        success=302,
        label="extend",
    ),
]

# The steps of a case on its page, one door each (appeals/step_views.py, URL name "case-<step>"):
# step, case, data, who, how others are refused.
# Who may take a step is decided by the service that takes it (appeals/services); a person it
# refuses gets a page saying why, with 403, exactly as the API answers (API_STEPS below).
PAGE_STEPS = [
    ("concurrence", "new", data(player=player(1), how="in_person"), allowed("concurrence"), "403", True),
    ("deposit", "new", data(), allowed("deposit"), "403", True),
    ("statements", "new", data(respondents_statement="They hesitated"), allowed("statements"), "403", True),
    (
        "lock-statements",
        "new",
        data(agreed_by=lambda w, t: [player(0)(w, t), player(4)(w, t)]),
        allowed("statements"),
        "403",
        True,
    ),
    ("withdrawal", "new", data(player=player(0), reason="We think again"), allowed("withdrawal"), "403", True),
    (
        "constitute",
        "new",
        data(kind="referee", members=lambda w, t: [body_member(w, t)], chair=""),
        allowed("body"),
        "403",
        True,
    ),
    # The body of "seated" has its one member: the chief director's post is refused by name
    # (302, nothing written), anyone else as a person (403).
    ("appoint", "seated", data(member=body_member), allowed("body"), "403", True, False),
    (
        "law-part",
        "seated",
        data(part=law_part, **{"law-decision": "uphold", "law-reasons": "70D1 was applied"}),
        allowed("law_part"),
        "403",
        True,
    ),
    (
        "schedule",
        "heard",
        data(starts_at=lambda w, t: later(2), mode="in_person", place="Room 2"),
        allowed("hearing"),
        "403",
        True,
    ),
    # The chief director gives an open case more time to be decided (its "decide by").
    (
        "extend-decision",
        "heard",
        data(until=lambda w, t: later(30), reason="The score was posted again"),
        allowed("extend_decision"),
        "403",
        True,
    ),
    # The hearing of "heard" has begun (it starts at the world's now): sitting early is refused
    # by the case's state to whoever may record the hearing (302, nothing written), anyone else as
    # a person (403). tests/appeals/test_hearing_clock.py sits a body early.
    ("sit-early", "heard", data(reason="Every side is here"), allowed("hearing_record"), "403", True, False),
    # Steps of a member in person: nobody else has a seat to act from (not even the superuser).
    ("declare", "seated", data(conflict=""), allowed("seat"), "404", superuser("seat", "404")),
    ("recuse", "seated", data(reason="I know them"), allowed("seat"), "404", superuser("seat", "404")),
    ("vote", "heard", data(outcome="uphold"), allowed("seat"), "404", superuser("seat", "404")),
    # Steps of the body.
    (
        "decide",
        "heard",
        data(**{"decide-decision": "uphold", "decide-reasons": "The claim stands"}),
        allowed("decision"),
        "403",
        True,
    ),
    ("recommend", "heard", data(about="law", text="Look at 70D1 again"), allowed("recommendation"), "403", True),
    ("accept-withdrawal", "heard", data(), allowed("decision"), "403", True),
    # The body's word on a late appeal (issue #44): the case of "heard" was lodged in time, so a
    # sitting member is refused by the case (302, nothing written), anyone else as a person (403).
    (
        "validity",
        "heard",
        data(filing=lambda w, t: t.obj.filings.get().pk, valid="no", reason="Lodged late"),
        allowed("validity"),
        "403",
        True,
        False,
    ),
    ("without-merit", "decided", data(reasons="No case was made"), allowed("decision"), "403", True),
    # The hearing's record: a director, or a member sitting on the case.
    ("attendance", "heard", data(player=player(0)), allowed("hearing_record"), "403", True),
    ("hearing-notes", "heard", data(notes="The scribe's record"), allowed("hearing_record"), "403", True),
    # The chief director answers the body's recommendation.
    (
        "respond",
        "decided",
        data(recommendation=recommendation, accepted="no", response="Declined"),
        allowed("respond"),
        "403",
        True,
    ),
    ("return-deposit", "decided", data(deposit=deposit), allowed("deposit"), "403", True),
    ("law-to-body", "decided", data(part=law_part), allowed("appeal_law_decision"), "403", True),
    ("further", "decided", data(player=player(0), grounds="We go on"), allowed("further_appeal"), "403", True),
    ("forfeit-deposit", "further", data(deposit=deposit, reason="Without merit"), allowed("deposit"), "403", True),
    # The authority's national officer forms its body; in "further" it is formed already, so his
    # post is refused by name (302, nothing written), anyone else's as a person (403).
    (
        "further-body",
        "further",
        data(members=lambda w, t: [body_member(w, t)]),
        allowed("national_body"),
        "403",
        True,
        False,
    ),
    # Only the regulating authority's body decides, and nobody of the matrix sits on it.
    (
        "decide-further",
        "further",
        data(**{"further-decision": "uphold", "further-reasons": "It stands"}),
        set(),
        "403",
        True,
    ),
    # The director in charge unlocks agreed statements: none are locked here, so the step is
    # refused on the page (302, nothing written) to him, and to everyone else as a person (403).
    ("unlock-statements", "new", data(reason="East misremembered"), allowed("unlock_statements"), "403", True, False),
    # The director (or a sitting member) refers the case to the regulating authority.
    (
        "refer-further",
        "decided",
        data(origin="director", grounds="A question of principle"),
        allowed("further_appeal"),
        "403",
        True,
    ),
]
for step, case, values, may, refuse, superuser_may, *wrote in PAGE_STEPS:
    PAGE_ROWS.append(
        write(
            f"case-{step}",
            "POST",
            both(f"appeal:{case}"),
            values,
            api=PAGE,
            reads=reads_appeal,
            may=may,
            success=302,
            refuse=refuse,
            superuser=superuser_may,
            writes=wrote[0] if wrote else None,
        )
    )
    # A step is a POST; a GET only goes back to the case, whoever asks.
    PAGE_ROWS.append(goes_back_on_get(f"case-{step}", f"appeal:{case}"))


API_ROWS = []
# The API: appeals, one endpoint per step (appeals/api.py): action, case, data, who, refusal.
API_STEPS = [
    ("concurrence", "new", data(player=player(1), how="in_person"), allowed("concurrence"), "403", True),
    ("deposit", "new", data(), allowed("deposit"), "403", True),
    ("statements", "new", data(respondents_statement="They hesitated"), allowed("statements"), "403", True),
    (
        "lock-statements",
        "new",
        data(agreed_by=lambda w, t: [player(0)(w, t), player(4)(w, t)]),
        allowed("statements"),
        "403",
        True,
    ),
    ("withdrawal", "new", data(player=player(0), reason="We think again"), allowed("withdrawal"), "403", True),
    ("constitute", "new", data(kind="referee", members=lambda w, t: [body_member(w, t)]), allowed("body"), "403", True),
    ("declare", "seated", data(conflict=""), allowed("seat"), "403", superuser("seat", "403")),
    ("recuse", "seated", data(reason="I know them"), allowed("seat"), "403", superuser("seat", "403")),
    (
        "decide-law-part",
        "seated",
        data(part=law_part, outcome="uphold", reasons="70D1 was applied"),
        allowed("law_part"),
        "403",
        True,
    ),
    (
        "schedule",
        "heard",
        data(starts_at=lambda w, t: later(2), mode="in_person", place="Room 2"),
        allowed("hearing"),
        "403",
        True,
    ),
    # The chief director gives an open case more time to be decided (its "decide by").
    (
        "extend-decision",
        "heard",
        data(until=lambda w, t: later(30), reason="The score was posted again"),
        allowed("extend_decision"),
        "403",
        True,
    ),
    # The hearing's record: a director, or a member sitting on the case (its scribe).
    ("attendance", "heard", data(hearing=hearing, player=player(0)), allowed("hearing_record"), "403", True),
    (
        "hearing-notes",
        "heard",
        data(hearing=hearing, notes="North spoke first"),
        allowed("hearing_record"),
        "403",
        True,
    ),
    ("vote", "heard", data(outcome="uphold"), allowed("seat"), "403", superuser("seat", "403")),
    ("decide", "heard", data(outcome="uphold", reasons="The claim stands"), allowed("decision"), "403", True),
    ("recommendation", "heard", data(about="law", text="Look at 70D1 again"), allowed("recommendation"), "403", True),
    ("accept-withdrawal", "heard", data(), allowed("decision"), "403", True),
    ("return-deposit", "decided", data(deposit=deposit), allowed("deposit"), "403", True),
    ("without-merit", "decided", data(reasons="No case was made"), allowed("decision"), "403", True),
    ("further-appeal", "decided", data(player=player(0), grounds="We go on"), allowed("further_appeal"), "403", True),
    ("appeal-law-decision", "decided", data(part=law_part), allowed("appeal_law_decision"), "403", True),
    (
        "respond-to-recommendation",
        "decided",
        data(recommendation=recommendation, accepted=True, response="Agreed"),
        allowed("respond"),
        "403",
        True,
    ),
    ("forfeit-deposit", "further", data(deposit=deposit, reason="Without merit"), allowed("deposit"), "403", True),
    # Only the regulating authority's body decides, and nobody of the matrix sits on it.
    ("decide-further-appeal", "further", data(outcome="uphold", reasons="The decision stands"), set(), "403", True),
]
API_ROWS += [
    listing("appeal-list", [(t, reads_appeal) for t in ("appeal:new@A",) + APPEAL_READS], api=API),
    read("appeal-detail", APPEAL_READS, reads_appeal, api=API, detail=True),
    write(
        "appeal-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, player=player(0), grounds="We object"),
        api=API,
        reads=reads_ruling,
        may=allowed("lodge"),
        success=201,
        refuse="403",
        path=fixed("appeal-list"),
    ),
    write(
        "appeal-extension-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, until=lambda w, t: later(3), reason="They were not told (Law 83)"),
        api=API,
        reads=reads_ruling,
        may=allowed("extend_period"),
        success=201,
        refuse="403",
        path=fixed("appeal-extension-list"),
    ),
    # Issue #44: a player's memo, as on the memo page (a player of the table for themselves, a
    # director at the desk naming the player); the case's filings are read with its detail.
    write(
        "appeal-memo-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, text="East hesitated before passing", player=player(0)),
        api=API,
        reads=reads_ruling,
        may=allowed("file_memo"),
        success=201,
        refuse="403",
        path=fixed("appeal-memo-list"),
    ),
    # Issue #44: a player's request to appeal, as on their page: theirs alone to make.
    write(
        "appeal-request-list",
        "POST",
        both("ruling:free"),
        data(ruling=lambda w, t: t.pk, grounds="The hesitation was not clear"),
        api=API,
        reads=reads_ruling,
        may=allowed("request_appeal"),
        success=201,
        refuse="403",
        superuser=superuser("request_appeal", "403"),
        path=fixed("appeal-request-list"),
    ),
]
for action, case, values, may, refuse, superuser_may in API_STEPS:
    API_ROWS.append(
        write(
            f"appeal-{action}",
            "POST",
            both(f"appeal:{case}"),
            values,
            api=API,
            reads=reads_appeal,
            may=may,
            success=200,
            refuse=refuse,
            superuser=superuser_may,
        )
    )
# As on the page: the body of "seated" has its one member, so the chief director's appointment is
# refused by name (409: the case's state does not allow it; nothing written), anyone else as a person (403).
# As on the page: the hearing of "heard" has begun, so sitting early is refused by the case's
# state (409, nothing written) to whoever may record the hearing, anyone else as a person (403).
API_ROWS.append(
    write(
        "appeal-sit-early",
        "POST",
        both("appeal:heard"),
        data(reason="Every side is here"),
        api=API,
        reads=reads_appeal,
        may=allowed("hearing_record"),
        success=409,
        writes=False,
    )
)
API_ROWS.append(
    write(
        "appeal-appoint",
        "POST",
        both("appeal:seated"),
        data(member=body_member),
        api=API,
        reads=reads_appeal,
        may=allowed("body"),
        success=409,
        writes=False,
    )
)
# The body's word on a late appeal (issue #44), as on the page: the case of "heard" was lodged in
# time, so a member sitting on it is refused by the case (409, nothing written), anyone else as a
# person (403).
API_ROWS.append(
    write(
        "appeal-validity",
        "POST",
        both("appeal:heard"),
        data(filing=lambda w, t: t.obj.filings.get().pk, valid="no", reason="Lodged late"),
        api=API,
        reads=reads_appeal,
        may=allowed("validity"),
        success=409,
        writes=False,
    )
)
# A referral further is the director's or the body's, checked by the service.
API_ROWS += [
    write(
        "appeal-further-appeal",
        "POST",
        both("appeal:decided"),
        data(origin="director", grounds="Refer it"),
        api=API,
        reads=reads_appeal,
        may=allowed("further_appeal"),
        success=200,
        refuse="403",
        label="director",
    ),
    write(
        "appeal-further-appeal",
        "POST",
        both("appeal:decided"),
        data(origin="body", grounds="Refer it"),
        api=API,
        reads=reads_appeal,
        may=allowed("refer_further"),
        success=200,
        refuse="403",
        label="body",
    ),
]
