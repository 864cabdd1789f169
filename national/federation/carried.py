"""A push carried on a file (issue #41): for a hall with no network, what a push would send, taken
to the national body on a USB stick and received there on the desk's page.

The file is a zip archive of three members, each in a form the API already reads:

- ``bundle.json``: the signed bundle (national/federation/bundle.py), the very bytes a push cuts
  into parts, built against the last tree head this instance knows the national body holds;
- ``heads.json``: ``{"heads": [...]}``, the body of ``POST heads/`` (national/federation/heads.py):
  every tree head signed since that one (that one again first), the bundle's own included;
- ``manifest.json``: what the file is (``FORMAT``), the bundle's SHA-256 (the digest its parts
  are named by), its tournament, its tree head's size and the key that signed it.

Receiving runs the API's services in the API's order, for the officer who uploads it: the heads
(``heads.receive``, in batches of ``heads.batch()``), then the bundle's parts
(``receive.receive_part``) and its commit (``receive.commit``). Their checks are the only ones:
a file altered on the stick is refused by them and named as the API names it.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import ijson
from django.conf import settings
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy
from national.federation import bundle as bundles
from national.federation import heads as witnessed
from national.federation import messages
from national.federation import receive as receiving
from national.federation.models import Origin, PublishTarget, Push

FORMAT = "bridgecases-carried-push-1"
MANIFEST, HEADS, BUNDLE = "manifest.json", "heads.json", "bundle.json"
MEMBERS = (MANIFEST, HEADS, BUNDLE)
# The most bytes a manifest may hold (it is read whole; the heads and the bundle are streamed).
MANIFEST_MOST = 1 << 16
# The audit action of a carried push downloaded (issue #41): who carried which push away, when.
DOWNLOADED = "federation.carried"


class Unreadable(ValueError):
    """The file is not a carried push this desk reads; the message says why (in the reader's language)."""


@dataclass(frozen=True)
class Carried:
    """A carried push as read from its file: the file, how many heads it holds, the bundle's
    size and digest, and its manifest. Its heads and bundle are read from the file again, as a
    stream, when they are received (``head_batches``, ``parts``)."""

    source: Any  # the file (seekable), the zip archive
    heads: int
    size: int  # bundle.json's bytes
    digest: str
    manifest: dict[str, Any] = field(default_factory=dict)

    def head_batches(self, size: int) -> Iterator[list[dict[str, Any]]]:
        """The heads, ``size`` at a time (one empty batch when there are none, as the API gets)."""
        self.source.seek(0)
        with zipfile.ZipFile(self.source) as archive, archive.open(HEADS) as member:
            batch: list[Any] = []
            sent = False
            for head in ijson.items(member, "heads.item", use_float=True):
                batch.append(head)
                if len(batch) == size:
                    yield batch
                    batch, sent = [], True
            if batch or not sent:
                yield batch

    def parts(self, size: int, count: int) -> Iterator[bytes]:
        """The bundle's bytes, ``size`` at a time, ``count`` parts (the last one shorter)."""
        self.source.seek(0)
        with zipfile.ZipFile(self.source) as archive, archive.open(BUNDLE) as member:
            for _index in range(count):
                yield member.read(size)


@dataclass(frozen=True)
class Outcome:
    """What receiving a carried push answered: the step that answered last (``heads`` or
    ``bundle``), its HTTP status as the API would give it, and its answer."""

    step: str
    status: int
    answer: dict[str, Any]

    @property
    def stored(self) -> bool:
        return self.step == "bundle" and self.status == 200 and bool(self.answer.get("stored"))


def _known_size() -> int:
    """The size of the last tree head this instance knows the national body holds: what its heads
    were last witnessed up to, or its last push delivered there (0 for none)."""
    target = PublishTarget.objects.order_by("-pk").first()
    if target is None:
        return 0
    delivered = (
        Push.objects.filter(target=target, state=Push.State.DELIVERED)
        .order_by("-tree_size")
        .values_list("tree_size", flat=True)
        .first()
    )
    return max(target.heads_witnessed or 0, delivered or 0)


def _heads_since(known: int) -> list[dict[str, Any]]:
    from audit.models import SignedTreeHead

    return list(
        SignedTreeHead.objects.filter(tree_size__gte=max(1, known)).order_by("tree_size").values(*witnessed.FIELDS)
    )


def build(tournament: Any, *, by: Any) -> tuple[str, Any]:
    """The carried push of ``tournament``: (the file's name, the file, read from its start), its
    download an audit entry (``DOWNLOADED``: who, when, the bundle's SHA-256 and head, the file)
    of the tournament's trail, so the next push tells the national body too. The zip is written
    as a stream to a temporary file (in memory up to a part, on disk beyond), the bundle's JSON a
    piece at a time, never held as bytes beside its dict (issue #41). Refused to anyone who may
    not publish it; ``bundle.BundleRefused`` when no bundle can be built (the outbox says why)."""
    policy.require(by, "publish", tournament)
    known = _known_size()
    built = bundles.build(tournament.pk, known)
    head = built["head"]
    heads = [row for row in _heads_since(known) if row["tree_size"] <= head["tree_size"]]
    out = tempfile.SpooledTemporaryFile(max_size=_part_bytes())
    sha256 = hashlib.sha256()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open(BUNDLE, "w") as member:

            def write(piece: bytes) -> None:
                sha256.update(piece)
                member.write(piece)

            bundles.canonical_to(built, write)
        del built
        digest = sha256.hexdigest()
        manifest = {
            "format": FORMAT,
            "digest": digest,
            "tournament": tournament.pk,
            "tree_size": head["tree_size"],
            "key_id": head["key_id"],
            "heads_from": known,
        }
        archive.writestr(MANIFEST, bundles.canonical(manifest))
        with archive.open(HEADS, "w") as member:
            bundles.canonical_to({"heads": heads}, member.write)
    size = out.tell()
    out.seek(0)
    name = f"push-{slugify(tournament.name)[:40] or tournament.pk}-{head['tree_size']}.zip"
    audit.record(
        action=DOWNLOADED,
        obj=tournament,
        after={
            "digest": digest,
            "tree_size": head["tree_size"],
            "key_id": head["key_id"],
            "file": name,
            "file_bytes": size,
        },
        actor=policy.person(by),
        tournament=tournament,
        summary=(
            f"Push of {tournament.name} downloaded to carry: tree head of {head['tree_size']} entries, "
            f"bundle sha256 {digest}"
        )[:300],
    )
    return name, out


def downloads(tournaments: list[Any], limit: int = 50) -> list[dict[str, Any]]:
    """The carried pushes of ``tournaments`` downloaded, the latest first, as their audit entries
    say: the tournament, the head's size, the bundle's SHA-256, who downloaded it and when."""
    from audit.models import AuditEntry

    names = {tournament.pk: tournament.name for tournament in tournaments}
    entries = (
        AuditEntry.objects.filter(action=DOWNLOADED, tournament_id__in=list(names))
        .select_related("actor")
        .order_by("-sequence")[:limit]
    )
    return [
        {
            "tournament": names[entry.tournament_id],
            "tree_size": (entry.after or {}).get("tree_size"),
            "digest": (entry.after or {}).get("digest"),
            "who": (entry.actor.get_full_name() if entry.actor else "") or entry.actor_name,
            "at": entry.at,
            "sequence": entry.sequence,
        }
        for entry in entries
    ]


def _most_bytes() -> int:
    return int(getattr(settings, "FEDERATION_MAX_BUNDLE_BYTES", 256 << 20))


def _part_bytes() -> int:
    return int(getattr(settings, "FEDERATION_MAX_PART_BYTES", 1 << 20))


def _not_this_version() -> Unreadable:
    return Unreadable(_("The file is not a carried push of this version (%(format)s).") % {"format": FORMAT})


def _cut_short() -> Unreadable:
    return Unreadable(_("The file is not a carried push, or it was cut short: download it again from the outbox."))


def _count_heads(member: Any) -> int:
    """How many heads ``heads.json`` holds, read as a stream: ``{"heads": [...]}`` or
    ``_not_this_version``; a member cut short or altered (its CRC) raises ``zipfile``'s error."""
    count, listed, events = 0, False, ijson.parse(member, use_float=True)
    try:
        first = next(events, None)
        if first is None or first[:2] != ("", "start_map"):
            raise _not_this_version()
        for prefix, event, _value in events:
            if prefix == "heads" and event == "start_array":
                listed = True
            elif prefix == "heads.item" and event not in ("map_key", "end_map", "end_array"):
                count += 1
    except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError):
        raise _not_this_version() from None
    if not listed:
        raise _not_this_version()
    return count


