from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """The shared kernel below every app: roles, the policy (who may do what), retries,
    dispatch of tasks by name, CSV cells, the stored-text registry. It has no models and
    imports nothing of the apps above it (docs/architecture.md)."""

    name = "core"
    verbose_name = _("Shared kernel")
