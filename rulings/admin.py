"""Rulings in the admin: read only (a ruling is written, given, corrected and changed through
``rulings.services``, which audit each step and send the score to the scoring service). The
law catalogue and the regulating authorities' clauses are reference data without a service
and stay editable here."""

from django.contrib import admin

from core.admin_readonly import ReadOnlyAdmin, ReadOnlyInline
from rulings import models


@admin.register(models.LawEntry)
class LawEntryAdmin(admin.ModelAdmin):
    list_display = ["number", "edition", "title", "verified"]
    list_filter = ["edition", "verified"]
    search_fields = ["number", "title"]


@admin.register(models.RegulationClause)
class RegulationClauseAdmin(admin.ModelAdmin):
    list_display = ["document", "clause", "authority"]
    list_filter = ["authority"]


class CitationInline(ReadOnlyInline):
    model = models.RulingCitation


class PenaltyInline(ReadOnlyInline):
    model = models.Penalty


@admin.register(models.Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ["number", "kind", "state", "result", "director", "created_at"]
    list_filter = ["kind", "state", "result__board__session__event__tournament"]
    search_fields = ["ruling_text", "reasoning", "facts"]
    inlines = [CitationInline, PenaltyInline]
