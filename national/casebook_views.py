"""Casebook pages of the national body: compile a draft from a search, check and edit its texts,
publish it, add commentary, make it final; read it as HTML, PDF or JSON."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from appeals.models import Outcome
from bridge.auction import Auction
from bridge.deals import DealError, parse_deal
from bridge.diagrams import auction_notes, auction_rows
from national import casebooks, pdf, selectors
from national.models import Casebook, CasebookCase
from national.views import SearchForm, national_reader_required
from rulings.models import Ruling
from scoring.i18n import translate
from scoring.models import RegulatingAuthority


def _casebook(request, pk):
    """A casebook of a body the user audits; 404 for any other."""
    return get_object_or_404(casebooks.visible_casebooks(request.user), pk=pk)


def _editor_casebook(request, pk):
    casebook = _casebook(request, pk)
    if not casebooks.can_edit(request.user, casebook.authority):
        raise PermissionDenied(_("Only the national body's auditors edit its casebooks."))
    return casebook


def _report(request, error):
    for field, errors in error.message_dict.items():
        for message in errors:
            messages.error(request, message if field in ("__all__", "cases") else f"{field}: {message}")


def _authorities(user):
    qs = RegulatingAuthority.objects.order_by("name")
    return qs if user.is_superuser else qs.filter(auditors__user=user).distinct()


@national_reader_required
def casebook_list(request):
    authorities = _authorities(request.user)
    form = SearchForm(request.POST or None)
    if request.method == "POST":
        authority = authorities.filter(pk=request.POST.get("authority") or 0).first()
        if authority is None:
            messages.error(request, _("authority: choose the national body whose casebook this is."))
        else:
            try:
                casebook = casebooks.compile_casebook(
                    authority=authority,
                    by=request.user,
                    title=request.POST.get("title", ""),
                    introduction=request.POST.get("introduction", ""),
                    filters=form.filters(),
                )
            except ValidationError as error:
                _report(request, error)
            else:
                messages.success(request, _("Draft compiled: %(count)s cases.") % {"count": casebook.cases.count()})
                return redirect("national:casebook", casebook.pk)
    return render(
        request,
        "casebooks/list.html",
        {
            "casebooks": casebooks.visible_casebooks(request.user),
            "authorities": authorities,
            "form": form,
            "params": request.POST,
            "subjects": selectors.SUBJECTS,
            "kinds": Ruling.Kind.choices,
            "outcomes": Ruling.Outcome.choices,
            "appeal_outcomes": Outcome.choices,
            **selectors.scope_choices(request.user),
        },
    )


@national_reader_required
def casebook_detail(request, pk):
    casebook = _casebook(request, pk)
    content = casebooks.text_of(casebook)
    problems = casebooks.name_problems(casebook, content) if casebook.state == Casebook.State.DRAFT else []
    by_case = {}
    for problem in problems:
        by_case.setdefault(problem["case"], []).append(problem)
    cases = {case.position: case for case in casebook.cases.select_related("appeal__ruling", "commentary_by")}
    labels = casebooks.text_field_labels()
    rows = [
        {
            "entry": entry,
            "case": cases.get(entry["number"]),
            "problems": by_case.get(entry["number"], []),
            "texts": [
                (key, labels[key], entry["texts"].get(key, ""))
                for key in casebooks.TEXT_FIELDS
                if entry["texts"].get(key)
            ],
        }
        for entry in content["cases"]
    ]
    return render(
        request,
        "casebooks/detail.html",
        {
            "casebook": casebook,
            "content": content,
            "rows": rows,
            "problems": problems,
            "can_edit": casebooks.can_edit(request.user, casebook.authority),
            "text_fields": labels,
            "pdf_available": pdf.available(),
        },
    )


def _service(request, call, success):
    """Run one casebook service; its refusal, or ``success``, is the message on the next page."""
    try:
        call()
    except ValidationError as error:
        _report(request, error)
    else:
        messages.success(request, success)


def _on_casebook(request, pk, step, success):
    """``step(casebook)`` by an editor of the casebook, then back to its page."""
    casebook = _editor_casebook(request, pk)
    _service(request, lambda: step(casebook), success)
    return redirect("national:casebook", pk)


def _on_case(request, pk, case_pk, step, success):
    """``step(case)`` by an editor of the casebook, then back to the case on its page;
    ``success`` may name the case's ``%(number)s``."""
    case = get_object_or_404(CasebookCase, casebook=_editor_casebook(request, pk), pk=case_pk)
    _service(request, lambda: step(case), success % {"number": case.position})
    return redirect(f"{reverse('national:casebook', args=[pk])}#case-{case.position}")


