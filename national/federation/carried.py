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
import zipfile
from dataclasses import dataclass, field
from typing import Any

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
MEMBERS = ("manifest.json", "heads.json", "bundle.json")
# The audit action of a carried push downloaded (issue #41): who carried which push away, when.
DOWNLOADED = "federation.carried"


class Unreadable(ValueError):
    """The file is not a carried push this desk reads; the message says why (in the reader's language)."""


@dataclass(frozen=True)
class Carried:
    """A carried push as read from its file: the heads, the bundle's bytes and its digest."""

    heads: list[dict[str, Any]]
    data: bytes
    digest: str
    manifest: dict[str, Any] = field(default_factory=dict)


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


def build(tournament: Any, *, by: Any) -> tuple[str, bytes]:
    """The carried push of ``tournament``: (the file's name, its bytes), its download an audit
    entry (``DOWNLOADED``: who, when, the bundle's SHA-256 and head, the file) of the tournament's
    trail, so the next push tells the national body too. Refused to anyone who may not publish
    it; ``bundle.BundleRefused`` when no bundle can be built (the outbox says why)."""
    policy.require(by, "publish", tournament)
    known = _known_size()
    built = bundles.build(tournament.pk, known)
    data = bundles.canonical(built)
    digest = hashlib.sha256(data).hexdigest()
    heads = [row for row in _heads_since(known) if row["tree_size"] <= built["head"]["tree_size"]]
    manifest = {
        "format": FORMAT,
        "digest": digest,
        "tournament": tournament.pk,
        "tree_size": built["head"]["tree_size"],
        "key_id": built["head"]["key_id"],
        "heads_from": known,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", bundles.canonical(manifest))
        archive.writestr("heads.json", bundles.canonical({"heads": heads}))
        archive.writestr("bundle.json", data)
    name = f"push-{slugify(tournament.name)[:40] or tournament.pk}-{built['head']['tree_size']}.zip"
    content = out.getvalue()
    audit.record(
        action=DOWNLOADED,
        obj=tournament,
        after={
            "digest": digest,
            "tree_size": built["head"]["tree_size"],
            "key_id": built["head"]["key_id"],
            "file": name,
            "file_bytes": len(content),
        },
        actor=policy.person(by),
        tournament=tournament,
        summary=(
            f"Push of {tournament.name} downloaded to carry: tree head of {built['head']['tree_size']} entries, "
            f"bundle sha256 {digest}"
        )[:300],
    )
    return name, content


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


def read(file: Any) -> Carried:
    """The carried push in ``file`` (an uploaded file, or bytes), or ``Unreadable`` saying why:
    not a zip archive, cut short, a member missing or not in its form, larger than the national
    body takes. Nothing is written."""
    source = io.BytesIO(file) if isinstance(file, bytes | bytearray) else file
    try:
        with zipfile.ZipFile(source) as archive:
            names = set(archive.namelist())
            missing = [name for name in MEMBERS if name not in names]
            if missing:
                raise Unreadable(_("The file holds no %(member)s: it is not a carried push.") % {"member": missing[0]})
            for name in MEMBERS:
                if archive.getinfo(name).file_size > _most_bytes():
                    raise Unreadable(
                        _("Its %(member)s is larger than the national body takes (%(most)s bytes).")
                        % {"member": name, "most": _most_bytes()}
                    )
            members = {name: archive.read(name) for name in MEMBERS}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as error:
        if isinstance(error, Unreadable):
            raise
        raise Unreadable(
            _("The file is not a carried push, or it was cut short: download it again from the outbox.")
        ) from None
    try:
        manifest = json.loads(members["manifest.json"])
        sent = json.loads(members["heads.json"])
    except ValueError:
        manifest = sent = None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(sent, dict):
        raise Unreadable(_("The file is not a carried push of this version (%(format)s).") % {"format": FORMAT})
    heads = sent.get("heads")
    if not isinstance(heads, list):
        raise Unreadable(_("The file is not a carried push of this version (%(format)s).") % {"format": FORMAT})
    if not isinstance(manifest.get("digest"), str) or not witnessed.HEX64.match(manifest["digest"]):
        raise Unreadable(messages.render("digest_form"))
    return Carried(heads=heads, data=members["bundle.json"], digest=manifest["digest"], manifest=manifest)


def receive(origin: Origin, carried: Carried, *, by: Any) -> Outcome:
    """Receive ``carried`` from ``origin`` as the API would: its heads, then its bundle. The first
    answer that is not 200 ends it (what was stored before stays stored, as over the API)."""
    policy.require(by, "receive", origin.authority)
    size = witnessed.batch()
    for start in range(0, max(1, len(carried.heads)), size):
        status, answer = witnessed.receive(origin, carried.heads[start : start + size], by=by)
        if status != 200:
            return Outcome("heads", status, answer)
    digest = carried.digest
    part = int(getattr(settings, "FEDERATION_MAX_PART_BYTES", 1 << 20))
    parts = max(1, -(-len(carried.data) // part))
    for index in range(parts):
        receiving.receive_part(origin, digest, index, parts, carried.data[index * part : (index + 1) * part], by=by)
    status, answer = receiving.commit(origin, digest, by=by)
    return Outcome("bundle", status, answer)
