"""Regulating-authority presets (issue #17): each preset against the domain notes' table, the
files' checks, creating an authority with a preset (service, command, API), a later edition, and
the settings page."""

import dataclasses
import datetime
import io
import shutil

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEntry
from scoring import authority_settings, presets, services
from scoring.authority_views import settings_rows
from scoring.models import AuthoritySetting, RegulatingAuthority
from tests.conftest import make_user

TODAY = datetime.date(2026, 6, 1)
GBP = "GBP"

# The notes' table ("Regulating-authority presets worth shipping"), written out by hand: for each
# body, the values its row gives (confirmed), and the cells that say "by regulation" or are blank
# (the preset keeps the Laws' default and says so). Every other setting a preset covers is not in
# the table: it keeps the default, marked not-given, unless listed under ASSUMED.
TABLE = {
    "laws": {
        "confirmed": {
            "appeal_period_minutes": 30,
            "appeals_body": "committee",
            "deposits": {},
            "average_plus_percent": "60",
            "average_minus_percent": "40",
            "average_plus_imps": 3,
            "average_minus_imps": 3,
            "weighted_scores_allowed": True,
            "matchpoint_scale": "2/1",
        },  # Law 78A, not the table: the notes' scoring pages
        "by_regulation": {
            "without_merit_sanction": "none",
            "without_merit_penalty": {},
            "further_appeal": "none",
            "further_appeal_deposit": {},
        },
    },
    "ebu": {
        "confirmed": {
            "appeal_period_minutes": 30,
            "appeals_body": "committee",
            "appeals_committee_size": 3,
            "deposits": {
                "currency": GBP,
                "amounts": {
                    "mp_pairs": "20.00",
                    "imp_pairs_cross": "20.00",
                    "imp_pairs_butler": "20.00",
                    "teams_rr": "30.00",
                    "teams_swiss": "30.00",
                    "ko_teams": "30.00",
                },
            },
            "further_appeal_deposit": {"currency": GBP, "amount": "75.00"},
            "without_merit_sanction": "deposit_and_penalty",
            "without_merit_penalty": {
                "mp_pairs": "25%",
                "individual": "25%",
                "imp_pairs_cross": "6",
                "imp_pairs_butler": "6",
                "ko_teams": "6",
                "teams_rr": "1 VP",  # off the team's VPs in its match (scoring.models.MatchPenalty)
                "teams_swiss": "1 VP",
            },
            "weighted_scores_allowed": True,
            "weighted_max_components": 5,
            "weight_decimals": 2,
            "team_penalty_units": "vps",  # "1 VP" at teams scored in VPs
        },
        "by_regulation": {},
    },
    "acbl": {
        "confirmed": {
            "appeal_period_minutes": 30,
            "appeals_body": "director_panel",
            "deposits": {},
            "without_merit_sanction": "warning",
            "without_merit_penalty": {},
            "matchpoint_scale": "1/half",
            "casebook_names": "masterpoints",
        },
        "by_regulation": {},
    },
    "ebl": {
        "confirmed": {
            "appeal_period_minutes": 30,
            "appeals_body": "reviewer",
            "deposits": {},
            "without_merit_sanction": "penalty",
            "team_penalty_units": "vps_or_imps",  # "sanction in IMPs or VPs"
        },
        "by_regulation": {},
    },
    "abf": {
        "confirmed": {"appeal_period_minutes": 30, "appeals_body": "reviewer", "casebook_names": "seats"},
        "by_regulation": {"deposits": {}, "without_merit_sanction": "none", "without_merit_penalty": {}},
    },
    "ufsb": {
        "confirmed": {"appeal_period_minutes": 30, "appeals_body": "committee"},
        "by_regulation": {
            "deposits": {},
            "without_merit_sanction": "none",
            "without_merit_penalty": {},
            "further_appeal_deposit": {},
        },
    },
    "ibf": {
        "confirmed": {"appeal_period_minutes": 30, "appeals_body": "committee"},
        "by_regulation": {
            "deposits": {},
            "without_merit_sanction": "none",
            "without_merit_penalty": {},
            "further_appeal": "none",
            "further_appeal_deposit": {},
            "weighted_scores_allowed": True,
            "average_plus_imps": 3,
            "average_minus_imps": 3,
        },
    },
}
# Unconfirmed values that are not the default: what the notes imply without saying it.
ASSUMED = {
    "ebu": {"further_appeal": "binding"},  # a national authority deposit: a further appeal exists
    "ufsb": {"further_appeal": "binding"},  # "then the national federation"
}
# The Laws' editions by date, for every body: dated from each code's year, the day unconfirmed.
EDITIONS = {datetime.date(2000, 6, 1): "1997", datetime.date(2010, 6, 1): "2007", TODAY: "2017"}


