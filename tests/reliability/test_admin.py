"""Issue #19: the admin wrote models directly. A result's tricks edited in the admin left no
audit entry, no recalculation request, and the standings wrong for good; a ruling edited there
left no audit entry. Now every admin page of a model a service owns is read only, and a
result's correction in the admin goes through services.correct_result."""

from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from audit.models import AuditEntry
from core import policy
from scoring import recalculation
from scoring.models import RecalculationRequest, Result, Standing

# Admin pages that may write: a result's correction (through its service), reference data
# without a service (the law catalogue, regulation clauses), Django's users and groups, API tokens.
WRITABLE = {
    "scoring.result",
    "rulings.lawentry",
    "rulings.regulationclause",
    "auth.user",
    "auth.group",
    "authtoken.tokenproxy",
    # An authority's own words: saved and deleted through appeals.terms.set_term (tested below).
    "appeals.authorityterm",
    # django-axes' login attempts: deleting one unlocks a locked-out user.
    "axes.accessattempt",
    "axes.accesslog",
    "axes.accessfailurelog",
}
# Admin pages that only add, through a service: a regulating authority with its preset
# (services.create_authority_with_preset); changing or deleting one stays refused.
ADD_ONLY = {"scoring.regulatingauthority"}


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "pw-root")


def test_every_other_admin_page_is_read_only_even_for_a_superuser(superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    writable = set()
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label_lower
        if label in WRITABLE:
            continue
        assert model_admin.has_view_permission(request), label
        for check in (
            model_admin.has_add_permission(request) and label not in ADD_ONLY,
            model_admin.has_change_permission(request),
            model_admin.has_delete_permission(request),
        ):
            if check:
                writable.add(label)
        for inline in model_admin.get_inline_instances(request):
            if (
                inline.has_add_permission(request, None)
                or inline.has_change_permission(request)
                or inline.has_delete_permission(request)
            ):
                writable.add(f"{label} inline {inline.model._meta.label_lower}")
    assert writable == set()


def test_a_result_corrected_in_the_admin_is_audited_and_rescored(field, superuser, client):
    client.force_login(superuser)
    result = field.results[6]  # table X: 4S by N, 10 tricks, +420
    x_pair = field.pairs[6]
    assert Standing.objects.get(event=field.event, session=None, contestant=x_pair).total == Decimal("8")
    page = client.get(f"/admin/scoring/result/{result.pk}/change/")
    assert page.status_code == 200
    response = client.post(
        f"/admin/scoring/result/{result.pk}/change/",
        {"contract": "4S", "declarer": "N", "tricks": "11", "lead": "", "_save": "Save"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    result.refresh_from_db()
    assert (result.tricks, result.score_ns) == (11, 450)
    entry = AuditEntry.objects.filter(action="result.corrected", object_id=str(result.pk)).get()
    assert entry.channel == "admin" and entry.actor == superuser
    assert entry.before["tricks"] == 10 and entry.after["tricks"] == 11
    assert RecalculationRequest.objects.filter(board=field.boards[0], finished_at__isnull=True).exists()
    recalculation.recalculate_board(field.boards[0].pk)  # what the worker does with the request
    # +450 twice now: each beats the five others and ties the other (11 of 12... out of 12).
    assert Standing.objects.get(event=field.event, session=None, contestant=x_pair).total == Decimal("11")


def test_an_impossible_correction_in_the_admin_is_refused_and_nothing_changes(field, superuser, client):
    client.force_login(superuser)
    result = field.results[6]
    before = AuditEntry.objects.count()
    response = client.post(
        f"/admin/scoring/result/{result.pk}/change/",
        {"contract": "4S", "declarer": "N", "tricks": "14", "lead": "", "_save": "Save"},
    )
    assert response.status_code == 200  # the form again, with the error on tricks
    assert "tricks" in response.content.decode().lower()
    result.refresh_from_db()
    assert result.tricks == 10
    assert AuditEntry.objects.count() == before


def test_a_result_cannot_be_added_or_deleted_in_the_admin(field, superuser, client):
    client.force_login(superuser)
    result = field.results[0]
    assert client.get("/admin/scoring/result/add/").status_code == 403
    assert client.post(f"/admin/scoring/result/{result.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Result.objects.filter(pk=result.pk).exists()


def test_a_ruling_cannot_be_edited_in_the_admin(superuser, client, field):
    from core import roles
    from rulings import services as rulings_services
    from scoring import services
    from tests.conftest import make_user

    director = make_user("td")
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    ruling = rulings_services.record_ruling(
        director=director, kind="ui", result=field.results[6], facts="Hesitation before 4S."
    )
    client.force_login(superuser)
    url = f"/admin/rulings/ruling/{ruling.pk}/change/"
    assert client.get(url).status_code == 200  # shown, read only
    before = AuditEntry.objects.count()
    response = client.post(url, {"facts": "Rewritten by hand.", "_save": "Save"})
    assert response.status_code == 403
    ruling.refresh_from_db()
    assert ruling.facts == "Hesitation before 4S."
    assert AuditEntry.objects.count() == before


def test_an_authority_term_added_and_deleted_in_the_admin_is_audited(field, superuser, client):
    from appeals.models import AuthorityTerm

    authority = field.tournament.authority
    client.force_login(superuser)
    response = client.post(
        "/admin/appeals/authorityterm/add/",
        {"authority": authority.pk, "key": "director", "language": "he", "text": "מנהל תחרות", "_save": "Save"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    term = AuthorityTerm.objects.get(authority=authority, key="director", language="he")
    assert term.text == "מנהל תחרות"
    added = AuditEntry.objects.filter(action="authority.term").get()
    assert added.actor == superuser and added.after["text"] == "מנהל תחרות"

    # "Delete selected" on the list page goes through the service too.
    response = client.post(
        "/admin/appeals/authorityterm/",
        {"action": "delete_selected", "_selected_action": [term.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert not AuthorityTerm.objects.filter(pk=term.pk).exists()
    removed = AuditEntry.objects.filter(action="authority.term").exclude(pk=added.pk).get()
    assert removed.before["text"] == "מנהל תחרות" and removed.after["text"] == ""
