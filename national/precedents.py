"""The precedent index: every case of a published casebook, ready to be found again.

A casebook's cases are indexed when it is published and again when it is made final
(``national.tasks.index_casebook``, sent after the transaction commits), and the whole index can
be rebuilt with ``manage.py rebuild_precedents``. Only the casebook's frozen ``content`` is read,
so an index row says no more than the published text: names stay hidden as published.

The words are searched by the database: on PostgreSQL a ``tsvector`` with the laws weighted
above the words (``document``, GIN index); on SQLite the FTS5 table ``national_precedent_fts``.
Both use the ``simple`` tokenisation (no stemming, no stop words) so the same query finds the
same cases on both.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django.contrib.postgres.search import SearchVector
from django.db import connection, transaction

from core import dispatch
from national import likeness
from national.models import Casebook, PrecedentCase
from rulings.models import Ruling

if TYPE_CHECKING:
    from national.models import CasebookCase

log = logging.getLogger(__name__)

FTS_TABLE = "national_precedent_fts"

# The texts of a case that are searched, as the casebook prints them.
SEARCHED_TEXTS = (
    "facts",
    "statement_ns",
    "statement_ew",
    "facts_found",
    "ruling_text",
    "reasoning",
    "rectification",
    "grounds",
    "respondents_statement",
    "reasons",
    "without_merit_reasons",
    "dissent",
    "further_reasons",
)


def law_parts(number: str) -> list[str]:
    """``"16B1a"`` -> ``["16", "16B", "16B1", "16B1A"]``: the citation and every law above it."""
    pieces = re.findall(r"\d+|[A-Za-z]", str(number or "").upper().replace("LAW", ""))
    return ["".join(pieces[:depth]) for depth in range(1, len(pieces) + 1)]


def law_tokens(numbers: Iterable[str]) -> str:
    """The space-delimited column of citations with their ancestors (``" 16 16B 16B1 "``)."""
    tokens = []
    for number in numbers:
        for part in law_parts(number):
            if part not in tokens:
                tokens.append(part)
    return f" {' '.join(tokens)} " if tokens else " "


def contract_of(text: str | None) -> str:
    """``"4SX"`` -> ``"4S"``, ``"3NT"`` -> ``"3NT"``; ``""`` if it is no contract."""
    match = re.match(r"\s*([1-7])\s*(NT|N|S|H|D|C)", str(text or "").upper())
    if not match:
        return ""
    return match.group(1) + ("NT" if match.group(2) in ("N", "NT") else match.group(2))


def words_of(text: str) -> list[str]:
    """The words of a text: letters and digits only, lower case, in order, each once."""
    words = []
    for word in re.split(r"[\W_]+", str(text or "").lower()):
        if word and word not in words:
            words.append(word)
    return words


def word_column(*texts: str) -> str:
    """The column of every word of ``texts`` once (``" alert double pause "``): a word is
    found as the start of one of its words, ``" pause"``, by a plain ``contains``."""
    words = sorted({word for text in texts for word in words_of(text)})
    return f" {' '.join(words)} " if words else " "


MAX_ALERTS = 8  # the alerted calls compared (the column's 300 characters hold them)


def _call(call: dict[str, Any]) -> str:
    text = str(call.get("call") or "").upper()
    return "P" if text in ("PASS", "P") else text


def auction_keys(auction: dict[str, Any] | None) -> list[str]:
    """What is compared between two auctions (the dict ``bridge.auction.Auction.to_dict()``
    writes), as tokens:

    - ``OPEN1:1S``, ``OPEN2:1S-P``, ``OPEN3:1S-P-2S``: the first one, two and three calls from
      the opening bid (a passed-out auction has none);
    - ``AT:TEMPO`` and ``AT:TEMPO:3H-X``: the point where the irregularity happened, the first
      call with a tempo, else with the director's note, else alerted or explained (``TEMPO``,
      ``NOTE``, ``ALERT``), and that call after the last bid before it (``-`` if none);
    - ``ALERT:2C``: each call alerted or explained.
    """
    calls = list((auction or {}).get("calls") or [])
    names = [_call(call) for call in calls]
    keys = []
    opening = next((i for i, name in enumerate(names) if name != "P"), None)
    if opening is not None:
        for length in (1, 2, 3):
            if opening + length <= len(names):
                keys.append(f"OPEN{length}:{'-'.join(names[opening : opening + length])}")
    marks = (
        ("TEMPO", lambda call: call.get("tempo_seconds") is not None),
        ("NOTE", lambda call: bool(call.get("note"))),
        ("ALERT", lambda call: bool(call.get("alert") or call.get("explanation"))),
    )
    for mark, marked in marks:
        point = next((i for i, call in enumerate(calls) if marked(call)), None)
        if point is not None:
            before = next((names[i] for i in range(point - 1, -1, -1) if names[i] not in ("P", "X", "XX")), "-")
            keys += [f"AT:{mark}", f"AT:{mark}:{before}-{names[point]}"]
            break
    alerted = [name for call, name in zip(calls, names) if call.get("alert") or call.get("explanation")]
    keys += [f"ALERT:{name}" for name in dict.fromkeys(alerted)][:MAX_ALERTS]
    return keys


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(str(text or "").split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def decision_line(entry: dict[str, Any]) -> str:
    """The decision in one line: the outcome, the score and the first words of the reasons."""
    decision = entry.get("decision", {})
    parts = [decision.get("outcome_label") or ""]
    if decision.get("score"):
        parts.append(decision["score"])
    reasons = (entry.get("texts") or {}).get("reasons") or ""
    line = " · ".join(part for part in parts if part)
    if reasons:
        line = f"{line}: {reasons}" if line else reasons
    return _one_line(line, 300)


# What indexing a case writes (all but the links to the case, its casebook, body and ruling).
INDEXED_FIELDS = [
    "appeal",
    "position",
    "cited",
    "laws",
    "laws_text",
    "kind",
    "outcome",
    "without_merit",
    "year",
    "language",
    "contract",
    "auction",
    "likeness",
    "words",
    "decision",
    "title",
    "text",
]


def case_likeness(entry: dict[str, Any], recorded: tuple[str, str] = ("", "")) -> list[str]:
    """The likeness tokens of a published case (``national.likeness.tokens``): its laws in their
    edition, the kind of adjusted score and the final outcome: the appeal's decision over the
    ruling's outcome as the casebook prints them (``recorded``, the ruling's own, for a casebook
    published before it printed them)."""
    ruling = entry.get("ruling") or {}
    texts = entry.get("texts") or {}
    director = ruling.get("outcome_code", recorded[1]) or ""
    return likeness.tokens(
        kind=ruling.get("kind") or "",
        laws=[(law["number"], law.get("edition") or "") for law in ruling.get("laws") or []],
        score_kind=ruling.get("score_kind", recorded[0]) or "",
        auction=entry.get("auction"),
        outcome=likeness.final_outcome(director, (entry.get("decision") or {}).get("outcome") or ""),
        texts=[texts.get(key) or "" for key in ("facts", "facts_found", "ruling_text", "reasoning")],
    )


def _row(
    casebook: Casebook, case: CasebookCase, entry: dict[str, Any], recorded: tuple[str, str] = ("", "")
) -> PrecedentCase:
    laws = [law["number"] for law in entry["ruling"]["laws"]]
    texts = entry.get("texts") or {}
    laws_text = " ".join(f"{law['number']} {law.get('title') or ''}" for law in entry["ruling"]["laws"])
    text = "\n".join(texts.get(key) or "" for key in SEARCHED_TEXTS if texts.get(key))
    decision = entry.get("decision") or {}
    return PrecedentCase(
        case=case,
        casebook=casebook,
        authority_id=casebook.authority_id,
        ruling_id=case.appeal.ruling_id,
        appeal_id=case.appeal_id,
        position=entry["number"],
        cited=laws,
        laws=law_tokens(laws),
        laws_text=laws_text,
        kind=entry["ruling"].get("kind") or "",
        outcome=decision.get("outcome") or "",
        without_merit=bool(decision.get("without_merit")),
        year=int(str(entry["date"])[:4]),
        language=casebook.language,
        contract=contract_of((entry.get("result") or {}).get("contract")),
        auction=f" {' '.join(auction_keys(entry.get('auction')))} ",
        likeness=likeness.column(case_likeness(entry, recorded)),
        words=word_column(laws_text, text),
        decision=decision_line(entry),
        title=_one_line(f"{entry['ruling'].get('kind_label', '')}: {entry.get('event', '')}, {casebook.title}", 300),
        text=text,
    )


def _fts_delete(ids: Sequence[int]) -> None:
    if connection.vendor != "sqlite" or not ids:
        return
    with connection.cursor() as cursor:
        for start in range(0, len(ids), 500):
            chunk = list(ids)[start : start + 500]
            cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid IN ({', '.join(['%s'] * len(chunk))})", chunk)


def _write_full_text(rows: Sequence[PrecedentCase]) -> None:
    ids = [row.pk for row in rows]
    if connection.vendor == "postgresql":
        PrecedentCase.objects.filter(pk__in=ids).update(
            document=SearchVector("laws_text", weight="A", config="simple")
            + SearchVector("text", weight="B", config="simple")
        )
    elif connection.vendor == "sqlite":
        _fts_delete(ids)  # a row left behind by a flushed table must not block the new one
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {FTS_TABLE} (rowid, laws, body) VALUES (%s, %s, %s)",
                [(row.pk, row.laws_text, row.text) for row in rows],
            )


@transaction.atomic
def index_casebook(casebook_id: int) -> int:
    """(Re)index the cases of one casebook; a draft has none. Returns the number of rows.
    Safe to run twice. A case indexed before keeps its row and so its id: a page already
    showing a link to it (``/national/precedents/<id>/``) still opens it after the worker
    indexes the casebook again (made final) or the index is rebuilt."""
    casebook = Casebook.objects.filter(pk=casebook_id).select_related("authority").first()
    kept = dict(PrecedentCase.objects.filter(casebook_id=casebook_id).values_list("case_id", "pk"))
    rows = []
    if casebook is not None and casebook.state != Casebook.State.DRAFT and casebook.content:
        cases = {case.position: case for case in casebook.cases.select_related("appeal")}
        recorded = {
            pk: (score_kind, outcome)
            for pk, score_kind, outcome in Ruling.objects.filter(
                pk__in=[case.appeal.ruling_id for case in cases.values()]
            ).values_list("pk", "score_kind", "outcome")
        }
        rows = [
            _row(
                casebook, cases[entry["number"]], entry, recorded.get(cases[entry["number"]].appeal.ruling_id, ("", ""))
            )
            for entry in casebook.content.get("cases", [])
            if entry["number"] in cases
        ]
    again = [row for row in rows if row.case_id in kept]
    for row in again:
        row.pk = kept[row.case_id]
    gone = set(kept.values()) - {row.pk for row in again}
    _fts_delete(list(gone))
    PrecedentCase.objects.filter(pk__in=gone).delete()
    if again:
        PrecedentCase.objects.bulk_update(again, INDEXED_FIELDS, batch_size=500)
    created = PrecedentCase.objects.bulk_create([row for row in rows if row.case_id not in kept])
    if created and created[0].pk is None:  # a backend that does not return ids
        created = list(PrecedentCase.objects.filter(casebook_id=casebook_id).exclude(pk__in=kept.values()))
    _write_full_text([*again, *created])
    return len(rows)


def rebuild() -> tuple[int, int]:
    """Index every published and final casebook afresh; returns (casebooks, cases). The rows of
    drafts and of casebooks gone are removed; a case indexed before keeps its id."""
    live = Casebook.objects.exclude(state=Casebook.State.DRAFT)
    with transaction.atomic():
        stale = list(PrecedentCase.objects.exclude(casebook__in=live).values_list("pk", flat=True))
        _fts_delete(stale)
        PrecedentCase.objects.filter(pk__in=stale).delete()
        if connection.vendor == "sqlite":  # full-text rows whose case row is gone
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid NOT IN (SELECT id FROM national_precedentcase)")
    books = cases = 0
    for pk in live.order_by("pk").values_list("pk", flat=True):
        cases += index_casebook(pk)
        books += 1
    return books, cases


def index_after_commit(casebook: Casebook) -> None:
    """Once the transaction commits, ask a worker to index ``casebook``; if the broker cannot be
    reached, index it here and now (it is quick) so the suggestions are never behind."""
    casebook_id = casebook.pk

    def send() -> None:
        try:
            dispatch.send("national.tasks.index_casebook", casebook_id, retry=False)
        except Exception:  # noqa: BLE001 - any broker failure: index in this process instead
            log.warning("Broker unreachable: casebook %s indexed in the web process.", casebook_id, exc_info=True)
            index_casebook(casebook_id)

    transaction.on_commit(send)
