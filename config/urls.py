from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from appeals import api as appeals_api
from appeals import filing_api as appeals_filing_api
from appeals import views as appeals_views
from rulings import api as rulings_api
from rulings import offline_api, offline_views
from scoring import api as scoring_api
from scoring import authority_api, match_penalty_api, upload_api
from scoring import views as scoring_views

router = DefaultRouter()
router.register("tournaments", scoring_api.TournamentViewSet, basename="tournament")
router.register("events", scoring_api.EventViewSet, basename="event")
router.register("sessions", scoring_api.SessionViewSet, basename="session")
router.register("contestants", scoring_api.ContestantViewSet, basename="contestant")
router.register("boards", scoring_api.BoardViewSet, basename="board")
router.register("results", scoring_api.ResultViewSet, basename="result")
router.register("official-scores", scoring_api.OfficialScorePostingViewSet, basename="official-score")
router.register("rulings", rulings_api.RulingViewSet, basename="ruling")
router.register("laws", rulings_api.LawEntryViewSet, basename="law")
router.register("appeals", appeals_api.AppealViewSet, basename="appeal")
router.register("appeal-deadline-extensions", appeals_api.DeadlineExtensionViewSet, basename="appeal-extension")
router.register("appeal-memos", appeals_filing_api.MemoViewSet, basename="appeal-memo")
router.register("appeal-requests", appeals_filing_api.AppealRequestViewSet, basename="appeal-request")
router.register("authorities", authority_api.AuthorityViewSet, basename="authority")
router.register("match-penalties", match_penalty_api.MatchPenaltyViewSet, basename="match-penalty")
router.register("field-uploads", upload_api.FieldUploadViewSet, basename="club-upload")

urlpatterns = [
    path("", scoring_views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The phone's offline pages (issue #31): the service worker from the root, so its scope is the site.
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.web_manifest, name="web-manifest"),
    path("offline/", offline_views.offline_fallback, name="offline-fallback"),
    path("offline/tournaments/<int:pk>/", offline_views.offline_bundle, name="offline-bundle"),
    path("", include("scoring.urls")),
    path("rulings/", include("rulings.urls")),
    path("appeals/", include("appeals.urls")),
    # The hall's screen: its signed address is its permission (no login), so it sits outside the
    # prefixes of the records' pages, whose every door the role matrix checks.
    path("hall/<str:token>/", appeals_views.hall_screen_page, name="hall-screen"),
    path("national/", include("national.urls")),
    path("admin/", admin.site.urls),
    # A ruling drafted on a phone offline, sent with its Idempotency-Key (issue #31).
    path("api/v1/ruling-drafts/", offline_api.RulingDraftView.as_view(), name="ruling-draft-send"),
    path("api/v1/", include(router.urls)),
    # Tournaments published by organisers' instances to this national body (issue #32).
    path("api/federation/", include("national.federation.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the page's script from its own address (?script): no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]

# An address under /api/ that no route matches answers JSON in the API's error shape.
handler404 = "core.api_contract.not_found"
# Every server error under /api/ in the API's error shape; a database that does not answer: 503.
handler500 = "core.api_contract.server_error"
