"""Polls as data with the regulating authority's threshold (issue #44): each pollee's action,
the other actions they seriously considered and their level; the logical alternatives found
from them by the authority's dated setting ``logical_alternative_threshold`` in force on the
ruling's day, the weights proposed where weighted scores are allowed (Law 12C1c), shown on the
ruling page in the reader's language; bad answers refused naming the pollee."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from bridge.polls import Answer, Threshold, find, fraction
from core import policy
from rulings import selectors, services
from rulings.models import Ruling
from scoring import presets
from scoring import services as scoring_services
from tests.conftest import page_in
from tests.rulings.test_revoke_rulings import open_ruling

# 10 peers polled: 6 pass, 2 double, 2 3S; pass was the action at the table.
TEN = [Answer(f"P{i}", "pass") for i in range(6)] + [Answer(f"D{i}", "double") for i in range(2)]
TEN += [Answer(f"S{i}", "3S") for i in range(2)]
ONE_IN_FIVE = {"share": "1/5", "more_than": False, "counts": "considered", "table_action": ""}
MORE_THAN_ONE_IN_FOUR = {"share": "1/4", "more_than": True, "counts": "considered", "table_action": "3/4"}
VOTES = [{"player": a.player, "action": a.action} for a in TEN]


def test_at_one_in_five_double_and_3s_are_logical_alternatives_weighted_half_each():
    finding = find(TEN, Threshold.from_setting(ONE_IN_FIVE), "pass")
    assert finding.logical == ("double", "3S")
    assert finding.weights == (("double", "1/2"), ("3S", "1/2"))
    assert [str(w) for w in finding.words] == [
        "The regulating authority's threshold: an action is a logical alternative when at least 1/5 of the "
        "player's peers polled would seriously consider it.",
        "Logical alternatives found from the poll: double, 3S.",
        "Weights proposed from the poll (Law 12C1c), in proportion to the peers who chose each: double 1/2, 3S 1/2.",
    ]


def test_at_more_than_one_in_four_neither_is():
    finding = find(TEN, Threshold.from_setting(MORE_THAN_ONE_IN_FOUR), "pass")
    assert finding.logical == () and finding.weights == ()
    assert str(finding.words[-1]) == "No logical alternative is found from the poll."


def test_an_alternative_seriously_considered_counts_towards_the_share():
    """Two of the pass voters also seriously considered double: 4 of 10 would consider it (more
    than one in four); 3S stays at 2 of 10. Weights follow the peers who chose each: only double."""
    answers = [Answer("A", "pass", ("double",)), Answer("B", "pass", ("double",))] + TEN[2:]
    finding = find(answers, Threshold.from_setting(MORE_THAN_ONE_IN_FOUR), "pass")
    assert finding.logical == ("double",)
    assert [(t.action, t.chose, t.considered) for t in finding.tallies] == [
        ("pass", 6, 6),
        ("double", 2, 4),
        ("3S", 2, 2),
    ]
    assert (
        str(finding.words[-1]) == "No weights proposed: one logical alternative, so one result is assigned (Law 12C1)."
    )


def test_more_than_three_quarters_for_the_table_action_leaves_no_other():
    answers = [Answer(f"P{i}", "pass") for i in range(8)] + [Answer("D", "double"), Answer("S", "3S")]
    finding = find(answers, Threshold.from_setting({**ONE_IN_FIVE, "table_action": "3/4"}), "pass")
    assert finding.logical == ()
    assert str(finding.words[-1]) == (
        "8 of 10 peers polled chose pass, the action taken at the table: no other logical alternative exists."
    )


def test_only_peers_are_counted():
    answers = TEN + [Answer("X", "4S", level="stronger"), Answer("Y", "4S", level="director")]
    finding = find(answers, Threshold.from_setting(ONE_IN_FIVE), "pass")
    assert (finding.peers, finding.others) == (10, 2) and "4S" not in [t.action for t in finding.tallies]


def test_without_weighted_scores_no_weights_are_proposed_and_the_reason_is_said():
    finding = find(TEN, Threshold.from_setting(ONE_IN_FIVE), "pass", weighting_allowed=False)
    assert finding.logical == ("double", "3S") and finding.weights == ()
    assert str(finding.words[-1]) == (
        "No weights proposed: the regulating authority does not allow weighted scores (Law 12C1c); one result is "
        "assigned (Law 12C1e)."
    )


@pytest.mark.parametrize(
    "votes, message",
    [
        (
            [{"player": "A. Cohen", "action": "pass"}, {"player": "B. Levi", "action": ""}],
            "Pollee 2 (B. Levi): say the action they chose.",
        ),
        (
            [{"player": "A. Cohen", "action": "pass", "considered": ["double", "Pass"]}],
            "Pollee 1 (A. Cohen): pass is the action they chose; list only the other actions they seriously "
            "considered.",
        ),
        (
            [{"player": "A. Cohen", "action": "pass", "level": "expert"}],
            "Pollee 1 (A. Cohen): 'expert' is not a level: peer, stronger, weaker or director.",
        ),
        (
            [{"player": "A. Cohen", "action": "pass", "considered": ["1", "2", "3", "4", "5", "6", "7"]}],
            "Pollee 1 (A. Cohen): at most 6 other actions seriously considered.",
        ),
    ],
)
def test_a_bad_answer_is_refused_naming_the_pollee_at_the_poll_field(field, director, votes, message):
    ruling = open_ruling(field, director)
    with pytest.raises(ValidationError) as error:
        services.update_draft(ruling=ruling, by=director, poll={"question": "Your call?", "votes": votes})
    assert error.value.message_dict == {"poll_votes": [message]}


def test_the_form_reads_alternatives_and_levels_and_refuses_an_alternative_equal_to_the_action(client, field, director):
    lines = "A. Cohen: pass; also double, 3S\nB. Levi: 4S; stronger"
    assert services.parse_poll_lines(lines) == [
        {"player": "A. Cohen", "action": "pass", "considered": ["double", "3S"], "level": "peer"},
        {"player": "B. Levi", "action": "4S", "considered": [], "level": "stronger"},
    ]
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "poll_question": "Your call?",
            "poll_votes": "A. Cohen: pass; also pass",
            "give": "1",
        },
    )
    assert response.context["form"].errors["poll_votes"] == [
        "Pollee 1 (A. Cohen): pass is the action they chose; list only the other actions they seriously considered."
    ]


def _threshold(field, value, day):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="logical_alternative_threshold",
        value=value,
        effective_from=day,
        by=policy.SYSTEM,
    )


def _polled(field, director, **extra):
    ruling = open_ruling(field, director)
    poll = {"question": "South's call over 3H?", "votes": VOTES, "table_action": "pass", **extra}
    services.update_draft(ruling=ruling, by=director, poll=poll)
    return Ruling.objects.get(pk=ruling.pk)


def test_the_threshold_in_force_on_the_rulings_day_decides(field, director):
    today = timezone.localdate()
    _threshold(field, ONE_IN_FIVE, datetime.date(2000, 1, 1))
    ruling = _polled(field, director)
    assert selectors.poll_finding(ruling)["logical"] == ["double", "3S"]
    _threshold(field, MORE_THAN_ONE_IN_FOUR, today + datetime.timedelta(days=1))
    assert selectors.poll_finding(ruling)["logical"] == ["double", "3S"]  # not yet in force
    Ruling.objects.filter(pk=ruling.pk).update(called_at=timezone.now() + datetime.timedelta(days=2))
    assert selectors.poll_finding(Ruling.objects.get(pk=ruling.pk))["logical"] == []


def test_the_ruling_page_shows_the_poll_the_alternatives_and_the_weights(client, field, director):
    _threshold(field, ONE_IN_FIVE, datetime.date(2000, 1, 1))
    ruling = open_ruling(field, director)
    votes = [
        {**VOTES[0], "considered": ["double"]},
        *VOTES[1:],
        {"player": "Z. Expert", "action": "4S", "level": "stronger"},
    ]
    poll = {"question": "South's call over 3H?", "votes": votes, "table_action": "pass"}
    services.update_draft(ruling=ruling, by=director, poll=poll)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert 'id="poll-finding"' in page
    assert "also seriously considered <bdi>Double</bdi>" in page and "<bdi>4S</bdi> · stronger player" in page
    assert "Logical alternatives found from the poll: double, 3S." in page
    assert "in proportion to the peers who chose each: double 1/2, 3S 1/2." in page
    assert '<td><bdi dir="ltr">2/10</bdi></td><td><bdi dir="ltr">3/10</bdi></td><td>✓</td>' in page
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="weighted_scores_allowed",
        value=False,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "No weights proposed: the regulating authority does not allow weighted scores (Law 12C1c)" in page
    hebrew = page_in(client, director, reverse("rulings:ruling", args=[ruling.pk]), "he")
    assert "חלופות הגיוניות שנמצאו מהסקר: double, 3S." in hebrew and "שקל ברצינות גם" in hebrew
    assert "לא מוצעים משקלים: הרשות המסדירה אינה מתירה תוצאות משוקללות" in hebrew


def test_the_setting_refuses_a_share_that_is_not_one():
    from scoring.authority_settings import clean_value

    with pytest.raises(ValidationError) as error:
        clean_value("logical_alternative_threshold", {"share": "6/5"})
    assert "share must be a share from 0 to 1, such as 1/5" in str(error.value)
    assert clean_value("logical_alternative_threshold", {}) == {}
    assert fraction("20%") == fraction("1/5")


def test_the_presets_state_the_threshold_with_their_sources():
    ebu = presets.load("ebu").entries_for("logical_alternative_threshold")
    assert [(str(e.effective_from), e.value.get("share")) for e in ebu] == [
        ("1997-01-01", None),
        ("2004-08-01", "3/10"),
        ("2008-08-01", "1/5"),
    ]
    assert "at least one player in five" in ebu[2].citation.quote
    (acbl,) = presets.load("acbl").entries_for("logical_alternative_threshold")
    assert acbl.value == {} and "any others they would seriously consider" in acbl.citation.quote
    for code in ("abf", "ebl", "ibf", "ufsb"):
        (entry,) = presets.load(code).entries_for("logical_alternative_threshold")
        assert entry.value == {} and "Not in the sources checked" in entry.reason
