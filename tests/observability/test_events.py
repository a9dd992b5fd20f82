from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tracer import config
from tracer.observability.compile_context import CompileId, compile_context
from tracer.observability.events import (
    ChromiumEventLogger,
    clear_compile_events,
    export_chrome_trace,
    get_chromium_event_logger,
    get_chromium_events,
    get_compile_events,
)
from tracer.observability.metrics import metrics_context, timed


def assert_valid_chrome_trace(document: dict[str, Any]) -> None:
    """Chrome Trace Event format as Perfetto loads it: required keys, B/E balanced per thread."""
    assert set(document) == {"traceEvents", "displayTimeUnit"}
    open_by_thread: dict[tuple[int, int], list[str]] = defaultdict(list)
    for event in document["traceEvents"]:
        assert {"name", "ph", "ts", "pid", "tid"} <= set(event), event
        assert isinstance(event["ts"], int | float) and isinstance(event["args"], dict)
        stack = open_by_thread[event["pid"], event["tid"]]
        if event["ph"] == "B":
            stack.append(event["name"])
        elif event["ph"] == "E":
            assert stack and stack.pop() == event["name"], f"unbalanced E: {event}"
        else:
            assert event["ph"] == "i" and event["s"] in ("p", "t"), event
    assert all(not stack for stack in open_by_thread.values()), dict(open_by_thread)


def test_every_begin_has_its_end_even_when_the_body_raises() -> None:
    with pytest.raises(KeyError), metrics_context(), timed("bytecode_tracing"), timed("inner"):
        raise KeyError("boom")
    phases = [(e["name"], e["ph"]) for e in get_chromium_events()]
    assert phases == [
        ("compile", "B"),
        ("bytecode_tracing", "B"),
        ("inner", "B"),
        ("inner", "E"),
        ("bytecode_tracing", "E"),
        ("compile", "E"),
    ]
    assert get_chromium_event_logger().get_stack() == []


def test_events_carry_compile_id_and_phase_metadata() -> None:
    with compile_context(CompileId(3, 1)):
        with timed("compile_inner", phase_name="entire_frame_compile", metadata={"n": 1}):
            pass
        get_chromium_event_logger().log_instant_event("recompile", time.time_ns(), {"why": "x"})
    begin, end, instant = get_chromium_events()
    assert begin["name"] == "entire_frame_compile" and begin["cat"] == "dynamo_timed"
    assert begin["args"] == {"fn_name": "compile_inner", "n": 1, "compile_id": "3/1"}
    assert end["args"] == begin["args"] and end["ts"] >= begin["ts"]
    assert instant["ph"] == "i" and instant["s"] == "p" and instant["args"]["why"] == "x"


def test_add_event_data_only_while_in_progress() -> None:
    log = ChromiumEventLogger()
    log.log_event_start("compile", 1_000, {})
    log.add_event_data("compile", guard_count=3)
    log.log_event_end("compile", 2_000, {"extra": 1})
    assert log.events()[-1]["args"] == {"guard_count": 3, "extra": 1}
    with pytest.raises(RuntimeError, match="'compile' is not in progress"):
        log.add_event_data("compile", guard_count=4)


def test_mismatched_end_is_a_clear_error() -> None:
    log = ChromiumEventLogger()
    log.log_event_start("outer", 1_000, {})
    log.log_event_start("inner", 2_000, {})
    with pytest.raises(RuntimeError, match="cannot end event 'outer'.*innermost.*'inner'"):
        log.log_event_end("outer", 3_000, {})
    with pytest.raises(ValueError, match="scope"):
        log.log_instant_event("x", 1, {}, scope="g")


def test_events_are_bounded_by_config() -> None:
    log = ChromiumEventLogger()
    with config.patch(chromium_event_limit=3):
        for i in range(5):
            log.log_instant_event(f"e{i}", i, {})
    assert [e["name"] for e in log.events()] == ["e2", "e3", "e4"]


def test_exported_trace_passes_schema_check(tmp_path: Path) -> None:
    with compile_context(CompileId(0, 0)), metrics_context(), timed("bytecode_tracing"):
        get_chromium_event_logger().log_instant_event("graph_break", time.time_ns(), {})
    path = tmp_path / "trace.json"
    export_chrome_trace(path)
    document = json.loads(path.read_text())
    assert document["displayTimeUnit"] == "ms"
    assert len(document["traceEvents"]) == 5
    assert_valid_chrome_trace(document)


def test_compile_events_table_rows() -> None:
    with compile_context(CompileId(0, 2)), metrics_context() as ctx:
        ctx.set("co_name", "f")
        with timed("backend_compile", log_compile_event=True, metadata={"backend": "eager"}):
            get_chromium_event_logger().add_event_data("backend_compile", graph_ops=4)
        with timed("not_a_compile_event"):
            pass
    backend, compile_row = get_compile_events()
    assert backend.name == "backend_compile" and backend.compile_id == "0/2"
    assert backend.metadata == {"backend": "eager", "graph_ops": 4}
    assert backend.duration_us >= 0 and backend.start_us > 0
    assert backend.row()["backend"] == "eager" and backend.row()["name"] == "backend_compile"
    assert compile_row.name == "compile" and compile_row.metadata["co_name"] == "f"
    assert "backend_compile" in repr(backend)
    clear_compile_events()
    assert get_compile_events() == []
