"""Precedents: ``python -m bench.precedents_bench sqlite|postgres [--cases 10000]``.

Builds, in a throwaway database, two decided Law 16 appeals through the services (as
bench/casebook_bench.py does) and publishes the first one's casebook, then ``--cases`` published cases of
past casebooks (laws, kinds, contracts, auctions, years and words drawn from a fixed seed) indexed as
``national.precedents`` indexes them. It times what a director waits for on the ruling's page:

- the suggestions for the Law 16 ruling (``similar_cases``: laws, kind, contract, auction and
  words compared), p95 of ``--repeats`` runs;
- a search by law with its sub-sections (16B), and a search by two words.

Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import copy
import json
import random
import sys
import time

from bench import log, setup_django, summary, throwaway_database

CITATIONS = [
    ("16B1a", "ui"),
    ("16B1b", "ui"),
    ("16A1", "ui"),
    ("73C", "ui"),
    ("12C1c", "adjusted_score"),
    ("12C1e", "adjusted_score"),
    ("20F1", "mi"),
    ("21B1a", "mi"),
    ("40B4", "mi"),
    ("70D1", "claim"),
    ("68A", "claim"),
    ("64A1", "revoke"),
    ("61A", "revoke"),
    ("27B1a", "law_applied"),
    ("82C", "directors_error"),
    ("87A", "fouled_board"),
    ("90A", "procedural_penalty"),
    ("91A", "disciplinary_penalty"),
]
WORDS = [
    "pause",
    "hesitated",
    "slow",
    "double",
    "pass",
    "logical",
    "alternative",
    "alert",
    "explanation",
    "system",
    "card",
    "claim",
    "trump",
    "revoke",
    "trick",
    "lead",
    "dummy",
    "insufficient",
    "bid",
    "board",
    "contract",
    "declarer",
    "defence",
    "suggested",
    "demonstrably",
    "poll",
    "peers",
    "weighted",
    "score",
]
CONTRACTS = ["4S", "3NT", "4H", "5D", "2S", "3H", "6NT", "1NT"]
# Auctions (dealer, calls): each case gets one, with a tempo, an alert or nothing on one call.
AUCTIONS = [
    ("N", "1S P 2S 3H P P 4S P P P"),
    ("N", "1H P 1S P 2S P 4S P P P"),
    ("E", "P 1NT P 2D P 2H P 4H P P P"),
    ("S", "1D 1S 2H 2S 3H P 4H P P P"),
    ("W", "P P 1C P 1S P 3S P 4S P P P"),
    ("N", "P P P 1NT P 3NT P P P"),
]
# The Law 16 ruling's own auction: a slow pass over 3H, then 4S.
RULING_AUCTION = ("N", "1S P 2S 3H P P 4S P P P", 4)


def auction(dealer, calls, tempo=None, alert=None):
    calls = [{"call": call, "alert": False, "explanation": "", "tempo_seconds": None, "note": ""} for call in calls]
    if tempo is not None:
        calls[tempo]["tempo_seconds"] = 15
    if alert is not None:
        calls[alert].update(alert=True, explanation="artificial")
    return {"dealer": dealer, "calls": calls, "opening_lead": None, "play": [], "claim": None}


OUTCOMES = ["uphold", "vary", "overturn"]


def distinct_appeals(appeal, count):
    """``count`` appeals like ``appeal``, each against a ruling of its own (copies of its ruling),
    so that every indexed case reports an appeal of its own, as in a real casebook."""
    from appeals.models import Appeal
    from rulings.models import Ruling

    ruling = Ruling.objects.get(pk=appeal.ruling_id)
    rulings = []
    for _ in range(count):
        twin = copy.copy(ruling)
        twin.pk, twin.supersedes_id = None, None
        rulings.append(twin)
    rulings = Ruling.objects.bulk_create(rulings, batch_size=500)
    appeals = []
    for twin in rulings:
        other = copy.copy(appeal)
        other.pk, other.ruling_id = None, twin.pk
        appeals.append(other)
    return Appeal.objects.bulk_create(appeals, batch_size=500)


def build_index(authority, published, cases, seed=18):
    from national import precedents
    from national.models import Casebook, CasebookCase, PrecedentCase

    rng = random.Random(seed)
    template = published.content
    entry0 = template["cases"][0]
    appeals = distinct_appeals(published.cases.get().appeal, cases)
    books = []
    for n in range(cases):
        entry = copy.deepcopy(entry0)
        laws = rng.sample(CITATIONS, rng.randint(1, 3))
        entry["ruling"].update(
            kind=laws[0][1], laws=[{"number": law, "edition": "2017", "title": ""} for law, _kind in laws]
        )
        entry["date"] = f"{rng.randint(2000, 2025)}-0{rng.randint(1, 9)}-15"
        entry["result"]["contract"] = rng.choice(CONTRACTS)
        dealer, calls = rng.choice(AUCTIONS)
        calls = calls.split()
        mark, at = rng.random(), rng.randrange(len(calls))
        entry["auction"] = auction(
            dealer, calls, tempo=at if mark < 0.5 else None, alert=at if 0.5 <= mark < 0.8 else None
        )
        entry["decision"].update(outcome=rng.choice(OUTCOMES), outcome_label="", score="")
        entry["texts"] = {"facts": " ".join(rng.choices(WORDS, k=30)), "reasons": " ".join(rng.choices(WORDS, k=15))}
        books.append(
            Casebook(
                authority=authority,
                title=f"Past casebook {n}",
                language="en",
                names="seats",
                state="published",
                created_by=published.created_by,
                created_at=published.created_at,
                published_by=published.created_by,
                published_at=published.published_at,
                content={**template, "cases": [entry]},
            )
        )
    books = Casebook.objects.bulk_create(books, batch_size=500)
    if books[0].pk is None:
        books = list(Casebook.objects.filter(title__startswith="Past casebook ").order_by("pk"))
    cases_ = CasebookCase.objects.bulk_create(
        [CasebookCase(casebook=book, appeal=appeal, position=1) for book, appeal in zip(books, appeals)],
        batch_size=500,
    )
    if cases_[0].pk is None:
        cases_ = list(CasebookCase.objects.filter(casebook__in=books).order_by("casebook_id"))
    for case, appeal in zip(cases_, appeals):
        case.appeal = appeal
    rows = PrecedentCase.objects.bulk_create(
        [precedents._row(book, case, book.content["cases"][0]) for book, case in zip(books, cases_)], batch_size=500
    )
    if rows[0].pk is None:
        rows = list(PrecedentCase.objects.filter(casebook__in=books))
    precedents._write_full_text(rows)
    return len(rows)


def timed(function, repeats):
    times, value = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return summary(times), value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    with throwaway_database(args.database):
        setup_django()
        from bench.casebook_bench import build
        from national import casebooks, precedent_selectors, precedents

        log("== two decided Law 16 appeals; the casebook of the first published")
        authority, auditor = build(2)
        book = casebooks.compile_casebook(authority=authority, by=auditor, title="Bench")
        later = book.cases.get(position=2)
        ruling = later.appeal.ruling  # the ruling whose precedents are asked for
        dealer, calls, slow = RULING_AUCTION
        ruling.auction = auction(dealer, calls.split(), tempo=slow)
        ruling.save(update_fields=["auction"])
        casebooks.remove_case(case=later, by=auditor)
        book = casebooks.publish_casebook(casebook=book, by=auditor)
        precedents.index_casebook(book.pk)
        log(f"== {args.cases} published cases of past casebooks")
        started = time.perf_counter()
        indexed = build_index(authority, book, args.cases)
        log(f"   indexed in {time.perf_counter() - started:.1f} s")
        director = ruling.director
        results = {"size": {"cases": indexed + 1}}
        precedent_selectors.similar_cases(ruling, user=director)  # warm the caches once
        results["suggestions"], found = timed(
            lambda: precedent_selectors.similar_cases(ruling, user=director), args.repeats
        )
        # A Law 16 case first: the same hesitation at the same call outranks the deeper citation
        # (issue #43: the facts a committee compares first, then the laws).
        assert found and "S:ui" in found[0].alike and any(law.startswith("16") for law in found[0].case.cited), found
        results["search_law"], rows = timed(
            lambda: precedent_selectors.search(director, law="16B", limit=100), args.repeats
        )
        assert rows
        results["search_words"], rows = timed(
            lambda: precedent_selectors.search(director, q="logical alternative", limit=100), args.repeats
        )
        assert rows
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
