"""Sets of integer ids (row ids, IMAP UIDs) in SQL conditions.

Ids stored or planned together are mostly consecutive: a batch's new messages, its
actions, a fetched range of UIDs. Named one by one in an IN list, each costs SQLAlchemy
a bound parameter to build and render (10,000 of them per first sync, several times
over); named as runs, a batch is a handful of BETWEENs.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, false, or_
from sqlalchemy.orm import QueryableAttribute

RUNS_PER_QUERY = 200  # conditions per statement: far below any database's parameter cap


def id_runs(ids: Iterable[int]) -> list[tuple[int, int]]:
    """Distinct ids as maximal runs of consecutive numbers, (first, last) each, in order."""
    runs: list[tuple[int, int]] = []
    for n in sorted(set(ids)):
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def among(column: ColumnElement[int] | QueryableAttribute[int],
          runs: list[tuple[int, int]]) -> ColumnElement[bool]:
    """`column` is one of the ids in `runs`: runs of three or more as BETWEEN, the rest
    in one IN list."""
    singles: list[int] = []
    ranges: list[ColumnElement[bool]] = []
    for first, last in runs:
        if last - first >= 2:
            ranges.append(column.between(first, last))
        else:
            singles.extend(range(first, last + 1))
    clauses = [*ranges, *([column.in_(singles)] if singles else [])]
    return or_(*clauses) if clauses else false()


def id_chunks(ids: Iterable[int]) -> list[list[tuple[int, int]]]:
    """The runs of `ids`, in groups small enough for one statement each."""
    runs = id_runs(ids)
    return [runs[i : i + RUNS_PER_QUERY] for i in range(0, len(runs), RUNS_PER_QUERY)]
