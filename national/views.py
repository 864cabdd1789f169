"""Pages of the national body: search the rulings and appeals of the tournaments under the
auditor's regulating authority (as a list or CSV), and their statistics as charts.

Only national auditors (of at least one authority) and superusers may open them."""

import functools

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from appeals.models import Appeal, Outcome
from core import csv_export, policy, texts
from national import quality as quality_selectors
from national import selectors
from rulings import selectors as ruling_selectors
from rulings.models import Ruling
from scoring import selectors as scoring_selectors
from scoring.models import Tournament


def national_reader_required(view):
    """Log in first; then 403 for anyone who is not a national auditor or a superuser."""

    @login_required
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        policy.require(request.user, "national", None)
        return view(request, *args, **kwargs)

    return wrapped


class SearchForm(forms.Form):
    """The search filters; a filter that does not parse is left out, not refused."""

    tournament = forms.IntegerField(required=False)
    event = forms.IntegerField(required=False)
    law = forms.CharField(required=False, max_length=12)
    kind = forms.ChoiceField(required=False, choices=[("", ""), *Ruling.Kind.choices])
    keyword = forms.CharField(required=False, max_length=100)
    director = forms.IntegerField(required=False)
    member = forms.IntegerField(required=False)
    date_from = forms.DateField(required=False)
    date_to = forms.DateField(required=False)
    outcome = forms.ChoiceField(required=False, choices=[("", ""), *Ruling.Outcome.choices])
    appeal = forms.ChoiceField(required=False, choices=[("", "")] + [(key, key) for key in selectors.APPEAL_OUTCOMES])

    def filters(self):
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value not in (None, "")}


CSV_HEADER = [
    "ruling",
    "ruling_url",
    "tournament",
    "event",
    "board",
    "table",
    "kind",
    "laws",
    "director",
    "given_at",
    "outcome",
    "appeals",
    "appeal_states",
    "appeal_outcomes",
    "without_merit",
]


@national_reader_required
def search(request):
    form = SearchForm(request.GET)
    rulings = selectors.search_rulings(request.user, **form.filters())
    if request.GET.get("format") == "csv":
        return _csv(request, rulings)  # every ruling found, not a page
    page = ruling_selectors.page_of(rulings, request.GET.get("page"))
    return render(
        request,
        "national/search.html",
        {
            "form": form,
            "params": request.GET,
            "rulings": page.object_list,
            "page": page,
            "kinds": Ruling.Kind.choices,
            "outcomes": Ruling.Outcome.choices,
            "appeal_outcomes": Outcome.choices,
            "subjects": selectors.SUBJECTS,
            "csv_query": _with_format(request),
            **selectors.scope_choices(request.user),
        },
    )


def _with_format(request):
    query = request.GET.copy()
    query["format"] = "csv"
    return query.urlencode()


def _csv(request, rulings):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="national-rulings.csv"'
    writer = csv_export.writer(response)  # no cell can start a formula in a spreadsheet
    writer.writerow(CSV_HEADER)
    for ruling in rulings:
        appeals = list(ruling.appeals.all())
        writer.writerow(
            [
                ruling.number,
                request.build_absolute_uri(f"/rulings/{ruling.pk}/"),
                ruling.tournament.name,
                ruling.session.event.name,
                ruling.board.number,
                ruling.result.table.number,
                ruling.kind,
                " ".join(str(c.law.number if c.law else c.regulation) for c in ruling.citations.all()),
                ruling.director.get_full_name() or ruling.director.username,
                ruling.on.isoformat() if ruling.on else "",
                ruling.outcome,
                " ".join(str(a.number) for a in appeals),
                " ".join(a.state for a in appeals),
                " ".join(a.outcome or "-" for a in appeals),
                " ".join("yes" if a.without_merit else "no" for a in appeals),
            ]
        )
    return response


