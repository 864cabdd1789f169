"""A regulating authority added in the admin starts from a preset (issue #17): the add form saves
through services.create_authority_with_preset, as the API and `create_authority --preset` do,
with audit entries on the admin channel; the authority's page stays read only."""

import pytest
from django.contrib.auth import get_user_model

from audit.models import AuditEntry
from scoring import presets
from scoring.models import AuthoritySetting, RegulatingAuthority

ADD = "/admin/scoring/regulatingauthority/add/"
FORM = {
    "name": "English Bridge Union",
    "code": "ebu",
    "country": "England",
    "language": "en",
    "time_zone": "Europe/London",
    "preset": "ebu",
    "_save": "Save",
}


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "pw-root")


def test_the_add_form_offers_every_preset(client, superuser):
    client.force_login(superuser)
    page = client.get(ADD).content.decode()
    assert '<option value="" selected>None: the Laws&#x27; defaults</option>' in page
    for code in presets.available():
        assert f'<option value="{code}">{code}: {presets.load(code).name}</option>' in page


def test_an_authority_added_in_the_admin_starts_from_its_preset_and_is_audited(client, superuser):
    client.force_login(superuser)
    response = client.post(ADD, FORM)
    assert response.status_code == 302, response.content.decode()[:3000]
    authority = RegulatingAuthority.objects.get(code="ebu")
    assert (authority.name, authority.country, authority.time_zone) == (
        "English Bridge Union",
        "England",
        "Europe/London",
    )
    assert authority.settings.count() == len(presets.load("ebu").entries) + 1  # and the preset itself
    # The White Book's 20 minutes (issue #43), after Law 92B's 30, each with its source's standing.
    periods = authority.settings.filter(key="appeal_period_minutes").order_by("effective_from")
    assert [(str(s.effective_from), s.value) for s in periods] == [("1997-01-01", 30), ("2004-08-01", 20)]
    assert periods[1].note.startswith("Preset ebu, assumed: The White Book's 20 minutes for the decision to appeal")
    created = AuditEntry.objects.get(action="authority.created")
    assert (created.channel, created.actor, created.object_id) == ("admin", superuser, str(authority.pk))
    assert created.after["preset"] == "ebu"
    applied = AuditEntry.objects.get(action="authority.preset_applied")
    assert (applied.channel, applied.actor) == ("admin", superuser)


def test_no_preset_leaves_the_laws_defaults(client, superuser):
    client.force_login(superuser)
    response = client.post(ADD, {**FORM, "preset": ""})
    assert response.status_code == 302
    authority = RegulatingAuthority.objects.get(code="ebu")
    assert not authority.settings.exists()
    assert AuditEntry.objects.get(action="authority.created").after["preset"] == ""


@pytest.mark.parametrize(
    "change,field,message",
    [
        ({"time_zone": "Mars/Olympus"}, "time_zone", "&#x27;Mars/Olympus&#x27; is not a time zone"),
        ({"preset": "xyz"}, "preset", "Select a valid choice. xyz is not one of the available choices."),
        ({"code": ""}, "code", "This field is required."),
    ],
)
def test_a_bad_add_is_refused_naming_the_field_and_nothing_is_written(client, superuser, change, field, message):
    client.force_login(superuser)
    response = client.post(ADD, {**FORM, **change})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not RegulatingAuthority.objects.exists() and not AuthoritySetting.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="authority.").exists()


def test_a_code_already_taken_is_refused(client, superuser):
    client.force_login(superuser)
    client.post(ADD, FORM)
    response = client.post(ADD, {**FORM, "name": "Another"})
    assert response.status_code == 200
    assert "Regulating authority with this Code already exists." in response.content.decode()
    assert RegulatingAuthority.objects.count() == 1


def test_the_authority_stays_read_only_in_the_admin(client, superuser):
    client.force_login(superuser)
    client.post(ADD, FORM)
    authority = RegulatingAuthority.objects.get(code="ebu")
    change = f"/admin/scoring/regulatingauthority/{authority.pk}/change/"
    page = client.get(change).content.decode()
    assert "English Bridge Union" in page and 'name="_save"' not in page
    assert client.post(change, {**FORM, "name": "Renamed"}).status_code == 403
    authority.refresh_from_db()
    assert authority.name == "English Bridge Union"
    delete = f"/admin/scoring/regulatingauthority/{authority.pk}/delete/"
    assert client.post(delete, {"post": "yes"}).status_code == 403


def test_only_a_superuser_adds_an_authority(client, db):
    staff = get_user_model().objects.create_user("staff", password="pw-staff", is_staff=True)
    client.force_login(staff)
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, FORM).status_code == 403
    assert not RegulatingAuthority.objects.exists()
