"""`python -m tracer metrics --db PATH summary|recompiles|slowest|cache [--json]`: questions asked
of a metrics database (tracer/observability/metrics/store.py).

- `summary`: compiles, graph breaks, recompiles, failed compiles; total and median time of each
  phase column of the records.
- `recompiles`: the recompile reasons aggregated by guard kind and source, with counts and an
  example (which entry failed, expected and actual, the user line).
- `slowest`: the slowest compiles, each with its phases (from `pt2_compile_events`).
- `cache`: the graph cache's hits and misses, summed from the records'
  `inductor_fx_cache_hit_count` / `_miss_count` columns (backend='fused' uses the cache).

Each report is a dict first (what `--json` prints), then text. The numbers come from the same
fields `tracer.get_compilation_metrics()` returns, so a report of one run equals what the
records of that run say.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import statistics
from collections.abc import Callable
from typing import Any, TextIO

from tracer.observability.metrics.store import COLUMNS, SCHEMA_VERSION, StoreError, open_database

REPORTS = ("summary", "recompiles", "slowest", "cache")
PHASE_COLUMNS = (
    "duration_us",
    *(n for n in COLUMNS if n.endswith("_time_us") and n not in ("start_time_us", "end_time_us")),
)
"""The time columns `summary` totals: the whole compile, then each timed phase."""
_CACHE_COLUMN = re.compile(r"cache_(hit|miss)_count$")


def summary(con: sqlite3.Connection) -> dict[str, Any]:
    counts = con.execute(
        "SELECT COUNT(*), COUNT(DISTINCT run_id), COALESCE(SUM(graph_break_count), 0), "
        "COUNT(recompile_reason), COUNT(fail_type) FROM dynamo_compile"
    ).fetchone()
    phases = {}
    for column in PHASE_COLUMNS:
        rows = con.execute(f'SELECT "{column}" FROM dynamo_compile WHERE "{column}" IS NOT NULL')
        values = [value for (value,) in rows]
        if values:
            phases[column.removesuffix("_us").removesuffix("_time")] = {
                "total_us": sum(values),
                "median_us": statistics.median(values),
                "compiles": len(values),
            }
    keys = ("compiles", "processes", "graph_breaks", "recompiles", "failed_compiles")
    return {**dict(zip(keys, counts, strict=True)), "phases": phases}


def recompiles(con: sqlite3.Connection, limit: int = 10) -> dict[str, Any]:
    total = con.execute("SELECT COUNT(recompile_reason) FROM dynamo_compile").fetchone()[0]
    by_kind = con.execute(
        "SELECT guard_kind, COUNT(*) FROM recompile_reasons GROUP BY guard_kind "
        "ORDER BY COUNT(*) DESC, guard_kind"
    ).fetchall()
    groups = con.execute(
        "SELECT guard_kind, source, COUNT(*), COUNT(DISTINCT run_id || ' ' || seq), MIN(rowid) "
        "FROM recompile_reasons GROUP BY guard_kind, source "
        "ORDER BY COUNT(*) DESC, guard_kind, source LIMIT ?",
        (limit,),
    ).fetchall()
    top = []
    for kind, source, failures, compiles, example_row in groups:
        example = con.execute(
            "SELECT r.compile_id, r.cache_entry, d.co_name, r.expected, r.actual, "
            "r.user_location FROM recompile_reasons r LEFT JOIN dynamo_compile d "
            "ON d.run_id = r.run_id AND d.seq = r.seq WHERE r.rowid = ?",
            (example_row,),
        ).fetchone()
        names = ("compile_id", "cache_entry", "co_name", "expected", "actual", "user_location")
        top.append(
            {
                "guard_kind": kind,
                "source": source,
                "failures": failures,
                "recompiles": compiles,
                "example": dict(zip(names, example, strict=True)),
            }
        )
    return {"recompiles": total, "by_guard_kind": dict(by_kind), "top": top}


def slowest(con: sqlite3.Connection, limit: int = 10) -> dict[str, Any]:
    rows = con.execute(
        "SELECT run_id, seq, compile_id, co_name, co_filename, co_firstlineno, duration_us, "
        "fail_type, recompile_reason IS NOT NULL FROM dynamo_compile "
        "WHERE duration_us IS NOT NULL ORDER BY duration_us DESC, run_id, seq LIMIT ?",
        (limit,),
    ).fetchall()
    phases: dict[tuple[str, int], dict[str, int]] = {}
    if rows:  # one pass over the phase rows for all the compiles shown
        wanted = ", ".join("(?, ?)" for _ in rows)
        found = con.execute(
            "SELECT run_id, seq, phase, SUM(duration_us) FROM pt2_compile_events "
            f"WHERE (run_id, seq) IN (VALUES {wanted}) GROUP BY run_id, seq, phase "
            "ORDER BY run_id, seq, MIN(start_us), phase",
            [part for row in rows for part in row[:2]],
        )
        for run_id, seq, phase, total in found:
            phases.setdefault((run_id, seq), {})[phase] = total
    out = []
    for run_id, seq, cid, name, filename, line, duration, fail_type, recompile in rows:
        out.append(
            {
                "compile_id": cid,
                "co_name": name,
                "where": f"{os.path.basename(filename or '?')}:{line}",
                "duration_us": duration,
                "recompile": bool(recompile),
                "fail_type": fail_type,
                "phases_us": phases.get((run_id, seq), {}),
                "run_id": run_id,
            }
        )
    return {"slowest": out}


def cache(con: sqlite3.Connection) -> dict[str, Any]:
    """The graph cache's hits and misses (`inductor_fx_cache_*_count`), summed over the
    records; None when no record has them (no compile used a compiled backend's cache)."""
    columns = [row[1] for row in con.execute("PRAGMA table_info(dynamo_compile)")]
    found = [name for name in columns if _CACHE_COLUMN.search(name)]
    totals = {}
    for name in found:
        (known, total) = con.execute(
            f'SELECT COUNT("{name}"), COALESCE(SUM("{name}"), 0) FROM dynamo_compile'
        ).fetchone()
        if known:
            totals[name] = total
    if not totals:
        return {
            "backend_cache": None,
            "message": "no backend cache data: no compile used the graph cache "
            "(it serves compiled backends such as backend='fused')",
        }
    return {"backend_cache": totals}


_QUERIES: dict[str, Callable[[sqlite3.Connection, int], dict[str, Any]]] = {
    "summary": lambda con, limit: summary(con),
    "recompiles": recompiles,
    "slowest": slowest,
    "cache": lambda con, limit: cache(con),
}


def report(path: str | os.PathLike[str], name: str, limit: int = 10) -> dict[str, Any]:
    """The report `name` of the database at `path` as a dict (StoreError for a bad file)."""
    con = open_database(path)
    try:
        return _QUERIES[name](con, limit)
    finally:
        con.close()


def run(path: str | None, name: str, *, as_json: bool, limit: int, out: TextIO) -> int:
    """The `python -m tracer metrics` command; StoreError for a bad or missing file."""
    if not path:
        raise StoreError("no database: pass --db PATH or set MODETRACE_METRICS_DB")
    data = report(path, name, limit)
    if as_json:
        json.dump(data, out, indent=2)
        out.write("\n")
    else:
        print("\n".join(_TEXT[name](data)), file=out)
    return 0


# -- text ----------------------------------------------------------------------------------------
def _ms(us: float | None) -> str:
    return "-" if us is None else f"{us / 1000:.2f}"


def summary_lines(data: dict[str, Any]) -> list[str]:
    processes = f"{data['processes']} process{'es' if data['processes'] != 1 else ''}"
    counts = (
        f"compiles {data['compiles']}, graph breaks {data['graph_breaks']}, "
        f"recompiles {data['recompiles']}, failed {data['failed_compiles']} (from {processes})"
    )
    lines = [
        counts,
        f"{'phase':<24}{'total ms':>10}{'median ms':>11}{'compiles':>10}",
    ]
    for phase, row in data["phases"].items():
        lines.append(
            f"{phase:<24}{_ms(row['total_us']):>10}{_ms(row['median_us']):>11}{row['compiles']:>10}"
        )
    return lines


def recompile_lines(data: dict[str, Any]) -> list[str]:
    kinds = ", ".join(f"{kind} {n}" for kind, n in data["by_guard_kind"].items())
    lines = [f"recompiles {data['recompiles']}; failing guards by kind: {kinds or '(none)'}"]
    for row in data["top"]:
        ex = row["example"]
        lines.append(
            f"{row['failures']:>4} x {row['guard_kind']} {row['source']} "
            f"(in {row['recompiles']} recompile{'s' if row['recompiles'] != 1 else ''})"
        )
        lines.append(
            f"       e.g. {ex['compile_id']} {ex['co_name']}: entry {ex['cache_entry']} expected "
            f"{ex['expected']}, got {ex['actual']} (guard from {ex['user_location'] or '?'})"
        )
    return lines


def slowest_lines(data: dict[str, Any]) -> list[str]:
    lines = []
    for row in data["slowest"]:
        tags = " recompile" if row["recompile"] else ""
        tags += f" failed: {row['fail_type']}" if row["fail_type"] else ""
        lines.append(
            f"{_ms(row['duration_us']):>8} ms  {row['compile_id']} {row['co_name']} "
            f"({row['where']}){tags}"
        )
        phases = ", ".join(f"{p} {_ms(us)}" for p, us in row["phases_us"].items())
        lines.append(f"             {phases}")
    return lines or ["no compiles recorded"]


def cache_lines(data: dict[str, Any]) -> list[str]:
    totals = data["backend_cache"]
    if totals is None:
        return [str(data["message"])]
    return [f"{name}: {total}" for name, total in totals.items()]


_TEXT: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "summary": summary_lines,
    "recompiles": recompile_lines,
    "slowest": slowest_lines,
    "cache": cache_lines,
}
assert set(_TEXT) == set(_QUERIES) == set(REPORTS)
__all__ = ["REPORTS", "SCHEMA_VERSION", "report", "run"]
