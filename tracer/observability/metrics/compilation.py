"""CompilationMetrics, one record per compile, and the single place that fills the common fields.

`defer_compilation_metrics` is the MetricsContext exit hook: it adds what every compile shares
(ids, times, failure, versions, config), lets values set during the compile win, stores the record
in a bounded history, writes it to the trace log for tlparse and onto the compile's chromium event;
the record itself is built when first read (NOTE [records built on read]).
`record_compilation_metrics` does the same and builds the record at once.
"""

from __future__ import annotations

import dataclasses
import logging
import operator
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from tracer import config
from tracer.observability import trace_log
from tracer.observability.compile_context import current_compile_id
from tracer.observability.events import get_chromium_event_logger
from tracer.version import __version__

log = logging.getLogger("modetrace.metrics")


@dataclasses.dataclass(slots=True)
class CompilationMetrics:
    """What one compile of one frame did and cost. Every field is optional (None = not known).

    Conventions: times are integer microseconds ending in `_us`; a phase that contains other
    phases is `..._cumulative_...`; work done when the compiled code runs is `runtime_...`.
    Counts set during a compile win over the defaults filled in centrally.
    """

    # --- identity of the compiled frame
    compile_id: str | None = None
    """`frame_id/frame_compile_id` (`_attempt` when restarted), as in the log envelopes."""
    frame_key: str | None = None
    """Key of the frame in the lead's frame table (stable across recompiles of one code object)."""
    co_name: str | None = None
    co_filename: str | None = None
    co_firstlineno: int | None = None
    is_forward: bool | None = None
    """Kept for tlparse familiarity; modetrace has no backward graphs, so True when set."""

    # --- cache and graph sizes
    cache_size: int | None = None
    """Cache entries of this code object before this compile."""
    accumulated_cache_size: int | None = None
    """Cache entries including those of other code objects the frame inlines (lead decides)."""
    guard_count: int | None = None
    shape_env_guard_count: int | None = None
    """Symbolic-shape guards; modetrace has no dynamic shapes yet, so usually None."""
    graph_op_count: int | None = None
    """call_function/call_method nodes; tlparse shows 0 or missing as an "empty" compile."""
    graph_node_count: int | None = None
    graph_input_count: int | None = None
    traced_instruction_count: int | None = None
    """Bytecode instructions stepped, inlined frames included (compare with instruction_budget)."""
    inline_depth_max: int | None = None
    """Deepest user-function inlining reached."""
    has_guarded_code: bool | None = None
    """True when the compile produced a cache entry (False after a fallback to plain Python)."""

    # --- times (integer microseconds)
    start_time_us: int | None = None
    end_time_us: int | None = None
    duration_us: int | None = None
    """Wall time of the outermost MetricsContext, i.e. of the whole compile."""
    entire_frame_compile_time_us: int | None = None
    """The whole compile phase (contains the phases below; name kept as the pipeline calls it)."""
    bytecode_tracing_time_us: int | None = None
    build_guards_time_us: int | None = None
    backend_compile_time_us: int | None = None
    codegen_time_us: int | None = None
    graph_pass_time_us: int | None = None
    structured_logging_overhead_us: int | None = None
    """Time spent writing trace-log lines for this compile (all attempts)."""

    # --- the graph cache (tracer/graph_cache/), under PyTorch's FX graph cache names
    inductor_fx_cache_hit_count: int | None = None
    """Graphs of this compile whose backend output came from the graph cache."""
    inductor_fx_cache_miss_count: int | None = None
    """Graphs of this compile the backend compiled because no usable entry was found."""
    inductor_fx_cache_backend_type: str | None = None
    """Which cache answered the last lookup: "local" or "remote" for a hit; for a miss,
    "remote" when a remote cache was asked too, else "local"."""
    inductor_fx_cache_hit_keys: list[str] | None = None
    inductor_fx_cache_miss_keys: list[str] | None = None
    remote_cache_version: int | None = None
    """The remote cache's layout version, when a remote cache was used."""
    remote_fx_graph_cache_get_time_us: int | None = None
    """Time spent reading from the remote cache (Redis)."""
    remote_fx_graph_cache_put_time_us: int | None = None
    """Time spent writing to the remote cache (Redis)."""
    remote_cache_time_saved_us: int | None = None
    """The compile time recorded with the entries of this compile's hits, local or remote (as
    Dynamo adds it to the frame's phase timing; PyTorch's `remote_cache_time_saved_s`)."""

    # --- failures, restarts, recompiles, graph breaks
    fail_type: str | None = None
    """Qualified name of the exception that ended the compile."""
    fail_reason: str | None = None
    fail_user_location: str | None = None
    """`user_file.py:LINE` where the failure happened in user code."""
    fail_user_frame_filename: str | None = None
    fail_user_frame_lineno: int | None = None
    restart_reasons: list[str] | None = None
    """Why the compile restarted; [] (not None) when it did not, so tlparse shows it green."""
    recompile_reason: str | None = None
    """The guard failure that caused this recompile (None for a first compile)."""
    recompile_guard_failures: list[dict[str, Any]] | None = None
    """`recompile_reason` in parts: per cache entry, its first failing guard as `cache_entry`,
    `kind`, `source`, `expected`, `actual`, `location` (`file.py:LINE`), for aggregating."""
    graph_break_count: int | None = None
    graph_break_reasons: list[str] | None = None
    non_compliant_ops: list[str] | None = None
    compliant_custom_ops: list[str] | None = None
    feature_usage: dict[str, bool] | None = None
    """Optional features a compile used or declined (`set_key_value("feature_usage", ...)`)."""

    # --- environment
    config: dict[str, Any] | None = None
    """`config.current().snapshot()` at the end of the compile."""
    modetrace_version: str | None = None
    python_version: str | None = None

    @classmethod
    def create(cls, metrics: dict[str, Any]) -> CompilationMetrics:
        """Build from a metrics dict; sets become sorted lists so the record is JSON-ready."""
        return cls(**_json_ready(metrics))

    def to_dict(self) -> dict[str, Any]:
        """The set fields only (None dropped); JSON-serializable."""
        return {f.name: v for f in _FIELDS if (v := getattr(self, f.name)) is not None}

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "config")
        return f"CompilationMetrics({shown})"


