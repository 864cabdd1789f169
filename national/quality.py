"""The national desk's quality view (issue #44): how appeals treated rulings, per appeals body,
director, law or season, as a national body measures its directors and committees.

One row per group of decided appeals in the auditor's scope: how many were upheld, varied or
overturned, the share changed (varied or overturned: the reversal rate), how many were without
merit, the median time from the incident (the director called, or the ruling given where the
call's time is not recorded) to the decision, and, where an expert panel marked a casebook's
case, how many appeals improved or worsened the ruling. Reads only; nothing is written.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from appeals.models import Appeal, Body, Outcome, Stage
from national import selectors
from rulings.models import RulingCitation

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

_TOURNAMENT = f"ruling__{selectors.TOURNAMENT}"

# The groupings an auditor may choose, in the order offered.
GROUPINGS: dict[str, StrOrPromise] = {
    "body": _("Appeals body"),
    "director": _("Director"),
    "law": _("Law"),
    "season": _("Season"),
}


@dataclass
class QualityRow:
    """One group's figures. ``changed_percent`` and ``median_hours`` are None with nothing to
    count (no decided appeal, no appeal with both times)."""

    label: Any
    decided: int = 0
    upheld: int = 0
    varied: int = 0
    overturned: int = 0
    without_merit: int = 0
    rated: int = 0
    improved: int = 0
    worsened: int = 0
    minutes: list[float] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return self.varied + self.overturned

    @property
    def changed_percent(self) -> Decimal | None:
        if not self.decided:
            return None
        return (Decimal(100 * self.changed) / self.decided).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    @property
    def median_hours(self) -> Decimal | None:
        if not self.minutes:
            return None
        return (Decimal(str(statistics.median(self.minutes))) / 60).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    def count(self, appeal: dict[str, Any], rating: tuple[int, int] | None) -> None:
        self.decided += 1
        self.upheld += appeal["outcome"] == Outcome.UPHOLD
        self.varied += appeal["outcome"] == Outcome.VARY
        self.overturned += appeal["outcome"] == Outcome.OVERTURN
        self.without_merit += bool(appeal["without_merit"])
        start = appeal["ruling__called_at"] or appeal["ruling__given_at"]
        if start is not None and appeal["decided_at"] >= start:  # one recorded before its start is left out
            self.minutes.append((appeal["decided_at"] - start).total_seconds() / 60)
        if rating is not None:
            self.rated += 1
            self.improved += rating[1] > rating[0]
            self.worsened += rating[1] < rating[0]


def _keys(grouping: str, appeal: dict[str, Any], laws: dict[int, set[int]]) -> list[Any]:
    """The groups ``appeal`` counts in: one, or one per law its ruling cites."""
    if grouping == "body":
        return [appeal["body_kind"] or ""]
    if grouping == "director":
        return [appeal["ruling__director"]]
    if grouping == "law":
        return sorted(laws.get(appeal["ruling_id"], ())) or [None]
    return [appeal[f"{_TOURNAMENT}__start_date"].year]


def _label(grouping: str, key: Any, directors: dict[int, Any]) -> Any:
    if grouping == "body":
        return dict(Body.Kind.choices).get(key, _("No appeals body"))
    if grouping == "director":
        user = directors[key]
        return user.get_full_name() or user.username
    if grouping == "law":
        return _("Law %(law)s") % {"law": key} if key is not None else _("No law cited")
    return str(key)


def quality_rows(user: Any, grouping: str, tournament: int | str | None = None) -> list[QualityRow]:
    """The quality view's rows for ``user``'s scope (or one tournament), grouped by ``grouping``
    (a key of GROUPINGS), most decided appeals first. An appeal is grouped by the body that
    heard it at the event (its first stage); one whose ruling cites several laws counts under
    each of them."""
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}")
    appeals: list[dict[str, Any]] = list(
        selectors.scoped_appeals(user, tournament)
        .filter(state=Appeal.State.DECIDED, decided_at__isnull=False)
        .annotate(body_kind=Subquery(Body.objects.filter(appeal=OuterRef("pk"), stage=Stage.EVENT).values("kind")[:1]))
        .values(
            "pk",
            "ruling_id",
            "outcome",
            "without_merit",
            "decided_at",
            "body_kind",
            "ruling__called_at",
            "ruling__given_at",
            "ruling__director",
            f"{_TOURNAMENT}__start_date",
        )
    )
    ruling_ids = {appeal["ruling_id"] for appeal in appeals}
    laws: dict[int, set[int]] = defaultdict(set)
    if grouping == "law":
        for ruling, law in RulingCitation.objects.filter(ruling__in=ruling_ids, law__isnull=False).values_list(
            "ruling", "law__law"
        ):
            laws[ruling].add(law)
    ratings = selectors.latest_ratings(Q(appeal__in=[appeal["pk"] for appeal in appeals]))
    directors = selectors.users_by_id({appeal["ruling__director"] for appeal in appeals})
    rows: dict[Any, QualityRow] = {}
    for appeal in appeals:
        for key in _keys(grouping, appeal, laws):
            row = rows.get(key)
            if row is None:
                row = rows[key] = QualityRow(label=_label(grouping, key, directors))
            row.count(appeal, ratings.get(appeal["pk"]))
    if grouping == "season":  # the newest season first
        return [rows[key] for key in sorted(rows, reverse=True)]
    return sorted(rows.values(), key=lambda row: (-row.decided, str(row.label)))


def csv_rows(rows: list[QualityRow], grouping: str) -> list[list[Any]]:
    """The rows as the CSV writes them, under a header naming each column."""
    header = [
        str(GROUPINGS[grouping]),
        str(_("Decided appeals")),
        str(_("Upheld")),
        str(_("Varied")),
        str(_("Overturned")),
        str(_("Changed (per cent)")),
        str(_("Without merit")),
        str(_("Median hours from incident to decision")),
        str(_("Rated by experts")),
        str(_("Improved the ruling")),
        str(_("Worsened the ruling")),
    ]
    body = [
        [
            str(row.label),
            row.decided,
            row.upheld,
            row.varied,
            row.overturned,
            "" if row.changed_percent is None else str(row.changed_percent),
            row.without_merit,
            "" if row.median_hours is None else str(row.median_hours),
            row.rated,
            row.improved,
            row.worsened,
        ]
        for row in rows
    ]
    return [header, *body]
