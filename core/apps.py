from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """The shared kernel below every app: roles, the policy (who may do what), retries,
    dispatch of tasks by name, CSV cells, the stored-text registry, and the web's machinery
    that is not the competition record (the API's error contract, idempotency keys, the
    read-only admin, times, numbers and cards as a reader sees them, login lockouts). Its one
    model is the Idempotency-Key; it imports nothing of the apps above it
    (docs/architecture.md)."""

    name = "core"
    verbose_name = _("Shared kernel")
