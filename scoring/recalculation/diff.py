"""The board scores a change moved, found by comparison (in the database for a board of plain
results), and written: only the rows that moved, in one set-based statement a batch."""

from collections import namedtuple

from django.db import connections, router
from django.db.models import Field, Model

from scoring.models import BoardScore, Result, ScoreChange
from scoring.recalculation.board import (
    ARTIFICIAL,
    BOARD_SCORE_VALUES,
    COMPARED_COUNT,
    COMPARED_VALUES,
    EW,
    EW_EXACT,
    EW_KIND,
    EW_PERCENT,
    NS,
    NS_EXACT,
    NS_KIND,
    NS_PERCENT,
    TOP,
    UNSCORED,
)

# A stored board score as plain_board_moved reads it: as values_list("pk", "result_id",
# *COMPARED_VALUES, named=True) gives it on the other road.
_Stored = namedtuple("_Stored", ["pk", "result_id", *COMPARED_VALUES])  # type: ignore[misc]


# The values a board of plain results carries per distinct N-S score, as plain_board_values
# makes them (BOARD_SCORE_VALUES' positions); the kinds are "real", the raw values the exact
# ones and the penalties none, so they are written as such.
_PLAIN_COLUMNS = (("ns_exact", NS_EXACT), ("ew_exact", EW_EXACT), ("top", TOP), ("ns", NS), ("ew", EW),
                  ("ns_percent", NS_PERCENT), ("ew_percent", EW_PERCENT))  # fmt: skip


