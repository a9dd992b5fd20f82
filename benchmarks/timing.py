"""Timing primitives shared by the benchmarks: per-call loops, one-shot timings, medians.

Per-call figures time a loop of `n` calls (`n` calibrated once so a loop lasts about `target_ns`)
with the garbage collector off, as `timeit` does. Every figure is a median over rounds, and the
rounds interleave the workloads, so a slow patch of the machine touches all of them alike.

The clock is the CPU time of the benchmarking thread (`time.thread_time_ns`), not wall time: on a
shared 2-core machine, wall time mostly measures the neighbours (with the load at 7, wall-clock
per-call figures came out 3-10x the CPU time and wandered from round to round). All the measured
work runs on this thread. `use_wall_clock()` switches to `time.perf_counter_ns` (`--wall`).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

Call = Callable[[], Any]


_clock: Callable[[], int] = time.thread_time_ns


def use_wall_clock(wall: bool = True) -> None:
    """Measure wall time (`perf_counter_ns`) instead of this thread's CPU time, or back."""
    global _clock
    _clock = time.perf_counter_ns if wall else time.thread_time_ns


def clock_name() -> str:
    return "wall time" if _clock is time.perf_counter_ns else "thread CPU time"


def noop(*args: Any) -> None:
    """The baseline: a Python function call that does nothing."""


def caller(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    context: Callable[[], AbstractContextManager[Any]] | None = None,
) -> Call:
    """A zero-argument callable making one call of `fn(*args)`, inside `context()` if given."""
    if context is None:
        return lambda: fn(*args)

    def call_in_context() -> Any:
        with context():
            return fn(*args)

    return call_in_context


def loop_ns(call: Call, n: int) -> int:
    """Nanoseconds for `n` calls of `call`, garbage collector off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        clock = _clock
        start = clock()
        for _ in range(n):
            call()
        return clock() - start
    finally:
        if enabled:
            gc.enable()


def calibrate(call: Call, target_ns: int) -> int:
    """How many calls make a loop last about `target_ns` (at least 1)."""
    n = 1
    while True:
        elapsed = loop_ns(call, n)
        if elapsed >= target_ns // 4 or n >= 1 << 20:
            return max(1, round(n * target_ns / max(elapsed, 1)))
        n *= 4


def per_call_us(call: Call, n: int) -> float:
    """Microseconds per call over a loop of `n` calls."""
    return loop_ns(call, n) / n / 1000


def interleaved_per_call_us(
    calls: Sequence[Call], ns: Sequence[int], chunks: int = 8
) -> list[float]:
    """Microseconds per call of each of `calls` (`ns[i]` calls of `calls[i]` in all), measured
    in `chunks` alternating stretches (A B C, C B A, A B C, ...), so a drift of the machine's
    speed during the measurement lands on all of them alike instead of on whichever ran last:
    a difference of two such figures (compiled minus eager) is then not the drift's."""
    totals = [0] * len(calls)
    counts = [0] * len(calls)
    order = list(range(len(calls)))
    for chunk in range(chunks):
        for i in order if chunk % 2 == 0 else order[::-1]:
            n = max(1, ns[i] // chunks)
            totals[i] += loop_ns(calls[i], n)
            counts[i] += n
    return [total / count / 1000 for total, count in zip(totals, counts, strict=True)]


def once_us(call: Call) -> tuple[float, Any]:
    """Microseconds for one call (for first calls, which compile), and its result."""
    start = _clock()
    result = call()
    return (_clock() - start) / 1000, result


def median(values: Sequence[float]) -> float | None:
    """Median of the values, or None when there are none."""
    return statistics.median(values) if values else None


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """`numerator / denominator`, None when either is missing or the denominator is not > 0."""
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator
