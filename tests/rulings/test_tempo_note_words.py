"""A tempo note the system writes ("agreed by both sides", the demo's and the Law 16 form's words)
reads in the reader's language; a person's own note stays as written (issue #42, item 8: in
Hebrew and Ukrainian the note was English)."""

import pytest
from django.utils import translation

from bridge.auction import Auction, AuctionCall
from bridge.diagrams import auction_notes
from core.i18n import translate


@pytest.mark.parametrize(("language", "words"), [("he", "מוסכם על שני הצדדים"), ("uk", "погоджено обома сторонами")])
def test_the_tempo_note_reads_in_the_readers_language(language, words):
    auction = Auction(
        "N",
        [
            AuctionCall("1S"),
            AuctionCall("Pass", tempo_seconds=15, note="agreed by both sides"),
            AuctionCall("2S", note="slow"),
        ],
    )
    with translation.override(language):
        notes = [translate(note["text"]) for note in auction_notes(auction)]
    assert words in notes[0] and "agreed by both sides" not in notes[0]
    assert notes[1].endswith("slow")  # a person's words, as written
