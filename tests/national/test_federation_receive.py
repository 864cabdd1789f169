"""A tournament published to the national body and received, in one process (issue #32): the
bundle stored in the desk's own models, sent twice with nothing doubled, a record changed at the
origin arriving as a new version the trail shows, a bundle tampered with refused whole, and the
case's inclusion proofs."""

import pytest
from django.urls import reverse

from appeals.models import Appeal
from audit.models import AuditEntry
from core import policy
from national import casebooks, precedent_selectors, precedents, selectors
from national.federation import bundle as bundles
from national.federation import receive
from national.federation.models import ReceivedEntry, ReceivedRecord, ReceivedTournament, ReceivedVersion
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring.models import Tournament
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import deliver, register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(decided):  # noqa: F811
    origin = register_self(decided.record.authority)
    bundle = bundles.build(decided.record.tournament.pk)
    status, answer = deliver(origin, bundle)
    assert status == 200, answer
    decided.origin, decided.bundle, decided.answer = origin, bundle, answer
    return decided


def test_the_tournament_arrives_in_the_desks_own_models(sent):
    received = ReceivedTournament.objects.get(origin=sent.origin)
    copy = received.tournament
    assert copy.pk != sent.record.tournament.pk and copy.name == sent.record.tournament.name
    assert Ruling.objects.filter(board__session__event__tournament=copy).count() == 1
    appeal = Appeal.objects.get(ruling__board__session__event__tournament=copy)
    assert appeal.state == Appeal.State.DECIDED and appeal.hearings.count() == 1
    assert received.head.tree_size == sent.bundle["head"]["tree_size"]
    assert ReceivedEntry.objects.filter(origin=sent.origin).count() == len(sent.bundle["entries"])
    assert sent.answer["created"] == len(sent.bundle["records"]) and sent.answer["changed"] == 0
    # The desk's search and casebooks read it like its own tournaments.
    assert list(selectors.search_rulings(sent.auditor, tournament=copy.pk, law="16B")) == [appeal.ruling]
    book = casebooks.compile_casebook(
        authority=sent.record.authority, by=sent.auditor, title="Received", filters={"tournament": copy.pk}
    )
    assert [case.appeal for case in book.cases.all()] == [appeal]
    figures = selectors.national_statistics(sent.auditor, tournament=copy.pk)
    assert (figures["ruling_count"], figures["appeal_count"]) == (1, 1)
    casebooks.publish_casebook(casebook=book, by=sent.auditor)
    precedents.index_casebook(book.pk)
    assert [case.appeal for case in precedent_selectors.search(sent.auditor, law="16B")] == [appeal]


def test_sending_twice_changes_nothing(sent):
    rows = ReceivedVersion.objects.count(), Ruling.objects.count(), Tournament.objects.count()
    status, answer = deliver(sent.origin, sent.bundle)
    assert (status, answer) == (200, sent.answer)
    again = bundles.build(sent.record.tournament.pk, sent.bundle["head"]["tree_size"])
    status, answer = deliver(sent.origin, again)
    assert status == 200 and answer["created"] == 0 and answer["changed"] == 0
    assert (ReceivedVersion.objects.count(), Ruling.objects.count(), Tournament.objects.count()) == rows


def test_a_ruling_changed_at_the_origin_arrives_as_a_new_version(sent):
    rulings_services.change_ruling(
        ruling=sent.ruling, by=sent.director, reason="facts corrected", facts="North paused for 12 seconds."
    )
    again = bundles.build(sent.record.tournament.pk, sent.bundle["head"]["tree_size"])
    status, answer = deliver(sent.origin, again)
    assert status == 200 and answer["changed"] >= 1 and answer["created"] >= 1  # the ruling's revision is new
    record = ReceivedRecord.objects.get(origin=sent.origin, model="rulings.ruling", origin_pk=sent.ruling.pk)
    assert record.version == 2
    assert Ruling.objects.get(pk=record.local_pk).facts == "North paused for 12 seconds."
    assert [v.version for v in record.versions.all()] == [1, 2]
    entry = AuditEntry.objects.filter(action="federation.record_version", object_id=str(record.local_pk)).get(
        object_type="rulings.ruling"
    )
    assert entry.after["facts"] == "North paused for 12 seconds." and entry.before["facts"] != entry.after["facts"]


