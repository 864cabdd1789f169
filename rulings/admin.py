from django.contrib import admin

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


class CitationInline(admin.TabularInline):
    model = models.RulingCitation
    extra = 0
    autocomplete_fields = ["law"]


class PenaltyInline(admin.TabularInline):
    model = models.Penalty
    extra = 0


@admin.register(models.Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ["number", "kind", "state", "result", "director", "created_at"]
    list_filter = ["kind", "state", "result__board__session__event__tournament"]
    search_fields = ["ruling_text", "reasoning", "facts"]
    readonly_fields = ["number", "state", "given_at", "double_dummy", "double_dummy_error"]
    inlines = [CitationInline, PenaltyInline]
