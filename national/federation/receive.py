"""Receiving tournaments from organisers' instances (the national body's end, issue #32):
origins and their tokens, a bundle's parts, and the bundle verified and stored in one
transaction, or refused whole.

Received records are stored in the desk's own models (tournaments, rulings, appeals...), so its
search, statistics, casebooks and precedents read them like its own; ``ReceivedRecord`` keeps
which origin each came from. A record that arrives changed becomes its next version: the row is
updated, the version kept and an audit entry (``federation.record_version``) shows the change.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy
from national.federation import messages, stream, verify
from national.federation.bundle import MODELS, canonical
from national.federation.models import (
    OrganiserToken,
    Origin,
    Receipt,
    ReceivedEntry,
    ReceivedHead,
    ReceivedRecord,
    ReceivedTournament,
    ReceivedVersion,
    Upload,
    UploadPart,
)


class Refused(Exception):
    def __init__(self, refusal: verify.Refusal):
        super().__init__(refusal.message)
        self.refusal = refusal


# --- Origins and tokens ---------------------------------------------------------------------


def key_id_of(pem: str) -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from audit.signing import key_id

    try:
        key = serialization.load_pem_public_key(pem.encode())
    except ValueError:
        key = None
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError(_("This is not an Ed25519 public key in PEM."))
    return key_id(key)


@transaction.atomic
def register_origin(*, name: str, slug: str, authority: Any, public_key: str, by: Any) -> Origin:
    """An organiser's instance, or its key replaced (the organiser rotated it)."""
    policy.require(by, "federation", authority)
    key = key_id_of(public_key)
    origin, created = Origin.objects.update_or_create(
        slug=slug,
        defaults={"name": name, "authority": authority, "public_key": public_key.strip() + "\n", "key_id": key},
    )
    audit.record(
        action="federation.origin_registered" if created else "federation.origin_key_changed",
        obj=origin,
        after={"name": name, "slug": slug, "authority": authority.pk, "key_id": key},
        actor=policy.person(by),
        summary=f"Organiser's instance {name} registered with key {key}",
    )
    return origin


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def issue_token(origin: Origin, *, by: Any) -> str:
    """A new token for ``origin``; returned once, only its SHA-256 is kept."""
    policy.require(by, "federation", origin.authority)
    token = "bct_" + secrets.token_urlsafe(32)
    actor = policy.person(by)
    row = OrganiserToken.objects.create(origin=origin, digest=digest_of(token), prefix=token[:8], created_by=actor)
    audit.record(
        action="federation.token_issued", obj=row, actor=actor, summary=f"Token {row.prefix}... issued to {origin.name}"
    )
    return token


@transaction.atomic
def revoke_token(token: OrganiserToken, *, by: Any) -> None:
    policy.require(by, "federation", token.origin.authority)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit.record(
            action="federation.token_revoked",
            obj=token,
            actor=policy.person(by),
            summary=f"Token {token.prefix}... of {token.origin.name} revoked",
        )


def origin_for(token: str) -> OrganiserToken | None:
    return OrganiserToken.objects.select_related("origin").filter(digest=digest_of(token)).first()


def last_head(origin: Origin) -> ReceivedHead | None:
    return ReceivedHead.objects.filter(origin=origin).order_by("-tree_size").first()


# --- Parts ------------------------------------------------------------------------------------


def upload_state(origin: Origin, digest: str) -> dict[str, Any]:
    upload = Upload.objects.filter(origin=origin, digest=digest).first()
    if upload is None:
        return {"digest": digest, "received": [], "stored": False}
    received = sorted(upload.received_parts.values_list("index", flat=True))
    return {"digest": digest, "parts": upload.parts, "received": received, "stored": upload.answer is not None}


def upload_hours() -> float:
    """How long the parts of a bundle never committed are kept (``FEDERATION_UPLOAD_HOURS``)."""
    return float(getattr(settings, "FEDERATION_UPLOAD_HOURS", 48))


def purge_stale_uploads(origin: Origin | None = None, now: Any = None, *, by: Any) -> int:
    """Delete the bundles whose first part arrived more than ``upload_hours()`` ago and that were
    never stored, with their parts (of ``origin``, or of every origin); returns how many. A push
    still resuming one sends its parts again. Stored bundles keep their answer (no parts)."""
    policy.require(by, "receive", origin.authority if origin is not None else None)
    cutoff = (now or timezone.now()) - datetime.timedelta(hours=upload_hours())
    stale = Upload.objects.filter(answer__isnull=True, created_at__lt=cutoff)
    if origin is not None:
        stale = stale.filter(origin=origin)
    pks = list(stale.values_list("pk", flat=True))
    if pks:
        UploadPart.objects.filter(upload_id__in=pks).delete()
        Upload.objects.filter(pk__in=pks).delete()
    return len(pks)


