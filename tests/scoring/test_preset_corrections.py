"""Corrections of a preset reach a body created under an older version of it (issue #43): what
would change (added, corrected, withdrawn, with the source), applied as the national body
confirms, audited, and never rewriting what a tournament already held used."""

import dataclasses
import datetime
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from audit.models import AuditEntry
from core import policy
from scoring import presets, services
from scoring.models import AuthoritySetting, Tournament
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
D = datetime.date
HELD = D(2025, 3, 1)  # a tournament already held
LATER = D(2027, 3, 1)  # one still to come


def older_ebu():
    """The EBU preset as an older version had it: the Laws' 30 minutes to appeal, the 75-pound
    National Authority deposit only from 2023, the WBF continuous scale throughout, and the
    procedural penalties at teams in VPs or IMPs."""
    ebu = presets.load("ebu")
    dropped = {("appeal_period_minutes", D(2004, 8, 1)), ("vp_scale", D(2013, 9, 1))}
    entries = []
    for entry in ebu.entries:
        if (entry.key, entry.effective_from) in dropped:
            continue
        if (entry.key, entry.effective_from) == ("further_appeal_deposit", D(2008, 8, 1)):
            entry = dataclasses.replace(entry, effective_from=D(2023, 8, 1))
        if (entry.key, entry.effective_from) == ("team_penalty_units", D(2016, 8, 1)):
            entry = dataclasses.replace(entry, value="vps_or_imps")
        entries.append(entry)
    return dataclasses.replace(ebu, entries=tuple(entries))


@pytest.fixture
def old_ebu(monkeypatch):
    old = older_ebu()
    monkeypatch.setattr(presets, "load", lambda code: old)
    authority = services.create_authority_with_preset(
        name="English Bridge Union", code="ebu", preset="ebu", by=policy.SYSTEM
    )
    held = services.create_tournament(
        authority=authority, name="Spring 2025", start_date=HELD, end_date=HELD, by=policy.SYSTEM
    )
    later = services.create_tournament(
        authority=authority, name="Spring 2027", start_date=LATER, end_date=LATER, by=policy.SYSTEM
    )
    monkeypatch.undo()  # the preset as it stands now
    return authority, held, later


EXPECTED = [  # in the settings' order, then by date
    ("added", "appeal_period_minutes@2004-08-01"),
    ("added", "vp_scale@2013-09-01"),
    ("added", "further_appeal_deposit@2008-08-01"),
    ("withdrawn", "further_appeal_deposit@2023-08-01"),
    ("corrected", "team_penalty_units@2016-08-01"),
]


def test_the_corrections_an_older_authority_would_take(old_ebu):
    authority, _held, _later = old_ebu
    found = [(c.kind, c.ident) for c in services.preset_corrections(authority=authority)]
    assert found == EXPECTED
    deposit = next(c for c in services.preset_corrections(authority=authority) if c.kind == "withdrawn")
    assert (deposit.before, deposit.entry) == ({"currency": "GBP", "amount": "75.00"}, None)
    units = next(c for c in services.preset_corrections(authority=authority) if c.key == "team_penalty_units")
    assert (units.kind, units.before, units.after, units.entry.confidence) == (
        "corrected",
        "vps_or_imps",
        "vps",
        "assumed",
    )


