from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Competition record and scores")

    def ready(self):
        # Register the app's Celery tasks in every process (web too), so services can send them
        # by name through core.dispatch without importing the tasks module.
        from . import (
            tasks,  # noqa: F401
            texts,  # noqa: F401 - registers the app's stored texts (core/texts.py)
            vp_scales,
        )

        vp_scales.register_shipped()  # the WBF discrete scale, data kept with the scoring app
