"""The admin shows every appeal and its steps, read only: the steps themselves are taken
through ``appeals.services``, which audit each one (core.admin_readonly)."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from appeals import models, terms
from core.admin_readonly import ReadOnlyAdmin, ReadOnlyInline


class PartInline(ReadOnlyInline):
    model = models.AppealPart
    extra = 0
    readonly_fields = ["outcome", "reasons", "decided_by", "decided_at", "to_body"]


class ConcurrenceInline(ReadOnlyInline):
    model = models.Concurrence
    extra = 0
    readonly_fields = ["player", "how", "recorded_by", "recorded_at"]
    can_delete = False


class DepositInline(ReadOnlyInline):
    model = models.Deposit
    extra = 0
    readonly_fields = [
        "stage",
        "amount",
        "currency",
        "state",
        "received_by",
        "received_at",
        "settled_by",
        "settled_at",
        "note",
    ]
    can_delete = False


class EventInline(ReadOnlyInline):
    model = models.AppealEvent
    extra = 0
    readonly_fields = ["at", "by", "action", "from_state", "to_state", "note"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(models.Appeal)
class AppealAdmin(ReadOnlyAdmin):
    list_display = ["number", "ruling", "origin", "side", "appellant", "state", "outcome", "lodged_at"]
    list_filter = ["state", "origin", "outcome", "ruling__result__board__session__event__tournament"]
    search_fields = ["grounds", "reasons", "respondents_statement"]
    readonly_fields = [
        "number",
        "ruling",
        "origin",
        "side",
        "appellant",
        "lodged_by",
        "recorded_by",
        "lodged_at",
        "deadline",
        "extension",
        "decide_by",
        "hear_at_once",
        "state",
        "statements_locked_at",
        "withdrawal_requested_at",
        "withdrawal_requested_by",
        "outcome",
        "score_kind",
        "score",
        "score_description",
        "decided_by",
        "decided_at",
        "without_merit",
        "sanction",
    ]
    inlines = [PartInline, ConcurrenceInline, DepositInline, EventInline]


class MemberInline(ReadOnlyInline):
    model = models.BodyMember
    extra = 0
    readonly_fields = [
        "user",
        "is_chair",
        "appointed_by",
        "appointed_at",
        "declared_at",
        "conflict",
        "recused_at",
        "recusal_reason",
        "vote",
        "dissent",
        "voted_at",
    ]
    can_delete = False


@admin.register(models.Body)
class BodyAdmin(ReadOnlyAdmin):
    list_display = ["appeal", "stage", "kind", "size", "created_at"]
    list_filter = ["stage", "kind"]
    readonly_fields = ["appeal", "stage", "kind", "size", "constituted_by", "created_at"]
    inlines = [MemberInline]


class AttendanceInline(ReadOnlyInline):
    model = models.Attendance
    extra = 0


@admin.register(models.Hearing)
class HearingAdmin(ReadOnlyAdmin):
    list_display = ["appeal", "starts_at", "mode", "place"]
    list_filter = ["mode"]
    inlines = [AttendanceInline]


@admin.register(models.Recommendation)
class RecommendationAdmin(ReadOnlyAdmin):
    list_display = ["appeal", "about", "recommended_at", "accepted", "responded_at"]
    readonly_fields = ["accepted", "responded_by", "responded_at"]


@admin.register(models.FurtherAppeal)
class FurtherAppealAdmin(ReadOnlyAdmin):
    list_display = ["appeal", "origin", "binding", "state", "outcome", "lodged_at"]
    list_filter = ["state", "binding", "origin"]
    readonly_fields = ["state", "outcome", "score_kind", "score", "score_description", "decided_by", "decided_at"]


@admin.register(models.DeadlineExtension)
class DeadlineExtensionAdmin(ReadOnlyAdmin):
    list_display = ["ruling", "until", "granted_by", "granted_at"]


@admin.register(models.MeritWarning)
class MeritWarningAdmin(ReadOnlyAdmin):
    list_display = ["player", "appeal", "recorded_at"]
    search_fields = ["player__last_name", "player__membership_number"]


class AuthorityTermForm(forms.ModelForm):
    key = forms.ChoiceField(label=_("term"), choices=lambda: [(key, str(word)) for key, word in terms.TERMS.items()])

    class Meta:
        model = models.AuthorityTerm
        fields = ["authority", "key", "language", "text"]


@admin.register(models.AuthorityTerm)
class AuthorityTermAdmin(admin.ModelAdmin):
    """An authority's own words (appeals/terms.py): written through the service, so audited."""

    form = AuthorityTermForm
    list_display = ["authority", "key", "language", "text"]
    list_filter = ["authority", "language"]

    def save_model(self, request, obj, form, change):
        terms.set_term(authority=obj.authority, key=obj.key, language=obj.language, text=obj.text, by=request.user)

    def delete_model(self, request, obj):
        terms.set_term(authority=obj.authority, key=obj.key, language=obj.language, text="", by=request.user)

    def delete_queryset(self, request, queryset):
        # The list page's "delete selected" action: each term through the service, so audited.
        for obj in queryset:
            self.delete_model(request, obj)