_FIELDS = dataclasses.fields(CompilationMetrics)
FIELD_NAMES = frozenset(f.name for f in _FIELDS)

_DEFAULT_COUNTS = dict.fromkeys(
    ("guard_count", "graph_op_count", "graph_node_count", "graph_input_count", "graph_break_count"),
    0,
)
_SAME_FOR_EVERY_COMPILE = {
    **_DEFAULT_COUNTS,
    "modetrace_version": __version__,
    "python_version": sys.version,
}
"""The common fields whose values do not depend on the compile (counts it may set win)."""
_SAME_VALUES = tuple(_SAME_FOR_EVERY_COMPILE.values())
_CHROMIUM_FIELDS = (
    *("frame_key", "co_name", "co_filename", "co_firstlineno", "cache_size"),
    *("accumulated_cache_size", "guard_count", "shape_env_guard_count", "graph_op_count"),
    *("graph_node_count", "graph_input_count", "fail_type", "fail_reason", "fail_user_location"),
    *("non_compliant_ops", "compliant_custom_ops", "restart_reasons", "recompile_reason"),
    *("graph_break_count", "has_guarded_code", "duration_us"),
)
"""The summary copied onto the compile's chromium event, so a trace viewer shows it too."""
_REPO = Path(__file__).resolve().parents[2]
_OWN_PACKAGES = tuple(f"{_REPO / name}/" for name in ("tracer", "guards", "variables"))

_history: deque[_Captured] = deque(maxlen=config.current().metrics_limit)


def record_compilation_metrics(
    start_ns: int,
    end_ns: int,
    metrics: dict[str, Any],
    exc_type: type[BaseException] | None,
    exc_value: BaseException | None,
) -> CompilationMetrics:
    """Turn one compile's metrics into a CompilationMetrics and publish it everywhere it goes."""
    return _publish(_Captured(start_ns, end_ns, metrics, exc_value)).record()


def defer_compilation_metrics(
    start_ns: int,
    end_ns: int,
    metrics: dict[str, Any],
    exc_type: type[BaseException] | None,
    exc_value: BaseException | None,
) -> None:
    """`record_compilation_metrics` as every compile's end runs it: what the record depends on
    is captured now, the record and its chromium summary are built when first read (NOTE
    [records built on read])."""
    _publish(_Captured(start_ns, end_ns, metrics, exc_value))


# NOTE [records built on read]: a compile's end captures what its CompilationMetrics depends on
# and may change later (the compile id, the trace log's overhead so far, the config, the
# failure), plus its metrics dict, which the MetricsContext never touches again (the next
# compile starts a new one). Building the record, its values dict and the summary on the
# compile's chromium event waits until someone reads them (`get_compilation_metrics`, the
# events), or is done at once when the trace log wants the record. Since every input was
# captured at the compile's end, a record read later is the record of that moment: later
# compiles, config changes or trace-log writes do not show in it.


