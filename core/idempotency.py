"""Idempotent API writes: the ``Idempotency-Key`` header (issue #30; IETF draft "The
Idempotency-Key HTTP Header Field").

Every write under /api/ (POST, PUT, PATCH, DELETE) may carry ``Idempotency-Key: <1 to 255
characters>`` (and every client the project ships sends one). The key belongs to the caller: the
authenticated user (``Token X``, ``token X``, ``Token  X``, basic authentication and the
session are one user: issue #41), or another scheme's credential (the federation's organiser
token), or an anonymous address; and it names one request: the method, the path and a
fingerprint (SHA-256) of the body.

- The first request with a key runs holding a lock on the key's row (``SELECT ... FOR UPDATE``)
  for its whole life; its answer (status and body) is stored with the key in the same database
  transaction as the write itself, so a change that committed while its answer was lost on the
  way (the client saw an error) is found by the retry.
- The same key again, for the same request: the first answer again (header
  ``Idempotent-Replayed: true``), and nothing is written.
- The same key for another request (another body, method or path): 422.
- The same key while its first request is still running (its lock held), however long it has
  run: 409 with Retry-After; the retry never takes over. A key whose request died (its
  process killed, its connection lost) holds no lock: its retry runs.
- Only the answer of a request that ran is stored: one that succeeded (2xx) or changed
  something. A refusal before anything was written (a 400 on the body, a 403, a 404) is not
  replayed: the retry runs again. A write that answered 5xx or 429 stored nothing and keeps no
  key: retrying it runs it.
- A multipart body (an uploaded file) is read once, in chunks, into a spooled file (in memory
  up to ``FILE_UPLOAD_MAX_MEMORY_SIZE``, on disk beyond) while its fingerprint is taken, and
  each run parses it from there: an upload over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB) with a
  key is taken like one without (within the upload limits, config/upload_limits.py).
- Keys expire after ``IDEMPOTENCY_KEY_HOURS`` (24 h); beat purges them every hour
  (``core.tasks.purge_idempotency_keys``).
"""

import base64
import hashlib
import io
import random
import tempfile
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, models, transaction
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from core import retry

HEADER = "Idempotency-Key"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
MAX_KEY_LENGTH = 255


def key_lifetime():
    return timedelta(hours=getattr(settings, "IDEMPOTENCY_KEY_HOURS", 24))


class IdempotencyKey(models.Model):
    """One Idempotency-Key of one caller, and the first answer to its request."""

    principal = models.CharField(max_length=100)
    key = models.CharField(max_length=MAX_KEY_LENGTH)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2000)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)
    done = models.BooleanField(default=False)
    status = models.PositiveSmallIntegerField(null=True)
    content_type = models.CharField(max_length=200, blank=True)
    body = models.BinaryField(default=b"")

    class Meta:
        app_label = "core"
        db_table = "scoring_idempotencykey"  # its table since it was scoring's (core/migrations/0001)
        constraints = [models.UniqueConstraint(fields=["principal", "key"], name="one_idempotency_key_per_caller")]

    def __str__(self):
        return f"{self.key} ({self.method} {self.path})"


def purge_expired(now=None):
    """Delete every key past its expiry; returns how many."""
    deleted, _by_model = IdempotencyKey.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def _principal(request):
    """Whom the key belongs to: ``user:<pk>`` for a user however they authenticated (a token in
    any spelling of its scheme, basic authentication, the session), another scheme's
    credential, or the anonymous address; None when the credentials are wrong (the view refuses
    them with 401, and no key is claimed for them)."""
    authorization = request.headers.get("Authorization", "").strip()
    if authorization:
        scheme, _space, credential = authorization.partition(" ")
        scheme, credential = scheme.lower(), credential.strip()
        if scheme == "token":
            user = _token_user(credential)
        elif scheme == "basic":
            user = _basic_user(credential)
        else:  # the federation's Bearer token: the organiser, whatever the spelling
            return f"{scheme}:" + hashlib.sha256(credential.encode()).hexdigest()
        return f"user:{user.pk}" if user is not None else None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "anonymous:" + hashlib.sha256(request.META.get("REMOTE_ADDR", "").encode()).hexdigest()