def _open_uploads_limit() -> int:
    """How many bundles one origin may have uncommitted at once (``FEDERATION_MAX_OPEN_UPLOADS``)."""
    return max(1, int(getattr(settings, "FEDERATION_MAX_OPEN_UPLOADS", 4)))


def _cap_open_uploads(origin: Origin) -> None:
    """Before an origin's new bundle: its oldest uncommitted ones beyond the cap are deleted
    with their parts (issue #41), so one instance holds at most ``_open_uploads_limit()``
    bundles' parts however many pushes it abandons (a push still resuming one sends it again)."""
    open_ones = Upload.objects.filter(origin=origin, answer__isnull=True).order_by("-created_at", "-pk")
    pks = list(open_ones.values_list("pk", flat=True)[_open_uploads_limit() - 1 :])
    if pks:
        UploadPart.objects.filter(upload_id__in=pks).delete()
        Upload.objects.filter(pk__in=pks).delete()


@transaction.atomic
def receive_part(origin: Origin, digest: str, index: int, parts: int, data: bytes, *, by: Any) -> dict[str, Any]:
    """Keep one part; the same part again changes nothing. A new bundle's first part clears the
    origin's stale ones first (and beat clears them every hour, ``purge_stale_uploads``). The
    API's step once it has checked the origin's token (core.policy.SYSTEM), or an auditor's who
    uploads a carried push (carried.py; policy ``receive`` for the origin's authority)."""
    policy.require(by, "receive", origin.authority)
    if not Upload.objects.filter(origin=origin, digest=digest).exists():
        purge_stale_uploads(origin, by=by)
        _cap_open_uploads(origin)
    upload, _created = Upload.objects.get_or_create(origin=origin, digest=digest, defaults={"parts": parts})
    if upload.answer is None and not UploadPart.objects.filter(upload=upload, index=index).exists():
        UploadPart.objects.create(upload=upload, index=index, data=data)
    return upload_state(origin, digest)


# --- The bundle -------------------------------------------------------------------------------


def commit(origin: Origin, digest: str, *, by: Any) -> tuple[int, dict[str, Any]]:
    """Verify and store the bundle whose parts have arrived: (HTTP status, answer). The API's step
    once it has checked the origin's token (core.policy.SYSTEM), or an auditor's who uploads a
    carried push (carried.py; policy ``receive`` for the origin's authority)."""
    policy.require(by, "receive", origin.authority)
    with transaction.atomic():
        # One commit of a bundle at a time (issue #41): a concurrent one waits for the upload's
        # lock, then finds the winner's answer (stored) or no upload (refused), never a 500.
        upload = Upload.objects.select_for_update().filter(origin=origin, digest=digest).first()
        return _commit(origin, digest, upload)


def _commit(origin: Origin, digest: str, upload: Upload | None) -> tuple[int, dict[str, Any]]:
    if upload is None:
        return 404, messages.answer("no_part")
    if upload.answer is not None:
        return 200, upload.answer
    indexes = sorted(upload.received_parts.values_list("index", flat=True))
    missing = sorted(set(range(upload.parts)) - set(indexes))
    if missing:
        return 409, messages.answer("parts_missing", parts=", ".join(map(str, missing)))
    bundle: Any = None
    saved: list[str] = []  # the attachments' files written: deleted if the bundle is not stored
    try:
        # Read as a stream (issue #41): one part at a time, digest and JSON as they are read, each
        # attachment decoded to a temporary file as it is parsed (stream.Spooled).
        read_digest, bundle = stream.read(upload, indexes)
        if read_digest != digest:
            stream.close(bundle)
            bundle = None
            raise Refused(verify.Refusal("digest"))
        answer = _store(origin, upload, bundle, saved)
    except Refused as refused:
        _discard(saved)
        upload.delete()
        if refused.refusal.reason in ("head_fork", "consistency") and isinstance(bundle, dict):
            from national.federation import heads

            heads.bundle_alarm(origin, bundle["head"], refused.refusal.reason)
        audit.record(
            action="federation.refused",
            object_type="national.origin",
            object_id=origin.pk,
            after={
                "digest": digest,
                "reason": refused.refusal.message,
                "code": refused.refusal.reason,
                "params": refused.refusal.params,
                "entry": refused.refusal.sequence,
            },
            summary=f"Bundle from {origin.name} refused: {refused.refusal.message}"[:300],
        )
        answer = {
            "refused": refused.refusal.message,
            "entry": refused.refusal.sequence,
            "reason": refused.refusal.reason,
            "params": refused.refusal.params,
        }
        if refused.refusal.code:
            answer["code"] = refused.refusal.code
        return 422, answer
    except BaseException:
        _discard(saved)
        raise
    finally:
        stream.close(bundle)  # the attachments' temporary files
    return 200, answer