class _Captured:
    """One compile's CompilationMetrics, captured at its end and built on first read."""

    __slots__ = (
        "_cid", "_end_ns", "_failure", "_knobs", "_metrics", "_overhead_us", "_record",
        "_start_ns", "_values",
    )  # fmt: skip

    def __init__(
        self,
        start_ns: int,
        end_ns: int,
        metrics: dict[str, Any],
        exc_value: BaseException | None,
    ) -> None:
        cid = current_compile_id()
        self._cid = cid
        self._start_ns = start_ns
        self._end_ns = end_ns
        self._overhead_us = trace_log.structured_logging_overhead_us(cid)
        self._failure = failure_metrics(exc_value) if exc_value is not None else None
        self._knobs = config.current()
        self._metrics = metrics
        self._values: dict[str, Any] | None = None
        self._record: CompilationMetrics | None = None

    def values(self) -> dict[str, Any]:
        """The record's fields: the common ones first, values set during the compile win. The
        config is the snapshot every compile under that config shares (the metrics store then
        sees the same object and encodes it once); `record()` gives the record its own copy."""
        if self._values is None:
            self._values = {
                **_SAME_FOR_EVERY_COMPILE,
                **dict(zip(_PER_COMPILE, self._per_compile(), strict=True)),
                **(self._failure or {}),
                **_json_ready(self._metrics),
            }
        return self._values

    def fields(self) -> tuple[Layout, tuple[Any, ...]]:
        """The fields of `values()` without building that dict (what the metrics store reads):
        a layout of their names (shared by the records whose failure and metrics dicts have the
        same keys in the same order) and their values in the layout's order."""
        failure, metrics = self._failure or _NO_FAILURE, self._metrics
        key = (tuple(failure), tuple(metrics))
        layout = _layouts.get(key)
        if layout is None:
            if len(_layouts) >= _MAX_LAYOUTS:
                _layouts.clear()
            layout = _layouts[key] = Layout(*key)
        if layout.sets:
            metrics = _json_ready(metrics)
        common = layout.pick((*_SAME_VALUES, *self._per_compile(), *failure.values()))
        return layout, (*common, *metrics.values())

    def _per_compile(self) -> tuple[Any, ...]:
        """The values of `_PER_COMPILE`."""
        cid, start_ns, end_ns = self._cid, self._start_ns, self._end_ns
        return (
            None if cid is None else cid.text,
            start_ns // 1000,
            end_ns // 1000,
            (end_ns - start_ns) // 1000,
            self._overhead_us,
            [],
            _snapshot(self._knobs),
        )

    def record(self) -> CompilationMetrics:
        if self._record is None:
            values = self.values()
            self._record = CompilationMetrics(**{**values, "config": dict(values["config"])})
        return self._record

    def chromium_summary(self) -> dict[str, Any]:
        return _chromium_summary(self.values())


_PER_COMPILE = (
    *("compile_id", "start_time_us", "end_time_us", "duration_us"),
    *("structured_logging_overhead_us", "restart_reasons", "config"),
)
"""The common fields every record has whose values are the compile's own (`_per_compile`)."""


class Layout:
    """The names of a record's fields (`_Captured.fields()`) for the records whose failure and
    metrics dicts have the same keys in the same order: the common fields and the failure's
    that the metrics do not set (values set during the compile win, as in `values()`), then the
    metrics'. `pick` takes the values of the first ones from the common fields' values and the
    failure's, one after the other; `sets` says whether the metrics have a list field (a set
    while the compile runs, `_json_ready`)."""

    __slots__ = ("names", "pick", "sets")

    def __init__(self, failure: tuple[str, ...], metrics: tuple[str, ...]) -> None:
        before = (*_SAME_FOR_EVERY_COMPILE, *_PER_COMPILE, *failure)
        kept = [k for k, name in enumerate(before) if name not in metrics]
        self.names = (*[before[k] for k in kept], *metrics)
        self.pick = _picker(kept)
        self.sets = not _LIST_FIELDS.isdisjoint(metrics)


