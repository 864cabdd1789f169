"""Tempo evidence on a ruling (issue #44): the director enters how long a call took, where the time
comes from and its ±, on the irregularity page where the auction is entered or put right
(rulings.services.record_call_tempo, bridge.tempo); every bad input is refused naming its field;
the time is shown in words in the auction's notes on the ruling page, in the reader's language.
A PBN with BBO Helper's ``[AuctionTimeTable]`` brings its call times with it.

The field's table X (tests/rulings/test_revoke_rulings.py): North 1S, East Pass, South 4S, West
Pass (call 4), then passes."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import open_ruling

WEST_PASS = "West Pass \u2014 tempo: 22 s \u00b1 1 s (online platform record; includes network delay)"


def _ruling(field, director):
    return open_ruling(field, director, kind=Ruling.Kind.UNAUTHORISED_INFORMATION)


def _call(ruling, number):
    return Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction).calls[number - 1]


def test_the_director_enters_a_calls_time_with_its_source_and_uncertainty_on_the_phone(client, field, director):
    ruling = _ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    page = client.get(url).content.decode()
    # The call chosen from the auction's list, by its number, seat and call.
    assert '<option value="4">4 · West Pass</option>' in page
    assert '<option value="online">online platform record; includes network delay</option>' in page
    answer = client.post(
        url,
        {
            "action": "tempo",
            "tempo_call": "4",
            "tempo_seconds": "22",
            "tempo_uncertainty": "1",
            "tempo_source": "online",
        },
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#tempo-entry")
    call = _call(ruling, 4)
    assert (call.call, call.tempo_seconds, call.tempo_source, call.tempo_uncertainty) == ("Pass", 22, "online", 1)
    assert AuditEntry.objects.filter(action="ruling.call_tempo").exists()
    # In words, on the auction's notes of the ruling page and of the irregularity page.
    shown = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert f'<li value="1">{WEST_PASS}</li>' in shown
    assert WEST_PASS in client.get(url).content.decode()
    # Seconds left empty take the time away.
    client.post(url, {"action": "tempo", "tempo_call": "4", "tempo_seconds": "", "tempo_source": ""})
    call = _call(ruling, 4)
    assert (call.tempo_seconds, call.tempo_source, call.tempo_uncertainty) == (None, "", None)


@pytest.mark.parametrize(
    "sent, field_name, message",
    [
        (
            {"tempo_seconds": "-5", "tempo_source": "director"},
            "tempo_seconds",
            "Seconds: a call's time is 0 seconds or more, not -5.",
        ),
        (
            {"tempo_seconds": "7200", "tempo_source": "director"},
            "tempo_seconds",
            "Seconds: 7200 s is more than an hour; give the call's time in seconds.",
        ),
        (
            {"tempo_seconds": "5", "tempo_uncertainty": "20", "tempo_source": "player"},
            "tempo_uncertainty",
            "Uncertainty: ± 20 s is more than the time itself (5 s); such a time says nothing.",
        ),
        (
            {"tempo_seconds": "5", "tempo_uncertainty": "-1", "tempo_source": "player"},
            "tempo_uncertainty",
            "Uncertainty: ± is 0 seconds or more, not -1.",
        ),
        (
            {"tempo_seconds": "", "tempo_uncertainty": "2", "tempo_source": "player"},
            "tempo_seconds",
            "Seconds: give the call's time that the source and uncertainty are of.",
        ),
        (
            {"tempo_seconds": "twenty", "tempo_source": "player"},
            "tempo_seconds",
            "Seconds: write the call's time as a whole number, e.g. 22.",
        ),
        (
            {"tempo_seconds": "20", "tempo_source": "stopwatch"},
            "tempo_source",
            "Source: choose where the time comes from in the list.",
        ),
        ({"tempo_call": "9", "tempo_seconds": "20"}, "tempo_call", "Call: choose the timed call from the list."),
    ],
)
def test_every_bad_input_is_refused_on_the_page_naming_its_field(client, field, director, sent, field_name, message):
    ruling = _ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    answer = client.post(url, {"action": "tempo", "tempo_call": "4", **sent})
    assert answer.status_code == 200
    form = answer.context["tempo_form"]
    assert form.errors[field_name] == [message]
    page = answer.content.decode()
    assert message.replace("'", "&#x27;") in page and 'id="tempo-entry" open' in page
    assert _call(ruling, 4).tempo_seconds is None


@pytest.mark.parametrize(
    "kwargs, field_name, message",
    [
        (
            {"source": "hunch"},
            "tempo_source",
            "Source: 'hunch' is not a source of a call's time; choose one of the list.",
        ),
        ({"call_number": 7}, "tempo_call", "Call: the auction has calls 1 to 6; choose the timed call."),
        (
            {"uncertainty": "1.5"},
            "tempo_uncertainty",
            "Uncertainty: write it as whole seconds (the ± of the time), e.g. 1.",
        ),
    ],
)
def test_the_service_refuses_what_the_page_cannot_send(field, director, kwargs, field_name, message):
    ruling = _ruling(field, director)
    sent = {"call_number": 4, "seconds": 20, "source": "director", "uncertainty": 2, **kwargs}
    with pytest.raises(ValidationError) as refused:
        services.record_call_tempo(ruling=ruling, by=director, **sent)
    assert refused.value.message_dict == {field_name: [message]}


def test_the_time_reads_in_hebrew_and_stays_when_the_auction_is_put_right(client, field, director):
    ruling = _ruling(field, director)
    services.record_call_tempo(ruling=ruling, by=director, call_number=4, seconds=22, source="online", uncertainty=1)
    ruling = Ruling.objects.get(pk=ruling.pk)
    # Put right after the timed call: the calls before the change keep their time.
    services.enter_auction(ruling=ruling, by=director, calls="1S P 4S P P X P P P".split())
    call = _call(ruling, 4)
    assert (call.tempo_seconds, call.tempo_source, call.tempo_uncertainty) == (22, "online", 1)
    client.force_login(director)
    with translation.override("he"):
        page = client.get(reverse("rulings:ruling", args=[ruling.pk]), HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert "קצב: 22 שניות ± 1 שניות (רישום של פלטפורמה מקוונת; כולל השהיית רשת)" in page
    assert "online platform record" not in page


def test_a_pbn_with_bbo_helpers_call_times_brings_them_to_the_ruling(client, field, director):
    """BBO Helper's PBN export: ``[Site "BBO"]`` and ``[AuctionTimeTable "N"]``, whole seconds
    each call took as BBO's traffic reached the player's browser (network delay included), 0 for
    a call it did not time."""
    ruling = _ruling(field, director)
    record = Auction.from_dict(ruling.auction)
    assert [c.call for c in record.calls] == ["1S", "Pass", "4S", "Pass", "Pass", "Pass"]
    client.force_login(director)
    pbn = client.get(reverse("rulings:ruling-pbn", args=[ruling.pk])).content.decode()  # the ruling's PBN
    pbn = pbn.replace('[Board "1"]', '[Site "BBO"]\n[Board "1"]')
    pbn += '[AuctionTimeTable "N"]\n 3  0  8 22\n 1  1\n'
    services.attach_deal_and_auction(ruling=ruling, record=services.read_deal_source(pbn, ruling), by=director)
    calls = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction).calls
    assert [(c.tempo_seconds, c.tempo_source, c.tempo_uncertainty) for c in calls] == [
        (3, "online", 1),
        (None, "", None),
        (8, "online", 1),
        (22, "online", 1),
        (1, "online", 1),
        (1, "online", 1),
    ]
    shown = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert WEST_PASS in shown
    # The ruling's own PBN keeps them in the calls' notes, read back the same.
    again = client.get(reverse("rulings:ruling-pbn", args=[ruling.pk])).content.decode()
    assert '[Note "3:not alerted; tempo: 22 s \u00b1 1 s (online)"]' in again
    assert services.read_deal_source(again, ruling).auction.calls == calls
