"""Reads of the precedent index: the published cases most like a ruling, and the search of
published cases by law, kind, outcome, year and words.

Who reads what: the cases of published (or final) casebooks of the national bodies a reader
belongs to: the bodies they audit, the bodies of the tournaments they officiate or sit on an
appeals body in, and the body they are a member (player) of. A superuser reads every body's.
"""

import re
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.urls import reverse

from national import casebooks
from national.models import Casebook, PrecedentCase
from national.precedents import FTS_TABLE, contract_of, law_parts
from scoring.models import RegulatingAuthority

# Outcomes offered by the search: the appeal's outcome, or the finding that it lacked merit.
WITHOUT_MERIT = "without_merit"

SUGGESTIONS = 5
MAX_WORDS = 8

# A casebook's whole text, and a PDF where its row holds one, are not read to list its cases.
UNLISTED = [f"casebook__{field.name}" for field in Casebook._meta.concrete_fields if field.name in ("content", "pdf")]


def reader_authorities(user):
    """The ids of the national bodies whose published cases ``user`` may read."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return set(RegulatingAuthority.objects.values_list("pk", flat=True))
    bodies = set(user.auditing.values_list("authority_id", flat=True))
    bodies |= set(user.officiating.values_list("tournament__authority_id", flat=True))
    bodies |= set(
        user.appeal_seats.values_list(
            "body__appeal__ruling__board__session__event__tournament__authority_id", flat=True
        )
    )
    player = getattr(user, "player", None)
    if player is not None:
        bodies.add(player.authority_id)
    return bodies


def visible_precedents(user):
    """The index rows ``user`` may read: published casebooks of their own bodies only."""
    return (
        PrecedentCase.objects.filter(authority_id__in=reader_authorities(user))
        .exclude(casebook__state=Casebook.State.DRAFT)
        .select_related("casebook")
        .defer(*UNLISTED)
    )


def words_of(text):
    """The words of a query: letters and digits only, lower case, in order, each once."""
    words = []
    for word in re.split(r"[\W_]+", str(text or "").lower()):
        if word and word not in words:
            words.append(word)
    return words


def _pg_query(words):
    return SearchQuery(" & ".join(f"{word}:*" for word in words), search_type="raw", config="simple")


def _fts5_match(words):
    return " AND ".join(f'"{word}"*' for word in words)


def matching(queryset, words):
    """``queryset`` limited to the cases whose laws or text hold every word, as a word or the
    start of one (``hesitat`` finds "hesitated"), by the database's full-text index."""
    if connection.vendor == "postgresql":
        return queryset.filter(document=_pg_query(words))
    return queryset.filter(
        pk__in=RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [_fts5_match(words)])
    )


def _holding(authority_id, word):
    """The ids of the body's cases holding ``word`` (or a word it starts), straight from the
    full-text index: no scan of the cases themselves."""
    if connection.vendor == "postgresql":
        return PrecedentCase.objects.filter(authority_id=authority_id, document=_pg_query([word])).values_list(
            "pk", flat=True
        )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [_fts5_match([word])])
        return [pk for (pk,) in cursor.fetchall()]


def ranked(queryset, words, limit=None):
    """The cases of ``queryset`` holding every word (the first ``limit``), best match first (the
    laws and their titles weigh more than the words of the text), then the newest."""
    if connection.vendor == "postgresql":
        query = _pg_query(words)
        return list(
            queryset.filter(document=query)
            .annotate(rank=SearchRank(F("document"), query, weights=[0.1, 0.2, 0.4, 1.0]))
            .order_by("-rank", "-year", "casebook_id", "position")[:limit]
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rowid, bm25({FTS_TABLE}, 4.0, 1.0) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s",
            [_fts5_match(words)],
        )
        ranks = dict(cursor.fetchall())  # bm25: smaller is better
    keys = matching(queryset, words).values_list("pk", "year", "casebook_id", "position")
    order = [row[0] for row in sorted(keys, key=lambda row: (ranks.get(row[0], 0.0), -row[1], row[2], row[3]))]
    order = order[:limit]
    rows = queryset.in_bulk(order)
    return [rows[pk] for pk in order]


def _law_q(law):
    parts = law_parts(law)
    if not parts:
        return None
    return Q(laws__contains=f" {parts[-1]} ")


