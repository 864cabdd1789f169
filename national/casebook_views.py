"""Casebook pages of the national body: compile a draft from a search, check and edit its texts,
publish it, add commentary, make it final; read it as HTML, PDF or JSON."""

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from appeals.models import Outcome
from core import policy
from national import casebooks, pdf, printing, selectors
from national.book import render_book
from national.models import Casebook, CasebookCase, CasebookPrint
from national.views import SearchForm, national_reader_required
from rulings.models import Ruling
from scoring.models import RegulatingAuthority


def _casebook(request, pk):
    """A casebook of a body the user audits; 404 for any other."""
    return get_object_or_404(casebooks.visible_casebooks(request.user), pk=pk)


def _editor_casebook(request, pk):
    casebook = _casebook(request, pk)
    policy.require(request.user, "casebook", casebook.authority)
    return casebook


def _report(request, error):
    for field, errors in error.message_dict.items():
        for message in errors:
            messages.error(request, message if field in ("__all__", "cases") else f"{field}: {message}")


def _authorities(user):
    return policy.visible(user, "national_records", RegulatingAuthority.objects.order_by("name"))


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
    by_case: dict[int, list[dict[str, Any]]] = {}
    for problem in problems:
        by_case.setdefault(problem["case"], []).append(problem)
    cases = {case.position: case for case in casebook.cases.select_related("appeal__ruling", "commentary_by")}
    labels = casebooks.text_field_labels()
    proofs = decisions_in_trail(case.appeal_id for case in cases.values())
    rows = [
        {
            "entry": entry,
            "case": cases.get(entry["number"]),
            "proof": proofs.get(getattr(cases.get(entry["number"]), "appeal_id", None)),
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
            "text_fields": labels,
            "pdf_available": pdf.available(),
            "print_job": printing.latest(casebook),
        },
    )


def decisions_in_trail(appeal_ids):
    """Each appeal's decision as the audit trail holds it, with its inclusion proof in the last
    signed tree head (audit.services.inclusion_proofs), by appeal id; a decision written after
    that head has none yet (issue #30)."""
    from audit import services as audit
    from audit.models import AuditEntry

    ids = [str(pk) for pk in appeal_ids]
    latest = {}
    decisions = AuditEntry.objects.filter(
        object_type="appeals.appeal", object_id__in=ids, action__in=["appeal.decided", "appeal.further_decided"]
    ).order_by("sequence")
    for entry in decisions:
        latest[entry.object_id] = entry  # a further appeal's decision is the last word
    proofs = audit.inclusion_proofs(latest.values())
    return {int(pk): proofs[entry.sequence] for pk, entry in latest.items() if entry.sequence in proofs}


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


@national_reader_required
def casebook_book(request, pk):
    return HttpResponse(render_book(_casebook(request, pk)))


@require_http_methods(["GET", "POST"])
@national_reader_required
def casebook_pdf(request, pk):
    """The casebook's PDF: ask a worker to print it (POST), and see how far it got (GET; the
    page reloads itself while the print is under way)."""
    casebook = _casebook(request, pk)
    if request.method == "POST":
        printing.request_print(casebook=casebook, by=request.user)
        return redirect("national:casebook-pdf", pk)
    job = printing.latest(casebook)
    return render(
        request,
        "casebooks/print.html",
        {
            "casebook": casebook,
            "job": job,
            "pdf_available": pdf.available(),
            "can_print": printing.can_print_again(casebook, job),
        },
    )


@national_reader_required
def casebook_pdf_file(request, pk):
    """The latest printed PDF, from storage; with none yet, the page that prints one."""
    casebook = _casebook(request, pk)
    job = casebook.prints.filter(state=CasebookPrint.State.READY).order_by("-finished_at", "-pk").first()
    if job is None:
        messages.info(request, _("No PDF of this casebook has been printed yet."))
        return redirect("national:casebook-pdf", pk)
    return FileResponse(
        job.file.open("rb"),
        content_type="application/pdf",
        as_attachment=False,
        filename=f"casebook-{casebook.pk}.pdf",
    )


@national_reader_required
def casebook_json(request, pk):
    casebook = _casebook(request, pk)
    content = dict(casebooks.text_of(casebook), state=casebook.state, digest=casebook.digest or None)
    response = JsonResponse(content, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="casebook-{casebook.pk}.json"'
    return response