def _token_user(credential):
    try:
        user, _token = TokenAuthentication().authenticate_credentials(credential)
    except exceptions.AuthenticationFailed:
        return None
    return user


def _basic_user(credential):
    """The user of a basic authentication's username and password, checked here without
    counting a wrong password (the view's authentication counts it, once)."""
    try:
        username, _colon, password = base64.b64decode(credential, validate=True).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    user = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None or not user.is_active or not user.check_password(password):
        return None
    return user


def _refusal(status, message, retry_after=None):
    response = JsonResponse({HEADER: [message]}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _replay(row):
    response = HttpResponse(bytes(row.body), status=row.status, content_type=row.content_type or None)
    response["Idempotent-Replayed"] = "true"
    return response


def _route_takes(request):
    """True if an API view answers this method at this address (else its 404 or 405 comes
    first, with a key or without)."""
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    actions = getattr(view, "actions", None)  # a viewset's routes: method -> action
    if actions is not None:
        return request.method.lower() in actions
    view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
    return view_class is None or hasattr(view_class, request.method.lower())


def _storable(response):
    return not response.streaming and response.status_code < 500 and response.status_code != 429


CHUNK = 64 * 1024


def _read_body(request):
    """The body and its fingerprint. A JSON body is ``request.body`` (Django's own limit,
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, applies); a multipart one is read in chunks into a spooled
    file, hashed as it comes, so a large upload is neither refused nor held twice in memory."""
    if not request.content_type.startswith("multipart/"):
        body = request.body
        return body, hashlib.sha256(body).hexdigest()
    spool = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)  # noqa: SIM115 - closed by the caller
    digest = hashlib.sha256()
    while chunk := request.read(CHUNK):
        digest.update(chunk)
        spool.write(chunk)
    return spool, digest.hexdigest()


def _rewind(request, body):
    """Hand the request its body again, from the start, as if unread."""
    if isinstance(body, bytes):
        request._stream = io.BytesIO(body)
        return
    body.seek(0)
    request._stream = body
    request._read_started = False
    for parsed in ("_post", "_files"):
        request.__dict__.pop(parsed, None)


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL: NOWAIT met a lock held by another transaction
IGNORED_TABLES = (IdempotencyKey._meta.db_table, "axes_")  # the key itself; a login's counting