def concrete_field(model: type[Model], name: str) -> Field:
    """``model``'s field ``name``, a column of its table (not the reverse side of a relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise LookupError(f"{model.__name__}.{name} is not a column of its table")
    return field


def _plain_source(conn, by_points):
    """(FROM item, its parameters, {name: column}) of a VALUES list of the distinct scores of a
    board of plain results: points and each of _PLAIN_COLUMNS."""
    fields = [concrete_field(BoardScore, name) for name, _i in _PLAIN_COLUMNS]
    rows = [
        (points, *(field.get_db_prep_save(values[i], conn) for field, (_n, i) in zip(fields, _PLAIN_COLUMNS)))
        for points, values in by_points.items()
    ] or [(None,) * (len(fields) + 1)]  # no result played: a row that joins nothing
    names = ["points", *(name for name, _i in _PLAIN_COLUMNS)]
    if conn.vendor == "postgresql":
        # Field.cast_db_type is Django's (since 2.0); django-stubs 5.2.9 leave it out.
        casts = ["integer", *(field.cast_db_type(conn) for field in fields)]  # type: ignore[attr-defined]
        row = "(" + ", ".join(f"%s::{cast}" for cast in casts) + ")"
        source = f"(VALUES {', '.join([row] * len(rows))}) AS v({', '.join(names)})"
        columns = {name: f"v.{name}" for name in names}
    else:  # SQLite names the columns of VALUES column1, column2, ...
        row = "(" + ", ".join(["%s"] * len(names)) + ")"
        source = f"(VALUES {', '.join([row] * len(rows))}) AS v"
        columns = {name: f"v.column{i}" for i, name in enumerate(names, start=1)}
    return source, [value for values in rows for value in values], columns


def _plain_moved_condition(conn, v, bs="bs"):
    """SQL true when the stored board score ``bs`` differs from the new values ``v`` (a row of
    _plain_source, NULL for a result not scored) in one of the COMPARED_VALUES."""
    differs = "IS DISTINCT FROM" if conn.vendor == "postgresql" else "IS NOT"
    return f"""(
        {bs}.ns_exact {differs} COALESCE({v["ns_exact"]}, '') OR {bs}.ew_exact {differs} COALESCE({v["ew_exact"]}, '')
        OR {bs}.ns_raw {differs} COALESCE({v["ns_exact"]}, '') OR {bs}.ew_raw {differs} COALESCE({v["ew_exact"]}, '')
        OR {bs}.top {differs} {v["top"]}
        OR {bs}.ns_kind <> 'real' OR {bs}.ew_kind <> 'real' OR {bs}.ns_penalty <> '' OR {bs}.ew_penalty <> ''
    )"""


def plain_board_moved(board, by_points):
    """The results of a board of plain results whose stored board score differs from the new
    values ``by_points`` ({N-S points: values}; a result not played has none), or that have
    no stored board score: [(result id, N-S id, E-W id, N-S points or None, stored row as
    _Stored or None)]. The database compares every row (a join of the results' points to the
    few distinct values), so only the rows a change moved come back to Python."""
    conn = connections[router.db_for_write(BoardScore)]
    qn = conn.ops.quote_name
    results, scores = qn(Result._meta.db_table), qn(BoardScore._meta.db_table)
    source, params, v = _plain_source(conn, by_points)
    stored = ", ".join(f"bs.{qn(concrete_field(BoardScore, name).column)}" for name in COMPARED_VALUES)
    sql = f"""
        SELECT r.id, r.ns_id, r.ew_id, {v["points"]}, bs.id, {stored}
        FROM {results} AS r
        LEFT JOIN {scores} AS bs ON bs.result_id = r.id
        LEFT JOIN {source} ON {v["points"]} = r.score_ns AND NOT r.not_played
        WHERE r.board_id = %s AND (bs.id IS NULL OR {_plain_moved_condition(conn, v)})
    """
    with conn.cursor() as cursor:
        cursor.execute(sql, [*params, board.pk])
        found = cursor.fetchall()
    return [
        (result_id, ns_id, ew_id, points, None if pk is None else _Stored._make([pk, result_id, *stored_values]))
        for result_id, ns_id, ew_id, points, pk, *stored_values in found
    ]


def write_plain_board_scores(board, scored, by_points, version, replace=False, new=None):
    """Write the board scores of a board of plain results from its few distinct values
    ``by_points`` (plain_board_values): the database joins each result's points to them, so no
    row of the board comes to Python. The stored rows that differ are updated and the missing
    ones inserted (one statement each); ``replace`` deletes the board's rows first and inserts
    them all, as write_board_scores does; ``new``, when known, the ids of the results with no
    board score (plain_board_seats: the rows to insert are then found by id). Returns the
    number of rows written."""
    conn = connections[router.db_for_write(BoardScore)]
    qn = conn.ops.quote_name
    results, scores = qn(Result._meta.db_table), qn(BoardScore._meta.db_table)
    source, params, v = _plain_source(conn, by_points)
    new_values = {
        "ns_exact": f"COALESCE({v['ns_exact']}, '')",
        "ew_exact": f"COALESCE({v['ew_exact']}, '')",
        "top": v["top"],
        "ns_kind": "'real'",
        "ew_kind": "'real'",
        "ns_raw": f"COALESCE({v['ns_exact']}, '')",
        "ew_raw": f"COALESCE({v['ew_exact']}, '')",
        "ns_penalty": "''",
        "ew_penalty": "''",
        "ns": v["ns"],
        "ew": v["ew"],
        "ns_percent": v["ns_percent"],
        "ew_percent": v["ew_percent"],
        "board_version": "%s",
    }
    joined = f"LEFT JOIN {source} ON {v['points']} = r.score_ns AND NOT r.not_played"
    written = 0
    with conn.cursor() as cursor:
        if replace:
            cursor.execute(
                f"DELETE FROM {scores} WHERE result_id IN (SELECT id FROM {results} WHERE board_id = %s)", [board.pk]
            )
        else:
            sets = ", ".join(f"{qn(name)} = {value}" for name, value in new_values.items())
            cursor.execute(
                f"UPDATE {scores} SET {sets} FROM {results} AS r {joined} "
                f"WHERE {scores}.result_id = r.id AND r.board_id = %s AND {_plain_moved_condition(conn, v, scores)}",
                [version, *params, board.pk],
            )
            written += cursor.rowcount
        columns = ", ".join(qn(name) for name in ("result_id", *new_values))
        insert = f"INSERT INTO {scores} ({columns}) SELECT r.id, {', '.join(new_values.values())} FROM {results} AS r "
        if new is not None and not replace and len(new) <= 500:  # a few new results (an upload)
            if new:
                ids = ", ".join(["%s"] * len(new))
                cursor.execute(f"{insert} {joined} WHERE r.id IN ({ids})", [version, *params, *new])
                written += cursor.rowcount
        else:
            cursor.execute(
                f"{insert} {joined} LEFT JOIN {scores} AS bs ON bs.result_id = r.id "
                "WHERE r.board_id = %s AND bs.id IS NULL",
                [version, *params, board.pk],
            )
            written += cursor.rowcount
    complete_change_log([board.pk])
    return written


def plain_changes(moved, by_points):
    """(rows to update, rows to insert, what apply_differences compares) from the rows
    plain_board_moved found, as changed_board_scores and to_compare give them."""
    to_update, to_create, compared = [], [], []
    for result_id, ns_id, ew_id, points, before in moved:
        values = by_points[points] if points is not None else UNSCORED
        if before is None:
            to_create.append((result_id, values))
        else:
            to_update.append((before.pk, result_id, values))
            compared.append((ns_id, ew_id, before, values))
    return to_update, to_create, compared


def changed_board_scores(scored, old):
    """(rows to update, rows to insert): of the computed ``scored`` [(result id, values)], the
    ``(pk, result id, values)`` whose values differ from the stored ``old`` ({result id:
    (pk, result_id, *COMPARED_VALUES)}), and the ``(result id, values)`` with no stored row."""
    to_update, to_create = [], []
    get = old.get
    for result_id, values in scored:
        before = get(result_id)
        if before is None:
            to_create.append((result_id, values))
        elif before[2:] != values[:COMPARED_COUNT]:
            to_update.append((before[0], result_id, values))
    return to_update, to_create


def _new_board_score(result_id, values, version):
    return BoardScore(result_id=result_id, board_version=version, **dict(zip(BOARD_SCORE_VALUES, values)))


def write_board_scores(board, scored, version):
    """Replace the board's scores. Delete-and-insert in the board's transaction: nothing refers
    to a BoardScore row, and Django's bulk_update is far slower for hundreds of rows."""
    BoardScore.objects.filter(result__board=board).delete()
    BoardScore.objects.bulk_create(
        [_new_board_score(result_id, values, version) for result_id, values in scored], batch_size=1000
    )
    complete_change_log([board.pk])


