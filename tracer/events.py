"""Chrome Trace Event records (B/E/i) for compile phases, kept in memory and in the trace log.

Each thread keeps its own stack of open events and an end must match the top of that stack, so a
missing `finally` shows up as an error rather than as a silently unbalanced trace. Spans started
with `log_compile_event=True` also become rows of the compile-events table (one row per span, its
metadata as columns), the small "what did each compile spend its time on" view.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections import deque
from typing import Any

from tracer import config, trace_log
from tracer.compile_context import current_compile_id


@dataclasses.dataclass(frozen=True, slots=True)
class CompileEvent:
    """One finished compile-phase span; `metadata` holds the span's args as extra columns."""

    name: str
    compile_id: str | None
    start_us: int
    duration_us: int
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        """Flat dict, metadata as columns (fixed columns win on a name clash)."""
        fixed = {"name": self.name, "compile_id": self.compile_id}
        times = {"start_us": self.start_us, "duration_us": self.duration_us}
        return {**self.metadata, **fixed, **times}

    def __repr__(self) -> str:
        extra = f" {self.metadata}" if self.metadata else ""
        return f"CompileEvent({self.name!r} [{self.compile_id}] {self.duration_us}us{extra})"


@dataclasses.dataclass(slots=True)
class _OpenEvent:
    name: str
    start_ns: int
    args: dict[str, Any]
    compile_event: bool


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.stack: list[_OpenEvent] = []
        self.tid = threading.get_native_id()


