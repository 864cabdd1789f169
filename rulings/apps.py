from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = _("Director rulings")

    def ready(self):
        # Register the app's Celery tasks in every process (web too), so services can send them
        # by name through core.dispatch without importing the tasks module.
        from . import (
            catalogue_audit,
            tasks,  # noqa: F401
            texts,  # noqa: F401 - registers the app's stored texts (core/texts.py)
        )

        catalogue_audit.connect()  # the law catalogue and regulation clauses, audited (issue #30)
