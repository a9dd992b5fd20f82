"""Reusable tlparse checks: write a structured log, run the real tlparse on it, check the report.

`write_simulated_compiles` drives the observability API the way the compile pipeline does, for
three compiles; `run_tlparse` and `check_report` work on any log, so the same checks can later be
pointed at a log written by a real tracer run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import Path

from tracer.observability import trace_log
from tracer.observability.compile_context import CompileId, compile_context
from tracer.observability.events import get_chromium_event_logger
from tracer.observability.metrics import get_metrics_context, metrics_context, timed

GRAPH = "def forward(self, x):\n    add = x + 1\n    mul = add * 2\n    return (mul,)\n"


def tlparse_binary() -> str:
    """The venv's tlparse (next to the interpreter), else the one on PATH."""
    beside = Path(sys.executable).parent / "tlparse"
    if beside.exists():
        return str(beside)
    found = shutil.which("tlparse")
    if found is None:
        raise FileNotFoundError("tlparse is not installed (pip install tlparse)")
    return found


def _user_stack(function: str, lineno: int) -> list[traceback.FrameSummary]:
    return [
        traceback.FrameSummary("user_main.py", 3, "<module>", line=f"{function}(x)"),
        traceback.FrameSummary("user_model.py", lineno, function, line="return x + 1"),
    ]


def _simulate_compile(
    cid: CompileId, function: str, *, recompile_reason: str = "", graph_break: str = ""
) -> None:
    events = get_chromium_event_logger()
    with compile_context(cid), metrics_context():
        ctx = get_metrics_context()
        stack = _user_stack(function, 10 + cid.frame_id)
        trace_log.trace_structured(
            "dynamo_start", lambda: {"stack": trace_log.user_stack_to_json(stack)}
        )
        if recompile_reason:
            events.log_instant_event("recompile", time.time_ns(), {"reason": recompile_reason})
            ctx.set("recompile_reason", recompile_reason)
            trace_log.trace_artifact("recompile_reasons", "json", [recompile_reason])
        with timed(
            "compile",
            phase_name="entire_frame_compile",
            metrics_column="entire_frame_compile_time_us",
            log_compile_event=True,
        ):
            with timed("bytecode_tracing", metrics_column="bytecode_tracing_time_us"):
                ctx.update({"co_name": function, "co_filename": "user_model.py"})
                ctx.set("co_firstlineno", 9 + cid.frame_id)
                if graph_break:
                    events.log_instant_event("graph_break", time.time_ns(), {"reason": graph_break})
                    ctx.increment("graph_break_count", 1)
                    ctx.add_to_set("graph_break_reasons", graph_break)
                    trace_log.trace_artifact("dynamo_graph_break_reason", "string", graph_break)
            trace_log.trace_structured("dynamo_output_graph", {"sizes": {"x": [3]}}, GRAPH)
            with timed("build_guards", metrics_column="build_guards_time_us"):
                guards = [{"code": "___check_type_id(L['x'], 1234)"}]
                trace_log.trace_structured("dynamo_guards", {}, guards)
            ctx.update({"graph_op_count": 2, "graph_node_count": 4, "graph_input_count": 1})
            ctx.update({"guard_count": 1, "cache_size": cid.frame_compile_id})


SIMULATED_IDS = ("0/0", "0/1", "1/0")


def write_simulated_compiles(directory: Path) -> Path:
    """Three compiles, 0/0, 0/1 (a recompile) and 1/0 (with a graph break); returns the log."""
    with trace_log.tracing_to(directory) as path:
        _simulate_compile(CompileId(0, 0), "f")
        _simulate_compile(CompileId(0, 1), "f", recompile_reason="L['x'] == 1 failed: got 2")
        _simulate_compile(CompileId(1, 0), "g", graph_break="call to builtin open")
    return Path(path)


def run_tlparse(log: Path, out: Path) -> subprocess.CompletedProcess[str]:
    command = [tlparse_binary(), str(log), "-o", str(out), "--overwrite", "--no-browser"]
    command += ["--strict", "--strict-compile-id"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def check_report(out: Path, compile_ids: Iterable[str]) -> None:
    """The report exists, names every compile, and its JSON outputs parse."""
    index = (out / "index.html").read_text()
    directory = json.loads((out / "compile_directory.json").read_text())
    chromium = json.loads((out / "chromium_events.json").read_text())
    assert isinstance(chromium, list) and chromium, "chromium_events.json has no events"
    for cid in compile_ids:
        assert f"[{cid}]" in index, f"index.html does not mention {cid}"
        assert f"[{cid}]" in directory, f"compile_directory.json lacks {cid}: {list(directory)}"
        assert "status-missing'>[" + cid not in index, f"{cid} has no metrics in the report"
