"""Reads of the precedent index: the published cases most like a ruling, and the search of
published cases by law, kind, outcome, year and words.

Who reads what: the cases of published (or final) casebooks of the national bodies a reader
belongs to, by the policy's ``read_precedents`` (core/policy.py): the bodies they audit, the
bodies of the tournaments they officiate or sit on an appeals body in, and the body they are a
member (player) of. A superuser reads every body's.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils.translation import get_language, get_language_info, gettext_lazy

from core import policy
from national import casebooks, likeness, precedent_reasons
from national.models import Casebook, PrecedentCase
from national.precedents import FTS_TABLE, auction_keys, contract_of, law_parts, words_of
from national.selectors import SUBJECTS
from rulings.models import Ruling
from scoring.models import RegulatingAuthority

# Outcomes offered by the search: the appeal's outcome, or the finding that it lacked merit.
WITHOUT_MERIT = "without_merit"

SUGGESTIONS = 5
MAX_WORDS = 8
CANDIDATES = 400  # the cases the database returns to be scored exactly (similar_cases)
REACH = 50  # the appeals read with their words for the suggestions (precedent_selectors.similar_cases)

# A casebook's whole text, and a PDF where its row holds one, are not read to list its cases.
UNLISTED = [f"casebook__{field.name}" for field in Casebook._meta.concrete_fields if field.name in ("content", "pdf")]


def reader_authorities(user):
    """The ids of the national bodies whose published cases ``user`` may read (one query): the
    policy's ``read_precedents`` (core/policy.py)."""
    return set(policy.visible(user, "read_precedents", RegulatingAuthority.objects.all()).values_list("pk", flat=True))


def require_reader(user):
    """The precedent pages' first question: ``PermissionDenied``, in the policy's words, unless
    ``user`` reads the published cases of at least one national body."""
    if not reader_authorities(user):
        policy.refuse("read_precedents", user)


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
    first: dict[int, int] = {}
    for pk, appeal_id in keys:
        first.setdefault(appeal_id, pk)
    chosen: dict[int, tuple[tuple[int, bool], PrecedentCase]] = {}
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
    others: dict[int, list[PrecedentCase]] = {}
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
    # What is alike, as tokens (national.likeness): "S:ui", "C:16B1A", "K:WEIGHTED", "LA:YES", ...
    alike: list = field(default_factory=list)
    # The final outcome ("ADJUSTED", "RESULT_STANDS", "RECTIFICATION": the appeal's decision over
    # the director's ruling) and whether the case is the opposite outcome on the first one's facts.
    final: str = ""
    opposite: bool = False

    @property
    def reasons(self):
        """Why the case is alike, in the reader's words, what a committee compares first first
        (``national.precedent_reasons``)."""
        subjects = [str(SUBJECT_LABELS[t[2:]]) for t in self.alike if t.startswith("S:") and t[2:] in SUBJECT_LABELS]
        return precedent_reasons.why(
            self.alike,
            self.shared_laws,
            subjects=list(dict.fromkeys(subjects)),
            score_kinds=[label for label in self.labels if label not in subjects],
            kind=next((str(Ruling.Kind(t[5:]).label) for t in self.alike if t[5:] in Ruling.Kind.values), ""),
            opposite=self.opposite,
        )

    @property
    def final_label(self):
        """The final outcome in the reader's words ("Result stands"), "" if none is printed."""
        value = self.final.lower()
        return str(Ruling.Outcome(value).label) if value in Ruling.Outcome.values else ""

    @property
    def labels(self):
        """What is alike in the reader's words: the subjects, then the kind of adjusted score."""
        words = [str(SUBJECT_LABELS[t[2:]]) for t in self.alike if t.startswith("S:") and t[2:] in SUBJECT_LABELS]
        for token in self.alike:
            if token.startswith("K:") and token[2:].lower() in Ruling.ScoreKind.values:
                words.append(str(Ruling.ScoreKind(token[2:].lower()).label))
        return list(dict.fromkeys(words))


