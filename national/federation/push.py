"""Pushing a tournament to the national body (the organiser's end, issue #32).

``publish`` records a push and sends the Celery task ``national.tasks.push_tournament`` once
the transaction commits; the task calls ``run``. The bundle is built once and kept with the
push, cut into parts of ``FEDERATION_PART_BYTES``, each sent with an Idempotency-Key naming the
bundle's digest and the part; before sending, the task asks the national body which parts it
holds, so a push cut in the middle resumes where it stopped, and the same part or the same
bundle sent again changes nothing. A connection lost, a timeout, a 5xx or a 429 raises
``Interrupted``, which the task retries after growing pauses.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit import services as audit
from core import dispatch, policy
from national.federation import bundle as bundles
from national.federation import messages
from national.federation.models import PublishTarget, Push
from national.lifecycle import PUSH

TIMEOUT = 30
# The national body verifies and stores the whole bundle while the commit waits (7 s for a
# 1,000-pair event's case files, docs/performance.md).
COMMIT_TIMEOUT = 300


class Interrupted(Exception):
    """The push stopped on the way; a retry resumes it. ``code`` and ``params``: why
    (national/federation/messages.py), kept with the push and shown in the reader's language."""

    def __init__(self, code: str, **params: Any):
        super().__init__(f"{code} {params}")
        self.code, self.params = code, params


def _step(method: str, path: str) -> dict[str, Any]:
    """What the push was doing, for its diagnostics (messages.STEPS)."""
    if path == "head/":
        return {"code": "head"}
    if path == "heads/":
        return {"code": "heads"}
    if path.endswith("/commit/"):
        return {"code": "commit"}
    if "/parts/" in path:
        index = int(path.split("/parts/")[1].split("/")[0])
        parts = int(path.split("?of=")[1]) if "?of=" in path else index + 1
        return {"code": "part", "part": index + 1, "parts": parts}
    return {"code": "uploads"}


class TargetMissing(Exception):
    pass


def part_bytes() -> int:
    return int(getattr(settings, "FEDERATION_PART_BYTES", 512 * 1024))


def target() -> PublishTarget:
    found = PublishTarget.objects.order_by("-pk").first()
    if found is None:
        raise TargetMissing("No national body to publish to: run `manage.py federation_target` (docs/operations.md).")
    return found


class TargetBusy(Exception):
    """The national body's address cannot change while a push is being sent to it."""


@transaction.atomic
def set_target(url: str, token: str, *, by: Any) -> PublishTarget:
    """Where this instance publishes (issue #41): the same address with a new token changes the
    token; a new address is a new target, and every push not yet delivered goes to it, its
    bundle built again against what the new national body holds (nothing: every tournament's
    whole history), while the pushes delivered keep the address they went to. Refused while a
    push is being sent. Audited, the token named by its first characters only."""
    policy.require(by, "push_target", None)
    url = url.rstrip("/") + "/"
    current = PublishTarget.objects.select_for_update().order_by("-pk").first()
    if current is not None and current.url == url:
        if current.token != token:
            current.token = token
            current.save(update_fields=["token"])
            audit.record(
                action="federation.target_token_changed",
                obj=current,
                after={"url": url, "token": token[:8] + "..."},
                actor=policy.person(by),
                summary=f"The token this instance publishes to {url} with changed ({token[:8]}...)",
            )
        return current
    sending = Push.objects.select_for_update().filter(state=Push.State.SENDING).first()
    if sending is not None:
        raise TargetBusy(
            f"A push of {sending.tournament} is being sent to {sending.target.url}: change the national body's address "
            "once it is delivered or stopped (its page: /national/federation/outbox/)."
        )
    new = PublishTarget.objects.create(url=url, token=token)
    moved = Push.objects.exclude(state__in=[Push.State.DELIVERED, Push.State.REFUSED]).update(
        target=new, bundle=b"", digest="", parts=0, parts_sent=0
    )
    audit.record(
        action="federation.target_changed",
        obj=new,
        before={"url": current.url} if current is not None else None,
        after={"url": url, "token": token[:8] + "...", "pushes_moved": moved},
        actor=policy.person(by),
        summary=f"This instance publishes to {url} (before: {current.url if current else 'nowhere'})",
    )
    return new


@transaction.atomic
def publish(tournament: Any, *, by: Any) -> Push:
    """Queue a push of ``tournament``'s record to the national body."""
    policy.require(by, "publish", tournament)
    push = Push.objects.create(target=target(), tournament=tournament)
    transaction.on_commit(lambda: dispatch.send("national.tasks.push_tournament", push.pk))
    return push


class Client:
    """The national body's federation API as this instance calls it: its address, token and timeouts."""

    def __init__(self, push: Push | PublishTarget):
        target = push.target if isinstance(push, Push) else push
        self.base = target.url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {target.token}"

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        try:
            timeout = COMMIT_TIMEOUT if path.endswith("/commit/") else TIMEOUT
            response = self.session.request(method, self.base + path, timeout=timeout, **kwargs)
        except requests.RequestException as lost:
            raise Interrupted("connection_lost", step=_step(method, path), error=lost.__class__.__name__) from lost
        # 409: the same request still running there (its Idempotency-Key), or parts missing: again later.
        if response.status_code >= 500 or response.status_code in (409, 429):
            raise Interrupted("http_retry", step=_step(method, path), status=response.status_code)
        response.step = _step(method, path)  # type: ignore[attr-defined]
        return response