def test_a_bundle_tampered_with_is_refused_whole_naming_the_entry(decided):  # noqa: F811
    origin = register_self(decided.record.authority)
    bundle = bundles.build(decided.record.tournament.pk)
    victim = bundle["entries"][3]
    victim["summary"] = victim["summary"] + " (altered)"
    before = Tournament.objects.count(), ReceivedRecord.objects.count()
    status, answer = deliver(origin, bundle)
    assert status == 422
    assert answer == {
        "refused": f"Entry #{victim['sequence']} ({victim['action']}): its content does not match its hash.",
        "entry": victim["sequence"],
        "reason": "entry_hash",
        "params": {"sequence": victim["sequence"], "action": victim["action"], "size": bundle["head"]["tree_size"]},
    }
    assert (Tournament.objects.count(), ReceivedRecord.objects.count()) == before
    assert not ReceivedEntry.objects.exists()


def test_a_record_changed_on_the_way_fails_the_bundles_signature(decided):  # noqa: F811
    origin = register_self(decided.record.authority)
    bundle = bundles.build(decided.record.tournament.pk)
    ruling = next(row for row in bundle["records"] if row["model"] == "rulings.ruling")
    ruling["fields"]["facts"] = "Nothing happened."
    status, answer = deliver(origin, bundle)
    assert status == 422
    assert answer["refused"] == (
        "The bundle's signature does not verify with the key registered for Spring Congress: it was changed on the way."
    )
    assert not ReceivedRecord.objects.exists()


def test_an_auditor_asks_the_origins_inclusion_proof_of_a_case(sent, client):
    record = ReceivedRecord.objects.get(origin=sent.origin, model="rulings.ruling", origin_pk=sent.ruling.pk)
    client.force_login(sent.auditor)
    answer = client.get(reverse("national:federation-proof", args=[record.local_pk])).json()
    assert answer["origin"] == "Spring Congress" and answer["entries"]
    assert all(entry["verified"] for entry in answer["entries"])
    assert {"appeal.lodged", "ruling.given"} & {entry["action"] for entry in answer["entries"]}


def test_the_desk_shows_where_each_tournament_came_from(sent, client):
    client.force_login(sent.auditor)
    page = client.get(reverse("national:federation")).content.decode()
    assert "Spring Congress" in page and sent.record.tournament.name in page
    assert f"{sent.bundle['head']['tree_size']} entries, key {sent.origin.key_id}" in page


def test_only_the_bodys_auditors_read_the_desk_and_only_a_chief_director_publishes(sent, client):
    client.force_login(sent.director)
    assert client.get(reverse("national:federation")).status_code == 403
    assert client.get(reverse("national:federation-outbox")).status_code == 403
    tournament = sent.record.tournament
    assert client.post(reverse("national:federation-publish", args=[tournament.pk])).status_code == 403
    client.force_login(sent.chief)
    page = client.get(reverse("national:federation-outbox")).content.decode()
    assert "Nothing sent yet." in page and tournament.name in page
    token = sent.origin.tokens.create(digest="0" * 64, prefix="bct_abcd")
    client.force_login(sent.director)
    assert client.post(reverse("national:federation-revoke", args=[token.pk])).status_code == 403
    client.force_login(sent.auditor)
    assert client.post(reverse("national:federation-revoke", args=[token.pk])).status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_another_organisers_players_are_its_own_and_its_update_never_touches_the_first_ones(sent):
    """Issue #41: players were matched by membership number across instances, and the next
    version from another organiser's instance was written onto the shared row. A second
    instance sending players of the same numbers gets rows of its own (its numbers kept apart
    as ``<instance>~<number>``); its update changes its own row only."""
    from scoring.models import Player

    first = {
        record.origin_pk: Player.objects.get(pk=record.local_pk)
        for record in ReceivedRecord.objects.filter(origin=sent.origin, model="scoring.player")
    }
    assert first
    other = receive.register_origin(
        name="Harbour Open",
        slug="harbour",
        authority=sent.record.authority,
        public_key=bundles.public_key_pem(),
        by=policy.SYSTEM,
    )
    status, answer = deliver(other, bundles.build(sent.record.tournament.pk))
    assert status == 200, answer
    theirs = {
        record.origin_pk: Player.objects.get(pk=record.local_pk)
        for record in ReceivedRecord.objects.filter(origin=other, model="scoring.player")
    }
    assert set(theirs) == set(first)
    assert not {player.pk for player in theirs.values()} & {player.pk for player in first.values()}
    for origin_pk, player in theirs.items():
        # (One database plays both ends here: the origin's own players hold the numbers too.)
        number = Player.objects.get(pk=origin_pk).membership_number
        assert (first[origin_pk].membership_number, player.membership_number) == (
            f"congress~{number}",
            f"harbour~{number}",
        )
    # The second instance's next version of a player: its own row changes, the first's does not.
    origin_pk = min(theirs)
    Player.objects.filter(pk=origin_pk).update(first_name="Renamed")  # at the (shared) origin
    status, answer = deliver(other, bundles.build(sent.record.tournament.pk, other_head_size(other)))
    assert status == 200 and answer["changed"] == 1, answer
    assert Player.objects.get(pk=theirs[origin_pk].pk).first_name == "Renamed"
    assert Player.objects.get(pk=first[origin_pk].pk).first_name == first[origin_pk].first_name


