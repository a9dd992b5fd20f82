"""`python -m tracer metrics`: the reports equal what `tracer.get_compilation_metrics()` says about
the same run, and a missing or foreign file is one line on stderr."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import tracer
from tests.observability.metrics_store_child import run_gallery_quietly
from tracer.cli import main
from tracer.observability.metrics import CompilationMetrics, report
from tracer.observability.metrics.report import PHASE_COLUMNS


def _break_in_loop(n: int) -> int:
    total = 0
    for _ in range(n):
        total += int(time.time() > 0)  # a break in a loop: the frame runs eagerly
    return total


@pytest.fixture
def gallery_db(tmp_path: Path) -> Iterator[tuple[Path, list[CompilationMetrics]]]:
    """The sample gallery run twice (so some compiles are recompiles) into a fresh database;
    the globals the samples rebind (a call counter) are put back afterwards."""
    db = tmp_path / "gallery.db"
    modules = [m for name, m in sys.modules.items() if name.startswith("samples.")]
    saved = [(vars(m), dict(vars(m))) for m in modules]
    tracer.reset()
    try:
        with tracer.metrics_store(db, batch=7):
            run_gallery_quietly()
            run_gallery_quietly()
            tracer.compile(_break_in_loop)(2)  # the gallery's breaks resume; this one can't
        yield db, tracer.get_compilation_metrics()
    finally:
        tracer.reset()
        for namespace, before in saved:
            namespace.update(before)


def test_summary_equals_the_records(gallery_db: tuple[Path, list[CompilationMetrics]]) -> None:
    db, records = gallery_db
    data = report.report(db, "summary")
    assert data["compiles"] == len(records) > 30
    assert data["processes"] == 1
    assert data["graph_breaks"] == sum(r.graph_break_count or 0 for r in records) > 0
    assert data["recompiles"] == sum(r.recompile_reason is not None for r in records) > 0
    assert data["failed_compiles"] == sum(r.fail_type is not None for r in records) > 0
    expected = {}
    for column in PHASE_COLUMNS:
        values = [v for r in records if (v := getattr(r, column)) is not None]
        if values:
            expected[column.removesuffix("_us").removesuffix("_time")] = {
                "total_us": sum(values),
                "median_us": statistics.median(values),
                "compiles": len(values),
            }
    assert data["phases"] == expected
    assert {"duration", "bytecode_tracing", "build_guards", "codegen"} <= set(expected)


def test_recompiles_equal_the_records(gallery_db: tuple[Path, list[CompilationMetrics]]) -> None:
    db, records = gallery_db
    data = report.report(db, "recompiles")
    failures = [f for r in records for f in r.recompile_guard_failures or ()]
    assert failures
    assert data["recompiles"] == sum(r.recompile_reason is not None for r in records)
    assert data["by_guard_kind"] == dict(Counter(f["kind"] for f in failures))
    groups = Counter((f["kind"], f["source"]) for f in failures)
    assert {(t["guard_kind"], t["source"]): t["failures"] for t in data["top"]} == groups
    example = data["top"][0]["example"]
    assert {"expected", "actual", "user_location", "cache_entry", "co_name"} <= set(example)


def test_slowest_equal_the_records(gallery_db: tuple[Path, list[CompilationMetrics]]) -> None:
    db, records = gallery_db
    data = report.report(db, "slowest", limit=5)["slowest"]
    durations = sorted((r.duration_us or 0 for r in records), reverse=True)[:5]
    assert [row["duration_us"] for row in data] == durations
    # Two records may share a compile id and a duration (the gallery compiles some frames in
    # more than one run): a row must equal one of them in every phase.
    for row in data:
        same = [
            r for r in records
            if (r.compile_id, r.duration_us) == (row["compile_id"], row["duration_us"])
        ]  # fmt: skip
        assert any(
            all(us == getattr(r, f"{phase}_time_us") for phase, us in row["phases_us"].items())
            for r in same
        ), row


def test_cache_says_there_is_no_backend_cache_data(
    gallery_db: tuple[Path, list[CompilationMetrics]],
) -> None:
    db, _ = gallery_db
    assert report.report(db, "cache")["backend_cache"] is None


@pytest.mark.parametrize("name", report.REPORTS)
def test_cli_prints_each_report_as_text_and_json(
    gallery_db: tuple[Path, list[CompilationMetrics]],
    name: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, _ = gallery_db
    assert main(["metrics", "--db", str(db), name]) == 0
    text = capsys.readouterr().out
    assert text.strip()
    assert main(["metrics", "--db", str(db), name, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report.report(db, name)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.write_text("hello\n"), "not a modetrace metrics database"),
        (lambda p: p.mkdir(), "is a directory"),
    ],
)
def test_cli_errors_are_one_line(
    tmp_path: Path, make: object, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.db"
    make(path)  # type: ignore[operator]
    assert main(["metrics", "--db", str(path), "summary"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err, captured.err
    assert captured.err.startswith("python -m tracer metrics: error: ")