def _prepare(push: Push, client: Client) -> None:
    if push.digest:
        return
    known = client.call("GET", "head/")
    if known.status_code != 200:
        _refused(push, known)
        return
    try:
        built = bundles.build(push.tournament_id, int(known.json()["tree_size"]))
    except bundles.BundleRefused as refused:  # nothing a retry mends: the push ends, saying why
        PUSH.move(push, "refuse")
        push.error_code, push.error_params = refused.code, refused.params
        push.save()
        return
    data = bundles.canonical(built)
    push.bundle = data
    push.digest = hashlib.sha256(data).hexdigest()
    push.parts = max(1, -(-len(data) // part_bytes()))
    push.tree_size = built["head"]["tree_size"]
    push.entries = len(built["entries"])
    push.records = len(built["records"])
    push.save()


def _refused(push: Push, response: requests.Response) -> None:
    """The push ended by the national body's answer: its code and parameters kept (the text
    only when it sent no code, from an older version), shown in the reader's language."""
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    if not isinstance(answer, dict):
        answer = {}
    text = answer.pop("refused", None) or answer.pop("error", None)
    if answer.get("reason") in messages.MESSAGES:
        push.error_code, push.error_params = answer.pop("reason"), answer.pop("params", {}) or {}
    elif text:
        push.error_code, push.error_params = "national_text", {"text": str(text)[:500]}
    else:
        step = getattr(response, "step", {"code": "uploads"})
        push.error_code, push.error_params = "http_refused", {"step": step, "status": response.status_code}
    PUSH.move(push, "refuse")
    push.answer = answer or None
    push.save()


def run(push_id: int, *, by: Any) -> str:
    """Send what is left of one push; returns its state. The worker's step (core.policy.SYSTEM)."""
    policy.require(by, "send_push", None)
    push = Push.objects.select_related("target").get(pk=push_id)
    if push.state in (Push.State.DELIVERED, Push.State.REFUSED):
        return push.state
    PUSH.move(push, "send")
    push.attempts += 1
    push.save(update_fields=["state", "attempts"])
    client = Client(push)
    try:
        _send(push, client)
    except Interrupted as stopped:
        Push.objects.filter(pk=push.pk).update(error_code=stopped.code, error_params=stopped.params)
        raise
    return push.state


def give_up(push_id: int, *, by: Any) -> None:
    """The task's retries are spent: the push stops, saying so and where it was (the step of its
    last interruption); the chief director publishes again to resume it."""
    policy.require(by, "send_push", None)
    push = Push.objects.get(pk=push_id)
    if push.state in (Push.State.DELIVERED, Push.State.REFUSED):
        return
    step = (push.error_params or {}).get("step", {"code": "uploads"})
    PUSH.move(push, "give_up")
    push.error_code, push.error_params = "gave_up", {"attempts": push.attempts, "step": step}
    push.save(update_fields=["state", "error_code", "error_params"])


def _send(push: Push, client: Client) -> None:
    _prepare(push, client)
    if push.state == Push.State.REFUSED:
        return
    held = client.call("GET", f"uploads/{push.digest}/").json()
    if held.get("stored"):
        received = set(range(push.parts))
    else:
        received = set(held.get("received", []))
    data, size = bytes(push.bundle), part_bytes()
    for index in range(push.parts):
        if index not in received:
            response = client.call(
                "PUT",
                f"uploads/{push.digest}/parts/{index}/?of={push.parts}",
                data=data[index * size : (index + 1) * size],
                headers={"Idempotency-Key": f"{push.digest}:{index}", "Content-Type": "application/octet-stream"},
            )
            if response.status_code != 200:
                _refused(push, response)
                return
        Push.objects.filter(pk=push.pk).update(parts_sent=index + 1)
        push.parts_sent = index + 1
    response = client.call(
        "POST", f"uploads/{push.digest}/commit/", headers={"Idempotency-Key": f"{push.digest}:commit"}
    )
    if response.status_code == 422 and response.json().get("code") == "stale":
        # Another push of this instance was stored since this bundle was built: build it again.
        push.bundle, push.digest, push.parts, push.parts_sent = b"", "", 0, 0
        push.save()
        raise Interrupted("rebuilt")
    if response.status_code != 200:
        _refused(push, response)
        return
    PUSH.move(push, "deliver")
    push.answer = response.json()
    push.sent_at = timezone.now()
    push.error_code, push.error_params = "", {}
    push.bundle = b""  # delivered: the national body holds it now
    push.save()


def waiting() -> list[dict[str, Any]]:
    """Each tournament with audit entries the national body has not received yet: the last
    delivered push's tree head against the tournament's latest entry."""
    from django.db.models import Max

    from audit.models import AuditEntry
    from scoring.models import Tournament

    # What the current national body received: after a change of address, the new one has
    # nothing until each tournament is published to it again.
    current = PublishTarget.objects.order_by("-pk").first()
    delivered = {
        row["tournament"]: row["size"]
        for row in Push.objects.filter(state=Push.State.DELIVERED, target=current)
        .values("tournament")
        .annotate(size=Max("tree_size"))
    }
    latest = dict(
        AuditEntry.objects.exclude(tournament_id=None)
        .values("tournament_id")
        .annotate(last=Max("sequence"))
        .values_list("tournament_id", "last")
    )
    rows = []
    for tournament in Tournament.objects.filter(pk__in=latest).order_by("-start_date", "name"):
        last = latest[tournament.pk]
        sent = delivered.get(tournament.pk, 0)
        if last > sent:
            rows.append({"tournament": tournament, "sent_size": sent, "last_entry": last})
    return rows


def describe(bundle_data: bytes) -> dict[str, Any]:
    """A bundle's counts, for the bench and the page."""
    bundle = json.loads(bundle_data)
    return {"entries": len(bundle["entries"]), "records": len(bundle["records"]), "bytes": len(bundle_data)}
