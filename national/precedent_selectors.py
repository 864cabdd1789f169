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
from django.utils.translation import get_language, get_language_info

from national import casebooks
from national.models import Casebook, PrecedentCase
from national.precedents import FTS_TABLE, auction_keys, contract_of, law_parts, words_of
from rulings.models import Ruling
from scoring.models import Player, RegulatingAuthority

# Outcomes offered by the search: the appeal's outcome, or the finding that it lacked merit.
WITHOUT_MERIT = "without_merit"

SUGGESTIONS = 5
MAX_WORDS = 8

# A casebook's whole text, and a PDF where its row holds one, are not read to list its cases.
UNLISTED = [f"casebook__{field.name}" for field in Casebook._meta.concrete_fields if field.name in ("content", "pdf")]


def reader_authorities(user):
    """The ids of the national bodies whose published cases ``user`` may read (one query)."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return set(RegulatingAuthority.objects.values_list("pk", flat=True))
    # order_by(): no model's default ordering inside the UNION.
    bodies = (
        user.auditing.order_by()
        .values_list("authority_id", flat=True)
        .union(
            user.officiating.order_by().values_list("tournament__authority_id", flat=True),
            user.appeal_seats.order_by().values_list(
                "body__appeal__ruling__board__session__event__tournament__authority_id", flat=True
            ),
            Player.objects.filter(user=user).order_by().values_list("authority_id", flat=True),
        )
    )
    return set(bodies) - {None}


def visible_precedents(user):
    """The index rows ``user`` may read: published casebooks of their own bodies only."""
    return (
        PrecedentCase.objects.filter(authority_id__in=reader_authorities(user))
        .exclude(casebook__state=Casebook.State.DRAFT)
        .select_related("casebook")
        .defer(*UNLISTED)
    )


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


def ranked(queryset, words, count=None):
    """``(id, appeal)`` of the first ``count`` cases of ``queryset`` holding every word, best match
    first (the laws and their titles weigh more than the words of the text), then the newest."""
    if connection.vendor == "postgresql":
        query = _pg_query(words)
        return list(
            queryset.filter(document=query)
            .annotate(rank=SearchRank(F("document"), query, weights=[0.1, 0.2, 0.4, 1.0]))
            .order_by("-rank", "-year", "casebook_id", "position")
            .values_list("pk", "appeal_id")[:count]
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rowid, bm25({FTS_TABLE}, 4.0, 1.0) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s",
            [_fts5_match(words)],
        )
        ranks = dict(cursor.fetchall())  # bm25: smaller is better
    keys = matching(queryset, words).values_list("pk", "appeal_id", "year", "casebook_id", "position")
    return [row[:2] for row in sorted(keys, key=lambda row: (ranks.get(row[0], 0.0), -row[2], row[3], row[4]))][:count]


def one_per_appeal(queryset, keys, language, limit=None):
    """The cases of the first ``limit`` appeals of ``keys`` (``(id, appeal)``, best first), each
    appeal once at the place of its best case: its case in ``queryset`` in the reader's
    ``language`` where one of its casebooks is in it, else in the national body's language, else
    the case of ``keys``. One query."""
    appeals = list(dict.fromkeys(appeal_id for _pk, appeal_id in keys))[:limit]
    first = {}
    for pk, appeal_id in keys:
        first.setdefault(appeal_id, pk)
    chosen = {}
    for case in queryset.filter(appeal_id__in=appeals).annotate(body_language=F("authority__language")):
        # The language first; of two cases in the same one, the one found first.
        rank = (
            0 if case.language == language else 1 if case.language == case.body_language else 2,
            case.pk != first[case.appeal_id],
        )
        if case.appeal_id not in chosen or rank < chosen[case.appeal_id][0]:
            chosen[case.appeal_id] = (rank, case)
    return [chosen[appeal_id][1] for appeal_id in appeals if appeal_id in chosen]


def with_other_languages(user, cases):
    """Sets ``case.others`` on each of ``cases``: the same appeal's cases in the reader's other
    casebooks, by language (one query)."""
    others = {}
    if cases:
        copies = (
            visible_precedents(user)
            .filter(appeal_id__in={case.appeal_id for case in cases})
            .exclude(pk__in=[case.pk for case in cases])
            .order_by("language", "-year", "casebook_id")
        )
        for copy in copies:
            others.setdefault(copy.appeal_id, []).append(copy)
    for case in cases:
        case.others = others.get(case.appeal_id, [])
    return cases


def _law_q(law):
    parts = law_parts(law)
    if not parts:
        return None
    return Q(laws__contains=f" {parts[-1]} ")


def search(user, *, law="", kind="", outcome="", year=None, q="", language="", limit=None, reader_language=None):
    """Published cases matching every filter given: ``law`` a citation with its sub-sections
    ("16B" finds 16B1a), ``kind`` of ruling, ``outcome`` of the appeal (or ``without_merit``),
    ``year`` of the ruling, ``language`` of the casebook, and words ``q``. With words, the best
    match first; else the newest cases first. Each appeal once, in ``reader_language`` (by default
    the active language) where one of its casebooks is in it (``one_per_appeal``)."""
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

    def first(count):
        if words:
            return ranked(qs, words, count)
        order = qs.order_by("-year", "-casebook__published_at", "casebook_id", "position")
        return list(order.values_list("pk", "appeal_id")[:count])

    # An appeal printed in casebooks of several languages is listed once (its other casebooks
    # are offered beside it: with_other_languages). Twice the cases asked for hold that many
    # appeals unless many are printed twice; then every match is read.
    keys = first(None if limit is None else 2 * limit)
    if limit is not None and len(keys) == 2 * limit and len({appeal_id for _pk, appeal_id in keys}) < limit:
        keys = first(None)
    return one_per_appeal(qs, keys, reader_language or get_language(), limit)


@dataclass
class Suggestion:
    case: PrecedentCase
    score: int
    shared_laws: list


def _ruling_words(ruling):
    """The longer words of the ruling's facts and reasons, the most frequent first."""
    counts = {}
    text = " ".join([ruling.facts or "", ruling.ruling_text or "", ruling.reasoning or ""]).lower()
    for word in re.split(r"[\W_]+", text):
        if len(word) >= 5 and not word.isdigit():
            counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda word: (-counts[word], -len(word), word))[:MAX_WORDS]


