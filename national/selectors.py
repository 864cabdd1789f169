"""Reads for the national body: its auditors search and count the rulings and appeals of every
tournament under their regulating authority. Queries and statistics only; nothing is written.

A national auditor (the ``national_auditor`` role and an ``AuditorAssignment``) reads the
tournaments of the authorities they audit and nothing else; a superuser reads everything.
"""

from __future__ import annotations

import datetime
import statistics
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from appeals.models import Appeal, Outcome
from audit.hints import Choice
from core import policy
from rulings.models import Ruling, RulingCitation
from scoring.models import Event, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import StrOrPromise

    AnyUser: TypeAlias = "User | AnonymousUser"
    # (label, value) rows of a chart, or (label, value, value, ...) for several series.
    ChartRow = tuple[Any, ...]

TOURNAMENT = "result__board__session__event__tournament"


# ---------------------------------------------------------------------------------------------
# Who may read, and what


def is_national_reader(user: AnyUser) -> bool:
    """Superusers, and national auditors assigned to at least one regulating authority."""
    return policy.may(user, "national", None)


def audited_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments under the bodies ``user`` audits (every tournament for a superuser)."""
    # is_national_reader without its EXISTS: the filter below already keeps only the bodies the
    # user audits, and a page calls this three or four times (issue #19).
    if not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.select_related("authority").order_by("-start_date", "name")
    return policy.visible(user, "national_records", qs, scope=policy.TOURNAMENT)


def scoped_rulings(user: AnyUser, tournament: int | str | None = None) -> QuerySet[Ruling]:
    """Every ruling of the audited tournaments (or of one of them), newest first."""
    qs = Ruling.objects.filter(**{f"{TOURNAMENT}__in": audited_tournaments(user)})
    if tournament:
        qs = qs.filter(**{f"{TOURNAMENT}_id": tournament})
    return qs


def scoped_appeals(user: AnyUser, tournament: int | str | None = None) -> QuerySet[Appeal]:
    return Appeal.objects.filter(ruling__in=scoped_rulings(user, tournament))


def scope_choices(user: AnyUser) -> dict[str, QuerySet[Any]]:
    """What the search form offers: tournaments, events, directors and appeals body members of
    the auditor's scope."""
    rulings = scoped_rulings(user)
    User = get_user_model()
    return {
        "tournaments": audited_tournaments(user),
        "events": Event.objects.filter(tournament__in=audited_tournaments(user))
        .select_related("tournament")
        .order_by("tournament__name", "name"),
        "directors": User.objects.filter(rulings__in=rulings).distinct().order_by("last_name", "username"),
        "members": User.objects.filter(appeal_seats__body__appeal__ruling__in=rulings)
        .distinct()
        .order_by("last_name", "username"),
    }


# ---------------------------------------------------------------------------------------------
# Search


@dataclass(frozen=True)
class Subject:
    """A subject keyword: the kinds of ruling and the laws it stands for, and words that name it
    in the facts, the ruling or the reasoning."""

    label: StrOrPromise
    kinds: tuple[Choice, ...] = ()
    laws: tuple[str, ...] = ()  # whole laws ("16") or sub-sections by prefix ("16B", "73D1")
    words: tuple[str, ...] = field(default_factory=tuple)


