"""The phone's offline pages (issue #31): the service worker and the web app manifest (served
from the site's root, so the worker's scope is the whole site), the page shown for a page the
phone did not keep, the list of what to keep for a tournament, the law catalogue as a page, and
the page of ruling drafts kept on the phone."""

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from core import policy
from rulings import selectors
from rulings.forms import RulingForm, TableJumpForm
from rulings.models import LawEntry
from rulings.offline import bundle_urls
from scoring import selectors as scoring_selectors

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
EDITIONS = ("1997", "2007", "2017")

# The ruling form's fields a draft on the phone offers (the whole form needs the network: the
# deal's upload, the attachments, the poll's players).
DRAFT_FIELDS = (
    "kind",
    "called_by",
    "facts",
    "laws",
    "ruling_text",
    "reasoning",
    "outcome",
)
# After the adjusted score, which the page shows with the ruling form's one score widget
# (templates/rulings/_score_parts.html: every kind, weighted, split and redress among them).
DRAFT_FIELDS_AFTER = ("appeal_notice",)


@never_cache
def service_worker(request):
    """The service worker, from the site's root: its scope is every page of the site."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def web_manifest(request):
    manifest = {
        "name": _("Bridge rulings and appeals"),
        "short_name": _("Rulings"),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d4f91",
        "icons": [{"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def offline_fallback(request):
    """Shown by the service worker, with no network, for a page this phone did not keep."""
    return render(request, "rulings/offline.html")


@login_required
def offline_bundle(request, pk):
    """What the phone keeps of a tournament for offline use, and when the list was made."""
    tournament = get_object_or_404(scoring_selectors.visible_tournaments(request.user), pk=pk)
    return JsonResponse({"fetched_at": timezone.now().isoformat(), "urls": bundle_urls(request.user, tournament)})


@login_required
def law_catalogue(request, edition):
    """The law catalogue of one edition, in the reader's language."""
    if edition not in EDITIONS:
        raise Http404
    laws = LawEntry.objects.filter(edition=edition).only("number", "law", "parent", "title", "titles")
    return render(request, "rulings/law_catalogue.html", {"edition": edition, "laws": laws})


@login_required
def ruling_drafts(request):
    """Ruling drafts kept on this phone: a new one (board, table and the ruling), and each
    one's state in words. Written for no network: the page is kept by the phone and the
    drafts live in the phone's IndexedDB (static/js/drafts.js)."""
    sessions = list(selectors.sessions_for_rulings(request.user))
    if not sessions:
        policy.refuse("ruling")
    jump = TableJumpForm(sessions=sessions)
    form = RulingForm()
    return render(
        request,
        "rulings/ruling_drafts.html",
        {
            "jump": jump,
            "form": form,
            "fields": [form[name] for name in DRAFT_FIELDS],
            "fields_after": [form[name] for name in DRAFT_FIELDS_AFTER],
            # Each session's tournament's zone: a draft's times are read in it, not the phone's.
            "zones_json": json.dumps({str(s.pk): s.event.tournament.zone.key for s in sessions}),
        },
    )
