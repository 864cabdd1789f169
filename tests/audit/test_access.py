"""Who may do what is in the trail (issue #30), whatever the door: a role given by the service, a
group's members changed from the group's side or cleared, the superuser and staff flags, a
permission, a group deleted, the law catalogue loaded by its command."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from audit.models import AuditEntry
from core import policy, roles
from rulings.models import LawEntry
from scoring import services

pytestmark = pytest.mark.django_db


def entries(**filters):
    return list(AuditEntry.objects.filter(**filters).order_by("sequence"))


def test_a_role_granted_by_the_service_is_audited():
    user = get_user_model().objects.create_user("td", password="pw")
    services.grant_role(user=user, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    (entry,) = entries(action="user.groups_added", object_id=str(user.pk))
    assert (entry.before, entry.after) == ({"groups": []}, {"groups": ["chief_director"]})
    # Granting it again changes nothing and writes nothing.
    services.grant_role(user=user, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    assert len(entries(action="user.groups_added", object_id=str(user.pk))) == 1


def test_members_changed_from_the_groups_side_and_cleared_are_audited():
    ann, bob = (get_user_model().objects.create_user(name, password="pw") for name in ("ann", "bob"))
    chief = Group.objects.get_or_create(name=roles.CHIEF_DIRECTOR)[0]
    chief.user_set.add(ann, bob)
    added = entries(action="user.groups_added")
    assert sorted(e.summary for e in added) == [
        "ann added to the group chief_director",
        "bob added to the group chief_director",
    ]
    ann.groups.add(Group.objects.get_or_create(name=roles.SCORER)[0])
    ann.groups.clear()
    (cleared,) = entries(action="user.groups_removed", object_id=str(ann.pk))
    assert cleared.before == {"groups": ["chief_director", "scorer"]} and cleared.after == {"groups": []}
    assert cleared.summary == "ann removed from the groups chief_director, scorer"
    chief.user_set.clear()
    assert entries(action="user.groups_removed", object_id=str(bob.pk))[0].after == {"groups": []}


def test_the_superuser_and_staff_flags_and_permissions_are_audited_and_a_login_is_not():
    user = get_user_model().objects.create_user("ops", password="pw")
    assert not entries(object_type="auth.user")  # a plain account may do nothing yet
    user.is_superuser = True
    user.save()
    (flag,) = entries(action="user.access_changed")
    assert (flag.before["is_superuser"], flag.after["is_superuser"], flag.summary) == (
        False,
        True,
        "ops: is_superuser on",
    )
    user.save(update_fields=["last_login"])  # what a login writes
    user.first_name = "Olga"
    user.save()
    assert len(entries(action="user.access_changed")) == 1
    user.user_permissions.add(Permission.objects.get(codename="change_lawentry"))
    (permission,) = entries(action="user.user_permissions_added")
    assert permission.after == {"user_permissions": ["rulings.change_lawentry"]}


def test_a_groups_permissions_and_its_deletion_are_audited():
    group = Group.objects.create(name="editors")
    group.permissions.add(Permission.objects.get(codename="delete_lawentry"))
    (entry,) = entries(action="group.permissions_added")
    assert entry.summary == "group editors: permissions added: rulings.delete_lawentry"
    group.user_set.add(get_user_model().objects.create_user("eve", password="pw"))
    group.delete()
    (deleted,) = entries(action="group.deleted")
    assert deleted.before == {"name": "editors", "members": ["eve"]}


def test_a_superuser_made_by_the_command_is_audited(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "pw-admin")
    call_command("createsuperuser", "--no-input", "--username", "admin", "--email", "admin@example.org")
    (entry,) = entries(action="user.created")
    assert entry.after == {"is_superuser": True, "is_staff": True, "is_active": True}
    assert entry.actor is None and entry.summary == "admin: is_superuser on, is_staff on, is_active on"


def test_the_law_catalogue_loaded_by_its_command_is_audited():
    # The catalogue as the migration left it, whatever ran before in this process; this load
    # may itself be audited (another test changed the catalogue), so only what follows counts.
    call_command("load_laws")
    before = AuditEntry.objects.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    law = LawEntry.objects.get(edition="2017", number="16B1a")
    LawEntry.objects.filter(pk=law.pk).update(title="Changed behind its back")
    call_command("load_laws")
    (entry,) = entries(action="law_catalogue.loaded", sequence__gt=before)
    assert entry.after == {"created": [], "updated": ["2017 16B1a"]}
    assert entry.summary == "Law catalogue loaded: 0 laws added, 1 changed"
    call_command("load_laws")  # nothing to change: nothing written
    assert len(entries(action="law_catalogue.loaded", sequence__gt=before)) == 1