# The subjects a suggestion names (the keyword index's labels, national.selectors.SUBJECTS).
SUBJECT_LABELS = {
    "ui": SUBJECTS["unauthorised information"].label,
    "mi": SUBJECTS["misinformation"].label,
    "claim": SUBJECTS["claim"].label,
    "revoke": SUBJECTS["revoke"].label,
    "calls": gettext_lazy("Irregular calls (Laws 25-32)"),
    "leads": SUBJECTS["lead out of turn"].label,
    "board": SUBJECTS["fouled board"].label,
    "error": SUBJECTS["director's error"].label,
    "penalty": SUBJECTS["penalty"].label,
    "procedure": Ruling.Kind("procedural_penalty").label,
    "conduct": Ruling.Kind("disciplinary_penalty").label,
    "weight": Ruling.ScoreKind("weighted").label,
}


def _ruling_words(ruling):
    """The longer words of the ruling's facts and reasons, the most frequent first."""
    counts: dict[str, int] = {}
    text = " ".join([ruling.facts or "", ruling.ruling_text or "", ruling.reasoning or ""]).lower()
    for word in re.split(r"[\W_]+", text):
        if len(word) >= 5 and not word.isdigit():
            counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda word: (-counts[word], -len(word), word))[:MAX_WORDS]


def _find():
    """The SQL function that finds a token in a column (exact, case-sensitive on both)."""
    return "strpos" if connection.vendor == "postgresql" else "instr"


def _display(token):
    """``C:16B1A`` -> ``16B1a``: a citation as it is written (a letter after a sub-section number
    in lower case)."""
    pieces = re.findall(r"\d+|[A-Z]", token[2:])
    return "".join(piece.lower() if index >= 3 and piece.isalpha() else piece for index, piece in enumerate(pieces))


def ruling_likeness(ruling, laws):
    """The likeness tokens of ``ruling`` (``laws``: its (citation, edition) pairs)."""
    return likeness.tokens(
        kind=ruling.kind or "",
        laws=laws,
        score_kind=ruling.score_kind or "",
        auction=ruling.auction,
        outcome=ruling.outcome or "",
        texts=[ruling.facts or "", ruling.facts_found or "", ruling.ruling_text or "", ruling.reasoning or ""],
    )


def _candidates(ruler, ruling, authority_id, subjects, contract):
    """The CANDIDATES cases of the body sharing a subject with the ruling that have the most
    likeness tokens in common, each counted at its points by the database (an upper bound of
    ``likeness.Ruler.score``): (id, appeal, language, year, casebook, position, kind, contract,
    auction, likeness) each."""
    find = _find()
    table = PrecedentCase._meta.db_table
    terms, params = [], []
    for token in ruler.tokens:
        terms.append(f"CASE WHEN {find}(likeness, %s) > 0 THEN {likeness.token_points(token)} ELSE 0 END")
        params.append(f" {token} ")
    for token in sorted(ruler.marks | ruler.calls):
        terms.append(f"CASE WHEN {find}(auction, %s) > 0 THEN {likeness.token_points(token)} ELSE 0 END")
        params.append(f" {token} ")
    terms.append(f"CASE WHEN kind = %s THEN {likeness.POINTS['kind']} ELSE 0 END")
    params.append(ruling.kind or "")
    if contract:
        terms.append(f"CASE WHEN contract = %s THEN {likeness.POINTS['contract']} ELSE 0 END")
        params.append(contract)
    shares = " OR ".join(f"{find}(likeness, %s) > 0" for _subject in subjects)
    sql = (
        f'SELECT id, appeal_id, language, year, casebook_id, "position", kind, contract, auction, likeness, '
        f"{' + '.join(terms)} AS bound FROM {table} WHERE authority_id = %s AND ruling_id <> %s AND ({shares}) "
        f'ORDER BY bound DESC, year DESC, casebook_id DESC, "position" LIMIT %s'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, authority_id, ruling.pk, *(f" {s} " for s in subjects), CANDIDATES])
        return [row[:10] for row in cursor.fetchall()]


def _best_per_appeal(ruler, candidates, reach, reader_language, authority_language):
    """{appeal: [points without the words, the best case's tokens, kind, auction, the case chosen
    for the appeal (the reader's language, else the body's, else the newest), its preference,
    year, casebook, position]} for the candidates the words could lift to the floor."""
    best: dict[int, list[Any]] = {}
    for pk, appeal_id, case_language, year, casebook_id, position, kind, case_contract, auction, tokens in candidates:
        split = tokens.split()
        points = ruler.score(split, kind=kind, auction=auction, contract=case_contract)
        if points + reach < likeness.FLOOR:
            continue
        preference = (
            0 if case_language == reader_language else 1 if case_language == authority_language else 2,
            -year,
            -casebook_id,
            position,
        )
        kept = best.get(appeal_id)
        if kept is None:
            best[appeal_id] = [points, split, kind, auction, pk, preference, year, casebook_id, position]
            continue
        if points > kept[0]:
            kept[:4] = [points, split, kind, auction]
        if preference < kept[5]:
            kept[4:] = [pk, preference, year, casebook_id, position]
    return best


