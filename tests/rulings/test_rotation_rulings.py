"""A call out of rotation recorded on a ruling, ruled as the edition in force says (issue #39):
the right-hand opponent's call and the offender's own call at his turn read from the record,
the rectification and Law 26 from the edition's table. Table X of the ``field`` fixture: dealer
North, 1S P 4S P P P, 4S by North (tests/fixtures/lin/revoke_board1.lin)."""

import pytest

from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling

# East bid 2D at North's turn (his right-hand opponent's): not accepted; North opened 1S and East
# passed at his turn, which is not a comparable call.
FACTS = {"call_number": 1, "inserted": "2D", "seat": "E", "attention_by": "S"}


@pytest.mark.parametrize(
    "laws, law, partner, lead, require, prohibit",
    [
        # 2017 31A2(b): "offender's partner must pass when next it is his turn to call"; 26B: declarer
        # may prohibit any (one) suit East did not specify in the legal auction (none: all four).
        ("2017", "31A2b", "next", "26B", [], ["S", "H", "D", "C"]),
        # 2007 31A2(b): "must pass whenever it is his turn to call"; 26A2 the withdrawn 2D's suit.
        ("2007", "31A2b", "throughout", "26A2", ["D"], ["D"]),
    ],
)
def test_a_bid_out_of_rotation_at_rhos_turn_then_a_call_not_comparable(
    field, director, laws, law, partner, lead, require, prohibit
):
    edition(field, laws)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="out_of_rotation", facts=FACTS, chosen="29B")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == law
    assert ruling.irregularity["rectification"]["partner_must_pass"] == partner
    restriction = ruling.irregularity["lead_restriction"]
    assert (restriction["law"], restriction["require"], restriction["prohibit"]) == (lead, require, prohibit)


def test_2017_a_comparable_call_at_his_turn_ends_the_matter(field, director):
    """2017 31A2(a): "When the call is a comparable call ... there is no further rectification.
    Law 26B does not apply"."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling, by=director, kind="out_of_rotation", facts={**FACTS, "comparable": True}, chosen="29B"
    )
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "31A2a"
    assert ruling.irregularity["rectification"]["partner_must_pass"] == ""
    assert "lead_restriction" not in ruling.irregularity


def test_2017_27b2_lead_restriction_is_26b(field, director):
    """2017 27B2 "The lead restrictions in Law 26B may apply": East's 1D replaced by a pass; East
    specified no suit in the legal auction, so declarer may prohibit any one suit, require none."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling,
        by=director,
        kind="insufficient_bid",
        facts={"call_number": 2, "inserted": "1D", "attention_by": "S"},
        chosen="27B2",
    )
    ruling.refresh_from_db()
    restriction = ruling.irregularity["lead_restriction"]
    assert (restriction["law"], restriction["require"], restriction["prohibit"]) == (
        "26B",
        [],
        ["S", "H", "D", "C"],
    )


def test_2017_31a2b_is_cited_with_its_2017_title(field, director):
    """The ruling cites the 2017 paragraph itself, titled as the 2017 Laws have it (issue #39:
    the catalogue had the 2007 lettering, "Offender does not repeat the denomination: partner
    must pass throughout")."""
    from rulings.irregularity_words import irregularity_lines

    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="out_of_rotation", facts=FACTS, chosen="29B")
    ruling = Ruling.objects.get(pk=ruling.pk)
    cited = {(c.law.edition, c.law.number): c.law.title for c in ruling.citations.select_related("law") if c.law}
    assert cited[("2017", "31A2b")] == "Call not comparable: partner must pass at his next turn"
    (line,) = irregularity_lines(ruling)
    assert (line["law"], line["title"]) == ("31A2b", "Call not comparable: partner must pass at his next turn")
