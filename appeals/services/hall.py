"""The hall screen's address (``/hall/<token>/``, appeals/notice_board.py): the chief director
revokes one handed out (a screen lost, a link passed beyond the room), and a new one is issued."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.utils import timezone

from appeals.models import HallAddress
from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Tournament


@atomic_with_retry
def revoke_hall_address(*, tournament: Tournament, by: User, now: datetime.datetime | None = None) -> HallAddress:
    """Revoke ``tournament``'s hall screen address: the screens that hold it are refused from
    now on ("This address of the hall screen was revoked ..."), and the notice board gives its
    officials the new one. Audited."""
    policy.require(by, "revoke_hall_address", tournament)
    now = now or timezone.now()
    address, _created = HallAddress.objects.select_for_update().get_or_create(tournament=tournament)
    before = address.generation
    address.generation, address.revoked_at, address.revoked_by = before + 1, now, by
    address.save()
    audit.record(
        action="hall_address.revoked",
        obj=address,
        actor=by,
        tournament=tournament.pk,
        before={"generation": before},
        after={"generation": address.generation, "revoked_at": now.isoformat()},
        summary=texts.text("appeals.hall_address_revoked", tournament=tournament.name),
    )
    return address
