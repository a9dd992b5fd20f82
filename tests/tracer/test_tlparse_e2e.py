"""A real run of the tracer, logged with the structured trace log, renders cleanly in tlparse."""

import json
from pathlib import Path

import tracer
import tracer.runtime as torch
from tests.observability.tlparse_checks import check_report, run_tlparse
from tracer.observability import trace_log


def add_one(x):
    return x + 1


def scale(x, k):
    return x * k


def breaks(x):
    print("side effect")
    return x.sin()


def test_real_run_renders_in_tlparse(tmp_path: Path, capsys) -> None:
    tracer.reset()
    with trace_log.tracing_to(tmp_path / "log"):
        log_file = trace_log.log_path()
        tracer.compile(add_one)(torch.ones(2))
        compiled = tracer.compile(scale)
        compiled(torch.ones(2), 2)
        compiled(torch.ones(2), 3)  # recompile: the constant changed
        tracer.compile(breaks)(torch.ones(2))  # graph break: 2/0, then its resume function 3/0
    assert log_file is not None and Path(log_file).exists()
    out = tmp_path / "report"
    result = run_tlparse(Path(log_file), out)
    assert result.returncode == 0, result.stdout + result.stderr
    check_report(out, ["0/0", "1/0", "1/1", "2/0", "3/0"])
    events = json.loads((out / "chromium_events.json").read_text())
    assert events, "tlparse found no chromium events"
    records = tracer.get_compilation_metrics()[-5:]
    assert [r.compile_id for r in records] == ["0/0", "1/0", "1/1", "2/0", "3/0"]
    assert records[2].recompile_reason and "L['k'] == 2" in records[2].recompile_reason
    assert records[3].graph_break_count == 1 and records[3].graph_break_reasons
    assert records[4].co_name.startswith("__resume_at_")
    assert all(r.structured_logging_overhead_us is not None for r in records)
