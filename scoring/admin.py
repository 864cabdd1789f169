from django.contrib import admin

from scoring import models


class AuthoritySettingInline(admin.TabularInline):
    model = models.AuthoritySetting
    extra = 0


@admin.register(models.RegulatingAuthority)
class RegulatingAuthorityAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "country", "language", "time_zone"]
    inlines = [AuthoritySettingInline]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "authority", "start_date", "end_date"]
    list_filter = ["authority"]
    search_fields = ["name"]


@admin.register(models.TournamentOfficial)
class TournamentOfficialAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]


@admin.register(models.AuditorAssignment)
class AuditorAssignmentAdmin(admin.ModelAdmin):
    list_display = ["user", "authority"]


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "kind"]
    list_filter = ["kind", "tournament"]


class OfficialScorePostingInline(admin.TabularInline):
    model = models.OfficialScorePosting
    extra = 0


@admin.register(models.Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number", "starts_at"]
    list_filter = ["event__tournament"]
    inlines = [OfficialScorePostingInline]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "membership_number", "club", "authority"]
    search_fields = ["last_name", "first_name", "membership_number"]


@admin.register(models.Contestant)
class ContestantAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "kind", "event"]
    list_filter = ["event"]
    filter_horizontal = ["members"]


@admin.register(models.Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["number", "session", "dealer", "vulnerability"]
    list_filter = ["session__event"]


@admin.register(models.Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["board", "table", "round", "ns", "ew", "contract", "declarer", "tricks", "score_ns"]
    list_filter = ["board__session__event"]
    readonly_fields = ["score_ns"]


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "home", "away", "open_room", "closed_room"]


admin.site.register([models.Section, models.Round, models.Table])
