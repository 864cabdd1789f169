"""The competition record in the admin: read only (every write has its service, which audits
it and schedules the recalculation), except a result's correction, which goes through
``services.correct_result`` like the pages and the API, and a new regulating authority with its
preset, which goes through ``services.create_authority_with_preset``."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.admin_readonly import ReadOnlyAdmin, ReadOnlyInline
from scoring import models, presets, services


class AuthoritySettingInline(ReadOnlyInline):
    model = models.AuthoritySetting


def _preset_choices():
    return [("", _("None: the Laws' defaults"))] + [
        (code, f"{code}: {presets.load(code).name}") for code in presets.available()
    ]


AUTHORITY_FIELDS = ["name", "code", "country", "language", "time_zone"]  # what a new authority is asked


class AuthorityCreationForm(forms.ModelForm):
    """A new regulating authority and the preset its regulations start from (scoring/presets)."""

    preset = forms.ChoiceField(
        label=_("preset"),
        required=False,
        choices=_preset_choices,
        help_text=_("Its dated settings, each with its source, are written as the authority's regulations."),
    )

    class Meta:
        model = models.RegulatingAuthority
        fields = AUTHORITY_FIELDS


@admin.register(models.RegulatingAuthority)
class RegulatingAuthorityAdmin(ReadOnlyAdmin):
    """Read only, except that a superuser adds an authority here: the add form saves through
    ``services.create_authority_with_preset``, as the API and ``create_authority --preset`` do
    (audited, channel admin); its settings change through the services only."""

    list_display = ["name", "code", "country", "language", "time_zone"]
    inlines = [AuthoritySettingInline]

    def has_add_permission(self, request):
        return request.user.is_superuser

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = AuthorityCreationForm
            kwargs["fields"] = [*AUTHORITY_FIELDS, "preset"]
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": [*AUTHORITY_FIELDS, "preset"]})]
        return super().get_fieldsets(request, obj)

    def get_inlines(self, request, obj):
        # The add page has no settings to show (the preset writes them on save), and a read-only
        # inline there would still ask the POST for its management form.
        return [] if obj is None and request.path.endswith("/add/") else self.inlines

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        authority = services.create_authority_with_preset(
            preset=data.get("preset") or "",
            by=request.user,
            **{name: data[name] for name in AUTHORITY_FIELDS},
        )
        obj.pk = authority.pk  # the admin's log entry and redirect name the authority created


@admin.register(models.Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ["name", "authority", "start_date", "end_date"]
    list_filter = ["authority"]
    search_fields = ["name"]


@admin.register(models.TournamentOfficial)
class TournamentOfficialAdmin(ReadOnlyAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]


@admin.register(models.AuditorAssignment)
class AuditorAssignmentAdmin(ReadOnlyAdmin):
    list_display = ["user", "authority"]


@admin.register(models.VictoryPointScale)
class VictoryPointScaleAdmin(ReadOnlyAdmin):
    """Added on the authority's settings page (services.add_vp_scale), never edited here."""

    list_display = ["name", "authority", "max_vp", "source", "created_at"]
    list_filter = ["authority"]


@admin.register(models.Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["name", "tournament", "kind", "vp_scale"]
    list_filter = ["kind", "tournament"]


class OfficialScorePostingInline(ReadOnlyInline):
    model = models.OfficialScorePosting


@admin.register(models.Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "event", "number", "starts_at"]
    list_filter = ["event__tournament"]
    inlines = [OfficialScorePostingInline]


@admin.register(models.Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["last_name", "first_name", "membership_number", "club", "authority"]
    search_fields = ["last_name", "first_name", "membership_number"]


@admin.register(models.Contestant)
class ContestantAdmin(ReadOnlyAdmin):
    list_display = ["number", "name", "kind", "event"]
    list_filter = ["event"]


@admin.register(models.Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ["number", "session", "dealer", "vulnerability"]
    list_filter = ["session__event"]


# What a Law 79 correction may change in the admin; the rest of a result stays as recorded.
CORRECTABLE = ["contract", "declarer", "tricks", "lead", "not_played"]


@admin.register(models.Result)
class ResultAdmin(admin.ModelAdmin):
    """A correction of a table result, saved by ``services.correct_result``: validated as
    everywhere, audited ("result.corrected", channel admin) and the board recalculated."""

    list_display = ["board", "table", "round", "ns", "ew", "contract", "declarer", "tricks", "score_ns"]
    list_filter = ["board__session__event"]
    fields = ["board", "round", "table", "ns", "ew", *CORRECTABLE, "score_ns"]
    readonly_fields = ["board", "round", "table", "ns", "ew", "score_ns"]

    def has_add_permission(self, request):
        return False  # results are recorded from the traveller, the API or an import

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        stored = models.Result.objects.get(pk=obj.pk)
        changes = {name: form.cleaned_data[name] for name in form.changed_data if name in CORRECTABLE}
        if changes:
            services.correct_result(result=stored, **changes, by=request.user)
        obj.refresh_from_db()

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as error:
            # The service refused what the form let through: say why, keep the record as it was.
            for message in error.messages:
                self.message_user(request, message, level=messages.ERROR)
            from django.http import HttpResponseRedirect

            return HttpResponseRedirect(request.path)


@admin.register(models.Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["round", "home", "away", "open_room", "closed_room"]


@admin.register(models.Section, models.Round, models.Table)
class LayoutAdmin(ReadOnlyAdmin):
    pass
