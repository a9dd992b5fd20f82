"""Two threads compiling at once keep separate event stacks, compile ids and metrics."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.observability.test_events import assert_valid_chrome_trace
from tracer.observability.compile_context import CompileId, compile_context
from tracer.observability.events import get_chromium_event_logger, get_chromium_events
from tracer.observability.metrics import (
    get_compilation_metrics,
    get_metrics_context,
    metrics_context,
    timed,
)


def test_two_threads_compile_at_once() -> None:
    barrier = threading.Barrier(2, timeout=10)
    stacks: dict[int, list[str]] = {}

    def compile_frame(frame_id: int) -> None:
        with compile_context(CompileId(frame_id, 0)), metrics_context():
            ctx = get_metrics_context()
            ctx.set("co_name", f"f{frame_id}")
            with timed("bytecode_tracing", metrics_column="bytecode_tracing_time_us"):
                barrier.wait()  # both threads are now inside their spans
                stacks[frame_id] = get_chromium_event_logger().get_stack()
                ctx.increment("graph_break_count", frame_id + 1)
                barrier.wait()

    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(compile_frame, i) for i in range(2)]:
            future.result()  # re-raises a failure from the worker thread

    assert stacks == {0: ["compile", "bytecode_tracing"], 1: ["compile", "bytecode_tracing"]}
    by_id: dict[str | None, Any] = {r.compile_id: r for r in get_compilation_metrics()}
    assert set(by_id) == {"0/0", "1/0"}
    assert (by_id["0/0"].co_name, by_id["0/0"].graph_break_count) == ("f0", 1)
    assert (by_id["1/0"].co_name, by_id["1/0"].graph_break_count) == ("f1", 2)

    events = get_chromium_events()
    assert len({e["tid"] for e in events}) == 2
    for event in events:
        expected = "0/0" if event["tid"] == events[0]["tid"] else "1/0"
        assert event["args"]["compile_id"] == expected
    assert_valid_chrome_trace({"traceEvents": events, "displayTimeUnit": "ms"})
    assert get_chromium_event_logger().get_stack() == []