def _picker(positions: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """The items of a tuple at `positions`, as a tuple (`itemgetter` returns a lone item bare)."""
    if len(positions) > 1:
        return operator.itemgetter(*positions)
    return lambda values: tuple(values[k] for k in positions)


_layouts: dict[tuple[tuple[str, ...], tuple[str, ...]], Layout] = {}
"""Layouts by the keys of the failure and metrics dicts (a few per process: compiles set the
same fields in the same order)."""
_MAX_LAYOUTS = 256
_NO_FAILURE: dict[str, Any] = {}


RecordSink = Callable[["_Captured"], object]
"""Receives every finished compile's captured record (the metrics store's `add`)."""
_sink: RecordSink | None = None


def set_record_sink(sink: RecordSink | None) -> None:
    """Send every finished compile to `sink` too (None: to nothing); the metrics store's hook."""
    global _sink
    _sink = sink


def _publish(captured: _Captured) -> _Captured:
    """Store the record, write it to the trace log, put its summary on the compile's event,
    hand it to the sink (the metrics store) if there is one."""
    _store(captured)
    if _sink is not None:
        _sink(captured)
    if trace_log.is_enabled():
        record = captured.record()
        trace_log.trace_structured(
            "compilation_metrics", lambda: _tlparse_view(record), record_overhead=False
        )
    get_chromium_event_logger().add_toplevel_event_data_later(captured.chromium_summary)
    return captured


def _chromium_summary(values: dict[str, Any]) -> dict[str, Any]:
    """The `_CHROMIUM_FIELDS` that are set (not None), in that order."""
    return {k: v for k in _CHROMIUM_FIELDS if (v := values.get(k)) is not None}


_LIST_FIELDS = frozenset(f.name for f in _FIELDS if str(f.type).startswith("list["))
"""The fields `add_to_set` fills (a set while the compile runs, a sorted list in the record)."""


def _json_ready(metrics: dict[str, Any]) -> dict[str, Any]:
    """Sets in list fields (from `add_to_set`) become sorted lists; the dict is copied only if
    it has any. Only the list fields are looked at: the few a compile sets, not every value."""
    if _LIST_FIELDS.isdisjoint(metrics):  # most compiles set none of them
        return metrics
    sets = [k for k in _LIST_FIELDS.intersection(metrics) if type(metrics[k]) is set]
    if not sets:
        return metrics
    return {**metrics, **{k: sorted(metrics[k], key=str) for k in sets}}


def failure_metrics(exc: BaseException) -> dict[str, Any]:
    """fail_type, fail_reason and the user's file:line for `exc`.

    Filled automatically when an exception leaves the compile; a pipeline that catches the error
    and falls back can record the same fields with `update_outer(failure_metrics(exc))`.
    """
    fields: dict[str, Any] = {"fail_type": type(exc).__qualname__, "fail_reason": str(exc)}
    where = _user_location(exc)
    if where is not None:
        filename, lineno = where
        fields |= {
            "fail_user_location": f"{filename}:{lineno}",
            "fail_user_frame_filename": filename,
            "fail_user_frame_lineno": lineno,
        }
    return fields


def _user_location(exc: BaseException) -> tuple[str, int] | None:
    """The user's file and line: the graph-break location if the error has one, else the
    innermost traceback frame outside modetrace's own packages."""
    location = getattr(getattr(exc, "reason", None), "location", None)
    if location is not None:
        return location.filename, location.lineno
    tb: TracebackType | None = exc.__traceback__
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not filename.startswith(_OWN_PACKAGES):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _tlparse_view(record: CompilationMetrics) -> dict[str, Any]:
    """The record plus the legacy seconds fields that tlparse's compilation_metrics page shows."""
    legacy = {
        "start_time": record.start_time_us,
        "entire_frame_compile_time_s": record.entire_frame_compile_time_us,
        "backend_compile_time_s": record.backend_compile_time_us,
    }
    seconds = {k: us / 1e6 for k, us in legacy.items() if us is not None}
    return {**seconds, **record.to_dict()}


_last_snapshot: tuple[config.Config, dict[str, Any]] | None = None


def _snapshot(knobs: config.Config) -> dict[str, Any]:
    """Config is frozen, so the snapshot of the last Config seen serves every compile until the
    config changes (kept by identity: hashing a Config hashes all its fields)."""
    global _last_snapshot
    last = _last_snapshot
    if last is None or last[0] is not knobs:
        last = _last_snapshot = (knobs, knobs.snapshot())
    return last[1]


def _store(captured: _Captured) -> None:
    global _history
    limit = config.current().metrics_limit
    if _history.maxlen != limit:
        _history = deque(_history, maxlen=limit)
    _history.append(captured)


def get_compilation_metrics() -> list[CompilationMetrics]:
    """Recorded compiles, oldest first (the newest `config.metrics_limit` are kept)."""
    return [captured.record() for captured in list(_history)]


def clear_compilation_metrics() -> None:
    _history.clear()
