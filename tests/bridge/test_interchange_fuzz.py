"""The readers never fail with anything but their own refusal: valid files mutated at random
(bytes changed, inserted, deleted, lines cut or repeated) are either read or refused with a
MessageError (PbnError, UsebioError), never another exception. Bounded: it runs in make test;
`make fuzz` runs many more examples (tests/fuzz.py)."""

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bridge.interchange import decode
from bridge.messages import MessageError
from bridge.pbn import parse_pbn, session_from_pbn
from bridge.usebio import parse_usebio
from tests.fuzz import fuzz

ROOT = Path(__file__).resolve().parents[1] / "fixtures"
SEEDS = [path.read_bytes() for path in sorted((ROOT / "interchange").glob("*.pbn"))] + [
    (ROOT / "pbn" / "session_export.pbn").read_bytes()[:6000]
]
XML_SEEDS = [(ROOT / "interchange" / "event.usebio.xml").read_bytes()]
TOKENS = [
    b"[",
    b"]",
    b'"',
    b"#",
    b"##",
    b"{",
    b"}",
    b";",
    b"\n",
    b"\r\n",
    b"-",
    b"A60",
    b"=1=",
    b"^",
    b"*",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\x00",
    b"Board",
    b"Table",
    b"Bye",
    b"NS 11",
    b"99",
    b"0",
    b"<",
    b">",
    b"&",
    b"<!ENTITY a 'x'>",
    b"</BOARD>",
    b"<TRAVELLER_LINE>",
    b"<TRICKS>",
    b"&#0;",
    b"\xc3",
]


def read(data):
    text = decode(data)
    if text.lstrip().startswith("<"):
        return parse_usebio(data.removeprefix(b"\xef\xbb\xbf"))
    warnings = []
    return session_from_pbn(parse_pbn(text, warnings), warnings)


@st.composite
def mutated(draw, seeds):
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "cut", "repeat"]))
        if action == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS) | st.binary(min_size=1, max_size=4))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif action == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at:]
        else:
            end = data.find(b"\n", at)
            data[at:at] = data[at : end + 1 if end >= 0 else len(data)]
    return bytes(data)


def check(data):
    try:
        read(data)
    except MessageError:
        pass  # a clean refusal, naming where


@fuzz(300)
@given(mutated(SEEDS))
def test_mutated_pbn_files_are_read_or_refused_cleanly(data):
    check(data)


@fuzz(150)
@given(mutated(XML_SEEDS))
def test_mutated_usebio_files_are_read_or_refused_cleanly(data):
    check(data)


@fuzz(100)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_cleanly(data):
    check(data)