def _discard(names: list[str]) -> None:
    from django.core.files.storage import default_storage

    for name in names:
        default_storage.delete(name)


def attachment_limit() -> int:
    """The most bytes a received attachment may hold (``FEDERATION_MAX_ATTACHMENT_BYTES``, by
    default the limit of an attachment added here)."""
    from rulings.services.attachments import ATTACHMENT_MAX_BYTES

    return int(getattr(settings, "FEDERATION_MAX_ATTACHMENT_BYTES", ATTACHMENT_MAX_BYTES))


@transaction.atomic
def _store(origin: Origin, upload: Upload, bundle: Any, saved: list[str]) -> dict[str, Any]:
    last = last_head(origin)
    registered = verify.Registered(
        origin.name,
        origin.public_key,
        origin.key_id,
        last.as_dict() if last else None,
        lambda size: ReceivedHead.objects.filter(origin=origin, tree_size=size)
        .values_list("root_hash", flat=True)
        .first(),
    )
    known = dict(ReceivedEntry.objects.filter(origin=origin).values_list("sequence", "hash"))
    refusal = verify.verify(bundle, registered, known.get, attachment_limit())
    if refusal is None:
        refusal = verify.omitted(bundle, _received_before(origin, bundle["tournament"]))
    if refusal is not None:
        raise Refused(refusal)
    head_data = bundle["head"]
    head, _created = ReceivedHead.objects.get_or_create(
        origin=origin, tree_size=head_data["tree_size"], defaults={**head_data}
    )
    receipt = Receipt.objects.create(
        origin=origin, digest=upload.digest, origin_tournament=bundle["tournament"], tree_size=head.tree_size
    )
    tournament = _apply_records(origin, bundle, receipt, head, saved)
    ReceivedEntry.objects.bulk_create(
        [
            ReceivedEntry(
                origin=origin,
                sequence=entry["sequence"],
                hash=entry["hash"],
                content={name: value for name, value in entry.items() if name != "proof"},
                head=head,
                proof=entry["proof"],
                tournament=tournament,
            )
            for entry in bundle["entries"]
            if entry["sequence"] not in known
        ],
        batch_size=500,
    )
    receipt.save()
    audit.record(
        action="federation.received",
        obj=receipt,
        after={"digest": upload.digest, "tree_size": head.tree_size, "entries": len(bundle["entries"])},
        tournament=tournament,
        summary=(
            f"Tournament received from {origin.name}: {receipt.created} records new, {receipt.changed} changed, "
            f"{receipt.unchanged} unchanged; tree head of {head.tree_size} entries verified"
        )[:300],
    )
    answer = {
        "stored": True,
        "tournament": tournament.pk,
        "tree_size": head.tree_size,
        "created": receipt.created,
        "changed": receipt.changed,
        "unchanged": receipt.unchanged,
    }
    upload.answer = answer
    upload.save(update_fields=["answer"])
    upload.received_parts.all().delete()
    return answer


def _received_before(origin: Origin, origin_tournament: int) -> list[int]:
    """The numbers of the entries of this origin's tournament the desk holds."""
    copy = ReceivedTournament.objects.filter(origin=origin, origin_pk=origin_tournament).first()
    if copy is None:
        return []
    return list(
        ReceivedEntry.objects.filter(origin=origin, tournament=copy.tournament).values_list("sequence", flat=True)
    )