def search(user, *, law="", kind="", outcome="", year=None, q="", language="", limit=None):
    """Published cases matching every filter given: ``law`` a citation with its sub-sections
    ("16B" finds 16B1a), ``kind`` of ruling, ``outcome`` of the appeal (or ``without_merit``),
    ``year`` of the ruling, ``language`` of the casebook, and words ``q``. With words, the best
    match first; else the newest cases first."""
    qs = visible_precedents(user)
    if law:
        condition = _law_q(law)
        qs = qs.filter(condition) if condition is not None else qs.none()
    if kind:
        qs = qs.filter(kind=kind)
    if outcome == WITHOUT_MERIT:
        qs = qs.filter(without_merit=True)
    elif outcome:
        qs = qs.filter(outcome=outcome)
    if year:
        qs = qs.filter(year=int(year))
    if language:
        qs = qs.filter(language=language)
    words = words_of(q)
    if words:
        return ranked(qs, words, limit)
    return list(qs.order_by("-year", "-casebook__published_at", "casebook_id", "position")[:limit])


@dataclass
class Suggestion:
    case: PrecedentCase
    score: int
    shared_laws: list


def _ruling_words(ruling):
    """The longer words of the ruling's facts and reasons, the most frequent first."""
    counts = {}
    for word in words_of(" ".join([ruling.facts or "", ruling.ruling_text or "", ruling.reasoning or ""])):
        if len(word) >= 5 and not word.isdigit():
            counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda word: (-counts[word], -len(word), word))[:MAX_WORDS]


def similar_cases(ruling, user=None, limit=SUGGESTIONS):
    """The published cases of the ruling's national body most like ``ruling``, best first.

    A case must share a law (at any depth) or the kind of ruling. Its score: for each law or
    sub-section in common its depth (16 = 1, 16B = 2, 16B1 = 3, 16B1a = 4); 3 for the same kind;
    2 for the same contract, 1 for the same strain; 1 for each of the ruling's words its text
    holds. Ties go to the newer case. With ``user``, nothing of a body they do not belong to."""
    authority_id = ruling.tournament.authority_id
    if user is not None and authority_id not in reader_authorities(user):
        return []
    cited = [c.law.number for c in ruling.citations.select_related("law") if c.law]
    parts = {part: depth for number in cited for depth, part in enumerate(law_parts(number), start=1)}
    condition = Q(kind=ruling.kind) if ruling.kind else Q(pk__in=[])
    for law in {law_parts(number)[0] for number in cited if law_parts(number)}:
        condition |= Q(laws__contains=f" {law} ")
    words = _ruling_words(ruling)
    queryset = (
        PrecedentCase.objects.filter(authority_id=authority_id)
        .filter(condition)
        .exclude(casebook__state=Casebook.State.DRAFT)
        .exclude(ruling_id=ruling.pk)
    )
    fields = ["pk", "laws", "kind", "contract", "year", "casebook_id", "position"]
    if connection.vendor == "postgresql" and words:
        # The words each candidate holds, counted in the same query (one tsvector match a word).
        count = " + ".join(["coalesce((document @@ to_tsquery('simple', %s))::int, 0)"] * len(words))
        queryset = queryset.annotate(held=RawSQL(count, [f"{word}:*" for word in words]))
        fields.append("held")
        words = []
    candidates = [(*row, 0)[:8] for row in queryset.values_list(*fields)]
    if not candidates:
        return []
    contract = contract_of(ruling.result.contract) if ruling.result_id else ""
    scores, shared = {}, {}
    for pk, laws, kind, case_contract, _year, _book, _position, held in candidates:
        common = [part for part in laws.split() if part in parts]
        score = sum(parts[part] for part in common) + (3 if kind == ruling.kind else 0)
        if contract and case_contract:
            score += 2 if case_contract == contract else 1 if case_contract[1:] == contract[1:] else 0
        scores[pk], shared[pk] = score + held, common
    for word in words:  # SQLite: the FTS5 table, once a word
        for pk in _holding(authority_id, word):
            if pk in scores:
                scores[pk] += 1
    ordered = sorted(candidates, key=lambda row: (-scores[row[0]], -row[4], -row[5], row[6]))
    best = [row[0] for row in ordered[:limit]]
    rows = PrecedentCase.objects.select_related("casebook").defer(*UNLISTED).in_bulk(best)
    return [
        Suggestion(
            case=rows[pk],
            score=scores[pk],
            shared_laws=[c for c in rows[pk].cited if any(p in parts for p in law_parts(c))],
        )
        for pk in best
    ]


def link_for(user, precedent):
    """Where a reader reads the case: the casebook's page at the case for its editors and
    readers, the published case's own page for everyone else of the body."""
    if casebooks.visible_casebooks(user).filter(pk=precedent.casebook_id).exists():
        return f"{reverse('national:casebook', args=[precedent.casebook_id])}#case-{precedent.position}"
    return reverse("national:precedent", args=[precedent.pk])