def write_changed_board_scores(to_update, to_create, board_ids):
    """Write only the board scores whose values moved, on every board a pass scored at once (one
    set-based UPDATE a batch: ``to_update``, [(pk, values, version)]) and insert the missing
    ones (``to_create``, [(result id, values, version)]); ``board_version`` is the version a
    row was last written for. Then the change log of ``board_ids`` is completed."""
    fields = (*BOARD_SCORE_VALUES, "board_version")
    update_rows(BoardScore, fields, [(pk, *values, version) for pk, values, version in to_update])
    if to_create:
        BoardScore.objects.bulk_create(
            [_new_board_score(result_id, values, version) for result_id, values, version in to_create],
            batch_size=1000,
        )
    complete_change_log(board_ids)


def to_compare(seats, scored, old, to_update):
    """What apply_differences looks at on one board: (N-S id, E-W id, stored row, values) of
    each result whose values moved, and of each holding an artificial score before or after
    (its side is totalled again even when the board did not move it). (On a board of plain
    results nothing holds one now, and a result that held one has moved: _rescore_pending
    looks at the moved rows alone.)"""
    moved = {result_id for _pk, result_id, _values in to_update}
    return [
        (ns_id, ew_id, old[result_id], values)
        for (result_id, ns_id, ew_id, _points), (_id, values) in zip(seats, scored, strict=True)
        if result_id in moved
        or values[NS_KIND] in ARTIFICIAL
        or values[EW_KIND] in ARTIFICIAL
        or old[result_id].ns_kind in ARTIFICIAL
        or old[result_id].ew_kind in ARTIFICIAL
    ]


def update_rows(model, fields, rows, batch_size=1000):
    """Set ``fields`` of many rows, each given as ``(pk, value of each field)``, in one statement a
    batch: ``UPDATE ... FROM unnest(arrays)`` on PostgreSQL (one array a column: the driver's
    work grows with the placeholders), ``UPDATE ... FROM (VALUES ...)`` on SQLite. Django's
    ``bulk_update`` writes a CASE over every pk for each field instead, which grows with the
    square of the rows."""
    if not rows:
        return
    conn = connections[router.db_for_write(model)]
    table, qn = model._meta.db_table, conn.ops.quote_name
    model_fields = [model._meta.get_field(name) for name in fields]
    pk_column = qn(model._meta.pk.column)
    names = ", ".join(["id", *(f"c{i}" for i in range(len(model_fields)))])
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        if conn.vendor == "postgresql":
            casts = [model._meta.pk.cast_db_type(conn), *(f.cast_db_type(conn) for f in model_fields)]
            arrays = ", ".join(f"%s::{cast}[]" for cast in casts)
            sets = ", ".join(f"{qn(f.column)} = v.c{i}" for i, f in enumerate(model_fields))
            sql = f"UPDATE {qn(table)} AS t SET {sets} FROM unnest({arrays}) AS v({names}) WHERE t.{pk_column} = v.id"
            params = [list(column) for column in zip(*batch)]
        else:  # SQLite names the columns of VALUES column1, column2, ...
            row = "(" + ", ".join(["%s"] * (len(model_fields) + 1)) + ")"
            sets = ", ".join(f"{qn(f.column)} = v.column{i + 2}" for i, f in enumerate(model_fields))
            sql = (
                f"UPDATE {qn(table)} SET {sets} FROM (VALUES {', '.join([row] * len(batch))}) AS v "
                f"WHERE {qn(table)}.{pk_column} = v.column1"
            )
            params = [value for values in batch for value in values]
        with conn.cursor() as cursor:
            cursor.execute(sql, params)


def complete_change_log(board_ids):
    """Fill in what each logged change of the boards did to their board scores, once those are
    written (in the same transaction, before the session rule looks at artificial scores): one
    statement, each change's "after" values from its result's board score. The boards are
    locked, so every change not yet completed is one this scoring answers."""
    if not board_ids:
        return
    conn = connections[router.db_for_write(ScoreChange)]
    qn = conn.ops.quote_name
    changes, scores, results = (qn(model._meta.db_table) for model in (ScoreChange, BoardScore, Result))
    marks = ", ".join(["%s"] * len(board_ids))
    sql = (
        f"UPDATE {changes} SET ns_after = bs.ns, ew_after = bs.ew FROM {scores} AS bs, {results} AS r "
        f"WHERE bs.result_id = {changes}.result_id AND r.id = bs.result_id AND r.board_id IN ({marks}) "
        f"AND {changes}.ns_after IS NULL AND bs.ns IS NOT NULL"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, list(board_ids))