class _Mapper:
    """Turns a received record's fields into this desk's: its foreign keys to the rows the
    origin's records became."""

    def __init__(self, origin: Origin, bundle: dict[str, Any], saved: list[str]):
        self.origin = origin
        self.bundle = bundle
        self.saved = saved
        self.local: dict[tuple[str, int], int] = {
            (model, origin_pk): local_pk
            for model, origin_pk, local_pk in ReceivedRecord.objects.filter(origin=origin).values_list(
                "model", "origin_pk", "local_pk"
            )
        }
        self.users = {row["pk"]: self._user(row) for row in bundle["users"]}
        self.new_records: list[ReceivedRecord] = []
        self.versions: list[ReceivedVersion] = []
        self.law_keys = {int(pk): (edition, number) for pk, (edition, number) in bundle["laws"].items()}
        self.laws = self._laws(bundle["laws"])
        tournament = next((row for row in bundle["records"] if row["model"] == "scoring.tournament"), None)
        self.authority = tournament["fields"].get("authority") if tournament else None
        self.regulations = {int(pk): clause for pk, clause in bundle.get("regulations", {}).items()}
        self.clauses: dict[int, int] = {}

    def _laws(self, laws: dict[str, list[str]]) -> dict[int, int | None]:
        """The laws cited, by edition and citation. The catalogue in the code is the source: a
        desk whose copy lacks one refreshes it (as citing a law does), then looks again."""
        from rulings.catalogue import sync_law_catalogue

        law = apps.get_model("rulings.lawentry")
        keys = {int(pk): (edition, number) for pk, (edition, number) in laws.items()}

        def found() -> dict[int, int | None]:
            pks = {
                (edition, number): pk
                for pk, edition, number in law.objects.filter(
                    edition__in={edition for edition, _number in keys.values()},
                    number__in={number for _edition, number in keys.values()},
                ).values_list("pk", "edition", "number")
            }
            return {pk: pks.get(key) for pk, key in keys.items()}

        mapped = found()
        if None in mapped.values():
            sync_law_catalogue()
            mapped = found()
        return mapped

    def _clause(self, label: str, row: dict[str, Any], value: int) -> int:
        """A regulation clause cited, by its natural key: the regulating authority as received
        (the tournament's own: the origin's national body, as every authority of the bundle;
        another: the authority of this desk with its code) and the regulation and clause. A
        clause this desk does not hold yet is added with the text received."""
        if value in self.clauses:
            return self.clauses[value]
        received = self.regulations.get(value)
        if received is None:
            raise Refused(
                verify.Refusal(
                    "record_target",
                    {"model": label, "pk": row["pk"], "target": "rulings.regulationclause", "target_pk": value},
                )
            )
        if received.get("authority") == self.authority:
            authority_id = self.origin.authority_id
        else:
            authority = apps.get_model("scoring.regulatingauthority")
            authority_id = (
                authority.objects.filter(code=received.get("authority_code")).values_list("pk", flat=True).first()
            )
            if authority_id is None:
                raise Refused(
                    verify.Refusal(
                        "record_clause_authority",
                        {
                            "model": label,
                            "pk": row["pk"],
                            "document": received.get("document"),
                            "clause": received.get("clause"),
                            "code": received.get("authority_code"),
                        },
                    )
                )
        clause, _created = apps.get_model("rulings.regulationclause").objects.get_or_create(
            authority_id=authority_id,
            document=str(received.get("document", ""))[:200],
            clause=str(received.get("clause", ""))[:30],
            defaults={"text": str(received.get("text", ""))},
        )
        self.clauses[value] = clause.pk
        return clause.pk

    def _user(self, row: dict[str, Any]) -> int:
        """An inactive user of this desk standing for the origin's (it cannot sign in)."""
        model = get_user_model()
        username = f"{self.origin.slug}~{row['username']}"[:150]
        user = model.objects.filter(username=username).first()
        if user is None:
            user = model(username=username, first_name=row["first_name"], last_name=row["last_name"], is_active=False)
            user.set_unusable_password()
            user.save()
        return user.pk

    def target(self, label: str, row: dict[str, Any], field: Any, value: Any) -> Any:
        if value is None:
            return None
        target = field.related_model._meta.label_lower
        if target == get_user_model()._meta.label_lower:
            found = None if label == "scoring.player" else self.users.get(value)
        elif target == "scoring.regulatingauthority":
            found = self.origin.authority_id
        elif target == "rulings.lawentry":
            found = self.laws.get(value)
            if found is None:
                edition, number = self.law_keys.get(value, ("?", "?"))
                raise Refused(
                    verify.Refusal(
                        "record_law", {"model": label, "pk": row["pk"], "number": number, "edition": edition}
                    )
                )
        elif target == "rulings.regulationclause":
            found = self._clause(label, row, value)
        else:
            found = self.local.get((target, value))
        if found is None and not field.null:
            raise Refused(
                verify.Refusal("record_target", {"model": label, "pk": row["pk"], "target": target, "target_pk": value})
            )
        return found

    def fields(self, label: str, row: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[int]]]:
        model = apps.get_model(label)
        values: dict[str, Any] = {}
        many: dict[str, list[int]] = {}
        for field in model._meta.concrete_fields:
            if field.primary_key or field.name not in row["fields"]:
                continue
            value = row["fields"][field.name]
            if field.is_relation:
                values[field.attname] = self.target(label, row, field, value)
            elif (label, field.name) in _IDS_IN_JSON:
                values[field.attname] = _IDS_IN_JSON[(label, field.name)](self, label, row, value)
            else:
                values[field.attname] = field.to_python(value)
        for field in model._meta.many_to_many:
            target = field.related_model._meta.label_lower
            many[field.name] = [
                self.local[(target, pk)] for pk in row["fields"].get(field.name, []) if (target, pk) in self.local
            ]
        return values, many

    def mapped(self, label: str, row: dict[str, Any], target: str, value: Any) -> int:
        """The local pk of a record of ``target`` a JSON field of ``row`` names by the origin's
        id (issue #41); the bundle is refused if the bundle did not send that record."""
        found = self.local.get((target, value)) if isinstance(value, int) and not isinstance(value, bool) else None
        if found is None:
            raise Refused(
                verify.Refusal("record_target", {"model": label, "pk": row["pk"], "target": target, "target_pk": value})
            )
        return found


