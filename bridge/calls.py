"""One call of an auction as the director records it (``AuctionCall``): below both the auction
(bridge/auction.py) and the auction as called (bridge/irregularities.py), which each read it.

Plain Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridge.deals import normalise_call, parse_seat


@dataclass
class AuctionCall:
    """One call and what the director needs to know about it.

    ``call`` is normalised (``Pass``, ``X``, ``XX``, ``1C``..``7NT``); ``tempo_seconds`` is how
    long the player took (for unauthorised-information cases), None when not recorded;
    ``note`` is the director's own remark. ``tempo_source`` says where the time comes from (a
    key of ``bridge.tempo.TEMPO_SOURCES``; empty: not said) and ``tempo_uncertainty`` the ± whole
    seconds its source states (None: not said); ``bridge.tempo.check_timing`` checks the three.

    The auction as called (``bridge.irregularities``): ``seat`` the seat that made the call
    when it was not that seat's turn (empty: in rotation); ``status`` what became of an
    irregular call (``accepted``, ``condoned``, ``cancelled``, ``withdrawn``, ``pending``;
    empty: it stands, or the Laws read what happened from the calls after it);
    ``attention_by`` the seat that drew attention to it; ``law`` the law sub-section the
    director applied; ``option`` the option chosen (``27B1a:2D``, ``29B``...).
    """

    call: str
    alert: bool = False
    explanation: str = ""
    tempo_seconds: int | None = None
    note: str = ""
    seat: str = ""
    status: str = ""
    attention_by: str = ""
    law: str = ""
    option: str = ""
    tempo_source: str = ""
    tempo_uncertainty: int | None = None

    def __post_init__(self) -> None:
        self.call = normalise_call(self.call)
        if self.seat:
            self.seat = parse_seat(self.seat, "seat")
        if self.attention_by:
            self.attention_by = parse_seat(self.attention_by, "attention_by")

    @property
    def irregular(self) -> bool:
        """Whether the record says anything of an irregularity in this call."""
        return bool(self.seat or self.status or self.attention_by or self.law or self.option)