class _Writes:
    """Counts the statements that change a record while a request runs (its key's own row and
    the login throttle's counting apart): a request that changed nothing and was refused did
    not run, and its answer is not kept."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        head = sql.lstrip()[:100]
        if head[:6].upper() in ("INSERT", "UPDATE", "DELETE") and not any(name in head for name in IGNORED_TABLES):
            self.count += 1
        return execute(sql, params, many, context)


def _ran(response, writes):
    return 200 <= response.status_code < 300 or writes.count > 0


def _lock(pk):
    """The key's row, locked until this request's transaction ends (PostgreSQL: ``FOR UPDATE
    NOWAIT``; SQLite takes the database's one write lock at BEGIN IMMEDIATE). None while
    another request holds it, or when it is gone (a failed run freed it): a 409, retry."""
    try:
        with transaction.atomic():  # a savepoint: a refused lock leaves the transaction usable
            return IdempotencyKey.objects.select_for_update(nowait=True).filter(pk=pk).first()
    except DatabaseError as error:
        cause = error.__cause__ or error
        if (getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)) == LOCK_NOT_AVAILABLE:
            return None
        raise


def _free(pk):
    """Delete a key whose request kept no answer, unless another request holds it by now. A
    key that cannot be deleted (the database is gone) holds no lock either: its retry runs."""
    try:
        with transaction.atomic():
            mine = IdempotencyKey.objects.select_for_update(skip_locked=True).filter(pk=pk, done=False)
            IdempotencyKey.objects.filter(pk__in=list(mine.values_list("pk", flat=True))).delete()
    except DatabaseError:
        pass


def _running():
    return _refusal(409, _("The first request with this Idempotency-Key is still running: try again shortly."), 1)


class IdempotencyKeyMiddleware:
    """Applies the Idempotency-Key rules above to every API write that carries the header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.headers.get(HEADER)
        if key is None or request.method not in WRITES or not request.path.startswith("/api/"):
            return self.get_response(request)
        if not _route_takes(request):
            return self.get_response(request)  # its 404 or 405, as without a key
        key = key.strip().strip('"')  # the draft's form is a quoted string; a bare one is taken too
        if not 0 < len(key) <= MAX_KEY_LENGTH:
            return _refusal(400, _("Give an Idempotency-Key of 1 to 255 characters."))
        principal = _principal(request)
        if principal is None:
            return self.get_response(request)  # wrong credentials: the view's 401, no key claimed
        body, fingerprint = _read_body(request)
        claim = {
            "principal": principal,
            "key": key,
            "method": request.method,
            "path": request.get_full_path()[:2000],
            "fingerprint": fingerprint,
        }
        try:
            return self._keyed(request, body, claim)
        finally:
            if not isinstance(body, bytes):
                body.close()

    def _keyed(self, request, body, claim):
        row, refused = self._claim(claim)
        if refused is not None:
            return refused
        try:
            response, stored = self._run(request, body, row)
        except BaseException:
            _free(row.pk)
            raise
        if stored is False:
            _free(row.pk)  # no answer kept: a retry runs it
        return response

    def _claim(self, claim):
        """The key's row, taken for this request in a transaction of its own; or the answer to
        give (422 for another request, the first answer once it is kept)."""
        now = timezone.now()
        mine = IdempotencyKey.objects.filter(principal=claim["principal"], key=claim["key"])
        with transaction.atomic():
            mine.filter(expires_at__lte=now).delete()
            row, _created = IdempotencyKey.objects.get_or_create(
                principal=claim["principal"],
                key=claim["key"],
                defaults={**claim, "created_at": now, "expires_at": now + key_lifetime()},
            )
        if (row.method, row.path, row.fingerprint) != (claim["method"], claim["path"], claim["fingerprint"]):
            return row, _refusal(
                422,
                _(
                    "This Idempotency-Key was used for another request (another body, method or address): use a new key."
                ),
            )
        if row.done:
            return row, _replay(row)
        return row, None

    def _run(self, request, body, row):
        """The request and the key's answer in one transaction that holds the key's lock; a
        conflict runs it again. Returns the answer and whether it was kept (None: the key is
        another request's)."""
        for attempt in range(1, retry.ATTEMPTS + 1):
            _rewind(request, body)  # each run reads the body from its start
            with transaction.atomic():
                held = _lock(row.pk)
                if held is None:
                    return _running(), None
                if held.done:
                    return _replay(held), None  # a request with this key finished meanwhile
                writes = _Writes()
                with connection.execute_wrapper(writes):
                    response = self.get_response(request)
                conflict = getattr(response, "database_unavailable", None)
                if conflict is not None and retry.is_conflict(conflict) and attempt < retry.ATTEMPTS:
                    transaction.set_rollback(True)
                elif _storable(response) and _ran(response, writes):
                    IdempotencyKey.objects.filter(pk=row.pk).update(
                        done=True,
                        status=response.status_code,
                        content_type=response.get("Content-Type", ""),
                        body=bytes(response.content),
                    )
                    return response, True
                else:
                    transaction.set_rollback(True)  # a 5xx or 429 writes nothing
                    return response, False
            time.sleep(min(retry.MAX_PAUSE, retry.FIRST_PAUSE * 2 ** (attempt - 1)) * (0.5 + random.random()))
        raise AssertionError("unreachable")  # pragma: no cover