def _seating(mapper: _Mapper, label: str, row: dict[str, Any], value: Any) -> Any:
    """A ruling's ``seating`` (the origin's player ids by seat) as this desk's player ids, so a
    casebook says "South" of the player who sat South (issue #41)."""
    if not isinstance(value, dict):
        return value
    return {seat: mapper.mapped(label, row, "scoring.player", pk) for seat, pk in value.items()}


def _effect(mapper: _Mapper, label: str, row: dict[str, Any], value: Any) -> Any:
    """An appeal's ``effect_at_decision`` (the origin's contestant and match ids) as this desk's."""
    if not isinstance(value, dict):
        return value
    value = dict(value)
    value["sides"] = [
        {**side, "contestant": mapper.mapped(label, row, "scoring.contestant", side.get("contestant"))}
        if isinstance(side, dict)
        else side
        for side in value.get("sides") or []
    ]
    match = value.get("match")
    if isinstance(match, dict):
        value["match"] = {**match, "match": mapper.mapped(label, row, "scoring.match", match.get("match"))}
    return value


# JSON fields of received records that hold the ids of other records: mapped as foreign keys are.
_IDS_IN_JSON = {("rulings.ruling", "seating"): _seating, ("appeals.appeal", "effect_at_decision"): _effect}


def _apply_records(
    origin: Origin, bundle: dict[str, Any], receipt: Receipt, head: ReceivedHead, saved: list[str]
) -> Any:
    mapper = _Mapper(origin, bundle, saved)
    existing = {(r.model, r.origin_pk): r for r in ReceivedRecord.objects.filter(origin=origin)}
    tournament = None
    for row in bundle["records"]:
        label = row["model"]
        if label not in MODELS:
            raise Refused(verify.Refusal("record_model", {"model": label, "pk": row["pk"]}))
        if label != "scoring.tournament" and tournament is None:
            raise Refused(verify.Refusal("no_tournament", {"tournament": bundle["tournament"]}))
        if label == "scoring.tournament" and row["pk"] != bundle["tournament"]:
            raise Refused(verify.Refusal("no_tournament", {"tournament": bundle["tournament"]}))
        local = _apply_one(mapper, existing.get((label, row["pk"])), label, row, receipt, tournament)
        if label == "scoring.tournament":
            tournament = apps.get_model(label).objects.get(pk=local)
    if tournament is None:
        raise Refused(verify.Refusal("no_tournament", {"tournament": bundle["tournament"]}))
    ReceivedRecord.objects.bulk_create(mapper.new_records, batch_size=500)
    for version in mapper.versions:
        version.record = version.record  # the record's pk, now that it has one
    ReceivedVersion.objects.bulk_create(mapper.versions, batch_size=500)
    ReceivedTournament.objects.update_or_create(
        origin=origin,
        origin_pk=bundle["tournament"],
        defaults={"tournament": tournament, "head": head, "received_at": timezone.now()},
    )
    return tournament


