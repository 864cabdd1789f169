"""Issue #30: "a law's text edited or an uncited law deleted in the admin, and a user given the
chief director's group, leave no audit entry: who may do what is outside the trail." Each edit
below goes through the admin's own pages, as a superuser does it, and must leave its entry: who,
the admin door, the record before and after."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from audit import services as audit
from audit.models import AuditEntry
from core import policy, roles
from rulings.models import LawEntry, RegulationClause
from scoring import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(db, client):
    call_command("load_laws")  # the catalogue as the migration left it, whatever ran before in this process
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(user)
    return user


def last(action):
    return AuditEntry.objects.filter(action=action).order_by("-sequence").first()


def test_a_laws_title_edited_in_the_admin_is_audited(superuser, client):
    law = LawEntry.objects.get(edition="2017", number="16B1a")
    old_title = law.title
    response = client.post(
        f"/admin/rulings/lawentry/{law.pk}/change/",
        {
            "edition": "2017",
            "number": "16B1a",
            "law": law.law,
            "parent": law.parent,
            "title": "Anything goes",
            "titles": '{"en": "Anything goes"}',
            "verified": "on" if law.verified else "",
            "_save": "Save",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = last("law.changed")
    assert (entry.actor, entry.channel, entry.object_type, entry.object_id) == (
        superuser,
        "admin",
        "rulings.lawentry",
        str(law.pk),
    )
    assert entry.path == f"POST /admin/rulings/lawentry/{law.pk}/change/"
    assert (entry.before["title"], entry.after["title"]) == (old_title, "Anything goes")
    assert entry.summary.startswith("Law 16B1a (2017) changed: title, titles")
    assert audit.verify_chain().intact


def test_an_uncited_law_deleted_in_the_admin_is_audited(superuser, client):
    law = LawEntry.objects.filter(edition="1997").exclude(citations__isnull=False).first()
    response = client.post(f"/admin/rulings/lawentry/{law.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not LawEntry.objects.filter(pk=law.pk).exists()
    entry = last("law.deleted")
    assert (entry.actor, entry.channel, entry.object_id) == (superuser, "admin", str(law.pk))
    assert entry.before["number"] == law.number and entry.before["title"] == law.title
    assert entry.summary == f"Law {law.number} (1997) deleted"


def test_a_regulation_clause_added_edited_and_deleted_in_the_admin_is_audited(superuser, client):
    authority = services.create_authority(name="Test body", code="tst", time_zone="Europe/London", by=policy.SYSTEM)
    data = {"authority": authority.pk, "document": "Tournament regulations", "clause": "4.2", "text": "Ten seconds."}
    assert client.post("/admin/rulings/regulationclause/add/", {**data, "_save": "Save"}).status_code == 302
    clause = RegulationClause.objects.get(authority=authority, clause="4.2")
    added = last("regulation_clause.created")
    assert (added.actor, added.channel, added.after["text"]) == (superuser, "admin", "Ten seconds.")
    response = client.post(
        f"/admin/rulings/regulationclause/{clause.pk}/change/", {**data, "text": "Twenty seconds.", "_save": "Save"}
    )
    assert response.status_code == 302
    changed = last("regulation_clause.changed")
    assert (changed.before["text"], changed.after["text"]) == ("Ten seconds.", "Twenty seconds.")
    assert changed.summary == "Tournament regulations 4.2 changed: text"
    assert client.post(f"/admin/rulings/regulationclause/{clause.pk}/delete/", {"post": "yes"}).status_code == 302
    deleted = last("regulation_clause.deleted")
    assert (deleted.channel, deleted.before["text"]) == ("admin", "Twenty seconds.")


def user_form(user, **changes):
    """The admin's change form for ``user`` as it stands, with ``changes``."""
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "initial-date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "initial-date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "groups": list(user.groups.values_list("pk", flat=True)),
        "user_permissions": [],
        "_save": "Save",
    }
    for flag in ("is_active", "is_staff", "is_superuser"):
        if changes.pop(flag, getattr(user, flag)):
            data[flag] = "on"
    data.update(changes)
    return data


def test_a_user_given_the_chief_directors_group_in_the_admin_is_audited(superuser, client):
    chief = Group.objects.get_or_create(name=roles.CHIEF_DIRECTOR)[0]
    user = get_user_model().objects.create_user("newcomer", password="pw-newcomer")
    response = client.post(f"/admin/auth/user/{user.pk}/change/", user_form(user, groups=[chief.pk]))
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = last("user.groups_added")
    assert (entry.actor, entry.channel, entry.object_type, entry.object_id) == (
        superuser,
        "admin",
        "auth.user",
        str(user.pk),
    )
    assert (entry.before, entry.after) == ({"groups": []}, {"groups": ["chief_director"]})
    assert entry.summary == "newcomer added to the group chief_director"
    # Taken away again, and made superuser: both in the trail.
    user.refresh_from_db()
    response = client.post(f"/admin/auth/user/{user.pk}/change/", user_form(user, groups=[], is_superuser=True))
    assert response.status_code == 302
    removed = last("user.groups_removed")
    assert (removed.before, removed.after) == ({"groups": ["chief_director"]}, {"groups": []})
    flags = last("user.access_changed")
    assert (flags.channel, flags.before["is_superuser"], flags.after["is_superuser"]) == ("admin", False, True)
    assert flags.summary == "newcomer: is_superuser on"
    assert audit.verify_chain().intact
