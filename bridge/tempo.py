"""The evidence of how long a call took (issue #44, "Tempo evidence"): the seconds, where they
come from and the uncertainty their source states.

A call's time is kept on its ``AuctionCall``: ``tempo_seconds``, ``tempo_source`` (a key of
``TEMPO_SOURCES``; empty: not said) and ``tempo_uncertainty`` (± whole seconds; None: not said).
``check_timing`` refuses what cannot be evidence, naming the field; ``timing_words`` is what the
auction's note says of it ("tempo: 22 s ± 1 s (online platform record; includes network
delay)"). An online platform's record and a server's timestamps are taken where the player's
call reached the platform, so they include the network's delay: their words say so.

Read from PBN's ``[AuctionTimeTable]`` (bridge.pbn_record, docs/formats.md) or entered by the
director (rulings.services.record_call_tempo).

Plain Python, no Django.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridge.deals import DealError
from bridge.messages import Message, _

if TYPE_CHECKING:
    from bridge.calls import AuctionCall

# Where a call's time comes from, in the words the auction's note shows (the reader's language).
TEMPO_SOURCES: dict[str, Message] = {
    "agreed": _("agreed by both sides"),
    "director": _("the director's estimate"),
    "player": _("a player's statement"),
    "device": _("a bidding device's log"),
    "online": _("online platform record; includes network delay"),
    "server": _("server timestamps; include network delay"),
}
# A call's time longer than this is no call's time (the Law 16 page takes the same limit).
MAX_SECONDS = 3600


def _whole(value: Any, field: str, message: Message) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise DealError(field, message)
    try:
        number = float(str(value).strip())
    except ValueError:
        raise DealError(field, message) from None
    if number != int(number):
        raise DealError(field, message)
    return int(number)


def check_timing(seconds: Any, source: Any = "", uncertainty: Any = None) -> tuple[int | None, str, int | None]:
    """``(seconds, source, uncertainty)`` as a call keeps them, or DealError naming the field at
    fault (``tempo_seconds``, ``tempo_source``, ``tempo_uncertainty``): seconds a whole number
    from 0 to an hour; the source one of ``TEMPO_SOURCES``; the uncertainty whole seconds, 0 or
    more and no more than the time itself (1 s for a call under a second): a time of 5 s ± 20 s
    says nothing. A source or an uncertainty needs the seconds; all three empty: no time."""
    source = str(source or "").strip()
    seconds_n = _whole(seconds, "tempo_seconds", _("Seconds: write the call's time as a whole number, e.g. 22."))
    uncertainty_n = _whole(
        uncertainty, "tempo_uncertainty", _("Uncertainty: write it as whole seconds (the ± of the time), e.g. 1.")
    )
    if source and source not in TEMPO_SOURCES:
        raise DealError(
            "tempo_source",
            _("Source: '%(source)s' is not a source of a call's time; choose one of the list.", source=source),
        )
    if seconds_n is None:
        if source or uncertainty_n is not None:
            raise DealError("tempo_seconds", _("Seconds: give the call's time that the source and uncertainty are of."))
        return None, "", None
    if seconds_n < 0:
        raise DealError("tempo_seconds", _("Seconds: a call's time is 0 seconds or more, not %(n)s.", n=seconds_n))
    if seconds_n > MAX_SECONDS:
        raise DealError(
            "tempo_seconds", _("Seconds: %(n)s s is more than an hour; give the call's time in seconds.", n=seconds_n)
        )
    if uncertainty_n is not None:
        if uncertainty_n < 0:
            raise DealError("tempo_uncertainty", _("Uncertainty: ± is 0 seconds or more, not %(n)s.", n=uncertainty_n))
        if uncertainty_n > max(seconds_n, 1):
            raise DealError(
                "tempo_uncertainty",
                _(
                    "Uncertainty: ± %(uncertainty)s s is more than the time itself (%(seconds)s s); "
                    "such a time says nothing.",
                    uncertainty=uncertainty_n,
                    seconds=seconds_n,
                ),
            )
    return seconds_n, source, uncertainty_n


def timing_words(call: AuctionCall) -> Message | None:
    """What the auction's note says of a call's time, or None when it has none:
    ``tempo: 22 s ± 1 s (online platform record; includes network delay)``, the uncertainty and
    the source each only when stated (``tempo: 20 s``)."""
    seconds = call.tempo_seconds
    if seconds is None:
        return None
    source = TEMPO_SOURCES.get(call.tempo_source) if call.tempo_source else None
    uncertainty = call.tempo_uncertainty
    if source is not None and uncertainty is not None:
        return _(
            "tempo: %(seconds)s s ± %(uncertainty)s s (%(source)s)",
            seconds=seconds,
            uncertainty=uncertainty,
            source=source,
        )
    if source is not None:
        return _("tempo: %(seconds)s s (%(source)s)", seconds=seconds, source=source)
    if uncertainty is not None:
        return _("tempo: %(seconds)s s ± %(uncertainty)s s", seconds=seconds, uncertainty=uncertainty)
    return _("tempo: %(seconds)s s", seconds=seconds)
