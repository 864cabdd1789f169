"""An authority's setting may say "none" (no deposit, no further appeal deposit, no penalty, no
preset) where its spec allows an empty value, and is refused one elsewhere, naming the setting
(issue #17)."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from core import policy
from scoring import presets, services
from scoring.authority_views import settings_rows
from scoring.models import AuthoritySetting
from tests.scoring.test_presets import GOOD, write_preset

DAY = datetime.date(2026, 1, 1)


@pytest.fixture
def authority(db):
    return services.create_authority(name="Plain body", code="plain", by=policy.SYSTEM)


@pytest.mark.parametrize("empty", [None, "", {}, []])
@pytest.mark.parametrize("key", ["deposits", "further_appeal_deposit", "without_merit_penalty"])
def test_no_deposit_or_penalty_is_stored_as_an_empty_mapping(authority, key, empty):
    services.set_authority_setting(authority=authority, key=key, value=empty, effective_from=DAY, by=policy.SYSTEM)
    setting = AuthoritySetting.objects.get(authority=authority, key=key)
    assert setting.value == {}
    assert authority.settings_on(DAY)[key] == {}


def test_an_empty_value_replaces_an_earlier_deposit_from_its_date(authority):
    services.set_authority_setting(
        authority=authority,
        key="deposits",
        value={"currency": "EUR", "amounts": {"mp_pairs": "10.00"}},
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    services.set_authority_setting(
        authority=authority, key="deposits", value=None, effective_from=DAY, by=policy.SYSTEM
    )
    assert authority.settings_on(datetime.date(2025, 6, 1))["deposits"] == {
        "currency": "EUR",
        "amounts": {"mp_pairs": "10.00"},
    }
    assert authority.settings_on(DAY)["deposits"] == {}


@pytest.mark.parametrize(
    "key,label",
    [
        ("appeal_period_minutes", "Appeal period after the official score (Law 92B), minutes"),
        ("laws_edition", "Edition of the Laws in force"),
        ("weighted_scores_allowed", "Weighted adjusted scores allowed (Law 12C1c)"),
        ("appeals_body", "Who hears appeals at the event (Law 93; none: the director in charge, 93A)"),
    ],
)
@pytest.mark.parametrize("empty", [None, "", "  ", {}])
def test_a_setting_that_needs_a_value_refuses_an_empty_one_naming_it(authority, key, label, empty):
    with pytest.raises(ValidationError) as error:
        services.set_authority_setting(authority=authority, key=key, value=empty, effective_from=DAY, by=policy.SYSTEM)
    assert error.value.message_dict == {"value": [f"{label}: cannot be empty: the regulation needs a value"]}
    assert not AuthoritySetting.objects.exists()


def test_false_and_zero_are_values_not_empty(authority):
    services.set_authority_setting(
        authority=authority, key="weighted_scores_allowed", value=False, effective_from=DAY, by=policy.SYSTEM
    )
    services.set_authority_setting(
        authority=authority, key="appeal_period_minutes", value=0, effective_from=DAY, by=policy.SYSTEM
    )
    assert authority.settings_on(DAY)["weighted_scores_allowed"] is False
    assert authority.settings_on(DAY)["appeal_period_minutes"] == 0


def test_a_preset_file_with_an_empty_value_for_a_setting_that_needs_one_is_refused(tmp_path):
    text = GOOD + '  appeal_period_minutes:\n    - {from: 2020-01-01, value: "", status: confirmed, source: x}\n'
    path = write_preset(tmp_path, text)
    with pytest.raises(presets.PresetError) as error:
        presets.read(path)
    assert str(error.value) == (
        "club.yaml: settings.appeal_period_minutes[1]: value: Appeal period after the official score (Law 92B), "
        "minutes: cannot be empty: the regulation needs a value"
    )


@pytest.mark.django_db
def test_a_presets_no_deposit_is_recorded_with_its_source_and_date():
    authority = services.create_authority_with_preset(
        name="European Bridge League", code="ebl", preset="ebl", by=policy.SYSTEM
    )
    setting = authority.settings.get(key="deposits", effective_from=datetime.date(2017, 9, 30))
    assert (setting.value, setting.note) == (
        {},
        "Preset ebl, assumed: No deposit is named for the review procedure in the sources checked: none assumed "
        "(the earlier preset called it confirmed without a source).",
    )
    preset = presets.load("ebl")
    assert authority.settings.count() == len(preset.entries) + 1  # every dated value, empty ones too
    _preset, rows = settings_rows(authority, datetime.date(2026, 6, 1))
    row = next(row for row in rows if row.key == "deposits")
    assert (row.shown, row.effective_from, row.differs, row.unconfirmed, row.status) == (
        "none",
        datetime.date(2017, 9, 30),
        False,
        True,
        "assumed",
    )
    penalty = next(row for row in rows if row.key == "without_merit_penalty")
    assert (penalty.shown, penalty.unconfirmed) == ("none", True)  # the notes give no figure