class _Score:
    """The score of a case as SQL over the index's token columns: each method returns the SQL
    of a term and its parameters, in the order they appear. A token is looked for with instr()
    on SQLite and strpos() on PostgreSQL (exact, case-sensitive on both). A law's tokens
    (" 16 16B 16B1 16B1A ") and an auction's start (OPEN1, OPEN2, OPEN3) come with every token
    above them, so the terms are nested: a case without " 16 " is not asked for " 16B ", and
    most cases stop at the first test."""

    def __init__(self):
        self.find = "strpos" if connection.vendor == "postgresql" else "instr"

    def lacks(self, column, token):
        return f"{self.find}({column}, %s) = 0", [token]

    def chain(self, column, tokens, points):
        """``points[i]`` once ``tokens[:i + 1]`` are all in ``column`` (each implies those before)."""
        sql, params = f"{points[-1]}", []
        for i in range(len(tokens) - 1, -1, -1):
            test, token = self.lacks(column, tokens[i])
            sql, params = f"CASE WHEN {test} THEN {points[i - 1] if i else 0} ELSE {sql} END", [*token, *params]
        return sql, params

    def tree(self, column, node, depth=1):
        """A law and its sub-sections: the depth of each one in common, summed."""
        terms = []
        for token, children in node.items():
            inner = [(str(depth), [])] + [self.tree(column, {key: value}, depth + 1) for key, value in children.items()]
            test, params = self.lacks(column, f" {token} ")
            terms.append(
                (
                    f"CASE WHEN {test} THEN 0 ELSE {' + '.join(sql for sql, _params in inner)} END",
                    [*params, *(param for _sql, inner_params in inner for param in inner_params)],
                )
            )
        return _sum(terms)

    def equal(self, column, value, points):
        return f"CASE WHEN {column} = %s THEN {points} ELSE 0 END", [value]

    def contract(self, contract):
        return "CASE WHEN contract = %s THEN 2 WHEN substr(contract, 2) = %s THEN 1 ELSE 0 END", [
            contract,
            contract[1:],
        ]

    def any_of(self, column, tokens):
        tests = [self.lacks(column, token) for token in tokens]
        sql = " OR ".join(f"NOT {test}" for test, _params in tests)
        return f"CASE WHEN {sql} THEN 1 ELSE 0 END", [param for _test, params in tests for param in params]


