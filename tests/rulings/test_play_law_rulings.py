"""Laws of the play on a ruling, per edition (issue #39). Table X of the ``field`` fixture:
dealer North, 1S P 4S P P P, 4S by North, South dummy."""

from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling


def test_2007_57a3_forbids_the_suit_on_a_ruling(field, director):
    """2007 57A3 "forbid offender's partner to play a card of a different suit specified by
    declarer": East played before West to trick 2 (hearts led); the suit options forbid."""
    edition(field, "2007")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    options = services.irregularity_options(
        ruling, kind="premature_play", facts={"trick": 2, "seat": "E", "card": "H2"}
    )
    named = [o for o in options if o["key"].startswith("57A3:")]
    assert [o["key"] for o in named] == ["57A3:S", "57A3:D", "57A3:C"]
    assert all("may not play a card of the suit declarer names" in o["text"] for o in named)
