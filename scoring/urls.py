"""The competition record's pages: tournaments, events, sessions, boards, contestants, matches, standings,
imports and exports, an authority's settings. Included at the site's root as ``scoring:``."""

from django.urls import path

from core import login_views
from scoring import authority_views, check_views, upload_views
from scoring import import_views as scoring_import_views
from scoring import views as scoring_views

app_name = "scoring"

urlpatterns = [
    path("logins/locked/", login_views.locked_logins, name="locked-logins"),
    path("tournaments/<int:pk>/", scoring_views.tournament_detail, name="tournament"),
    path("events/<int:pk>/", scoring_views.event_detail, name="event"),
    path("events/<int:pk>/standings/", scoring_views.standings, name="standings"),
    path("events/<int:pk>/import/", scoring_import_views.event_import, name="import-results"),
    path("sessions/<int:pk>/", scoring_views.session_detail, name="session"),
    path("sessions/<int:pk>/changes/", scoring_views.session_changes, name="session-changes"),
    path("sessions/<int:pk>/checks/", check_views.session_checks, name="session-checks"),
    path("sessions/<int:pk>/checks/accept/", check_views.accept_check, name="session-check-accept"),
    path("sessions/<int:pk>/checks/correct/", check_views.correct_check, name="session-check-correct"),
    path("uploads/<int:pk>/", upload_views.field_upload, name="field-upload"),
    path("uploads/<int:pk>/confirm/", upload_views.confirm_flag, name="field-upload-confirm"),
    path("uploads/<int:pk>/correct/", upload_views.correct_flag, name="field-upload-correct"),
    path("sessions/<int:pk>/post-score/", scoring_views.post_official_score, name="session-post-score"),
    path("sessions/<int:pk>/export/<str:fmt>/", scoring_import_views.session_export, name="session-export"),
    path("boards/<int:pk>/", scoring_views.board_detail, name="board"),
    path("contestants/<int:pk>/", scoring_views.contestant_detail, name="contestant"),
    path("matches/<int:pk>/", scoring_views.match_detail, name="match"),
    path("authorities/<int:pk>/settings/", authority_views.authority_settings_page, name="authority-settings"),
    path(
        "authorities/<int:pk>/settings/corrections/",
        authority_views.authority_corrections_page,
        name="authority-corrections",
    ),
]
