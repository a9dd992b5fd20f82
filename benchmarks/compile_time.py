"""Compile time and per-call overhead, for modetrace and (when torch is installed) Dynamo.

`ModetraceBench` and `DynamoBench` each measure every workload once per `round(...)`; the caller
interleaves the rounds (modetrace round 1, Dynamo round 1, modetrace round 2, ...) and takes the
medians with `Samples.summary()`. Figures per workload, all from the same round:

- `eager_us`, `compiled_us`: per-call time of the plain function and of the compiled one;
  `overhead_us` their difference. In modetrace it can be negative: the compiled code calls the
  graph's kernels directly, skipping the Python-level dispatch of every op that eager code pays.
- modetrace only: `entry_run_us` (the cache entry's code called directly), `wrapper_overhead_us`
  (`compiled_us - entry_run_us`: binding, guard check, entry lookup) and `guard_check_us` (the
  generated guard check alone).
- `compile_us`: time of the first call, which compiles (and then runs once).
- modetrace only, from its CompilationMetrics: `duration_us` and the phases (`tracing_us`,
  `guards_us`, `backend_us`, `codegen_us`), `guard_count`, `traced_instructions` and
  `us_per_traced_instruction`; `metrics_on_off` (first-call time with metrics on over the same
  inside `tracer.metrics.disabled()`) and `log_overhead` (structured_logging_overhead_us over
  duration_us with the trace log writing into a temporary directory).
- modetrace, first workload only: `store_on_off`, STORE_BATCH first calls with the metrics store
  on (`tracer.metrics_store`), plus the one transaction that writes them, over the same first
  calls with the store off.
- Dynamo only: `dynamo_duration_us` from its own CompilationMetrics, when it has them.

The very first compile of each system in the process (imports, first-use caches) is measured
before the rounds and reported apart as `first_compile_in_process_us`, never in the medians.
"""

from __future__ import annotations

import gc
import importlib.util
import inspect
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from benchmarks.timing import (
    Call,
    calibrate,
    caller,
    interleaved_per_call_us,
    median,
    noop,
    once_us,
    per_call_us,
    ratio,
)
from benchmarks.workloads import Workload, make_workloads

STORE_BATCH = 32
"""Compiles per metrics-store transaction in the `store_on_off` figure: the store's default
(`store.DEFAULT_BATCH`, tests/benchmarks/test_store_line.py), so it measures what users get."""

PHASES = {
    "tracing_us": "bytecode_tracing_time_us",
    "guards_us": "build_guards_time_us",
    "backend_us": "backend_compile_time_us",
    "codegen_us": "codegen_time_us",
}


class Samples:
    """Per-round values of every figure of every workload, and notes seen along the way."""

    def __init__(self) -> None:
        self.values: defaultdict[str, defaultdict[str, list[float]]] = defaultdict(
            lambda: defaultdict(list)
        )
        self.notes: defaultdict[str, set[str]] = defaultdict(set)

    def add(self, workload: str, figure: str, value: float | None) -> None:
        if value is not None:
            self.values[workload][figure].append(value)

    def note(self, workload: str, text: str) -> None:
        self.notes[workload].add(text)

    def summary(self, noop_us: float | None) -> dict[str, dict[str, Any]]:
        """Medians per workload; each time figure (`*_us`) also as a multiple of the no-op call."""
        out: dict[str, dict[str, Any]] = {}
        for workload, figures in self.values.items():
            row: dict[str, Any] = {}
            for figure, values in figures.items():
                row[figure] = median(values)
                if figure.endswith("_us"):
                    row[figure.removesuffix("_us") + "_x_noop"] = ratio(row[figure], noop_us)
            row["rounds"] = max(len(v) for v in figures.values())
            row["notes"] = sorted(self.notes[workload])
            out[workload] = row
        return out


def noop_us(n: int) -> float:
    """Per-call time of the no-op baseline, called with two arguments like most workloads."""
    return per_call_us(caller(noop, (1, 2)), n)