SUBJECTS = {
    "tempo": Subject(
        _("Tempo (hesitation, break in tempo)"),
        laws=("16B", "73D1"),
        words=("tempo", "hesitat", "pause", "slow", "huddle"),
    ),
    "unauthorised information": Subject(
        _("Unauthorised information"), kinds=(Ruling.Kind.UNAUTHORISED_INFORMATION,), laws=("16",), words=("unauthori",)
    ),
    "misinformation": Subject(
        _("Misinformation"),
        kinds=(Ruling.Kind.MISINFORMATION,),
        laws=("20", "21", "40", "75"),
        words=("misinformation", "explanation", "mistaken bid", "alert"),
    ),
    "claim": Subject(
        _("Claim or concession"), kinds=(Ruling.Kind.CLAIM,), laws=("68", "69", "70", "71"), words=("claim", "conce")
    ),
    "revoke": Subject(_("Revoke"), kinds=(Ruling.Kind.REVOKE,), laws=("61", "62", "63", "64"), words=("revoke",)),
    "insufficient bid": Subject(_("Insufficient bid"), laws=("27",), words=("insufficient",)),
    "lead out of turn": Subject(_("Lead out of turn"), laws=("54", "55", "56"), words=("out of turn",)),
    "fouled board": Subject(_("Fouled board"), kinds=(Ruling.Kind.FOULED_BOARD,), laws=("87",), words=("fouled",)),
    "director's error": Subject(
        _("Director's error"),
        kinds=(Ruling.Kind.DIRECTORS_ERROR,),
        laws=("82C",),
        words=("director's error", "director error"),
    ),
    "penalty": Subject(
        _("Procedural or disciplinary penalty"),
        kinds=(Ruling.Kind.PROCEDURAL_PENALTY, Ruling.Kind.DISCIPLINARY_PENALTY),
        laws=("90", "91"),
        words=("penalty",),
    ),
}


def _law_q(citation: str) -> Q:
    """Rulings citing ``citation``: a whole law ("16": 16, 16A, 16B1a, not 160) or a prefix of
    a sub-section ("16B" matches 16B1a)."""
    citation = citation.upper().replace("LAW", "").strip()
    if citation.isdigit():
        return Q(citations__law__law=int(citation))
    return Q(citations__law__number__istartswith=citation)


def _text_q(word: str) -> Q:
    return Q(facts__icontains=word) | Q(ruling_text__icontains=word) | Q(reasoning__icontains=word)


def subject_q(keyword: str) -> Q:
    """A known subject keyword matches its kinds, its laws and its words; any other keyword is
    looked for in the facts, the ruling and the reasoning."""
    keyword = keyword.strip().lower()
    subject = SUBJECTS.get(keyword)
    if subject is None:
        return _text_q(keyword)
    q = Q(kind__in=subject.kinds) if subject.kinds else Q(pk__in=[])
    for law in subject.laws:
        q |= _law_q(law)
    for word in subject.words:
        q |= _text_q(word)
    return q


APPEAL_OUTCOMES = {
    "appealed": Q(appeals__isnull=False),
    "not_appealed": Q(appeals__isnull=True),
    Outcome.UPHOLD: Q(appeals__outcome=Outcome.UPHOLD),
    Outcome.VARY: Q(appeals__outcome=Outcome.VARY),
    Outcome.OVERTURN: Q(appeals__outcome=Outcome.OVERTURN),
    "without_merit": Q(appeals__without_merit=True),
}


def search_rulings(
    user: AnyUser,
    *,
    tournament: int | str | None = None,
    event: int | str | None = None,
    law: str = "",
    kind: str = "",
    keyword: str = "",
    director: int | str | None = None,
    member: int | str | None = None,
    date_from: datetime.date | str | None = None,
    date_to: datetime.date | str | None = None,
    outcome: str = "",
    appeal: str = "",
) -> QuerySet[Ruling]:
    """The auditor's rulings matching every filter given, each with its laws and its appeals.

    ``law`` is a citation prefix ("16B"); ``keyword`` a subject (see ``SUBJECTS``) or free
    text; ``director`` and ``member`` user ids (``member``: sat on a body hearing an appeal of
    the ruling); the dates bound the day the ruling was given (recorded, if not yet given);
    ``outcome`` is the ruling's, ``appeal`` an appeal outcome, ``without_merit``, ``appealed``
    or ``not_appealed``.
    """
    qs = scoped_rulings(user, tournament).annotate(on=Coalesce("given_at", "created_at"))
    filters = Q()
    if event:
        filters &= Q(result__board__session__event_id=event)
    if law:
        filters &= _law_q(law)
    if kind:
        filters &= Q(kind=kind)
    if keyword:
        filters &= subject_q(keyword)
    if director:
        filters &= Q(director_id=director)
    if member:
        filters &= Q(appeals__bodies__members__user_id=member)
    if date_from:
        filters &= Q(on__date__gte=date_from)
    if date_to:
        filters &= Q(on__date__lte=date_to)
    if outcome:
        filters &= Q(outcome=outcome)
    if appeal in APPEAL_OUTCOMES:
        filters &= APPEAL_OUTCOMES[appeal]
    ids = qs.filter(filters).values("pk")
    return (
        Ruling.objects.filter(pk__in=ids)
        .annotate(on=Coalesce("given_at", "created_at"))
        .select_related(f"{TOURNAMENT}", "result__board__session__event", "result__table", "director")
        .prefetch_related(
            Prefetch("citations", RulingCitation.objects.select_related("law", "regulation").order_by("pk")),
            Prefetch("appeals", Appeal.objects.order_by("number")),
        )
        .order_by("-on", "-pk")
    )