def test_every_body_of_the_notes_has_a_preset():
    assert presets.available() == ["laws", "abf", "acbl", "ebl", "ebu", "ibf", "ufsb"]
    assert set(TABLE) == set(presets.available())


@pytest.mark.parametrize("code", sorted(TABLE))
def test_each_preset_against_the_notes_table(code):
    preset = presets.load(code)
    row, defaults = TABLE[code], authority_settings.defaults()
    for key, value in row["confirmed"].items():
        entry = preset.entry_on(key, TODAY)
        assert (key, entry.value, entry.status) == (key, value, "confirmed")
        assert entry.source
    for key, value in row["by_regulation"].items():
        entry = preset.entry_on(key, TODAY)
        assert (key, entry.value, entry.status) == (key, value, "by-regulation")
        assert value == defaults[key], f"{code}: {key} keeps the Laws' default"
    rest = set(presets.COVERED) - set(row["confirmed"]) - set(row["by_regulation"]) - {"laws_edition"}
    for key in rest:
        entry = preset.entry_on(key, TODAY)
        expected = ASSUMED.get(code, {}).get(key, defaults[key])
        assert (key, entry.value, entry.status) == (key, expected, "not-given")
    for day, edition in EDITIONS.items():
        entry = preset.entry_on("laws_edition", day)
        assert (entry.value, entry.confirmed) == (edition, False)


def test_the_dated_values_of_a_body_that_changed_its_regulations():
    ebu = presets.load("ebu")
    assert ebu.values_on(datetime.date(2020, 6, 1))["without_merit_penalty"] == {"mp_pairs": "20%", "individual": "20%"}
    assert ebu.values_on(datetime.date(2020, 6, 1))["without_merit_sanction"] == "deposit_and_penalty"
    assert ebu.values_on(datetime.date(2015, 6, 1))["without_merit_sanction"] == "none"  # before 2016: the Laws'
    abf = presets.load("abf")
    assert abf.entry_on("appeals_body", datetime.date(2019, 12, 31)) is None  # a reviewer only since 2020
    assert abf.values_on(datetime.date(2019, 12, 31))["appeals_body"] == "committee"
    assert abf.values_on(datetime.date(2020, 1, 1))["appeals_body"] == "reviewer"


# --- The files' checks ---------------------------------------------------------------------------

GOOD = """code: club
name: Club
settings:
"""


def write_preset(tmp_path, text, code="club", covered=True):
    lines = [text]
    if covered:
        defaults = authority_settings.defaults()
        for key in presets.COVERED:
            if f"  {key}:" not in text:
                value = repr(defaults[key]).replace("'", '"').replace("True", "true").replace("False", "false")
                lines.append(
                    f'  {key}:\n    - {{from: 2020-01-01, value: {value}, status: not-given, source: "the default"}}\n'
                )
    path = tmp_path / f"{code}.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_complete_file_reads(tmp_path):
    preset = presets.read(write_preset(tmp_path, GOOD))
    assert (preset.code, preset.name, len(preset.entries)) == ("club", "Club", len(presets.COVERED))


