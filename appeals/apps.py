from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AppealsConfig(AppConfig):
    name = "appeals"
    verbose_name = _("Appeals")

    def ready(self):
        # Register the app's Celery tasks in every process (web too), as the other apps do: a step
        # that notifies sends appeals.tasks.send_notification_mail by name once it commits, and a
        # web process that never imported the tasks module answered that with NotRegistered.
        from appeals import (
            tasks,  # noqa: F401
            texts,  # noqa: F401 - registers the app's stored texts (core/texts.py)
        )