# ---------------------------------------------------------------------------------------------
# Statistics


def _label(choices: Iterable[tuple[str, StrOrPromise]], value: str | None) -> StrOrPromise:
    return dict(choices).get(value or "", value or "—")


def _person(user: User) -> str:
    return user.get_full_name() or user.username


def rulings_per_law(rulings: QuerySet[Ruling], top: int = 15) -> list[ChartRow]:
    """(label, rulings citing the law) for the ``top`` most cited laws."""
    rows = (
        RulingCitation.objects.filter(ruling__in=rulings, law__isnull=False)
        .values("law__law")
        .annotate(n=Count("ruling", distinct=True))
        .order_by("-n", "law__law")[:top]
    )
    return [(_("Law %(law)s") % {"law": row["law__law"]}, row["n"]) for row in rows]


def rulings_per_kind(rulings: QuerySet[Ruling]) -> list[ChartRow]:
    rows = rulings.values("kind").annotate(n=Count("pk")).order_by("-n", "kind")
    return [(_label(Ruling.Kind.choices, row["kind"]), row["n"]) for row in rows]


def _directors(rulings: QuerySet[Ruling]) -> dict[int, User]:
    """The directors of ``rulings`` by id, read once for the two charts that name them."""
    return users_by_id(rulings.values("director"))


def users_by_id(ids: Any) -> dict[int, User]:
    """The users of ``ids`` (ids or a query of them) by id, in one query."""
    return {user.pk: user for user in get_user_model().objects.filter(pk__in=ids)}


def appeals_per_kind(appeals: QuerySet[Appeal]) -> list[ChartRow]:
    rows = appeals.values("ruling__kind").annotate(n=Count("pk")).order_by("-n", "ruling__kind")
    return [(_label(Ruling.Kind.choices, row["ruling__kind"]), row["n"]) for row in rows]


def appeals_per_director(appeals: QuerySet[Appeal], users: dict[int, User]) -> list[ChartRow]:
    """(director, appeals of their rulings), most first; ``users`` by id (see _directors)."""
    rows = appeals.values("ruling__director").annotate(n=Count("pk")).order_by("-n", "ruling__director")
    return [(_person(users[row["ruling__director"]]), row["n"]) for row in rows]


def appeal_counts(appeals: QuerySet[Appeal]) -> dict[str, int]:
    """Every count of ``appeals`` the page shows, in one query (issue #19: they were twelve
    COUNTs of the same shape). Decided appeals by outcome ("without merit" appeals are upheld
    ones, counted again); decided by the start of the next session (decide_by) or not; lodged
    within the appeal period, within a chief director's extension, or late."""
    decided = Q(state=Appeal.State.DECIDED)
    timed = Q(decide_by__isnull=False, decided_at__isnull=False)
    has_deadline = Q(deadline__isnull=False)
    return appeals.aggregate(
        total=Count("pk"),
        upheld=Count("pk", filter=decided & Q(outcome=Outcome.UPHOLD)),
        varied=Count("pk", filter=decided & Q(outcome=Outcome.VARY)),
        overturned=Count("pk", filter=decided & Q(outcome=Outcome.OVERTURN)),
        without_merit=Count("pk", filter=decided & Q(without_merit=True)),
        decided_in_time=Count("pk", filter=timed & Q(decided_at__lte=F("decide_by"))),
        decided_late=Count("pk", filter=timed & Q(decided_at__gt=F("decide_by"))),
        with_deadline=Count("pk", filter=has_deadline),
        lodged_in_time=Count("pk", filter=has_deadline & Q(lodged_at__lte=F("deadline"))),
        # Past the deadline (lodged_at is never empty) but within the extension.
        extended=Count(
            "pk",
            filter=has_deadline
            & Q(lodged_at__gt=F("deadline"), extension__isnull=False, lodged_at__lte=F("extension__until")),
        ),
    )


