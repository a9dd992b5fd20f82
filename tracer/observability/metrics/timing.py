"""Timed phases and the per-thread MetricsContext: how a compile's time reaches its metrics.

`timed(...)` is a chromium span that also adds its elapsed µs to a CompilationMetrics column.
`disabled()` swaps all of it, the trace log and the recording of CompilationMetrics for no-ops,
so a benchmark can measure what observability costs.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from types import TracebackType
from typing import Any

from tracer.observability import trace_log
from tracer.observability.events import Span, get_chromium_event_logger
from tracer.observability.metrics.compilation import FIELD_NAMES, defer_compilation_metrics
from tracer.observability.metrics.context import MetricsContext

log = logging.getLogger("modetrace.metrics")

_stubbed = False
_events = get_chromium_event_logger()
_NOOP: AbstractContextManager[None] = contextlib.nullcontext()


def _record_unless_stubbed(
    start_ns: int,
    end_ns: int,
    metrics: dict[str, Any],
    exc_type: type[BaseException] | None,
    exc_value: BaseException | None,
) -> None:
    """Record, but never let a metrics bug replace the compile's own outcome."""
    if _stubbed:
        return
    try:
        defer_compilation_metrics(start_ns, end_ns, metrics, exc_type, exc_value)
    except Exception:
        log.exception("recording CompilationMetrics failed; metrics were %r", metrics)


class _ThreadMetrics(threading.local):
    def __init__(self) -> None:
        self.context = MetricsContext(_record_unless_stubbed, FIELD_NAMES)


_threads = _ThreadMetrics()
_TIME_COLUMNS = frozenset(name for name in FIELD_NAMES if name.endswith("_us"))


def get_metrics_context() -> MetricsContext:
    """This thread's MetricsContext (enter it with `with` to start a compile's metrics)."""
    return _threads.context


def metrics_context(
    event_name: str | None = "compile", metadata: dict[str, Any] | None = None
) -> AbstractContextManager[MetricsContext]:
    """Enter this thread's MetricsContext; at the outermost level, inside an `event_name` span.

    The span encloses the context, so it is still open when the CompilationMetrics record is made
    and its "E" event carries the record's summary (co_name, guard_count, fail_type, ...).
    Pass `event_name=None` for the bare context.
    """
    ctx = get_metrics_context()
    if event_name is None or ctx.in_progress():
        return ctx
    return _CompileScope(ctx, timed(event_name, log_compile_event=True, metadata=metadata))


class _CompileScope:
    """The outermost MetricsContext inside its top-level span."""

    __slots__ = ("_ctx", "_span")

    def __init__(self, ctx: MetricsContext, span: AbstractContextManager[None]) -> None:
        self._ctx = ctx
        self._span = span

    def __repr__(self) -> str:
        return f"_CompileScope({self._span!r}, {self._ctx!r})"

    def __enter__(self) -> MetricsContext:
        _events.sync_limit()
        self._span.__enter__()
        try:
            return self._ctx.__enter__()
        except BaseException:
            self._span.__exit__(*sys.exc_info())
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self._ctx.__exit__(exc_type, exc_value, tb)
        finally:
            self._span.__exit__(exc_type, exc_value, tb)


class _Timed:
    """A timed phase: a chromium span, and the elapsed µs added to a metrics column.

    Entering opens the span on this thread's event stack (`ChromiumEventLogger.open`); leaving
    closes it (`close`, which raises when the span is not the innermost open one) and adds the
    elapsed time to the compile's `column`, even when the body raised.
    """

    __slots__ = ("_column", "_metadata", "_span")

    def __init__(
        self, event: str, metadata: dict[str, Any] | None, column: str | None, compile_event: bool
    ) -> None:
        self._span = Span(event, compile_event)
        self._metadata = metadata
        self._column = column

    def __repr__(self) -> str:
        return f"timed({self._span.name!r}, metrics_column={self._column!r})"

    def __enter__(self) -> None:
        _events.open(self._span, time.time_ns(), self._metadata)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        end = time.time_ns()
        if self._column is not None:
            _threads.context.add_time(self._column, (end - self._span.start_ns) // 1000)
        _events.close(self._span, end)


def timed(
    event_name: str,
    *,
    phase_name: str | None = None,
    metrics_column: str | None = None,
    log_compile_event: bool = False,
    metadata: dict[str, Any] | None = None,
) -> AbstractContextManager[None]:
    """Time the body as a chromium span; add its µs to `metrics_column` of the compile in progress.

    The span is named `phase_name` when given (with `fn_name=event_name` in its args), else
    `event_name`. The end event is emitted even when the body raises. With `log_compile_event`
    the span is also a row of the compile-events table, `metadata` as its columns.
    """
    assert metrics_column is None or metrics_column in _TIME_COLUMNS, (
        f"metrics_column {metrics_column!r} must be a CompilationMetrics field ending in _us"
    )
    if _stubbed or not _events.enabled:
        return _NOOP
    if phase_name is not None:
        metadata = {"fn_name": event_name, **(metadata or {})}
        event_name = phase_name
    return _Timed(event_name, metadata, metrics_column, log_compile_event)


@contextmanager
def disabled() -> Iterator[None]:
    """Stub out timed spans, chromium events, the trace log and metrics recording (process-wide).

    MetricsContext mutators keep working, so the compile pipeline runs unchanged; only the
    observability work disappears. Meant for benchmarks comparing compile time with it on and off.
    """
    global _stubbed
    saved = _stubbed, _events.enabled
    _stubbed, _events.enabled = True, False
    try:
        with trace_log.suspended():
            yield
    finally:
        _stubbed, _events.enabled = saved