def test_the_national_body_confirms_the_corrections_on_a_page_audited_and_past_tournaments_keep_theirs(client, old_ebu):
    authority, held, later = old_ebu
    national = make_user("national")
    services.appoint_auditor(authority=authority, user=national, by=policy.SYSTEM)
    client.force_login(national)
    url = reverse("scoring:authority-corrections", args=[authority.pk])
    settings_page = client.get(reverse("scoring:authority-settings", args=[authority.pk])).content.decode()
    assert "The preset now gives 5 values otherwise: see the corrections." in settings_page
    page = client.get(url).content.decode()
    row = page.split('id="correction-appeal_period_minutes@2004-08-01"')[1].split("</li>")[0]
    assert 'data-kind="added"' in row and ">20<" in row
    assert "the 20-minute correction period for the decision to appeal" in row and 'data-confidence="assumed"' in row
    withdrawn = page.split('id="correction-further_appeal_deposit@2023-08-01"')[1].split("</li>")[0]
    assert "Withdrawn" in withdrawn and "The preset no longer gives this value" in withdrawn
    assert page.count('type="checkbox" name="correction"') == 5

    response = client.post(url, {"correction": [ident for _kind, ident in EXPECTED]})
    assert response.status_code == 302
    assert "nothing to correct" in client.get(url).content.decode()
    assert not AuthoritySetting.objects.filter(
        authority=authority, key="further_appeal_deposit", effective_from=D(2023, 8, 1)
    ).exists()
    # The tournament already held keeps what it used; the one to come takes the corrections.
    held, later = Tournament.objects.get(pk=held.pk), Tournament.objects.get(pk=later.pk)
    assert held.kept_regulations == {
        "appeal_period_minutes": 30,
        "vp_scale": "wbf2013-20",
        "team_penalty_units": "vps_or_imps",
    }
    past = held.regulations()
    assert (past["appeal_period_minutes"], past["vp_scale"], past["team_penalty_units"]) == (
        30,
        "wbf2013-20",
        "vps_or_imps",
    )
    assert past["further_appeal_deposit"] == {"currency": "GBP", "amount": "75.00"}
    future = later.regulations()
    assert (future["appeal_period_minutes"], future["vp_scale"], future["team_penalty_units"]) == (
        20,
        "wbf2013-discrete-20",
        "vps",
    )
    entry = AuditEntry.objects.get(action="authority.preset_corrected")
    assert (entry.actor, entry.summary) == (national, "English Bridge Union: 5 corrections from preset ebu applied")
    assert entry.after["kept_by_tournaments"] == {
        str(held.pk): ["appeal_period_minutes", "team_penalty_units", "vp_scale"]
    }
    assert entry.after["corrections"]["further_appeal_deposit@2023-08-01"] == {"kind": "withdrawn", "value": None}
    assert entry.before["further_appeal_deposit@2023-08-01"] == {"currency": "GBP", "amount": "75.00"}
    assert entry.after["applied_on"]


def test_a_correction_already_applied_or_none_chosen_is_refused_and_nothing_changes(client, old_ebu):
    authority, held, _later = old_ebu
    root = make_user("root", is_superuser=True)
    client.force_login(root)
    url = reverse("scoring:authority-corrections", args=[authority.pk])
    page = client.post(url, {}).content.decode()
    assert "Choose at least one correction to apply." in page
    page = client.post(url, {"correction": ["vp_scale@2013-09-01", "vp_scale@1999-01-01"]}).content.decode()
    assert "vp_scale@1999-01-01: not a correction the preset now brings (already applied?)." in page
    assert len(services.preset_corrections(authority=authority)) == 5
    assert Tournament.objects.get(pk=held.pk).kept_regulations == {}
    assert not AuditEntry.objects.filter(action="authority.preset_corrected").exists()


def test_only_the_bodys_national_auditors_and_the_superuser_confirm(client, old_ebu):
    authority, _held, _later = old_ebu
    url = reverse("scoring:authority-corrections", args=[authority.pk])
    other = services.create_authority_with_preset(name="Other", code="other", preset="laws", by=policy.SYSTEM)
    outsider = make_user("outsider")
    services.appoint_auditor(authority=other, user=outsider, by=policy.SYSTEM)
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.post(url, {"correction": ["vp_scale@2013-09-01"]}).status_code == 404
    assert len(services.preset_corrections(authority=authority)) == 5


def test_the_command_shows_the_corrections_then_applies_them_with_confirm(old_ebu):
    authority, held, _later = old_ebu
    out = io.StringIO()
    call_command("create_authority", "--preset", "ebu", "--update", stdout=out)
    text = out.getvalue()
    assert "withdrawn further_appeal_deposit from 2023-08-01: {'amount': '75.00', 'currency': 'GBP'}" in text
    assert "corrected team_penalty_units from 2016-08-01: 'vps_or_imps' -> 'vps' (assumed:" in text
    assert "5 corrections from preset ebu: run again with --confirm to apply them." in text
    assert len(services.preset_corrections(authority=authority)) == 5  # shown, not applied
    out = io.StringIO()
    call_command("create_authority", "--preset", "ebu", "--update", "--confirm", stdout=out)
    assert "5 corrections from preset ebu applied (audited)" in out.getvalue()
    assert services.preset_corrections(authority=authority) == []
    assert Tournament.objects.get(pk=held.pk).regulations()["appeal_period_minutes"] == 30
    out = io.StringIO()
    call_command("create_authority", "--preset", "ebu", "--update", stdout=out)
    assert "no corrections from preset ebu" in out.getvalue()