@require_POST
@national_reader_required
def casebook_publish(request, pk):
    return _on_casebook(
        request,
        pk,
        lambda casebook: casebooks.publish_casebook(casebook=casebook, by=request.user),
        _("Published without commentary. Commentary may now be added; then make the casebook final."),
    )


@require_POST
@national_reader_required
def casebook_finalise(request, pk):
    return _on_casebook(
        request,
        pk,
        lambda casebook: casebooks.finalise_casebook(casebook=casebook, by=request.user),
        _("The casebook is final. Its text can no longer change."),
    )


@require_POST
@national_reader_required
def case_commentary(request, pk, case_pk):
    data = request.POST
    return _on_case(
        request,
        pk,
        case_pk,
        lambda case: casebooks.write_commentary(
            case=case,
            by=request.user,
            text=data.get("commentary", ""),
            ruling_rating=data.get("ruling_rating"),
            decision_rating=data.get("decision_rating"),
        ),
        _("Commentary on case %(number)s saved."),
    )


@require_POST
@national_reader_required
def case_redact(request, pk, case_pk):
    data = request.POST
    return _on_case(
        request,
        pk,
        case_pk,
        lambda case: casebooks.redact(
            case=case, by=request.user, field=data.get("field", ""), text=data.get("text", "")
        ),
        _("Case %(number)s: published wording saved."),
    )


@require_POST
@national_reader_required
def case_remove(request, pk, case_pk):
    return _on_case(
        request,
        pk,
        case_pk,
        lambda case: casebooks.remove_case(case=case, by=request.user),
        _("Case removed; the cases after it were renumbered."),
    )


# ---------------------------------------------------------------------------------------------
# The book


def _diagram(entry):
    try:
        deal = parse_deal(entry["deal"]) if entry.get("deal") else None
    except DealError:
        deal = None
    auction = Auction.from_dict(entry["auction"]) if entry.get("auction") else None
    return {
        "hands": {seat: [(suit, deal.hands[seat][suit]) for suit in "SHDC"] for seat in "NESW"} if deal else None,
        "rows": auction_rows(auction) if auction else [],
        "notes": [dict(note, text=translate(note["text"])) for note in auction_notes(auction)] if auction else [],
        "claim": (entry["auction"] or {}).get("claim") if entry.get("auction") else None,
    }


def render_book(casebook, content=None):
    """The casebook as one self-contained HTML document (styles and diagrams inline), in its
    own language: what the page shows and what is printed to PDF."""
    content = content or casebooks.text_of(casebook)
    stats = content["statistics"]
    with translation.override(casebook.language):
        labels = casebooks.text_field_labels()
        cases = [
            {
                "entry": entry,
                "diagram": _diagram(entry),
                **{
                    group: [(labels[key], entry["texts"][key]) for key in keys if entry["texts"].get(key)]
                    for group, keys in casebooks.TEXT_GROUPS.items()
                },
            }
            for entry in content["cases"]
        ]
        charts = {
            "outcomes": selectors.bar_chart(stats["outcomes"]),
            "kinds": selectors.bar_chart(stats["kinds"]),
            "laws": selectors.bar_chart([(_("Law %(law)s") % {"law": law}, n) for law, n in stats["laws"]]),
            "ratings": selectors.bar_chart(stats.get("ratings") or []),
        }
        return render_to_string(
            "casebooks/book.html",
            {
                "casebook": casebook,
                "content": content,
                "cases": cases,
                "charts": charts,
                "rtl": translation.get_language_bidi(),
                "language": casebook.language,
                "card_ranks": casebook.authority.settings_on().get("card_rank_letters") or "international",
            },
        )


@national_reader_required
def casebook_book(request, pk):
    return HttpResponse(render_book(_casebook(request, pk)))


@national_reader_required
def casebook_pdf(request, pk):
    casebook = _casebook(request, pk)
    if casebook.state == Casebook.State.FINAL and casebook.pdf:
        body = bytes(casebook.pdf)
    else:
        try:
            body = pdf.html_to_pdf(render_book(casebook))
        except pdf.PdfUnavailable as error:
            return HttpResponse(str(error), status=503, content_type="text/plain; charset=utf-8")
        casebooks.store_pdf(casebook, body)
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="casebook-{casebook.pk}.pdf"'
    return response


@national_reader_required
def casebook_json(request, pk):
    casebook = _casebook(request, pk)
    content = dict(casebooks.text_of(casebook), state=casebook.state, digest=casebook.digest or None)
    response = JsonResponse(content, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="casebook-{casebook.pk}.json"'
    return response