@national_reader_required
def statistics(request):
    tournaments = selectors.audited_tournaments(request.user)
    tournament = (
        tournaments.filter(pk=request.GET.get("tournament")).first()
        if (request.GET.get("tournament") or "").isdigit()
        else None
    )
    figures = selectors.national_statistics(request.user, tournament.pk if tournament else None)
    charts = {
        "per_law": selectors.bar_chart(figures["per_law"]),
        "per_kind": selectors.bar_chart(figures["per_kind"]),
        "appeals_per_kind": selectors.bar_chart(figures["appeals_per_kind"]),
        "appeals_per_director": selectors.bar_chart(figures["appeals_per_director"]),
        "outcomes": selectors.bar_chart(figures["outcomes"]),
        "times": selectors.bar_chart(figures["times"]["bins"]),
        "decided": selectors.bar_chart(figures["deadlines"]["decided"]),
        "lodged": selectors.bar_chart(figures["deadlines"]["lodged"]),
        "directors": selectors.bar_chart(
            [(d["label"], d["total"], d["appealed"], d["changed"]) for d in figures["directors"]], series=3
        ),
        "ratings": selectors.bar_chart(figures["ratings"]["rows"]),
    }
    return render(
        request,
        "national/statistics.html",
        {
            "figures": figures,
            "charts": charts,
            "tournaments": tournaments,
            "selected": tournament,
        },
    )


@national_reader_required
def home(request):
    """The auditor's desk: the audit trail's state, the bodies audited, open and decided cases,
    the casebooks, and the latest entries of the trail for these tournaments."""
    from audit.models import AuditCheckpoint, AuditEntry
    from audit.services import verify_chain
    from national import casebooks

    # Only the entries written since the last signed tree head: the whole trail is the button's
    # (and beat's nightly task's) work.
    chain = verify_chain(since_checkpoint=True)
    tournaments = selectors.audited_tournaments(request.user)
    appeals = selectors.scoped_appeals(request.user)
    entries = list(
        AuditEntry.objects.filter(tournament_id__in=tournaments.values("pk"))
        .select_related("actor")
        .order_by("-sequence")[:15]
    )
    # Each entry's time in its own tournament's zone, as every page shows times.
    zones = {
        t.pk: t.zone
        for t in Tournament.objects.filter(pk__in={e.tournament_id for e in entries}).select_related("authority")
    }
    for entry in entries:
        entry.zone = zones.get(entry.tournament_id)
        entry.action_label = texts.action_label(entry.action)  # in the reader's language
    return render(
        request,
        "national/home.html",
        {
            "chain": chain,
            "checkpoint": AuditCheckpoint.objects.filter(pk=1).first(),
            "tournaments": tournaments[:20],
            "tournament_count": tournaments.count(),
            "ruling_count": selectors.scoped_rulings(request.user).count(),
            "open_appeals": appeals.filter(state__in=Appeal.OPEN_STATES).count(),
            "decided_appeals": appeals.filter(state=Appeal.State.DECIDED).count(),
            "casebooks": casebooks.visible_casebooks(request.user)[:10],
            "authorities": scoring_selectors.readable_authorities(request.user).order_by("name"),
            "entries": entries,
        },
    )


@national_reader_required
def quality(request):
    """The quality view: appeals' outcomes per appeals body, director, law or season, with the
    reversal rate, appeals without merit, time to decision and the experts' marks; as CSV with
    ``format=csv``. An unknown grouping is named (400) and the view grouped by appeals body; a
    tournament the auditor does not audit is named and nothing shown."""
    grouping = request.GET.get("by") or "body"
    problems = []
    status = 200
    if grouping not in quality_selectors.GROUPINGS:
        problems.append(_("Group by: '%(value)s' is not one of the choices.") % {"value": grouping})
        grouping, status = "body", 400
    tournaments = selectors.audited_tournaments(request.user)
    chosen = request.GET.get("tournament") or ""
    tournament = tournaments.filter(pk=chosen).first() if chosen.isdigit() else None
    rows = quality_selectors.quality_rows(request.user, grouping, tournament.pk if tournament else None)
    if chosen and tournament is None:
        # As a search that finds nothing: another body's tournament is neither shown nor confirmed.
        problems.append(_("Tournament: '%(value)s' is not a tournament you audit.") % {"value": chosen})
        rows = []
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="national-quality-by-{grouping}.csv"'
        csv_export.writer(response).writerows(quality_selectors.csv_rows(rows, grouping))
        return response
    chart = selectors.bar_chart([(row.label, row.changed_percent) for row in rows if row.changed_percent is not None])
    return render(
        request,
        "national/quality.html",
        {
            "rows": rows,
            "grouping": grouping,
            "groupings": quality_selectors.GROUPINGS,
            "grouping_label": quality_selectors.GROUPINGS[grouping],
            "tournaments": tournaments,
            "selected": tournament,
            "problems": problems,
            "chart": chart,
            "csv_query": _with_format(request),
        },
        status=status,
    )