@pytest.mark.parametrize(
    "text,message",
    [
        (GOOD.replace("code: club", "code: other"), "club.yaml: code must be the file's name ('club'), not 'other'"),
        (
            GOOD + "  appeal_period_minutes:\n    - {from: 2020-01-01, value: -5, status: confirmed, source: x}\n",
            "settings.appeal_period_minutes[1]: value: Appeal period after the official score (Law 92B), minutes: "
            "must be a whole number from 0 to 10080",
        ),
        (
            GOOD + "  appeals_body:\n    - {from: 2020-01-01, value: jury, status: confirmed, source: x}\n",
            "settings.appeals_body[1]: value:",
        ),
        (
            GOOD + "  deposits:\n    - {from: 2020-01-01, value: {}, status: maybe, source: x}\n",
            "settings.deposits[1]: status: one of confirmed, by-regulation, not-given, not 'maybe'",
        ),
        (
            GOOD + '  deposits:\n    - {from: 2020-01-01, value: {}, status: confirmed, source: ""}\n',
            "settings.deposits[1]: source: say where the value comes from",
        ),
        (
            GOOD + "  deposits:\n    - {from: 2020, value: {}, status: confirmed, source: x}\n",
            "settings.deposits[1]: from: a date written YYYY-MM-DD, not 2020",
        ),
        (
            GOOD + "  deposits:\n    - {from: 2020-01-01, value: {}, status: confirmed, source: x}\n"
            "    - {from: 2020-01-01, value: {}, status: confirmed, source: y}\n",
            "settings.deposits[2]: from: 2020-01-01 is given twice",
        ),
        (
            GOOD + "  colour_of_cards:\n    - {from: 2020-01-01, value: red, status: confirmed, source: x}\n",
            "settings.colour_of_cards: not a setting",
        ),
        (
            GOOD + "  preset:\n    - {from: 2020-01-01, value: ebu, status: confirmed, source: x}\n",
            "settings.preset: not a setting",
        ),
        ("code: club\nname: Club\nmotto: hi\nsettings:\n", "club.yaml: unknown fields motto"),
        ("code: [unclosed\n", "club.yaml: cannot be read as YAML"),
    ],
)
def test_a_bad_file_is_refused_naming_the_setting_and_the_reason(tmp_path, text, message):
    with pytest.raises(presets.PresetError) as error:
        presets.read(write_preset(tmp_path, text))
    assert message in str(error.value)


def test_a_preset_states_every_covered_setting(tmp_path):
    with pytest.raises(presets.PresetError) as error:
        presets.read(
            write_preset(
                tmp_path,
                GOOD + "  vp_scale:\n    - {from: 2020-01-01, value: wbf2013-20, status: confirmed, source: x}\n",
                covered=False,
            )
        )
    assert "every preset states laws_edition, appeal_period_minutes" in str(error.value)
    assert "vp_scale" not in str(error.value).split("states")[1]


def test_a_new_file_in_the_folder_is_a_preset(tmp_path, monkeypatch):
    for path in presets.DIRECTORY.glob("*.yaml"):
        shutil.copy(path, tmp_path)
    write_preset(tmp_path, GOOD)
    monkeypatch.setattr(presets, "DIRECTORY", tmp_path)
    presets.load.cache_clear()
    try:
        assert "club" in presets.available()
        assert presets.load("club").name == "Club"
    finally:
        presets.load.cache_clear()
    with pytest.raises(presets.PresetError) as error:
        presets.load("nowhere")
    assert "'nowhere' is not a preset" in str(error.value)


# --- Creating an authority with a preset --------------------------------------------------------


@pytest.mark.django_db
def test_creating_an_authority_with_a_preset_writes_its_dated_values():
    authority = services.create_authority_with_preset(
        name="English Bridge Union", code="ebu", preset="ebu", time_zone="Europe/London"
    )
    preset = presets.load("ebu")
    assert authority.settings.count() == len(preset.entries) + 1  # and the preset itself
    assert authority.settings_on(TODAY) == {**preset.values_on(TODAY), "preset": "ebu"}
    assert authority.settings_on(datetime.date(2020, 6, 1))["without_merit_penalty"] == {
        "mp_pairs": "20%",
        "individual": "20%",
    }
    assert authority.settings_on(datetime.date(2010, 6, 1))["laws_edition"] == "2007"
    setting = authority.settings.get(key="deposits")
    assert (setting.effective_from, setting.note) == (
        datetime.date(2023, 1, 1),
        "Preset ebu: EBU regulations: 20 GBP at pairs, 30 GBP at teams (the notes give none for individual events).",
    )
    assert authority.settings.get(key="further_appeal").note.startswith("Preset ebu, unconfirmed (not-given): ")
    entry = AuditEntry.objects.get(action="authority.preset_applied")
    assert entry.after["preset"] == "ebu" and len(entry.after["written"]) == len(preset.entries) + 1


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(TABLE))
def test_every_preset_can_be_chosen(code):
    authority = services.create_authority_with_preset(name=f"Body {code}", code=f"body-{code}", preset=code)
    assert authority.settings_on(TODAY) == {**presets.load(code).values_on(TODAY), "preset": code}


