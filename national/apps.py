from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NationalConfig(AppConfig):
    name = "national"
    verbose_name = _("National body")
