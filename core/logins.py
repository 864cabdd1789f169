"""The logins locked out after wrong passwords (config/login_throttle.py): the list a chief
director or a superuser reads, and the unlock they give, written to the audit trail.

The kernel sits below the audit trail (docs/architecture.md), so an unlock is announced by the
signal ``unlocked``, which the audit app records in the same transaction (audit/signals.py); an
unlock that nobody records is refused."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import transaction
from django.db.models import Max, Sum
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.login_throttle import lockout_seconds
from core import policy, texts

if TYPE_CHECKING:
    from django.contrib.auth.models import User

USERNAME, ADDRESS = "username", "address"
_FIELD = {USERNAME: "username", ADDRESS: "ip_address"}

# Sent inside unlock's transaction with by, kind, value and failures; the audit trail records it.
unlocked = Signal()

# The audit summary of an unlock, in the reader's language. Its code keeps the prefix it was
# first stored under (the entries written before the lockout moved to the kernel carry it).
texts.register("scoring", {"login_unlocked": texts.Template(gettext_lazy("Login unlocked: %(who)s"))})


@dataclass(frozen=True)
class Lockout:
    kind: str  # USERNAME or ADDRESS
    value: str
    failures: int
    until: datetime


def _check(user: User) -> None:
    policy.require(user, "unlock_logins", None)


def locked_out(user: User, now: datetime | None = None) -> list[Lockout]:
    """Every username and every address locked out now, the longest lockout first."""
    _check(user)
    now = now or timezone.now()
    recent = AccessAttempt.objects.filter(attempt_time__gte=now - timedelta(hours=settings.LOGIN_FAILURE_MEMORY_HOURS))
    found = []
    limits = {USERNAME: settings.AXES_FAILURE_LIMIT, ADDRESS: settings.LOGIN_ADDRESS_FAILURE_LIMIT}
    for kind, column in _FIELD.items():
        rows = recent.exclude(**{f"{column}__isnull": True}).values(column)
        for row in rows.annotate(failures=Sum("failures_since_start"), last=Max("attempt_time")):
            until = row["last"] + timedelta(seconds=lockout_seconds(row["failures"], limits[kind]))
            if until > now:
                found.append(Lockout(kind, row[column], row["failures"], until))
    return sorted(found, key=lambda lockout: (-lockout.until.timestamp(), lockout.kind, lockout.value))


@transaction.atomic
def unlock(*, by: User, kind: str, value: str) -> int:
    """Forget the wrong passwords of a username (from every address) or of an address (at every
    username), so it may log in at once; audited. Returns how many wrong passwords were
    forgotten (0: it was not locked out, and nothing is written)."""
    _check(by)
    if kind not in _FIELD:
        raise ValidationError({"kind": _("Choose a username or an address to unlock.")})
    value = (value or "").strip()
    if not value:
        raise ValidationError({"value": _("Name the username or the address to unlock.")})
    attempts = AccessAttempt.objects.select_for_update().filter(**{_FIELD[kind]: value})
    failures = sum(attempt.failures_since_start for attempt in attempts)
    if not failures:
        return 0
    attempts.delete()
    recorded = unlocked.send(sender=Lockout, by=by, kind=kind, value=value, failures=failures)
    if not recorded:
        raise ImproperlyConfigured("No audit trail records login unlocks (audit/signals.py).")
    return failures