def appeal_outcomes(counts: dict[str, int]) -> list[ChartRow]:
    """Decided appeals by outcome, from :func:`appeal_counts`."""
    return [
        (_("Upheld"), counts["upheld"]),
        (_("Varied"), counts["varied"]),
        (_("Overturned"), counts["overturned"]),
        (_("Without merit"), counts["without_merit"]),
    ]


# Upper bounds in minutes of the histogram's bins; the last bin is open.
DECISION_BINS = [
    (30, _("under 30 min")),
    (60, _("30–60 min")),
    (120, _("1–2 h")),
    (360, _("2–6 h")),
    (1440, _("6–24 h")),
    (7 * 1440, _("1–7 days")),
    (None, _("over a week")),
]


def decision_times(appeals: QuerySet[Appeal]) -> dict[str, Any]:
    """Minutes from the ruling (given at) to the appeal decision (decided at): the median and a
    histogram. Decisions recorded before the ruling's time are counted apart, not binned."""
    pairs = appeals.filter(decided_at__isnull=False, ruling__given_at__isnull=False).values_list(
        "ruling__given_at", "decided_at"
    )
    minutes = [(decided - given).total_seconds() / 60 for given, decided in pairs if given and decided]
    valid = sorted(m for m in minutes if m >= 0)
    bins: list[ChartRow] = []
    lower = 0
    for upper, label in DECISION_BINS:
        bins.append((label, sum(1 for m in valid if m >= lower and (upper is None or m < upper))))
        lower = upper if upper is not None else lower
    return {
        "median": statistics.median(valid) if valid else None,
        "count": len(valid),
        "bins": bins,
        "out_of_order": len(minutes) - len(valid),
    }


def deadlines(counts: dict[str, int]) -> dict[str, list[ChartRow]]:
    """Decided by the start of the next session (decide_by); lodged within the appeal period,
    within a chief director's extension, or late; from :func:`appeal_counts`."""
    late = counts["with_deadline"] - counts["lodged_in_time"] - counts["extended"]
    return {
        "decided": [
            (_("Decided in time"), counts["decided_in_time"]),
            (_("Decided late"), counts["decided_late"]),
        ],
        "lodged": [
            (_("Lodged in time"), counts["lodged_in_time"]),
            (_("Lodged under an extension"), counts["extended"]),
            (_("Lodged late"), late),
        ],
    }


def director_changes(rulings: QuerySet[Ruling], users: dict[int, User]) -> list[dict[str, Any]]:
    """Per director: rulings, rulings appealed, rulings changed on appeal (varied or
    overturned), most rulings first; ``users`` by id (see _directors)."""
    rows = (
        rulings.values("director")
        .annotate(
            total=Count("pk", distinct=True),
            appealed=Count("pk", distinct=True, filter=Q(appeals__isnull=False)),
            changed=Count("pk", distinct=True, filter=Q(appeals__outcome__in=[Outcome.VARY, Outcome.OVERTURN])),
        )
        .order_by("-total", "director")
    )
    return [
        {
            "label": _person(users[row["director"]]),
            "total": row["total"],
            "appealed": row["appealed"],
            "changed": row["changed"],
        }
        for row in rows
    ]