@pytest.mark.django_db
def test_an_unknown_preset_is_refused_naming_the_field_and_nothing_is_created():
    with pytest.raises(ValidationError) as error:
        services.create_authority_with_preset(name="Nowhere", code="nowhere", preset="xyz")
    assert error.value.message_dict["preset"] == ["'xyz' is not a preset: one of laws, abf, acbl, ebl, ebu, ibf, ufsb."]
    assert not RegulatingAuthority.objects.exists()


@pytest.mark.django_db
def test_no_preset_leaves_the_laws_defaults():
    authority = services.create_authority_with_preset(name="Plain", code="plain", preset="")
    assert not authority.settings.exists()
    assert authority.settings_on(TODAY) == authority_settings.defaults()


@pytest.mark.django_db
def test_the_preset_setting_takes_only_a_preset():
    authority = services.create_authority(name="Plain", code="plain")
    with pytest.raises(ValidationError) as error:
        services.set_authority_setting(
            authority=authority, key="preset", value="xyz", effective_from=datetime.date(2026, 1, 1)
        )
    assert (
        "must be one of laws, abf, acbl, ebl, ebu, ibf, ufsb, or empty for none" in error.value.message_dict["value"][0]
    )


@pytest.mark.django_db
def test_a_later_edition_adds_new_dated_values_without_rewriting_history(monkeypatch):
    authority = services.create_authority_with_preset(name="English Bridge Union", code="ebu", preset="ebu")
    # The body records its own deposits from 2025 on, and (say) confirms its 2023 appeal period.
    own = {"currency": GBP, "amounts": {"mp_pairs": "25.00"}}
    services.set_authority_setting(
        authority=authority,
        key="deposits",
        value=own,
        effective_from=datetime.date(2025, 1, 1),
        note="White Book 2025, 8.92",
    )
    ebu = presets.load("ebu")
    changed_2023 = [
        dataclasses.replace(e, value=45)
        if (e.key, e.effective_from) == ("appeal_period_minutes", datetime.date(2023, 1, 1))
        else e
        for e in ebu.entries
    ]
    edition_2027 = presets.Entry(
        key="without_merit_penalty",
        effective_from=datetime.date(2027, 1, 1),
        value={"mp_pairs": "30%"},
        status="confirmed",
        source="EBU 2027 regulations",
    )
    later = dataclasses.replace(ebu, entries=tuple(changed_2023) + (edition_2027,))
    monkeypatch.setattr(presets, "load", lambda code: later)
    before = {(s.key, s.effective_from): (s.value, s.note) for s in authority.settings.all()}
    written = services.apply_preset(authority=authority, preset="ebu")
    assert [(s.key, s.effective_from, s.value) for s in written] == [
        ("without_merit_penalty", datetime.date(2027, 1, 1), {"mp_pairs": "30%"})
    ]
    after = {(s.key, s.effective_from): (s.value, s.note) for s in authority.settings.all()}
    assert {k: v for k, v in after.items() if k in before} == before  # history as it was, the body's value too
    assert authority.settings_on(datetime.date(2027, 6, 1))["without_merit_penalty"] == {"mp_pairs": "30%"}
    assert authority.settings_on(TODAY)["without_merit_penalty"]["mp_pairs"] == "25%"
    assert authority.settings_on(TODAY)["appeal_period_minutes"] == 30
    assert services.apply_preset(authority=authority, preset="ebu") == []  # again: nothing new


