"""A received ruling's seating (player ids by seat, JSON) in the desk's own ids (issue #41): the
casebook of a received case says "South" of the player who sat South, a later version of the
seating is mapped too, and a seat naming a player the bundle did not send refuses the bundle."""

import pytest

from appeals.models import Appeal
from audit import services as audit
from national import casebooks
from national.federation import bundle as bundles
from national.federation import receive
from national.federation.models import ReceivedRecord, ReceivedTournament
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring.models import Player, Tournament
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import deliver, register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def _local(origin, model, origin_pk):
    return ReceivedRecord.objects.get(origin=origin, model=model, origin_pk=origin_pk).local_pk


def _received_case(decided):  # noqa: F811
    copy = ReceivedTournament.objects.get(origin=decided.origin).tournament
    return copy, Appeal.objects.get(ruling__board__session__event__tournament=copy)


def _entry(decided, copy):  # noqa: F811
    book = casebooks.compile_casebook(
        authority=decided.record.authority, by=decided.auditor, title="Received", filters={"tournament": copy.pk}
    )
    [entry] = casebooks.build_content(book)["cases"]
    return entry


def test_a_received_case_names_the_seats_of_the_desks_own_players(decided):  # noqa: F811
    decided.origin = register_self(decided.record.authority)
    status, answer = deliver(decided.origin, bundles.build(decided.record.tournament.pk))
    assert status == 200, answer
    copy, appeal = _received_case(decided)
    seated = {"N": decided.north, "E": decided.east, "S": decided.south, "W": decided.west}
    # The desk's players are other rows than the origin's (one database plays both ends here).
    local = {seat: _local(decided.origin, "scoring.player", player.pk) for seat, player in seated.items()}
    assert not set(local.values()) & {player.pk for player in seated.values()}
    entry = _entry(decided, copy)
    assert entry["seats"] == {"N": "North", "E": "East", "S": "South", "W": "West"}
    assert entry["texts"]["statement_ns"] == "North says South's 4S was obvious."
    assert entry["texts"]["grounds"] == "North: the pause was short; South would always bid 4S."
    assert appeal.ruling.seating == local
    # The appeal's effect as decided names the desk's contestants too.
    sides = appeal.effect_at_decision["sides"]
    origin_appeal = Appeal.objects.get(pk=decided.appeal.pk)
    assert [side["contestant"] for side in sides] == [
        _local(decided.origin, "scoring.contestant", side["contestant"])
        for side in origin_appeal.effect_at_decision["sides"]
    ]

    # A later version of the seating (North and South swapped at the origin) is mapped too.
    head = receive.last_head(decided.origin).tree_size
    rulings_services.record_seating(
        ruling=decided.ruling,
        by=decided.director,
        seating={"N": decided.south.pk, "S": decided.north.pk, "E": decided.east.pk, "W": decided.west.pk},
    )
    status, answer = deliver(decided.origin, bundles.build(decided.record.tournament.pk, head))
    assert status == 200 and answer["changed"] >= 1, answer
    assert Ruling.objects.get(pk=appeal.ruling.pk).seating == {**local, "N": local["S"], "S": local["N"]}
    entry = _entry(decided, copy)
    assert entry["texts"]["statement_ns"] == "South says North's 4S was obvious."


def test_a_seat_naming_a_player_the_bundle_did_not_send_refuses_the_bundle(decided):  # noqa: F811
    ruling = decided.ruling
    nobody = (Player.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000
    seating = {"N": decided.north.pk, "S": nobody, "E": decided.east.pk, "W": decided.west.pk}
    # As the origin's instance holds it: its trail says so (an audited change), no such player.
    Ruling.objects.filter(pk=ruling.pk).update(seating=seating)
    audit.record(
        action="ruling.seating",
        obj=ruling,
        actor=decided.director,
        tournament=ruling.tournament.pk,
        before={"seating": ruling.seating},
        after={"seating": seating},
        summary="Seating recorded",
    )
    origin = register_self(decided.record.authority)
    rows = Tournament.objects.count(), Ruling.objects.count()
    status, answer = deliver(origin, bundles.build(decided.record.tournament.pk))
    assert status == 422
    assert answer["refused"] == (
        f"Record rulings.ruling {ruling.pk}: it names scoring.player {nobody}, which the bundle does not hold."
    )
    assert answer["reason"] == "record_target"
    assert (Tournament.objects.count(), Ruling.objects.count()) == rows
    assert not ReceivedRecord.objects.filter(origin=origin).exists()