def _read_within_reach(near, authority_id, ruling_words):
    """The appeals within reach with all their casebooks of the body, read together (by the
    appeals' index: the body's would read every case of the body): (the most of the ruling's
    words one of its cases holds, the case chosen for each appeal, its other casebooks)."""
    words = [f" {word}" for word in ruling_words]
    held: dict[int, int] = {}
    found: dict[int, PrecedentCase] = {}
    others: dict[int, list[PrecedentCase]] = {}
    if near:
        chosen = {kept[4] for kept in near.values()}
        for case in (
            PrecedentCase.objects.filter(appeal_id__in=near, authority_id=authority_id)
            .select_related("casebook")
            .defer(*UNLISTED)
            .order_by("language", "-year", "casebook_id")
        ):
            count = sum(1 for word in words if word in case.words)
            held[case.appeal_id] = max(held.get(case.appeal_id, 0), count)
            if case.pk in chosen:
                found[case.appeal_id] = case
            else:
                others.setdefault(case.appeal_id, []).append(case)
    return held, found, others


def similar_cases(ruling, user=None, limit=SUGGESTIONS, language=None):
    """The published cases of the ruling's national body a director would set beside ``ruling``,
    most alike first (issue #34; ``national.likeness``).

    A case is alike only where it shares a subject with the ruling: the subject of a law cited,
    read across editions (misinformation: 20F, 21B, 40, 75; unauthorised information: 16B, 73C;
    claims: 68-71; revokes: 61-64; irregular calls: 25-32 and 16C; ...) or of the kind of ruling.
    Law 12, 84-86 and 92-93 are no likeness: every ruling cites them. Its points
    (``likeness.POINTS``): the subject in common; the deepest citation in common in the 2017
    numbering; the same kind of ruling; the same kind of adjusted score (weighted, assigned,
    split, artificial); the structure of the facts: who made the call, the same kind of
    irregularity and at the same call after the same bid, whether a logical alternative was
    found, what a claim left out; the ruling's outcome; the contract; the ruling's words in the
    case's text (at most two). Below ``likeness.FLOOR`` nothing is suggested: the page then says
    there is no similar published case. Ties go to the newer case. With ``user``, nothing of a
    body they do not belong to. An appeal printed in casebooks of several languages is
    suggested once, in the reader's ``language`` (by default the active one) where one of them
    is in it, else in the body's language, else the newest; its other casebooks are
    ``case.others``.

    Four queries: the ruling's body, contract and laws; the reader's bodies; the likeness of the
    ``CANDIDATES`` cases of the body sharing a subject with the most tokens in common (an upper
    bound the database counts), scored here; the cases of the appeals within reach of
    the last one suggested once the words are counted (at most ``REACH``), with their casebooks,
    their words and their appeals' other casebooks."""
    rows = list(
        Ruling.objects.filter(pk=ruling.pk).values_list(
            "board__session__event__tournament__authority_id",
            "board__session__event__tournament__authority__language",
            "result__contract",
            "citations__law__number",
            "citations__law__edition",
        )
    )
    authority_id, authority_language, contract = rows[0][0], rows[0][1], contract_of(rows[0][2])
    if user is not None and authority_id not in reader_authorities(user):
        return []
    laws = [(number, edition or "") for _a, _l, _c, number, edition in rows if number]
    mine = ruling_likeness(ruling, laws)
    subjects = [token for token in mine if token.startswith("S:")]
    if not subjects:
        return []
    ruler = likeness.Ruler(mine, kind=ruling.kind or "", auction=auction_keys(ruling.auction), contract=contract)
    candidates = _candidates(ruler, ruling, authority_id, subjects, contract)
    reach = likeness.POINTS["words"] * likeness.WORDS  # what the words can add
    best = _best_per_appeal(ruler, candidates, reach, language or get_language(), authority_language)
    order = sorted(best.items(), key=lambda item: (-item[1][0], -item[1][6], -item[1][7], item[1][8]))
    # The ruling's words can lift an appeal by ``reach`` at most: only the appeals within reach of
    # the last one suggested are read with their words (at most REACH of them, the best first),
    # and the case of the opposite outcome on the first one's facts, to be shown beside it.
    cutoff = order[limit - 1][1][0] if len(order) >= limit else 0
    near = dict([(appeal_id, kept) for appeal_id, kept in order if kept[0] + reach >= cutoff][:REACH])
    if order:
        opposite = _opposite(ruler, order[0][1], order[1:])
        if opposite is not None:
            near.setdefault(opposite, best[opposite])
    held, found, others = _read_within_reach(near, authority_id, _ruling_words(ruling))
    ranked_appeals = []
    for appeal_id, kept in near.items():
        points = kept[0] + likeness.POINTS["words"] * min(held.get(appeal_id, 0), likeness.WORDS)
        if points >= likeness.FLOOR and appeal_id in found:
            ranked_appeals.append((points, appeal_id, kept))
    ranked_appeals.sort(key=lambda item: (-item[0], -item[2][6], -item[2][7], item[2][8]))
    return _suggestions(ruler, _twin_first(ruler, ranked_appeals), found, others, limit)


