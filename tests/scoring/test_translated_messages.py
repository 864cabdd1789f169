"""Messages of the plain-Python modules (bridge/messages.py): English as plain strings, the
reader's language where Django shows them, and no Django in the modules that raise them."""

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import translation

from bridge.deals import DealError, parse_deal
from bridge.engine.contract import ContractError, parse_contract
from bridge.engine.scores import EngineInputError, parse_result
from bridge.messages import Message, _, join
from core import policy
from core.i18n import translate
from scoring import services
from scoring.importers.session_import import ImportRefused, import_file
from scoring.models import Event

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "pbn"


def test_a_message_is_its_english_text_and_keeps_what_translates_it():
    seat = _("North")
    message = _("%(seat)s holds %(n)s cards", seat=seat, n=14)
    assert message == "North holds 14 cards" and isinstance(message, str) and "14 cards" in message
    assert f"{message}!" == "North holds 14 cards!"
    shout = {"%(seat)s holds %(n)s cards": "%(seat)s HAS %(n)s", "North": "NORD"}
    assert message.render(lambda text: shout.get(text, text)) == "NORD HAS 14"
    assert _("%(value)s%% is not between 0 and 100", value=120) == "120% is not between 0 and 100"
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.render(lambda text: shout.get(text, text)) == "NORD HAS 14"
    assert copy.deepcopy(message).params == {"seat": "North", "n": 14}
    assert join(["North", "East", "South"]) == "North, East and South" and join(["West"]) == "West"
    assert Message("%(a)s: %(b)s", a="x", b=message) == "x: North holds 14 cards"


def test_errors_read_in_english_and_translate_in_dutch():
    with pytest.raises(DealError) as caught:
        parse_deal("N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J87Z")
    assert str(caught.value) == "'Z' is not a rank in West's clubs: ranks are AKQJT98765432"
    with translation.override("nl"):
        assert translate(caught.value) == "'Z' is geen hoogte in de klaveren van West: de hoogtes zijn AKQJT98765432"
    with pytest.raises(ContractError) as caught:
        parse_contract("9S")
    assert str(caught.value) == "contract: '9S' has level 9: a level is 1 to 7."
    with translation.override("el"):
        assert translate(caught.value) == "contract: το '9S' έχει επίπεδο 9: το επίπεδο είναι από 1 έως 7."
    with pytest.raises(EngineInputError) as caught:
        parse_result({"table": 3, "ns": [[420, "0.5"]]}, 2)
    assert str(caught.value) == "result 2 (table 3), ns: weights add up to 0.5, not 1"
    with translation.override("is"):
        assert translate(caught.value) == "úrslit 2 (borð 3), ns: vægin eru samtals 0.5, ekki 1"
    assert translate(ValueError("plain")) == "plain" and translate("text") == "text"


def test_the_plain_python_modules_do_not_import_django():
    code = (
        "import sys, bridge.engine.scores, bridge.engine.contract, bridge.deals, bridge.pbn, "
        "bridge.auction, bridge.lin, bridge.pbn_record, bridge.diagrams; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.django_db
def test_a_refused_pbn_import_names_the_line_in_the_active_language(record):
    event = services.create_event(
        tournament=record.tournament, name="Thursday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    data = (FIXTURES / "bad_14_cards.pbn").read_bytes()
    with pytest.raises(ImportRefused) as caught:
        import_file(event=event, data=data)
    assert str(caught.value) == "line 73: Deal: North holds 14 cards and East 12: a hand has 13"
    with translation.override("he"), pytest.raises(ImportRefused) as caught:
        import_file(event=event, data=data)
    assert str(caught.value) == "שורה 73: Deal: לצפון יש 14 קלפים ולמזרח 12: ביד יש 13"
    with translation.override("nl"), pytest.raises(CommandError) as caught:
        call_command("import_pbn", str(FIXTURES / "bad_14_cards.pbn"), "--event", str(event.pk))
    assert "regel 73: Deal: Noord heeft 14 kaarten en Oost 12: een hand heeft er 13" in str(caught.value)
    with translation.override("nl"), pytest.raises(ImportRefused) as caught:
        import_file(event=event, data=b"% PBN 2.1\n")
    assert str(caught.value) == "regel 1: het bestand bevat geen spellen."


@pytest.mark.django_db
def test_a_board_with_a_bad_deal_is_refused_in_ukrainian(record):
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J87"
    with translation.override("uk"), pytest.raises(ValidationError) as caught:
        services.create_board(session=record.session, number=5, deal=deal, by=policy.SYSTEM)
    assert caught.value.message_dict["deal"] == ["Захід тримає 12 карт; у руці має бути 13; у роздачі бракує: C5"]