# --- The command ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_create_authority_command_with_a_preset():
    out = io.StringIO()
    call_command("create_authority", "--preset", "ebu", "--time-zone", "Europe/London", stdout=out)
    authority = RegulatingAuthority.objects.get(code="ebu")
    assert (authority.name, authority.country, authority.time_zone) == (
        "English Bridge Union",
        "England",
        "Europe/London",
    )
    assert authority.settings_on(TODAY)["without_merit_sanction"] == "deposit_and_penalty"
    assert (
        f"Created English Bridge Union (id {authority.pk}, code ebu) with preset ebu: 24 dated values" in out.getvalue()
    )
    with pytest.raises(CommandError) as error:
        call_command("create_authority", "--preset", "ebu", stdout=io.StringIO())
    assert "--code:" in str(error.value) and "--name:" in str(error.value)
    out = io.StringIO()
    call_command("create_authority", "--preset", "ebu", "--update", stdout=out)
    assert "0 new dated values from preset ebu" in out.getvalue()


@pytest.mark.django_db
def test_create_authority_command_refuses_an_unknown_preset_or_authority():
    with pytest.raises(CommandError) as error:
        call_command("create_authority", "--preset", "fifa", stdout=io.StringIO())
    assert str(error.value) == "--preset: 'fifa' is not a preset: one of laws, abf, acbl, ebl, ebu, ibf, ufsb."
    with pytest.raises(CommandError) as error:
        call_command("create_authority", "--preset", "ebu", "--update", "--code", "sbu", stdout=io.StringIO())
    assert str(error.value) == "--code: there is no regulating authority with the code 'sbu'."
    with pytest.raises(CommandError) as error:
        call_command("create_authority", "--preset", "ufsb", "--time-zone", "Kyiv", stdout=io.StringIO())
    assert str(error.value).startswith("--time-zone:")
    assert not RegulatingAuthority.objects.exists()


# --- The settings page ---------------------------------------------------------------------------


@pytest.fixture
def ebu(db):
    return services.create_authority_with_preset(name="English Bridge Union", code="ebu", preset="ebu")


@pytest.mark.django_db
def test_the_settings_page_shows_value_source_date_difference_and_unconfirmed(client, ebu):
    services.set_authority_setting(
        authority=ebu,
        key="appeal_period_minutes",
        value=20,
        effective_from=datetime.date(2024, 1, 1),
        note="County events: 20 minutes",
    )
    auditor = make_user("auditor")
    services.appoint_auditor(authority=ebu, user=auditor)
    client.force_login(auditor)
    page = client.get(reverse("scoring:authority-settings", args=[ebu.pk])).content.decode()
    assert "Preset: English Bridge Union (ebu)." in page
    assert "1 value differs from the preset." in page
    row = page.split('id="setting-appeal_period_minutes"')[1].split("</tr>")[0]
    assert ">20<" in row and "County events: 20 minutes" in row and "differs:" in row and ">30<" in row
    assert "Preset ebu: EBU regulations: 30 minutes (events may differ)." in row  # the earlier value's source
    deposits = page.split('id="setting-deposits"')[1].split("</tr>")[0]
    assert "Preset ebu: EBU regulations: 20 GBP at pairs" in deposits and "as the preset" in deposits
    assert "01/01/2023" in deposits or "2023" in deposits
    further = page.split('id="setting-further_appeal"')[1].split("</tr>")[0]
    assert "unconfirmed" in further
    assert "unconfirmed" not in deposits
    assert "values not yet confirmed" in page


@pytest.mark.django_db
def test_a_value_the_body_records_again_with_its_source_is_confirmed(ebu):
    _preset, rows = settings_rows(ebu, TODAY)
    unconfirmed = {row.key for row in rows if row.unconfirmed}
    assert unconfirmed == {
        e.key
        for e in presets.load("ebu").entries
        if not e.confirmed and presets.load("ebu").entry_on(e.key, TODAY) == e
    }
    services.set_authority_setting(
        authority=ebu,
        key="further_appeal",
        value="binding",
        effective_from=datetime.date(2023, 1, 1),
        note="White Book 2023, 93C: binding",
    )
    _preset, rows = settings_rows(ebu, TODAY)
    further = next(row for row in rows if row.key == "further_appeal")
    assert (further.unconfirmed, further.differs, further.source) == (False, False, "White Book 2023, 93C: binding")


