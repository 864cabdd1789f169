"""The receiving endpoints under ``/api/federation/`` (issue #32). Each request carries
``Authorization: Bearer <organiser's token>``; writes carry an ``Idempotency-Key`` (the API's
rules, core/idempotency.py). Limited per organiser (``FEDERATION_REQUESTS_PER_MINUTE``) and in
size (``FEDERATION_MAX_PART_BYTES`` a part, ``FEDERATION_MAX_BUNDLE_BYTES`` a bundle).

- ``GET head/``: the size of the last tree head received from this origin.
- ``POST heads/``: the tree heads signed since the last one received, as JSON ``{"heads": [...]}``
  (national/federation/heads.py): stored, or a fork or a rollback answered 422 and kept as an alarm.
- ``GET uploads/<digest>/``: which parts of the bundle have arrived (a push resumes from there).
- ``PUT uploads/<digest>/parts/<index>/?of=<parts>``: one part, as bytes.
- ``POST uploads/<digest>/commit/``: verify and store the bundle, or refuse it whole (422).
"""

from __future__ import annotations

import functools
import json
import re
import time

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core import policy
from national.federation import heads as witnessed
from national.federation import messages, receive

DIGEST = re.compile(r"^[0-9a-f]{64}$")


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _refuse(status: int, code: str, params: dict | None = None, **headers: str) -> JsonResponse:
    response = JsonResponse(messages.answer(code, **(params or {})), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def organiser(view):
    """The token's origin as ``request.origin``: 401 without a valid token, 429 beyond the rate."""

    @csrf_exempt
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return _refuse(401, "token_missing")
        token = receive.origin_for(header[len("Bearer ") :].strip())
        if token is None:
            return _refuse(401, "token_unknown")
        if token.revoked_at is not None:
            return _refuse(401, "token_revoked")
        minute = int(time.time() // 60)
        key = f"federation-rate:{token.origin_id}:{minute}"
        cache.add(key, 0, 120)
        try:
            count = cache.incr(key)
        except ValueError:
            count = 1
        if count > _limit("FEDERATION_REQUESTS_PER_MINUTE", 600):
            return _refuse(429, "rate", Retry_After="60")
        if "digest" in kwargs and not DIGEST.match(kwargs["digest"]):
            return _refuse(400, "digest_form")
        request.origin = token.origin
        return view(request, *args, **kwargs)

    return wrapped


@organiser
@require_http_methods(["GET"])
def head(request):
    last = receive.last_head(request.origin)
    return JsonResponse({"origin": request.origin.name, "tree_size": last.tree_size if last else 0})


@organiser
@require_http_methods(["GET"])
def upload(request, digest):
    return JsonResponse(receive.upload_state(request.origin, digest))


@organiser
@require_http_methods(["PUT"])
def part(request, digest, index):
    part_limit = _limit("FEDERATION_MAX_PART_BYTES", 1 << 20)
    bundle_limit = _limit("FEDERATION_MAX_BUNDLE_BYTES", 64 << 20)
    try:
        parts = int(request.GET.get("of", ""))
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return _refuse(400, "parts_count")
    if not 0 <= index < parts:
        return _refuse(400, "parts_count")
    if length > part_limit:
        return _refuse(413, "part_bytes", {"bytes": part_limit})
    if parts > max(1, bundle_limit // part_limit):
        return _refuse(413, "bundle_bytes", {"bytes": bundle_limit})
    data = request.body
    if len(data) > part_limit:
        return _refuse(413, "part_bytes", {"bytes": part_limit})
    return JsonResponse(receive.receive_part(request.origin, digest, index, parts, data, by=policy.SYSTEM))


@organiser
@require_http_methods(["POST"])
def commit(request, digest):
    status, answer = receive.commit(request.origin, digest, by=policy.SYSTEM)
    return JsonResponse(answer, status=status)


@organiser
@require_http_methods(["POST"])
def heads(request):
    try:
        sent = json.loads(request.body)
    except ValueError:
        sent = None
    if not isinstance(sent, dict):
        return _refuse(400, "heads_form", {"index": 0, "field": "heads", "most": witnessed.batch()})
    status, answer = witnessed.receive(request.origin, sent.get("heads"), by=policy.SYSTEM)
    return JsonResponse(answer, status=status)