def _final(kept):
    """The final outcome of a scored case (its ``RES:`` token: the appeal's decision over the
    director's ruling), "" where it has none."""
    return next((token[4:] for token in kept[1] if token.startswith("RES:")), "")


def _facts(ruler, kept):
    """The facts a committee compares first that ``kept`` shares with the ruling: the same
    irregularity at the same call (``AT:TEMPO:3H-X``), what a claim left out; where none, the
    subjects and the deepest citations in common."""
    alike = ruler.alike(kept[1], kind=kept[2], auction=kept[3])
    facts = {
        token for token in alike if (token.startswith("AT:") and token.count(":") == 2) or token.startswith("OMIT:")
    }
    return facts or {token for token in alike if token[:2] in ("S:", "C:")}


def _opposite(ruler, twin, others):
    """The appeal of ``others`` (``(appeal, kept)``, best first) with the facts of ``twin`` and
    the opposite final outcome: what a committee wants beside the twin; None if there is none."""
    facts, outcome = _facts(ruler, twin), _final(twin)
    if not outcome:
        return None
    for appeal_id, kept in others:
        theirs = set(kept[1]) | set(kept[3].split())
        if _final(kept) not in ("", outcome) and facts <= theirs:
            return appeal_id
    return None


def _twin_first(ruler, ranked_appeals):
    """``ranked_appeals`` with the case of the opposite outcome on the first one's facts moved
    beside it (second), marked by its place in the list: ``(points, appeal, kept, opposite)``."""
    rows = [(points, appeal_id, kept, False) for points, appeal_id, kept in ranked_appeals]
    if len(rows) < 2:
        return rows
    opposite = _opposite(ruler, rows[0][2], [(appeal_id, kept) for _p, appeal_id, kept, _o in rows[1:]])
    if opposite is None:
        return rows
    at = next(index for index, row in enumerate(rows) if row[1] == opposite)
    moved = rows.pop(at)
    return [rows[0], (*moved[:3], True), *rows[1:]]


def _suggestions(ruler, rows, found, others, limit):
    suggestions = []
    for points, appeal_id, kept, opposite in rows[:limit]:
        case = found[appeal_id]
        case.others = others.get(appeal_id, [])
        alike = ruler.alike(kept[1], kind=kept[2], auction=kept[3])
        deepest = [token[2:] for token in alike if token.startswith("C:")]
        # The case's own citations under the deepest one in common (as the casebook prints them).
        shared = [c for c in case.cited if any(t in likeness.ancestors(likeness.current(c)) for t in deepest)]
        shared = shared or [_display(f"C:{token}") for token in deepest]
        suggestions.append(
            Suggestion(case=case, score=points, shared_laws=shared, alike=alike, final=_final(kept), opposite=opposite)
        )
    return suggestions


def may_read_precedents(ruling, user):
    """Whether ``user`` reads the published cases of ``ruling``'s body (so that "no similar
    published case" is true for them)."""
    authority_id = (
        Ruling.objects.filter(pk=ruling.pk)
        .values_list("board__session__event__tournament__authority_id", flat=True)
        .first()
    )
    return authority_id in reader_authorities(user)


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
