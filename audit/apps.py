from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("Audit trail")

    def ready(self):
        from audit import access, checks, signals  # noqa: F401 - checks and signals connect themselves

        access.connect()  # who may do what: groups, permissions, staff and superuser flags
