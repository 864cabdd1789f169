"""Signed tree heads witnessed by the national body (issue #41), both ends.

The organiser's end (``send``, beat's ``national.tasks.push_heads`` every
``FEDERATION_HEADS_SECONDS``): every head its trail signed since the last one the national body
holds, in order, each with its RFC 9162 consistency proof from the head before it, sent to
``POST heads/``; the head the national body holds is sent again first, so a trail rewritten
under it shows as a fork.

The national body's end (``receive``): each head signed with the key registered for the origin,
then against the heads it holds from that origin:

- a head of a size it holds: the same root (nothing to store), or a **fork**;
- a larger head: its consistency proof must start from the last head held and hold, or it is a
  **rollback** (the origin's trail is not the one witnessed); a proof from a later head than
  the last held asks for the heads in between (409, not an alarm);
- a smaller head it does not hold: signed after the last head held, a **rollback** (the trail
  restored from an older copy and signed again); signed before it, a head that was late, which
  no proof ties to the later one: skipped, not stored.

A fork or a rollback is kept as a ``HeadAlarm`` (one per head received), audited, and shown on the
desk beside the origin; the head is not stored, and nothing after it in the request is read.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit import merkle, signing
from audit import services as audit
from core import policy
from national.federation import messages
from national.federation.models import HeadAlarm, Origin, PublishTarget, ReceivedHead

HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX = re.compile(r"^(?:[0-9a-f]{2})+$")
FIELDS = ("tree_size", "root_hash", "timestamp", "key_id", "signature", "previous_size", "consistency")


def batch() -> int:
    """The most heads one request carries (``FEDERATION_HEADS_BATCH``)."""
    return max(1, int(getattr(settings, "FEDERATION_HEADS_BATCH", 500)))


# --- The national body's end ------------------------------------------------------------------


def _valid(name: str, value: Any, head: dict[str, Any], before: int) -> bool:
    """Whether one field of a head sent is what it must be (``before``: the size of the head
    before it in the request, heads come in order)."""
    if name in ("tree_size", "timestamp", "previous_size"):
        if type(value) is not int or not 0 <= value < 1 << 63:
            return False
        if name == "tree_size":
            return value > max(before, 0)
        return name == "timestamp" or value < head.get("tree_size", 0)
    if name == "consistency":
        return (
            isinstance(value, list) and len(value) <= 64 and all(isinstance(n, str) and HEX64.match(n) for n in value)
        )
    if not isinstance(value, str):
        return False
    if name == "root_hash":
        return bool(HEX64.match(value))
    if name == "signature":
        return len(value) <= 128 and bool(HEX.match(value))
    return 0 < len(value) <= 16  # key_id


def form_error(heads: Any) -> dict[str, Any] | None:
    """The first field of the request that is not what it must be: {index, field} (index from 1)."""
    if not isinstance(heads, list) or not heads or len(heads) > batch():
        return {"index": 0, "field": "heads", "most": batch()}
    before = 0
    for index, head in enumerate(heads, start=1):
        if not isinstance(head, dict):
            return {"index": index, "field": "head", "most": batch()}
        for name in FIELDS:
            if name not in head or not _valid(name, head[name], head, before):
                return {"index": index, "field": name, "most": batch()}
        before = head["tree_size"]
    return None


def _alarm(origin: Origin, kind: str, reason: str, received: dict[str, Any], held: dict[str, Any]) -> HeadAlarm:
    """The alarm of this head (one, however often it is sent again), audited when first raised."""
    found = HeadAlarm.objects.filter(
        origin=origin, kind=kind, tree_size=received["tree_size"], received__root_hash=received["root_hash"]
    ).first()
    if found is not None:
        return found
    alarm = HeadAlarm.objects.create(
        origin=origin, kind=kind, reason=reason, tree_size=received["tree_size"], received=received, held=held
    )
    audit.record(
        action=f"federation.head_{kind}",
        obj=alarm,
        before=held,
        after=received,
        summary=f"Tree head of {received['tree_size']} entries from {origin.name}: {kind} ({reason})",
    )
    return alarm


def _signed(origin: Origin, head: dict[str, Any]) -> dict[str, Any] | None:
    """The refusal of a head not signed with the origin's registered key, or None."""
    from national.federation.verify import signature_holds

    if head["key_id"] != origin.key_id:
        return messages.answer("head_key", key=head["key_id"], origin=origin.name, registered=origin.key_id)
    message = signing.tree_head_message(head["tree_size"], head["timestamp"], bytes.fromhex(head["root_hash"]))
    if not signature_holds(origin.public_key, head["signature"], message):
        return messages.answer("head_signature", origin=origin.name)
    return None


