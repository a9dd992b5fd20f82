"""Every test starts with empty event, compile-event and metrics stores and the trace log off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.observability.tlparse_checks import write_simulated_compiles
from tracer.observability import logs, trace_log
from tracer.observability.events import get_chromium_event_logger
from tracer.observability.metrics import clear_compilation_metrics


@pytest.fixture(autouse=True)
def clean_observability(tmp_path: Path) -> Iterator[None]:
    get_chromium_event_logger().reset()
    clear_compilation_metrics()
    with trace_log.suspended():
        yield
    get_chromium_event_logger().reset()
    clear_compilation_metrics()
    logs.set_logs()


@pytest.fixture
def trace_dir(tmp_path: Path) -> Iterator[Path]:
    """The trace log on, writing under a fresh directory."""
    with trace_log.tracing_to(tmp_path / "trace"):
        yield tmp_path / "trace"


@pytest.fixture
def simulated_trace_log(tmp_path: Path) -> Path:
    """A structured log of three simulated compiles (0/0, 0/1 recompile, 1/0 graph break)."""
    return write_simulated_compiles(tmp_path / "simulated")
