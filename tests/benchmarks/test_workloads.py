"""The workloads compile on modetrace into one full graph each and agree with eager code."""

from __future__ import annotations

import dis
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from benchmarks.__main__ import main as bench_main
from benchmarks.instruction_count import count_workload
from benchmarks.workloads import Workload, make_workloads

WORKLOADS = make_workloads(torch)


def _plain(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.tolist()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_close, a, b))
    return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)


@pytest.mark.parametrize("workload", WORKLOADS, ids=lambda w: w.name)
def test_workload_compiles_once_and_matches_eager(workload: Workload) -> None:
    tracer.reset()
    compiled = tracer.compile(workload.fn)
    with workload.call_context():
        expected = _plain(workload.fn(*workload.make_args()))
    args = workload.make_args()
    for _ in range(3):
        with workload.call_context():
            got = _plain(compiled(*args))
        assert _close(got, expected)
    assert len(compiled.entries) == 1, compiled.last_miss_reasons
    assert not compiled.entries[0].is_fallback


def test_names_are_unique_and_the_long_function_is_long() -> None:
    names = [w.name for w in WORKLOADS]
    assert len(set(names)) == len(names) == 11
    long_function = next(w for w in WORKLOADS if w.name == "long_function")
    assert len(list(dis.get_instructions(long_function.fn))) > 200


def test_count_is_repeatable_in_process() -> None:
    add = WORKLOADS[0]
    with add.call_context():
        tracer.compile(add.fn)(*add.make_args())  # warm-up, as count_all does
    first = count_workload(add)
    assert first > 0
    assert count_workload(add) == first


def test_bench_entry_point_runs_and_writes_json(tmp_path: Path) -> None:
    """A one-round smoke run of `python -m benchmarks`; its figures are not asserted on."""
    out = tmp_path / "results.json"
    argv = ["--quick", "--rounds", "1", "--only", "add", "mode_stack", "--out", str(out)]
    assert bench_main([*argv, "--no-torch", "--no-counts", "--no-guards"]) == 0
    results = json.loads(out.read_text())
    assert results["dynamo"] == {"skipped": "--no-torch given"}
    rows = results["modetrace"]["workloads"]
    assert set(rows) == {"add", "mode_stack"}
    assert {"compile_us", "overhead_us", "guard_count", "metrics_on_off"} <= set(rows["add"])


def test_guards_benchmark_is_run_lazily_and_failures_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import types

    import benchmarks.__main__ as entry

    monkeypatch.setattr(entry, "HERE", tmp_path)
    assert entry._guards_benchmark(quick=True) == {"skipped": "benchmarks/guards.py not present"}

    (tmp_path / "guards.py").write_text("")
    fake = types.ModuleType("benchmarks.guards")
    fake.run = lambda quick: {"quick": quick}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "benchmarks.guards", fake)
    assert entry._guards_benchmark(quick=True) == {"quick": True}

    def broken() -> None:
        raise ValueError("boom")

    del fake.run  # type: ignore[attr-defined]
    fake.main = broken  # type: ignore[attr-defined]
    assert entry._guards_benchmark(quick=False) == {"skipped": "ValueError: boom"}
    assert "skipped: benchmarks.guards failed" in capsys.readouterr().out


def test_graph_break_workload_compiles_the_prefix_and_the_resume_function_once() -> None:
    """The first call compiles both frames (0/0 with one break, then its resume function 1/0);
    later calls compile nothing."""
    from tracer.observability.metrics import clear_compilation_metrics

    workload = next(w for w in WORKLOADS if w.name == "graph_break")
    tracer.reset()
    clear_compilation_metrics()
    compiled = tracer.compile(workload.fn)
    args = workload.make_args()
    compiled(*args)
    records = tracer.get_compilation_metrics()
    assert [(r.compile_id, r.graph_break_count) for r in records] == [("0/0", 1), ("1/0", 0)]
    assert all(r.fail_type is None for r in records)
    compiled(*args)
    assert len(tracer.get_compilation_metrics()) == len(records)