def _sum(terms, joiner=" + "):
    """Terms (sql, params) joined, their parameters in the same order; "0" for none."""
    if not terms:
        return "0", []
    return joiner.join(f"{sql}" for sql, _params in terms), [param for _sql, params in terms for param in params]


def _law_tree(cited):
    tree = {}
    for number in cited:
        node = tree
        for part in law_parts(number):
            node = node.setdefault(part, {})
    return tree


def _likeness_terms(score, ruling, cited, contract):
    """The terms of a case's score without the ruling's words (see ``similar_cases``): the laws
    in common, the kind, the contract, the auction's first calls, irregularity and alerts."""
    terms = [score.tree("laws", _law_tree(cited))]
    if ruling.kind:
        terms.append(score.equal("kind", ruling.kind, 3))
    if contract:
        terms.append(score.contract(contract))
    keys = [f" {key} " for key in auction_keys(ruling.auction)]
    for prefix, points in (("OPEN", [1, 2, 3]), ("AT:", [1, 2])):
        chain = [key for key in keys if key.startswith(f" {prefix}")]
        if chain:
            terms.append(score.chain("auction", chain, points[: len(chain)]))
    alerts = [key for key in keys if key.startswith(" ALERT:")]
    if alerts:
        terms.append(score.any_of("auction", alerts))
    return terms


def _suggestions(scores, authority_id, cited):
    """The chosen cases ({case id: (appeal id, score)}) as suggestions, best first, each with
    its appeal's other casebooks of the body and the laws it shares with ``cited``."""
    # The chosen cases and their appeals' other casebooks, read together (by the appeals' index:
    # the body's would read every case of the body).
    found, others = {}, {}
    for case in (
        PrecedentCase.objects.filter(appeal_id__in={a for a, _p in scores.values()})
        .select_related("casebook")
        .defer(*UNLISTED)
        .order_by("language", "-year", "casebook_id")
    ):
        if case.pk in scores:
            found[case.pk] = case
        elif case.authority_id == authority_id:
            others.setdefault(case.appeal_id, []).append(case)
    parts = {part for number in cited for part in law_parts(number)}
    suggestions = []
    for pk, (appeal_id, points) in scores.items():
        case = found[pk]
        case.others = others.get(appeal_id, [])
        shared = [c for c in case.cited if any(p in parts for p in law_parts(c))]
        suggestions.append(Suggestion(case=case, score=points, shared_laws=shared))
    return suggestions


