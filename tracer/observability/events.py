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
from collections.abc import Callable
from typing import Any

from tracer import config
from tracer.observability import trace_log
from tracer.observability.compile_context import current_compile_id, current_tag


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


class Span:
    """One event between its start and its end: what the stored "B" and "E" records point at.

    The compile path stores `("B", span)` and `("E", span)` and nothing else (NOTE [lazy
    events]); the Chrome dicts are built from the span when someone reads them. `args` are the
    start's arguments and never change once stored (NOTE [shared args]: spans without metadata
    share their compile's one `{"compile_id": ...}` dict, so readers copy before changing
    anything); data added while the span is open goes to `added`, which only the "E" carries.
    Data can also be added as a function that computes it (`add_later`), called only when the
    arguments are read, as if its result had been added when `add_later` was called.
    """

    __slots__ = (
        "added", "args", "cat", "compile_event", "end_ns", "later", "name", "start_ns", "tid"
    )  # fmt: skip
    start_ns: int
    tid: int
    args: dict[str, Any]

    def __init__(self, name: str, compile_event: bool, cat: str = "dynamo_timed") -> None:
        self.name = name
        self.compile_event = compile_event
        self.cat = cat
        self.end_ns = 0
        self.added: dict[str, Any] | None = None
        self.later: Callable[[], dict[str, Any]] | None = None
        # start_ns, tid and args are set by ChromiumEventLogger.open

    def __repr__(self) -> str:
        state = f"{(self.end_ns - self.start_ns) // 1000}us" if self.end_ns else "open"
        args = getattr(self, "args", None)
        self._settle()
        return f"Span({self.name!r}, {state}, args={args}, added={self.added})"

    def end_args(self) -> dict[str, Any]:
        """The arguments the "E" carries: the start's, plus everything added since."""
        self._settle()
        return {**self.args, **self.added} if self.added else self.args

    def add(self, data: dict[str, Any]) -> None:
        self._settle()
        self.added = {**self.added, **data} if self.added else dict(data)

    def add_later(self, compute: Callable[[], dict[str, Any]]) -> None:
        """`add(compute())`, with `compute` called when the arguments are first read (or more
        data is added): the compile's summary (tracer.observability.metrics) is built only if
        read."""
        self._settle()
        self.later = compute

    def _settle(self) -> None:
        later = self.later
        if later is not None:
            self.later = None
            data = later()
            self.added = {**self.added, **data} if self.added else dict(data)


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.stack: list[Span] = []
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
        limit = self._knobs.chromium_event_limit
        # NOTE [lazy events]: the compile path stores ("B", span), ("E", span) and ("i", ...)
        # records; the Chrome dicts and the CompileEvent rows are built only when someone reads
        # them, so every read builds fresh dicts that the reader may change.
        self._events: deque[tuple[str, Any]] = deque(maxlen=limit)
        self._compile_events: deque[Span | tuple[Any, ...]] = deque(maxlen=limit)

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
        if self.enabled:
            self.sync_limit()
            self.open(Span(name, log_compile_event, cat), time_ns, metadata)

    def log_event_end(
        self, name: str, time_ns: int, metadata: dict[str, Any] | None = None
    ) -> None:
        """Close `name`, which must be the innermost open event; its "E" carries all added data."""
        if not self.enabled:
            return
        stack = self._tls.stack
        if not stack or stack[-1].name != name:
            raise RuntimeError(self._unbalanced(name))
        span = stack[-1]
        if metadata:
            span.add(metadata)
        self.close(span, time_ns)

    def sync_limit(self) -> None:
        """Apply a changed `config.chromium_event_limit` (config.patch); checked once per
        compile and per public start/instant call rather than on every span."""
        knobs = config.current()
        if knobs is not self._knobs:
            self._resize(knobs)

    def open(self, span: Span, time_ns: int, metadata: dict[str, Any] | None) -> None:
        """Start `span`: push it, store its "B"."""
        tls = self._tls
        span.start_ns = time_ns
        span.tid = tls.tid
        span.args = _with_compile_id(metadata)
        tls.stack.append(span)
        self._events.append(("B", span))
        if trace_log._active and trace_log.is_enabled():  # no call while logging is off
            self._log(("B", span))

    def close(self, span: Span, time_ns: int) -> None:
        """End `span`, which must be the innermost open one: pop it, store its "E"."""
        stack = self._tls.stack
        if not stack or stack[-1] is not span:
            raise RuntimeError(self._unbalanced(span.name))
        stack.pop()
        span.end_ns = time_ns
        self._events.append(("E", span))
        if span.compile_event:
            self._compile_events.append(span)
        if trace_log._active and trace_log.is_enabled():  # no call while logging is off
            self._log(("E", span))

    def _unbalanced(self, name: str) -> str:
        stack = self._tls.stack
        top = stack[-1].name if stack else None
        return (
            f"cannot end event {name!r}: the innermost open event on this thread is {top!r} "
            f"(open: {[e.name for e in stack]}); events must end innermost first"
        )

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
        self.sync_limit()
        args = _with_compile_id(metadata)
        record = ("i", (name, time_ns, self._tls.tid, args, scope))
        self._events.append(record)
        if log_compile_event:
            self._compile_events.append((name, time_ns, time_ns, args))
        if trace_log._active and trace_log.is_enabled():  # no call while logging is off
            self._log(record)

    def add_event_data(self, event_name: str, **kwargs: Any) -> None:
        """Merge `kwargs` into the args that the open event `event_name` will end with."""
        if not self.enabled:
            return
        for opened in reversed(self._tls.stack):
            if opened.name == event_name:
                opened.add(kwargs)
                return
        raise RuntimeError(
            f"event {event_name!r} is not in progress on this thread "
            f"(open: {self.get_stack()}); data can only be added between its start and its end"
        )

    def add_toplevel_event_data(self, **kwargs: Any) -> str | None:
        """Add to the outermost open event of the current compile; returns its name, or None."""
        span = self._toplevel()
        if span is None:
            return None
        span.add(kwargs)
        return span.name

    def add_toplevel_event_data_later(self, compute: Callable[[], dict[str, Any]]) -> str | None:
        """`add_toplevel_event_data(**compute())`, with `compute` called only when the event's
        arguments are read (`Span.add_later`)."""
        span = self._toplevel()
        if span is None:
            return None
        span.add_later(compute)
        return span.name

    def _toplevel(self) -> Span | None:
        """The outermost open event of the current compile (None when disabled or none)."""
        if not self.enabled:
            return None
        cid = current_compile_id()
        wanted = None if cid is None else cid.text
        for opened in self._tls.stack:
            if wanted is None or opened.args.get("compile_id") == wanted:
                return opened
        return None

    def finished_compile_spans(self) -> list[Span]:
        """This thread's compile-event spans that ended inside the current compile's outermost
        open span, oldest first: the phases of the compile now ending (the metrics store's
        rows). Read backwards from the newest, stopping at the first that ended before it."""
        top = self._toplevel()
        if top is None:
            return []
        tid, start = top.tid, top.start_ns
        found = []
        for raw in reversed(self._compile_events):
            if isinstance(raw, Span) and raw.tid == tid:
                if raw.end_ns < start:
                    break
                found.append(raw)
        found.reverse()
        return found

    def get_stack(self) -> list[str]:
        """Names of the events open on this thread, outermost first."""
        return [e.name for e in self._tls.stack]

    def get_outermost_event(self) -> str | None:
        stack = self._tls.stack
        return stack[0].name if stack else None

    def events(self) -> list[dict[str, Any]]:
        return [self._as_dict(record) for record in self._events]

    def compile_events(self) -> list[CompileEvent]:
        return [_as_row(raw) for raw in self._compile_events]

    def clear_compile_events(self) -> None:
        self._compile_events.clear()

    def reset(self) -> None:
        """Forget stored events, compile events and this thread's open events."""
        self._events.clear()
        self._compile_events.clear()
        self._tls.stack.clear()

    def _as_dict(self, record: tuple[str, Any]) -> dict[str, Any]:
        ph, data = record
        if ph == "i":
            name, time_ns, tid, args, scope = data
            event = self._chrome(name, ph, time_ns, tid, "dynamo_timed", args)
            event["s"] = scope
            return event
        span: Span = data
        if ph == "B":
            return self._chrome(span.name, ph, span.start_ns, span.tid, span.cat, span.args)
        return self._chrome(span.name, ph, span.end_ns, span.tid, "dynamo_timed", span.end_args())

    def _chrome(
        self, name: str, ph: str, time_ns: int, tid: int, cat: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "name": name,
            "ph": ph,
            "ts": time_ns / 1000,
            "pid": self._pid,
            "tid": tid,
            "cat": cat,
            "args": dict(args),  # a fresh dict: readers may change theirs
        }

    def _log(self, record: tuple[str, Any]) -> None:
        compact = json.dumps(self._as_dict(record), default=str)
        trace_log.trace_structured("chromium_event", payload=compact, expect_trace_id=False)

    def _resize(self, knobs: config.Config) -> None:
        self._knobs = knobs
        limit = knobs.chromium_event_limit
        if self._events.maxlen != limit:
            self._events = deque(self._events, maxlen=limit)
            self._compile_events = deque(self._compile_events, maxlen=limit)


def _as_row(raw: Span | tuple[Any, ...]) -> CompileEvent:
    if isinstance(raw, Span):
        name, start_ns, end_ns, args = raw.name, raw.start_ns, raw.end_ns, raw.end_args()
    else:
        name, start_ns, end_ns, args = raw
    columns = {k: v for k, v in args.items() if k != "compile_id"}
    return CompileEvent(
        name, args.get("compile_id"), start_ns // 1000, (end_ns - start_ns) // 1000, columns
    )


def _with_compile_id(metadata: dict[str, Any] | None) -> dict[str, Any]:
    """`metadata` tagged with the current compile id (the caller's dict is untouched); without
    metadata, the compile's shared tag itself (NOTE [shared args]: stored args are not written).
    """
    tag = current_tag()
    return {**metadata, **tag} if metadata else tag


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