def _drain(member: Any) -> None:
    """Read a member to its end, a part at a time (``zipfile`` checks its CRC there)."""
    while member.read(_part_bytes()):
        pass


def read(file: Any) -> Carried:
    """The carried push in ``file`` (an uploaded file, or bytes), or ``Unreadable`` saying why:
    not a zip archive, cut short, a member missing or not in its form, larger than the national
    body takes. Nothing is written. Read as a stream (issue #41): the bundle and the heads a part
    at a time, never whole, so memory does not grow with the file; ``Carried`` reads them again
    from ``file`` when they are received."""
    source = io.BytesIO(file) if isinstance(file, bytes | bytearray) else file
    try:
        source.seek(0)
        with zipfile.ZipFile(source) as archive:
            names = set(archive.namelist())
            missing = [name for name in MEMBERS if name not in names]
            if missing:
                raise Unreadable(_("The file holds no %(member)s: it is not a carried push.") % {"member": missing[0]})
            for name in MEMBERS:
                if archive.getinfo(name).file_size > (MANIFEST_MOST if name == MANIFEST else _most_bytes()):
                    raise Unreadable(
                        _("Its %(member)s is larger than the national body takes (%(most)s bytes).")
                        % {"member": name, "most": MANIFEST_MOST if name == MANIFEST else _most_bytes()}
                    )
            manifest_data = archive.read(MANIFEST)
            with archive.open(HEADS) as member:
                heads = _count_heads(member)
                _drain(member)
            with archive.open(BUNDLE) as member:
                _drain(member)
            size = archive.getinfo(BUNDLE).file_size
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as error:
        if isinstance(error, Unreadable):
            raise
        raise _cut_short() from None
    try:
        manifest = json.loads(manifest_data)
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_this_version()
    if not isinstance(manifest.get("digest"), str) or not witnessed.HEX64.match(manifest["digest"]):
        raise Unreadable(messages.render("digest_form"))
    return Carried(source=source, heads=heads, size=size, digest=manifest["digest"], manifest=manifest)


def receive(origin: Origin, carried: Carried, *, by: Any) -> Outcome:
    """Receive ``carried`` from ``origin`` as the API would: its heads, then its bundle, each read
    from the file as it is sent (the heads a batch at a time, the bundle a part at a time). The
    first answer that is not 200 ends it (what was stored before stays stored, as over the API)."""
    policy.require(by, "receive", origin.authority)
    for heads in carried.head_batches(witnessed.batch()):
        status, answer = witnessed.receive(origin, heads, by=by)
        if status != 200:
            return Outcome("heads", status, answer)
    digest, part = carried.digest, _part_bytes()
    parts = max(1, -(-carried.size // part))
    for index, data in enumerate(carried.parts(part, parts)):
        receiving.receive_part(origin, digest, index, parts, data, by=by)
    status, answer = receiving.commit(origin, digest, by=by)
    return Outcome("bundle", status, answer)
