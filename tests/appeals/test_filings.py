"""Every filing received (issue #44): a request to appeal, an appeal and a player's memo each get a
number, the time received and who received it; a late appeal is received, never turned away at
the desk, and the body hearing it records whether it is valid, with its reason; the filer's
acknowledgement names the next deadline, in the language they filed in."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from appeals import services
from appeals.models import Appeal, AppealEvent, AppealRequest, Filing
from rulings.models import Ruling
from tests.appeals.conftest import DEADLINE, SOON, at, committee, lodge, vote_all
from tests.conftest import make_user
from tests.test_translations import compiled  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

LATE = DEADLINE + datetime.timedelta(minutes=5)


def late_case(case, now=LATE):
    """North's appeal lodged five minutes after the period, South's concurrence, a committee
    constituted and a hearing that has begun."""
    appeal = lodge(case, now=now)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=now)
    body = committee(case, appeal, now=now)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=now, place="Room 2", now=now)
    return appeal, body


def test_a_late_appeal_waits_for_the_body_to_decide_validity_before_its_merits(case):
    appeal, body = late_case(case)
    vote_all(body, "uphold", now=LATE)
    with pytest.raises(ValidationError) as refused:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands", now=LATE)
    assert "the body first decides whether it is valid" in refused.value.message_dict["validity"][0]
    filing = appeal.filings.get()
    services.record_validity(
        filing=filing, by=case.members[0], valid=True, reason="The director did not announce the period", now=LATE
    )
    filing.refresh_from_db()
    assert (filing.validity, filing.validity_by, filing.validity_at) == ("valid", case.members[0], LATE)
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands", now=LATE)
    assert Appeal.objects.get(pk=appeal.pk).state == "decided"
    note = AppealEvent.objects.get(appeal=appeal, action="validity").text
    assert note == "Filing 1, received late, is valid (the body): The director did not announce the period"


def test_the_body_finds_a_late_appeal_not_valid_and_the_ruling_stands(case):
    appeal, _body = late_case(case)
    services.record_validity(
        filing=appeal.filings.get(), by=case.members[1], valid=False, reason="Lodged after the players left", now=LATE
    )
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.OUT_OF_TIME and not appeal.is_open
    assert Ruling.objects.get(pk=case.ruling.pk).state == Ruling.State.GIVEN
    with pytest.raises(ValidationError, match="is not heard: lodged out of time"):
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands", now=LATE)


@pytest.mark.parametrize("who", ["director", "chief", "outsider"])
def test_the_desk_never_decides_validity(case, who):
    appeal, _body = late_case(case)
    user = {"director": case.director, "chief": case.chief, "outsider": case.members[3]}[who]
    with pytest.raises(PermissionDenied, match="Only a member sitting on the"):
        services.record_validity(filing=appeal.filings.get(), by=user, valid=False, reason="Late", now=LATE)
    assert appeal.filings.get().validity == "pending"


def test_validity_needs_a_reason_and_a_late_filing(case):
    appeal, _body = late_case(case)
    with pytest.raises(ValidationError) as refused:
        services.record_validity(filing=appeal.filings.get(), by=case.members[0], valid=True, reason=" ", now=LATE)
    assert list(refused.value.message_dict) == ["reason"]
    in_time = lodge(case, player=case.east, now=SOON)
    committee(case, in_time)
    with pytest.raises(ValidationError) as refused:
        services.record_validity(filing=in_time.filings.get(), by=case.members[0], valid=True, reason="ok", now=SOON)
    assert "was not received late" in refused.value.message_dict["validity"][0]


def test_an_appeal_in_time_is_numbered_timed_and_acknowledged_with_the_next_deadline(case):
    appeal = lodge(case, now=SOON)
    filing = appeal.filings.get()
    assert (filing.number, filing.kind, filing.validity, filing.received_by) == (1, "appeal", "in_time", case.director)
    assert filing.acknowledgement("en") == (
        "Filing 1 (appeal) received at 21:10 on 1 May 2026 BST (Europe/London) by Dana Director. "
        "Next deadline: the case is to be decided by 10:00 on 2 May 2026 BST (Europe/London)."
    )


def test_the_acknowledgement_is_in_the_filers_language(case):
    filing = lodge(case, now=LATE, language="el").filings.get()
    assert filing.language == "el"
    assert filing.acknowledgement() != filing.acknowledgement("en")
    assert "Dana Director" in filing.acknowledgement()
    with pytest.raises(ValidationError) as refused:
        lodge(case, player=case.east, now=SOON, language="xx")
    assert "'xx' is not a language of this system" in refused.value.message_dict["language"][0]


@pytest.fixture
def north_user(case):
    case.north.user = make_user("north")
    case.north.save(update_fields=["user"])
    return case.north.user


def test_a_late_request_is_received_and_cannot_be_declined_at_the_desk(case, north_user):
    request = services.request_appeal(ruling=case.ruling, player=case.north, by=north_user, grounds="No LA", now=LATE)
    filing = Filing.objects.get(request=request)
    assert (filing.kind, filing.validity, filing.received_by) == ("request", "pending", north_user)
    assert "ended at 21:30 on 1 May 2026 BST (Europe/London)" in filing.acknowledgement("en")
    with pytest.raises(ValidationError, match="the desk does not turn it away"):
        services.decline_request(request=request, by=case.director, reason="Too late", now=LATE)
    appeal = services.lodge_requested(request=request, by=case.director, now=at(40))
    filing.refresh_from_db()
    assert filing.appeal == appeal and Filing.objects.count() == 1  # one paper, one number
    assert AppealRequest.objects.get().state == "lodged"


def test_a_memo_takes_the_next_number_and_joins_the_open_case(case, north_user):
    appeal = lodge(case, now=SOON)
    memo = services.file_memo(ruling=case.ruling, player=case.north, by=north_user, text="East hesitated", now=at(12))
    assert (memo.number, memo.kind, memo.validity, memo.appeal) == (2, "memo", "no_period", appeal)
    assert AppealEvent.objects.filter(appeal=appeal, action="memo").exists()
    desk = services.file_memo(ruling=case.ruling, player=case.east, by=case.director, text="I did not", now=at(13))
    assert (desk.number, desk.received_by) == (3, case.director)
    with pytest.raises(PermissionDenied):
        services.file_memo(ruling=case.ruling, player=case.east, by=north_user, text="For East", now=at(14))
    with pytest.raises(ValidationError) as refused:
        services.file_memo(ruling=case.ruling, player=case.north, by=north_user, text="  ", now=at(14))
    assert list(refused.value.message_dict) == ["text"]


def test_the_register_lists_every_filing_for_the_directors_only(case, north_user, client):
    lodge(case, now=LATE)
    services.file_memo(ruling=case.ruling, player=case.north, by=north_user, text="East hesitated", now=at(40))
    url = reverse("appeals:filings", args=[case.record.tournament.pk])
    client.force_login(case.director)
    page = client.get(url).content.decode()
    assert 'id="filing-1"' in page and 'id="filing-2"' in page
    assert "Late: the body decides whether it is valid" in page
    client.force_login(north_user)
    assert client.get(url).status_code == 403


def test_the_body_records_validity_on_the_case_page(case, client):
    appeal, _body = late_case(case)
    client.force_login(case.members[0])
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert 'id="validity-form"' in page
    response = client.post(
        reverse("appeals:case-validity", args=[appeal.pk]),
        {"filing": appeal.filings.get().pk, "valid": "no", "reason": "Filed the next morning"},
    )
    assert response.status_code == 302
    assert Appeal.objects.get(pk=appeal.pk).state == "out_of_time"
    client.force_login(case.director)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert "Filed the next morning" in page and 'id="validity-form"' not in page


def test_a_request_received_in_time_stays_in_time_when_lodged_after_the_period(case, north_user):
    request = services.request_appeal(ruling=case.ruling, player=case.north, by=north_user, grounds="No LA", now=SOON)
    appeal = services.lodge_requested(request=request, by=case.director, now=LATE)
    assert appeal.filings.get().validity == "in_time"
    assert "the body decides whether it is valid" not in AppealEvent.objects.get(appeal=appeal, action="lodged").text
    assert appeal.lodged_at == LATE


def test_in_hebrew_the_acknowledgements_times_are_isolated_left_to_right(case, compiled):  # noqa: F811
    """A Hebrew case page drew "(CEST (Europe/Amsterdam" for the time a filing was received: each
    time inside the acknowledgement's sentence is isolated (LRI ... PDI), in Hebrew only (issue #42)."""
    filing = lodge(case, now=LATE, language="he").filings.get()
    assert "\u20661 במאי 2026 21:35 BST (Europe/London)\u2069" in filing.acknowledgement()
    assert "\u2066" not in filing.acknowledgement("en")


def test_in_hebrew_a_decisions_score_in_the_timeline_is_isolated_left_to_right(compiled):  # noqa: F811
    """A Hebrew case's timeline drew "הפסיקה שונתה: =4S E -1 / 0.2 4S E" for a varied weighted
    score: the score inside the note's sentence is isolated, in Hebrew only (issue #42)."""
    from django.utils import translation

    from core.texts import render

    params = {"outcome": "vary", "score": "weighted 0.8 4S E -1 / 0.2 4S E ="}
    with translation.override("he"):
        assert render("appeals.decided_score", params).endswith("\u2066משוקלל 0.8 4S E -1 / 0.2 4S E =\u2069")
    with translation.override("en"):
        assert render("appeals.decided_score", params) == "Ruling varied: weighted 0.8 4S E -1 / 0.2 4S E ="