class _Bench:
    """What both systems share: calibrated per-call loops over one list of workloads."""

    name = ""

    def __init__(self, workloads: Sequence[Workload], target_ns: int) -> None:
        self.workloads = list(workloads)
        self.target_ns = target_ns
        self.first_compile_in_process_us: float | None = None
        self._n: dict[tuple[str, str], int] = {}

    def compile(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def per_call(self, workload: Workload, kind: str, call: Call) -> float:
        """Per-call µs, calibrating the loop length on first use (outside any round's figures)."""
        key = (workload.name, kind)
        if key not in self._n:
            self._n[key] = calibrate(call, self.target_ns)
        return per_call_us(call, self._n[key])

    def first_compile(self) -> None:
        """Compile the first workload once, before any round, and keep its time apart."""
        workload = self.workloads[0]
        self.reset()
        compiled = self.compile(workload.fn)
        self.first_compile_in_process_us, _ = once_us(
            caller(compiled, workload.make_args(), workload.context)
        )

    def per_call_group(self, workload: Workload, calls: dict[str, Call]) -> dict[str, float]:
        """Per-call µs of several kinds of call measured side by side (interleaved stretches),
        each loop length calibrated on first use (outside any round's figures)."""
        for kind, call in calls.items():
            if (workload.name, kind) not in self._n:
                self._n[(workload.name, kind)] = calibrate(call, self.target_ns)
        ns = [self._n[(workload.name, kind)] for kind in calls]
        return dict(zip(calls, interleaved_per_call_us(list(calls.values()), ns), strict=True))

    def per_call_figures(
        self,
        samples: Samples,
        workload: Workload,
        compiled: Callable[..., Any],
        args: Any,
        more: dict[str, Call] | None = None,
    ) -> dict[str, float]:
        """Eager and compiled per-call µs (and any `more` kinds), measured side by side."""
        times = self.per_call_group(
            workload,
            {
                "eager": caller(workload.fn, args, workload.context),
                "compiled": caller(compiled, args, workload.context),
                **(more or {}),
            },
        )
        samples.add(workload.name, "eager_us", times["eager"])
        samples.add(workload.name, "compiled_us", times["compiled"])
        samples.add(workload.name, "overhead_us", times["compiled"] - times["eager"])
        return times


class ModetraceBench(_Bench):
    """modetrace on `tracer.runtime`."""

    name = "modetrace"

    def __init__(self, target_ns: int, only: Sequence[str] = ()) -> None:
        import tracer.runtime
        from tracer.observability import trace_log

        trace_log.disable()  # measured on its own below, never by accident (MODETRACE_TRACE)
        workloads = [w for w in make_workloads(tracer.runtime) if not only or w.name in only]
        super().__init__(workloads, target_ns)
        self._log_dir = tempfile.TemporaryDirectory(prefix="modetrace-bench-log-")

    def compile(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        import tracer

        return tracer.compile(fn)  # type: ignore[no-any-return]

    def reset(self) -> None:
        import tracer
        from tracer.observability.metrics import clear_compilation_metrics

        tracer.reset()
        clear_compilation_metrics()

    def close(self) -> None:
        self._log_dir.cleanup()

    def round(self, samples: Samples, index: int) -> None:
        for workload in self.workloads:
            self._measure(samples, workload, index)

    def _first_call(self, workload: Workload) -> tuple[float, Callable[..., Any], Any, list[Any]]:
        import tracer

        self.reset()
        compiled = self.compile(workload.fn)
        args = workload.make_args()
        elapsed, _ = once_us(caller(compiled, args, workload.context))
        return elapsed, compiled, args, tracer.get_compilation_metrics()

    def _measure(self, samples: Samples, workload: Workload, index: int) -> None:
        import tracer

        name = workload.name
        off = None
        if index % 2:  # alternate which of the on/off pair goes first
            off = self._metrics_off(workload)
        # metrics on: the first call's time and what the CompilationMetrics say
        elapsed, compiled, args, records = self._first_call(workload)
        samples.add(name, "compile_us", elapsed)
        self._record_metrics(samples, workload, records)
        entry = compiled.entries[0]
        times = self.per_call_figures(
            samples, workload, compiled, args, {"entry": caller(entry.run, args, workload.context)}
        )
        samples.add(name, "entry_run_us", times["entry"])
        samples.add(name, "wrapper_overhead_us", times["compiled"] - times["entry"])
        frame_locals = inspect.signature(workload.fn).bind(*args).arguments
        check = self.per_call(workload, "check", caller(entry.check, (frame_locals,)))
        samples.add(name, "guard_check_us", check)
        if len(tracer.get_compilation_metrics()) != len(records):
            samples.note(name, "recompiled while timing calls")
        if off is None:
            off = self._metrics_off(workload)
        samples.add(name, "metrics_on_off", ratio(elapsed, off))
        samples.add(name, "log_overhead", self._log_overhead(workload))
        if workload is self.workloads[0]:
            samples.add(name, "store_on_off", self._store_on_off(workload, index))

    def _first_calls_us(self, workload: Workload) -> float:
        """Total time of STORE_BATCH first calls, each after a reset (so each compiles).

        Each half of the store's line starts from the same state of the garbage collector: its
        young generations just collected (`gc.collect(1)`, not timed), so a collection falls in
        a half only when that half's own allocations call for one, not because of where the
        previous half left the collector's count (in the whole `make bench` that put one in
        about half of the store-on halves and almost no store-off half; benchmarks/README.md,
        branch store5)."""
        gc.collect(1)
        total = 0.0
        for _ in range(STORE_BATCH):
            self.reset()
            compiled = self.compile(workload.fn)
            elapsed, _ = once_us(caller(compiled, workload.make_args(), workload.context))
            total += elapsed
        return total

    def _store_on_off(self, workload: Workload, index: int) -> float | None:
        """First calls with the metrics store on, the transaction writing them included, over
        the same with it off (the order alternates between rounds)."""
        from tracer.observability.metrics import store

        db = store.MetricsStore(
            f"{self._log_dir.name}/metrics.db", batch=STORE_BATCH, interval_s=float("inf")
        )
        # Not counted: the first calls after the other figures pay for what those left cold;
        # without these, whichever half came first would (the store-off half, every other round).
        self._first_calls_us(workload)
        off = self._first_calls_us(workload) if index % 2 else None
        store.install(db)
        try:
            self._first_calls_us(workload)
            db.flush()  # the database is open and its tables made before the measured batch
            on = self._first_calls_us(workload)
            if db.written != 2 * STORE_BATCH:  # the batch filled and was written in the loop
                on += once_us(db.flush)[0]
        finally:
            store.install(None)
        if off is None:
            off = self._first_calls_us(workload)
        return ratio(on, off)

    def _metrics_off(self, workload: Workload) -> float:
        """First-call time with metrics, events and the trace log stubbed out."""
        import tracer

        self.reset()
        compiled = self.compile(workload.fn)
        with tracer.observability.metrics.disabled():
            off, _ = once_us(caller(compiled, workload.make_args(), workload.context))
        return off

    def _log_overhead(self, workload: Workload) -> float | None:
        """structured_logging_overhead_us / duration_us of a compile with the trace log on.

        The trace log sums its overhead per compile id and `tracer.reset()` does not clear those
        sums, while every compile after a reset is `0/0` again: subtract what the id had before.
        """
        from tracer.observability import trace_log
        from tracer.observability.compile_context import CompileId

        first = CompileId(0, 0)
        before = {str(first): trace_log.structured_logging_overhead_us(first)}
        trace_log.enable(self._log_dir.name)
        try:
            _, _, _, records = self._first_call(workload)
        finally:
            trace_log.disable()
        logged = sum(
            (r.structured_logging_overhead_us or 0) - before.get(r.compile_id, 0) for r in records
        )
        return ratio(logged, _total(records, "duration_us"))

    def _record_metrics(self, samples: Samples, workload: Workload, records: list[Any]) -> None:
        name = workload.name
        duration = _total(records, "duration_us")
        samples.add(name, "duration_us", duration)
        for figure, field in PHASES.items():
            samples.add(name, figure, _total(records, field))
        samples.add(name, "guard_count", _total(records, "guard_count"))
        traced = _total(records, "traced_instruction_count")
        samples.add(name, "traced_instructions", traced)
        samples.add(name, "us_per_traced_instruction", ratio(duration, traced))
        if len(records) > 1:
            samples.note(name, f"{len(records)} compiles on the first call")
        for record in records:
            if record.graph_break_count:
                samples.note(name, f"graph breaks: {record.graph_break_count}")
            if record.fail_type:
                samples.note(name, f"fallback: {record.fail_type}: {record.fail_reason}")
            if record.has_guarded_code is False:
                samples.note(name, "ran eagerly (no guarded code)")


class DynamoBench(_Bench):
    """Real torch under `torch.compile(backend="eager")`, `torch._dynamo.reset()` between runs."""

    name = "dynamo"

    def __init__(self, torch: ModuleType, target_ns: int, only: Sequence[str] = ()) -> None:
        workloads = [w for w in make_workloads(torch) if not only or w.name in only]
        super().__init__(workloads, target_ns)
        self.torch = torch

    def compile(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        return self.torch.compile(fn, backend="eager")  # type: ignore[no-any-return]

    def reset(self) -> None:
        self.torch._dynamo.reset()
        utils = self.torch._dynamo.utils
        if hasattr(utils, "clear_compilation_metrics"):
            utils.clear_compilation_metrics()

    def _records(self) -> list[Any]:
        utils = self.torch._dynamo.utils
        return (
            list(utils.get_compilation_metrics())
            if hasattr(utils, "get_compilation_metrics")
            else []
        )

    def round(self, samples: Samples, index: int) -> None:
        for workload in self.workloads:
            self.reset()
            compiled = self.compile(workload.fn)
            args = workload.make_args()
            elapsed, _ = once_us(caller(compiled, args, workload.context))
            records = self._records()
            samples.add(workload.name, "compile_us", elapsed)
            samples.add(workload.name, "dynamo_duration_us", _total(records, "duration_us"))
            samples.add(workload.name, "guard_count", _total(records, "guard_count"))
            if len(records) > 1:
                samples.note(workload.name, f"{len(records)} frames compiled on the first call")
            self.per_call_figures(samples, workload, compiled, args)
            if len(self._records()) != len(records):
                samples.note(workload.name, "recompiled while timing calls")


def torch_or_none() -> ModuleType | None:
    """The real torch module when it is installed (imported here, lazily), else None."""
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    return torch


def _total(records: Sequence[Any], field: str) -> float | None:
    values = [v for r in records if (v := getattr(r, field, None)) is not None]
    return sum(values) if values else None