def other_head_size(origin):
    return receive.last_head(origin).tree_size


def _signed_again(bundle):
    """The bundle as the organiser's own instance would sign it (it holds the key)."""
    from audit import signing

    bundle["signature"] = signing.private_key().sign(bundles.signed_part(bundle)).hex()
    return bundle


def _nothing_stored_since(origin, rows):
    assert (Tournament.objects.count(), Ruling.objects.count(), ReceivedVersion.objects.count()) == rows
    assert not ReceivedRecord.objects.filter(origin=origin, version__gt=1).exists()


def test_a_result_changed_by_sql_at_the_origin_is_refused_naming_it(decided):  # noqa: F811
    """Issue #41: a result changed by SQL at the origin (no audit entry) was published and
    stored. Its fields are not what its last entry says: refused, naming it, nothing stored."""
    from scoring.models import Result

    result = Result.objects.filter(board__session__event__tournament=decided.record.tournament).order_by("pk")[0]
    Result.objects.filter(pk=result.pk).update(tricks=(result.tricks or 0) + 1)
    origin = register_self(decided.record.authority)
    rows = Tournament.objects.count(), Ruling.objects.count(), ReceivedVersion.objects.count()
    status, answer = deliver(origin, bundles.build(decided.record.tournament.pk))
    assert status == 422
    assert answer["reason"] == "record_unaudited" and answer["params"]["field"] == "tricks"
    assert answer["refused"].startswith(
        f"Record scoring.result {result.pk}: its tricks is not what its last audit entry"
    )
    assert not ReceivedTournament.objects.filter(origin=origin).exists()
    _nothing_stored_since(origin, rows)


def test_an_audited_change_whose_entries_were_left_out_is_refused(sent):
    """Issue #41: an audited change whose entries the organiser left out of the bundle was
    stored. The ruling's fields are not what its last entry sent says: refused, naming it."""
    before = sent.bundle["head"]["tree_size"]
    rulings_services.change_ruling(
        ruling=sent.ruling, by=sent.director, reason="facts corrected", facts="North paused for 12 seconds."
    )
    again = bundles.build(sent.record.tournament.pk, before)
    left_out = [entry["sequence"] for entry in again["entries"] if entry["sequence"] > before]
    assert len(left_out) >= 1
    again["entries"] = [entry for entry in again["entries"] if entry["sequence"] <= before]
    rows = Tournament.objects.count(), Ruling.objects.count(), ReceivedVersion.objects.count()
    status, answer = deliver(sent.origin, _signed_again(again))
    assert status == 422 and answer["reason"] == "record_unaudited", answer
    assert answer["params"]["model"] == "rulings.ruling" and answer["params"]["pk"] == sent.ruling.pk
    record = ReceivedRecord.objects.get(origin=sent.origin, model="rulings.ruling", origin_pk=sent.ruling.pk)
    assert Ruling.objects.get(pk=record.local_pk).facts != "North paused for 12 seconds."
    _nothing_stored_since(sent.origin, rows)


def test_entries_received_before_and_left_out_are_refused_naming_them(sent):
    """Every entry of the tournament under the organiser's head arrives with each bundle: one
    received before and left out of the next is refused, named (issue #41)."""
    again = bundles.build(sent.record.tournament.pk, sent.bundle["head"]["tree_size"])
    dropped = again["entries"][1]["sequence"]
    again["entries"] = [entry for entry in again["entries"] if entry["sequence"] != dropped]
    rows = Tournament.objects.count(), Ruling.objects.count(), ReceivedVersion.objects.count()
    status, answer = deliver(sent.origin, _signed_again(again))
    assert status == 422 and answer["reason"] == "entries_omitted", answer
    assert answer["refused"] == (
        f"Entries received before for this tournament are missing from the bundle: #{dropped}. Every entry of "
        "the tournament must be sent."
    )
    _nothing_stored_since(sent.origin, rows)