def similar_cases(ruling, user=None, limit=SUGGESTIONS, language=None):
    """The published cases of the ruling's national body most like ``ruling``, best first.

    A case must share a law (at any depth) or the kind of ruling. Its score: for each law or
    sub-section in common its depth (16 = 1, 16B = 2, 16B1 = 3, 16B1a = 4); 3 for the same kind;
    2 for the same contract, 1 for the same strain; for the auction (``precedents.auction_keys``)
    1 for each of its first three calls from the opening bid in common, 1 for the same kind of
    irregularity (a tempo, the director's note, an alert) and 1 more when it came at the same
    call after the same bid, 1 for an alerted call in common; 1 for each of the ruling's words
    its text holds. Ties go to the newer case. With ``user``, nothing of a body they do not
    belong to. An appeal printed in casebooks of several languages is suggested once, in the
    reader's ``language`` (by default the active one) where one of them is in it, else in the
    body's language, else the newest; its other casebooks are ``case.others``.

    The database scores the cases in one query: the score without the words for every case
    that shares a law or the kind, and the words only for the cases whose score without them
    is within the number of words of the fifth best (no other can reach the first five). Rows
    exist only for published and final casebooks (a casebook never goes back to draft), so the
    casebooks are not read to score."""
    rows = list(
        Ruling.objects.filter(pk=ruling.pk).values_list(
            "board__session__event__tournament__authority_id",
            "board__session__event__tournament__authority__language",
            "result__contract",
            "citations__law__number",
        )
    )
    authority_id, authority_language, contract = rows[0][0], rows[0][1], contract_of(rows[0][2])
    if user is not None and authority_id not in reader_authorities(user):
        return []
    cited = [number for _authority, _language, _contract, number in rows if number]
    tops = sorted({law_parts(number)[0] for number in cited if law_parts(number)})
    if not tops and not ruling.kind:
        return []
    score = _Score()
    likeness = _sum(_likeness_terms(score, ruling, cited, contract))
    words = _ruling_words(ruling)
    held = _sum([score.chain("p.words", [f" {word}"], [1]) for word in words])
    tests = [score.lacks("laws", f" {top} ") for top in tops]
    shares = _sum(
        [(f"NOT {sql}", params) for sql, params in tests] + ([("kind = %s", [ruling.kind])] if ruling.kind else []),
        " OR ",
    )
    table = PrecedentCase._meta.db_table
    # The score without the words once for each case that shares a law or the kind (on SQLite
    # read from the index precedent_likeness_appeal alone); then the words of the cases within
    # reach of the fifth best appeal, each read by its id (a join would read them all); then one
    # case of each appeal (printed in several casebooks): in the reader's language, else the
    # body's, else the newest casebook's, scored with the best of its appeal's cases.
    held_sql = f"(SELECT {held[0]} FROM {table} p WHERE p.id = c.id)" if words else "0"
    sql, params = _sum(
        [
            (
                f'WITH c AS MATERIALIZED (SELECT id, appeal_id, language, year, casebook_id, "position", '
                f"{likeness[0]} AS likeness "
                f"FROM {table} WHERE authority_id = %s AND ruling_id <> %s AND ({shares[0]})),",
                [*likeness[1], authority_id, ruling.pk, *shares[1]],
            ),
            (
                f'reach AS (SELECT c.id, c.appeal_id, c.year, c.casebook_id, c."position", '
                f"c.likeness + {held_sql} AS score, "
                "CASE WHEN c.language = %s THEN 0 WHEN c.language = %s THEN 1 ELSE 2 END AS preference FROM c",
                [*(held[1] if words else []), language or get_language(), authority_language],
            ),
            (
                "WHERE c.likeness >= coalesce((SELECT max(likeness) AS best FROM c GROUP BY appeal_id "
                "ORDER BY best DESC LIMIT 1 OFFSET %s) - %s, -1)),",
                [limit - 1, len(words)],
            ),
            (
                'chosen AS (SELECT id, appeal_id, year, casebook_id, "position", '
                "max(score) OVER (PARTITION BY appeal_id) AS best, row_number() OVER (PARTITION BY appeal_id "
                'ORDER BY preference, year DESC, casebook_id DESC, "position") AS choice FROM reach)',
                [],
            ),
            (
                "SELECT id, appeal_id, best FROM chosen WHERE choice = 1 ORDER BY best DESC, year DESC, "
                'casebook_id DESC, "position" LIMIT %s',
                [limit],
            ),
        ],
        " ",
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        scores = {pk: (appeal_id, points) for pk, appeal_id, points in cursor.fetchall()}
    return _suggestions(scores, authority_id, cited)


def links_for(user, precedents):
    """Where a reader reads each case (``link_for``), with one query for them all."""
    books = {precedent.casebook_id for precedent in precedents}
    readable = casebooks.visible_casebooks(user).filter(pk__in=books).values_list("pk", flat=True)
    in_casebook = set(readable) if books else set()
    return [_link(precedent, precedent.casebook_id in in_casebook) for precedent in precedents]


def listing(user, cases):
    """``(case, link, others)`` for each of ``cases`` (their ``others`` set), ``others`` the
    ``(language, its own name, link)`` of the same appeal's other casebooks; one query for all
    the links."""
    others = [getattr(case, "others", []) for case in cases]
    links = links_for(user, [*cases, *(other for group in others for other in group)])
    rows, at = [], len(cases)
    for case, link, group in zip(cases, links, others, strict=False):
        also = [(other.language, _language_name(other.language), links[at + i]) for i, other in enumerate(group)]
        rows.append((case, link, also))
        at += len(group)
    return rows


def _language_name(code):
    """A language by its own name ("עברית" for he), as a reader of it looks for it."""
    try:
        return get_language_info(code)["name_local"]
    except KeyError:
        return code


def _link(precedent, in_casebook):
    if in_casebook:
        return f"{reverse('national:casebook', args=[precedent.casebook_id])}#case-{precedent.position}"
    return reverse("national:precedent", args=[precedent.pk])


def link_for(user, precedent):
    """Where a reader reads the case: the casebook's page at the case for its editors and
    readers, the published case's own page for everyone else of the body."""
    return links_for(user, [precedent])[0]