def rating_rows(pairs: Collection[tuple[int, int]]) -> list[ChartRow]:
    """(label, count) of appeals that improved, kept or worsened the ruling, from (ruling mark,
    decision mark) pairs out of 100."""
    return [
        (_("Improved the ruling"), sum(1 for ruling, decision in pairs if decision > ruling)),
        (_("Neither better nor worse"), sum(1 for ruling, decision in pairs if decision == ruling)),
        (_("Worsened the ruling"), sum(1 for ruling, decision in pairs if decision < ruling)),
    ]


def latest_ratings(appeals: Q) -> dict[int, tuple[int, int]]:
    """(ruling mark, decision mark) by appeal id, for the appeals ``appeals`` (a filter on
    CasebookCase) that an expert panel marked in a casebook: the latest marks of each."""
    from national.models import CasebookCase

    latest: dict[int, tuple[int, int]] = {}
    for appeal, ruling, decision in (
        CasebookCase.objects.filter(appeals, ruling_rating__isnull=False, decision_rating__isnull=False)
        .order_by("commentary_at", "pk")
        .values_list("appeal", "ruling_rating", "decision_rating")
    ):
        if ruling is not None and decision is not None:  # both asked for above
            latest[appeal] = (ruling, decision)
    return latest


def expert_ratings(appeals: QuerySet[Appeal]) -> dict[str, Any]:
    """How often appeals improved a ruling against how often they worsened it, by the marks an
    expert panel gave in the body's casebooks (the latest marks of each appeal)."""
    latest = latest_ratings(Q(appeal__in=appeals))
    return {"rated": len(latest), "rows": rating_rows(latest.values()) if latest else []}


def national_statistics(user: AnyUser, tournament: int | str | None = None) -> dict[str, Any]:
    """Every figure of the statistics page for the auditor's scope (or one tournament)."""
    rulings = scoped_rulings(user, tournament)
    appeals = scoped_appeals(user, tournament)
    per_kind = rulings_per_kind(rulings)
    counts = appeal_counts(appeals)
    users = _directors(rulings)
    return {
        "ruling_count": sum(n for _kind, n in per_kind),  # every ruling has one kind
        "appeal_count": counts["total"],
        "per_law": rulings_per_law(rulings),
        "per_kind": per_kind,
        "appeals_per_kind": appeals_per_kind(appeals),
        "appeals_per_director": appeals_per_director(appeals, users),
        "outcomes": appeal_outcomes(counts),
        "times": decision_times(appeals),
        "deadlines": deadlines(counts),
        "directors": director_changes(rulings, users),
        "ratings": expert_ratings(appeals),
    }


# ---------------------------------------------------------------------------------------------
# Charts: the geometry of horizontal bar charts, drawn as SVG by templates/national/_bars.html


ROW_HEIGHT = 26
LABEL_WIDTH = 230
BAR_WIDTH = 330


def bar_chart(rows: Sequence[ChartRow], series: int = 1) -> dict[str, Any]:
    """Bars for ``rows`` of (label, value) or, with ``series`` > 1, (label, v1, v2, ...) drawn
    over each other (v1 the largest, e.g. total / appealed / changed)."""
    top = max((max(row[1:]) for row in rows), default=0) or 1
    bars = []
    for index, (label, *values) in enumerate(rows):
        y = index * ROW_HEIGHT
        bars.append(
            {
                "label": label,
                "values": values,
                "y": y,
                "text_y": round(y + ROW_HEIGHT * 0.65, 1),
                "segments": [
                    {"width": round(BAR_WIDTH * value / top, 1), "series": n, "value": value}
                    for n, value in enumerate(values[:series])
                ],
                "value_x": LABEL_WIDTH + round(BAR_WIDTH * values[0] / top, 1) + 6,
            }
        )
    return {
        "bars": bars,
        "height": max(len(rows), 1) * ROW_HEIGHT,
        "label_width": LABEL_WIDTH,
        "width": LABEL_WIDTH + BAR_WIDTH + 90,
        "series": series,
    }