@pytest.mark.django_db
def test_the_settings_page_of_another_body_does_not_exist(client, ebu):
    other = services.create_authority(name="Other", code="other")
    auditor = make_user("auditor")
    services.appoint_auditor(authority=other, user=auditor)
    client.force_login(auditor)
    assert client.get(reverse("scoring:authority-settings", args=[ebu.pk])).status_code == 404
    assert client.get(reverse("scoring:authority-settings", args=[other.pk])).status_code == 200
    client.logout()
    assert client.get(reverse("scoring:authority-settings", args=[ebu.pk])).status_code == 302


@pytest.mark.django_db
def test_an_authority_without_a_preset_shows_its_defaults(client):
    plain = services.create_authority(name="Plain Body", code="plain")
    client.force_login(make_user("root", is_superuser=True))
    page = client.get(reverse("scoring:authority-settings", args=[plain.pk])).content.decode()
    assert "No preset" in page and "Not recorded: the Laws&#x27; or the system&#x27;s default." in page
    assert "differs from the preset" not in page


# --- The API -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_superuser_creates_an_authority_with_a_preset_through_the_api():
    api = APIClient()
    api.force_authenticate(make_user("root", is_superuser=True))
    response = api.post(
        reverse("authority-list"),
        {
            "name": "Ukrainian Bridge Federation",
            "code": "ufsb",
            "preset": "ufsb",
            "time_zone": "Europe/Kyiv",
            "language": "uk",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["code"], body["preset"]) == ("ufsb", "ufsb")
    assert body["settings"]["further_appeal"] == {
        "value": "binding",
        "applies_from": "2017-01-01",
        "differs_from_preset": False,
        "unconfirmed": True,
        "preset_value": "binding",
        "source": "Preset ufsb, unconfirmed (not-given): UFSB rules: after the committee, the national federation; "
        "the notes do not say whether its decision binds: binding assumed.",
    }
    response = api.post(reverse("authority-list"), {"name": "X", "code": "x", "preset": "nope"}, format="json")
    assert response.status_code == 400 and response.json()["preset"] == ['"nope" is not a valid choice.']
    response = api.post(reverse("authority-list"), {"name": "Y", "code": "y", "time_zone": "Kyiv"}, format="json")
    assert response.status_code == 409 and "time_zone" in response.json()  # the record refuses it, by field
    response = api.post(
        reverse("authority-list"), {"name": "Ukrainian Bridge Federation", "code": "ufsb2"}, format="json"
    )
    assert response.status_code == 409 and "already exists" in response.json()["name"][0]  # the record refuses
    codes = [p["code"] for p in api.get(reverse("authority-presets")).json()]
    assert codes == presets.available()


@pytest.mark.django_db
def test_only_the_superuser_creates_an_authority_and_auditors_read_their_own(ebu):
    auditor = make_user("auditor")
    services.appoint_auditor(authority=ebu, user=auditor)
    services.create_authority(name="Other", code="other")
    api = APIClient()
    api.force_authenticate(auditor)
    response = api.post(reverse("authority-list"), {"name": "Mine", "code": "mine", "preset": "ebu"}, format="json")
    assert response.status_code == 403 and not RegulatingAuthority.objects.filter(code="mine").exists()
    assert [a["code"] for a in api.get(reverse("authority-list")).json()["results"]] == ["ebu"]
    assert (
        api.get(reverse("authority-detail", args=[ebu.pk])).json()["settings"]["deposits"]["value"]["currency"] == "GBP"
    )
    assert AuthoritySetting.objects.filter(authority=ebu, key="preset").get().value == "ebu"


@pytest.mark.django_db
def test_the_settings_page_in_hebrew_keeps_values_and_sources_left_to_right(client, ebu):
    from tests.conftest import page_in

    page = page_in(
        client, make_user("root", is_superuser=True), reverse("scoring:authority-settings", args=[ebu.pk]), "he"
    )
    assert 'dir="rtl"' in page and "התקנון של English Bridge Union" in page
    row = page.split('id="setting-appeal_period_minutes"')[1].split("</tr>")[0]
    assert '<span dir="ltr">30</span>' in row and '<span lang="en" dir="ltr">Preset ebu: EBU regulations' in row
    assert "כמו בתבנית" in row  # "as the preset"
