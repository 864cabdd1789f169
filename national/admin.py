"""Casebooks in the admin: read only (compiled, named and published through
``national.casebooks``, which audits each step)."""

from django.contrib import admin

from core.admin_readonly import ReadOnlyAdmin, ReadOnlyInline
from national import models


class CasebookCaseInline(ReadOnlyInline):
    model = models.CasebookCase


class CasebookPrintInline(ReadOnlyInline):
    model = models.CasebookPrint


@admin.register(models.Casebook)
class CasebookAdmin(ReadOnlyAdmin):
    inlines = [CasebookCaseInline, CasebookPrintInline]