@pytest.mark.django_db(transaction=True)
def test_concurrent_commits_of_one_bundle_answer_the_winners_result(decided, monkeypatch):  # noqa: F811
    """Issue #41: four concurrent commits of one bundle answered one 500 (IntegrityError). A
    commit takes the upload's lock: the others wait, then answer the stored result."""
    import hashlib
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one write transaction at a time: two commits cannot meet there")
    origin = register_self(decided.record.authority)
    data = bundles.canonical(bundles.build(decided.record.tournament.pk))
    digest = hashlib.sha256(data).hexdigest()
    receive.receive_part(origin, digest, 0, 1, data, by=policy.SYSTEM)
    together = threading.Barrier(2)
    real = receive._store

    def store_when_both_verified(*args, **kwargs):
        try:
            together.wait(timeout=3)  # both past the check, as at the same moment; locked: one alone
        except threading.BrokenBarrierError:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(receive, "_store", store_when_both_verified)
    answers = []

    def commit():
        try:
            answers.append(receive.commit(origin, digest, by=policy.SYSTEM))
        except Exception as error:  # noqa: BLE001 - the 500 a client saw
            answers.append((500, repr(error)))
        finally:
            connection.close()

    threads = [threading.Thread(target=commit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [status for status, _answer in answers] == [200, 200], answers
    assert answers[0][1] == answers[1][1] and answers[0][1]["stored"] is True
    assert ReceivedTournament.objects.filter(origin=origin).count() == 1


def test_an_instance_holds_at_most_its_cap_of_uncommitted_bundles(decided, settings):  # noqa: F811
    """Issue #41: uncommitted parts stayed 48 h with no cap per instance. Beyond
    FEDERATION_MAX_OPEN_UPLOADS, a new bundle's first part deletes the instance's oldest."""
    from national.federation.models import Upload, UploadPart

    settings.FEDERATION_MAX_OPEN_UPLOADS = 2
    origin = register_self(decided.record.authority)
    digests = [f"{n:064x}" for n in range(1, 4)]
    for digest in digests:
        receive.receive_part(origin, digest, 0, 2, b"half of a bundle", by=policy.SYSTEM)
    assert sorted(Upload.objects.filter(origin=origin).values_list("digest", flat=True)) == digests[1:]
    assert UploadPart.objects.filter(upload__origin=origin).count() == 2
    # A part of a bundle already open adds to it and deletes nothing.
    receive.receive_part(origin, digests[1], 1, 2, b"the other half", by=policy.SYSTEM)
    assert Upload.objects.filter(origin=origin).count() == 2


def test_a_part_that_cannot_be_kept_deletes_no_bundle_of_the_cap(decided, settings, monkeypatch):  # noqa: F811
    """Keeping a part is one transaction: the cap's deletion of the oldest bundle, the new
    upload and its part stand or fall together. (The cap's helper had taken receive_part's
    @transaction.atomic, so a part that failed to be kept left the oldest bundle deleted and an
    empty upload in its place.)"""
    from national.federation.models import Upload, UploadPart

    settings.FEDERATION_MAX_OPEN_UPLOADS = 2
    origin = register_self(decided.record.authority)
    digests = [f"{n:064x}" for n in range(1, 4)]
    for digest in digests[:2]:
        receive.receive_part(origin, digest, 0, 2, b"half of a bundle", by=policy.SYSTEM)

    def disk_full(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(UploadPart.objects, "create", disk_full)
    with pytest.raises(OSError):
        receive.receive_part(origin, digests[2], 0, 2, b"half of a third", by=policy.SYSTEM)
    assert sorted(Upload.objects.filter(origin=origin).values_list("digest", flat=True)) == digests[:2]
    assert UploadPart.objects.filter(upload__origin=origin).count() == 2


def test_publishing_with_no_national_body_says_so_on_the_outbox(decided, client):  # noqa: F811
    """A setup step missing is no refusal of who acts: the chief director is taken back to the
    outbox, which says what to run (it was a 403 page)."""
    from national.federation.models import PublishTarget

    assert not PublishTarget.objects.exists()
    client.force_login(decided.chief)
    answer = client.post(reverse("national:federation-publish", args=[decided.record.tournament.pk]), follow=True)
    assert answer.status_code == 200
    assert answer.redirect_chain == [(reverse("national:federation-outbox"), 302)]
    assert "No national body to publish to: run manage.py federation_target." in answer.content.decode()