class ChromiumEventLogger:
    """Collects events in the Chrome Trace Event format (ts in µs; pid/tid identify the thread).

    >>> log = ChromiumEventLogger()
    >>> log.log_event_start("compile", 1_000_000, {})
    >>> log.add_event_data("compile", co_name="f")
    >>> log.log_event_end("compile", 3_000_000, {})
    >>> [(e["name"], e["ph"], e["ts"], e["args"]) for e in log.events()]
    [('compile', 'B', 1000.0, {}), ('compile', 'E', 3000.0, {'co_name': 'f'})]
    """

    def __init__(self) -> None:
        self.enabled = True
        """False turns every method into a no-op (see `metrics.disabled()`)."""
        self._tls = _ThreadState()
        self._pid = os.getpid()
        self._knobs = config.current()
        limit = config.current().chromium_event_limit
        # NOTE [lazy events]: the compile path stores plain tuples; the Chrome dicts and the
        # CompileEvent rows are built only when someone reads them (this keeps metrics cheap).
        self._events: deque[tuple[Any, ...]] = deque(maxlen=limit)
        self._compile_events: deque[tuple[Any, ...]] = deque(maxlen=limit)

    def __repr__(self) -> str:
        open_names = [e.name for e in self._tls.stack]
        return f"ChromiumEventLogger({len(self._events)} events, open here: {open_names})"

    def log_event_start(
        self,
        name: str,
        time_ns: int,
        metadata: dict[str, Any] | None = None,
        cat: str = "dynamo_timed",
        *,
        log_compile_event: bool = False,
    ) -> None:
        """Open `name` on this thread's stack and emit its "B" event."""
        if not self.enabled:
            return
        args = _with_compile_id(metadata)
        self._tls.stack.append(_OpenEvent(name, time_ns, args, log_compile_event))
        self._store(self._event(name, "B", time_ns, cat, dict(args)))

    def log_event_end(
        self, name: str, time_ns: int, metadata: dict[str, Any] | None = None
    ) -> None:
        """Close `name`, which must be the innermost open event; its "E" carries all added data."""
        if not self.enabled:
            return
        stack = self._tls.stack
        if not stack or stack[-1].name != name:
            top = stack[-1].name if stack else None
            raise RuntimeError(
                f"cannot end event {name!r}: the innermost open event on this thread is {top!r} "
                f"(open: {[e.name for e in stack]}); events must end innermost first"
            )
        opened = stack.pop()
        args = {**opened.args, **(metadata or {})}
        self._store(self._event(name, "E", time_ns, "dynamo_timed", args))
        if opened.compile_event:
            self._add_compile_event(name, opened.start_ns, time_ns, args)

    def log_instant_event(
        self,
        name: str,
        time_ns: int,
        metadata: dict[str, Any] | None = None,
        *,
        scope: str = "p",
        log_compile_event: bool = False,
    ) -> None:
        """An "i" event (recompile, graph break, cache hit); `scope` is "p" (process) or "t"."""
        if not self.enabled:
            return
        if scope not in ("p", "t"):
            raise ValueError(f"instant event scope must be 'p' or 't', got {scope!r}")
        args = _with_compile_id(metadata)
        self._store((name, "i", time_ns, self._tls.tid, "dynamo_timed", args, scope))
        if log_compile_event:
            self._add_compile_event(name, time_ns, time_ns, args)

    def add_event_data(self, event_name: str, **kwargs: Any) -> None:
        """Merge `kwargs` into the args that the open event `event_name` will end with."""
        if not self.enabled:
            return
        for opened in reversed(self._tls.stack):
            if opened.name == event_name:
                opened.args.update(kwargs)
                return
        raise RuntimeError(
            f"event {event_name!r} is not in progress on this thread "
            f"(open: {self.get_stack()}); data can only be added between its start and its end"
        )

    def add_toplevel_event_data(self, **kwargs: Any) -> str | None:
        """Add to the outermost open event of the current compile; returns its name, or None."""
        if not self.enabled:
            return None
        cid = current_compile_id()
        wanted = None if cid is None else str(cid)
        for opened in self._tls.stack:
            if wanted is None or opened.args.get("compile_id") == wanted:
                opened.args.update(kwargs)
                return opened.name
        return None

    def get_stack(self) -> list[str]:
        """Names of the events open on this thread, outermost first."""
        return [e.name for e in self._tls.stack]

    def get_outermost_event(self) -> str | None:
        stack = self._tls.stack
        return stack[0].name if stack else None

    def events(self) -> list[dict[str, Any]]:
        return [self._as_dict(raw) for raw in self._events]

    def compile_events(self) -> list[CompileEvent]:
        return [_as_row(raw) for raw in self._compile_events]

    def clear_compile_events(self) -> None:
        self._compile_events.clear()

    def reset(self) -> None:
        """Forget stored events, compile events and this thread's open events."""
        self._events.clear()
        self._compile_events.clear()
        self._tls.stack.clear()

    def _event(
        self, name: str, ph: str, time_ns: int, cat: str, args: dict[str, Any]
    ) -> tuple[Any, ...]:
        return (name, ph, time_ns, self._tls.tid, cat, args, None)

    def _as_dict(self, raw: tuple[Any, ...]) -> dict[str, Any]:
        name, ph, time_ns, tid, cat, args, scope = raw
        event = {
            "name": name,
            "ph": ph,
            "ts": time_ns / 1000,
            "pid": self._pid,
            "tid": tid,
            "cat": cat,
            "args": args,
        }
        if scope is not None:
            event["s"] = scope
        return event

    def _store(self, event: tuple[Any, ...]) -> None:
        knobs = config.current()
        if knobs is not self._knobs:  # the limit may have changed (config.patch)
            self._knobs = knobs
            if self._events.maxlen != knobs.chromium_event_limit:
                self._events = deque(self._events, maxlen=knobs.chromium_event_limit)
        self._events.append(event)
        if trace_log.is_enabled():
            compact = json.dumps(self._as_dict(event), default=str)
            trace_log.trace_structured("chromium_event", payload=compact, expect_trace_id=False)

    def _add_compile_event(
        self, name: str, start_ns: int, end_ns: int, args: dict[str, Any]
    ) -> None:
        limit = config.current().chromium_event_limit
        if self._compile_events.maxlen != limit:
            self._compile_events = deque(self._compile_events, maxlen=limit)
        self._compile_events.append((name, start_ns, end_ns, args))


def _as_row(raw: tuple[Any, ...]) -> CompileEvent:
    name, start_ns, end_ns, args = raw
    columns = {k: v for k, v in args.items() if k != "compile_id"}
    return CompileEvent(
        name, args.get("compile_id"), start_ns // 1000, (end_ns - start_ns) // 1000, columns
    )


def _with_compile_id(metadata: dict[str, Any] | None) -> dict[str, Any]:
    """A copy of `metadata` tagged with the current compile id (the caller's dict is untouched)."""
    args = dict(metadata) if metadata else {}
    cid = current_compile_id()
    if cid is not None:
        args["compile_id"] = cid.text
    return args


_logger = ChromiumEventLogger()


def get_chromium_event_logger() -> ChromiumEventLogger:
    return _logger


def get_chromium_events() -> list[dict[str, Any]]:
    """Stored events, oldest first (bounded by `config.chromium_event_limit`)."""
    return _logger.events()


def export_chrome_trace(path: str | os.PathLike[str]) -> None:
    """Write the stored events as a Chrome trace JSON file (opens in Perfetto or chrome://tracing)."""
    document = {"traceEvents": _logger.events(), "displayTimeUnit": "ms"}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out, default=str)


def get_compile_events() -> list[CompileEvent]:
    """Finished compile-phase spans, oldest first."""
    return _logger.compile_events()


def clear_compile_events() -> None:
    _logger.clear_compile_events()