def _consistent(last: ReceivedHead, head: dict[str, Any]) -> bool:
    try:
        proof = [bytes.fromhex(node) for node in head["consistency"]]
        return merkle.verify_consistency(
            last.tree_size, head["tree_size"], bytes.fromhex(last.root_hash), bytes.fromhex(head["root_hash"]), proof
        )
    except ValueError:
        return False


def _one(origin: Origin, head: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """What one head is: ("stored" | "held" | "late", None) or ("refused" | "gap" | "alarm", answer)."""
    refusal = _signed(origin, head)
    if refusal is not None:
        return "refused", refusal
    sent = {name: head[name] for name in ("tree_size", "root_hash", "timestamp", "key_id", "signature")}
    values = {"size": head["tree_size"], "origin": origin.name}
    held = ReceivedHead.objects.filter(origin=origin, tree_size=head["tree_size"]).first()
    if held is not None:
        if held.root_hash == head["root_hash"]:
            return "held", None
        alarm = _alarm(origin, HeadAlarm.Kind.FORK, "same_size", sent, held.as_dict())
        return "alarm", {**messages.answer("head_fork", **values), "alarm": alarm.pk}
    last = ReceivedHead.objects.filter(origin=origin).order_by("-tree_size").first()
    if last is not None:
        values["last"] = last.tree_size
        if head["tree_size"] < last.tree_size:
            if head["timestamp"] <= last.timestamp:
                return "late", None
            alarm = _alarm(origin, HeadAlarm.Kind.ROLLBACK, "smaller", sent, last.as_dict())
            return "alarm", {**messages.answer("head_rollback", **values), "alarm": alarm.pk}
        if head["previous_size"] > last.tree_size:
            return "gap", messages.answer("heads_gap", **values, **{"from": head["previous_size"]})
        if head["previous_size"] < last.tree_size or not _consistent(last, head):
            alarm = _alarm(origin, HeadAlarm.Kind.ROLLBACK, "inconsistent", sent, last.as_dict())
            return "alarm", {**messages.answer("consistency", **values), "alarm": alarm.pk}
    ReceivedHead.objects.create(origin=origin, **sent)
    return "stored", None


def receive(origin: Origin, heads: Any, *, by: Any) -> tuple[int, dict[str, Any]]:
    """The heads of one request, in order: (HTTP status, answer). The API's step once it has
    checked the origin's token (core.policy.SYSTEM), or an auditor's who uploads a carried push
    (carried.py; policy ``receive`` for the origin's authority). What was stored before a head
    that stops the request stays stored."""
    policy.require(by, "receive", origin.authority)
    problem = form_error(heads)
    if problem is not None:
        return 400, messages.answer("heads_form", **problem)
    counts = {"stored": 0, "held": 0, "late": 0}
    status, answer = 200, {}
    with transaction.atomic():
        Origin.objects.select_for_update().filter(pk=origin.pk).first()  # one request of an origin at a time
        for head in heads:
            outcome, refusal = _one(origin, head)
            if refusal is not None:
                status, answer = (409 if outcome == "gap" else 422), refusal
                break
            counts[outcome] += 1
    last = ReceivedHead.objects.filter(origin=origin).order_by("-tree_size").first()
    return status, {**answer, **counts, "tree_size": last.tree_size if last else 0}


def bundle_alarm(origin: Origin, head: dict[str, Any], reason: str) -> HeadAlarm | None:
    """The alarm of a bundle refused for its head: a fork of a head held, or not consistent with
    the last one (a rollback)."""
    sent = {name: head.get(name) for name in ("tree_size", "root_hash", "timestamp", "key_id", "signature")}
    if reason == "head_fork":
        held = ReceivedHead.objects.filter(origin=origin, tree_size=head["tree_size"]).first()
        kind, why = HeadAlarm.Kind.FORK, "same_size"
    else:
        held = ReceivedHead.objects.filter(origin=origin).order_by("-tree_size").first()
        kind, why = HeadAlarm.Kind.ROLLBACK, "inconsistent"
    return _alarm(origin, kind, why, sent, held.as_dict()) if held is not None else None


def alarms(origin: Origin) -> list[HeadAlarm]:
    return list(HeadAlarm.objects.filter(origin=origin).order_by("-at", "-pk"))


# --- The organiser's end ----------------------------------------------------------------------


def _rows(start: int) -> list[dict[str, Any]]:
    from audit.models import SignedTreeHead

    return list(
        SignedTreeHead.objects.filter(tree_size__gte=max(1, start)).order_by("tree_size").values(*FIELDS)[: batch()]
    )


def _behind(known: int) -> list[dict[str, Any]]:
    """This trail's last head when it is smaller than the national body's last (entries and
    heads cut here): sent, for the national body to see the rollback."""
    from audit.models import SignedTreeHead

    last = SignedTreeHead.objects.order_by("-tree_size").values(*FIELDS).first()
    return [last] if last is not None and last["tree_size"] < known else []


def send(*, by: Any) -> int:
    """Send the national body every head signed since the last one it holds (that one again
    first); returns the size it holds now. The worker's step (core.policy.SYSTEM); a refusal or
    an alarm is kept with the target (``heads_error_code``) and shown on the outbox, a connection
    lost raises ``push.Interrupted`` (beat sends again in ``FEDERATION_HEADS_SECONDS``)."""
    from national.federation.push import Client, Interrupted

    policy.require(by, "send_push", None)
    target = PublishTarget.objects.order_by("-pk").first()
    if target is None:
        return 0
    client = Client(target)
    try:
        known = int(client.call("GET", "head/").json()["tree_size"])
        while True:
            rows = _rows(known) or _behind(known)
            if not rows or [row["tree_size"] for row in rows] == [known]:
                break
            # No Idempotency-Key: a head sent twice is held once, and a key sent again with other
            # heads (a trail rolled back) must reach the check, not a replayed answer.
            response = client.call("POST", "heads/", json={"heads": rows})
            if response.status_code != 200:
                _refused(target, response)
                return known
            answer = response.json()
            if int(answer["tree_size"]) <= known:
                break
            known = int(answer["tree_size"])
    except Interrupted as lost:
        _stopped(target, lost.code, lost.params)
        raise
    PublishTarget.objects.filter(pk=target.pk).update(
        heads_witnessed=known, heads_witnessed_at=timezone.now(), heads_error_code="", heads_error_params={}
    )
    return known


def _refused(target: PublishTarget, response: Any) -> None:
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    if isinstance(answer, dict) and answer.get("reason") in messages.MESSAGES:
        _stopped(target, answer["reason"], answer.get("params") or {})
    else:
        _stopped(target, "http_refused", {"step": {"code": "heads"}, "status": response.status_code})


def _stopped(target: PublishTarget, code: str, params: dict[str, Any]) -> None:
    PublishTarget.objects.filter(pk=target.pk).update(heads_error_code=code[:40], heads_error_params=params)