def _apply_one(
    mapper: _Mapper, record: ReceivedRecord | None, label: str, row: dict[str, Any], receipt: Receipt, tournament: Any
) -> int:
    """The local pk of one received record, created or moved to its new version."""
    model = apps.get_model(label)
    digest = hashlib.sha256(canonical(row["fields"])).hexdigest()
    if record is not None and record.digest == digest:
        receipt.unchanged += 1
        mapper.local[(label, row["pk"])] = record.local_pk
        return record.local_pk
    values, many = mapper.fields(label, row)
    attached = label == "rulings.rulingattachment"
    if attached:
        values.pop("file", None)  # the origin's file name: the content is stored here under its own
    if record is not None:
        obj = model.objects.get(pk=record.local_pk)
        previous = record.versions.order_by("-version").first()
        if label == "scoring.player":
            _own_number(mapper.origin, values, obj.pk)
        for name, value in values.items():
            setattr(obj, name, value)
        if attached and (previous is None or previous.fields.get("file") != row["fields"].get("file")):
            _attach(mapper, obj, row)
        obj.save()
        _keep_times(model, obj, values)
        record.version += 1
        record.digest = digest
        record.save(update_fields=["version", "digest"])
        receipt.changed += 1
        audit.record(
            action="federation.record_version",
            obj=obj,
            before=previous.fields if previous else None,
            after=row["fields"],
            tournament=tournament if tournament is not None else obj,
            summary=f"{label} {obj.pk} received from {mapper.origin.name} as version {record.version}",
        )
    else:
        # A new record is a new row, players included: another organiser's player of the same
        # membership number is another instance's record, never written onto (issue #41).
        if label == "scoring.player":
            _own_number(mapper.origin, values)
        obj = model(**values)
        if attached:
            _attach(mapper, obj, row)
        obj.save()
        _keep_times(model, obj, values)
        tournament = tournament if tournament is not None else obj
        record = ReceivedRecord(
            origin=mapper.origin,
            model=label,
            origin_pk=row["pk"],
            local_pk=obj.pk,
            digest=digest,
            tournament=tournament,
        )
        mapper.new_records.append(record)  # written together at the end (bulk)
        receipt.created += 1
    for name, pks in many.items():
        getattr(obj, name).set(pks)
    mapper.versions.append(
        ReceivedVersion(record=record, version=record.version, fields=row["fields"], receipt=receipt)
    )
    mapper.local[(label, row["pk"])] = obj.pk
    return obj.pk


def _attach(mapper: _Mapper, obj: Any, row: dict[str, Any]) -> None:
    """An attachment's content (checked against its SHA-256 by ``verify``) stored through this
    desk's storage, under the received ruling."""
    from pathlib import PurePath

    from django.core.files.base import ContentFile, File

    content = verify.attachment_content(mapper.bundle, row["pk"]) or b""
    # Decoded to a file as it was read (stream.Spooled): the storage reads it in chunks.
    stored = File(content.open()) if isinstance(content, stream.Spooled) else ContentFile(content)
    obj.file.save(PurePath(str(row["fields"].get("file") or "attachment")).name, stored, save=False)
    mapper.saved.append(obj.file.name)


def _keep_times(model: Any, obj: Any, values: dict[str, Any]) -> None:
    """The origin's times kept where saving stamps the time of saving (``auto_now``,
    ``auto_now_add``): a ruling received today was recorded when it was recorded there."""
    stamped = {
        field.attname: values[field.attname]
        for field in model._meta.concrete_fields
        if (getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)) and field.attname in values
    }
    if stamped:
        model.objects.filter(pk=obj.pk).update(**stamped)
        for name, value in stamped.items():
            setattr(obj, name, value)


def _own_number(origin: Origin, values: dict[str, Any], own_pk: int | None = None) -> None:
    """A received player's membership number, kept apart as ``<origin>~<number>`` when the desk
    already holds that number for a player that is not this record (another organiser's, or the
    desk's own): players belong to the instance that sent them, and are never matched to
    another's by their number alone (issue #41)."""
    model = apps.get_model("scoring.player")
    number = values.get("membership_number") or ""
    taken = model.objects.filter(authority_id=values["authority_id"], membership_number=number).exclude(pk=own_pk)
    if taken.exists():
        values["membership_number"] = f"{origin.slug}~{number}"[: model._meta.get_field("membership_number").max_length]
