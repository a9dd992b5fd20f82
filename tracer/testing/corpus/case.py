"""One call of a corpus function, run eagerly once and compiled twice, and what came of it.

Both ways start from fresh deep copies of the arguments and of the module globals the function
reads (`StateSnapshot`, as `assert_same_behavior` does), and everything observable is compared:
the return value or exception (type and message), the arguments afterwards, those globals,
what the call printed to stdout and the warnings it emitted (`compare_outcomes` does it all).
The compiled run is classified from its CompilationMetrics records: `whole` (every compile
produced a graph, no break), `breaks` (graphs joined by resume functions), or `fallback` (some
frame ran as plain Python), with the break reasons.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import tracer
from tracer.exc import InternalError
from tracer.testing.behavior import Outcome, StateSnapshot, compare_outcomes, run_once
from tracer.testing.compare import Mismatch
from tracer.testing.conformance.outcome import TestTimeout, time_limit
from tracer.testing.counters import CompileCounter


@dataclasses.dataclass(frozen=True)
class Case:
    """`fn(*args, **kwargs)`; `source` groups the report (`stdlib`, `pyperformance`, ...),
    `module` names where fn comes from and `call` is the call as its tests write it."""

    source: str
    module: str
    call: str
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.source}:{self.module}:{self.call}"


@dataclasses.dataclass
class CaseResult:
    """`verdict`: `equal`, `mismatch`, `internal error`, `timeout` (only the compiled run hit
    the limit) or `eager error` (the eager run itself misbehaved: not a tracer problem).
    `mode`: `whole`, `breaks`, `fallback` or `not compiled`."""

    source: str
    module: str
    call: str
    verdict: str
    mode: str
    reasons: list[str]
    detail: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _run(fn: Callable[..., Any], snapshot: StateSnapshot, case: Case) -> Outcome:
    return run_once(fn, snapshot, case.args, case.kwargs)  # stdout is in the outcome


def _mode_and_reasons(counter: CompileCounter) -> tuple[str, list[str]]:
    records = counter.records
    if not records:
        return "not compiled", []
    reasons: list[str] = []
    mode = "whole"
    for record in records:
        if record.graph_break_count:
            mode = "breaks" if mode == "whole" else mode
            reasons.extend(record.graph_break_reasons or [])
        if not record.has_guarded_code:
            mode = "fallback"
            if record.fail_reason and not record.graph_break_reasons:
                where = f"{record.fail_user_location}: " if record.fail_user_location else ""
                reasons.append(f"{where}{record.fail_type}: {record.fail_reason}")
            elif not record.graph_break_reasons:
                reasons.append("")
    return mode, reasons


def run_case(
    case: Case,
    compile_fn: Callable[[Callable[..., Any]], Callable[..., Any]] = tracer.compile,
    timeout: float = 20,
) -> CaseResult:
    """Run `case` eagerly once, then compiled twice (the second call runs the cached entry)."""
    start = time.monotonic()
    snapshot = StateSnapshot(case.fn)  # type: ignore[arg-type]
    verdict, detail = "equal", ""
    counter = CompileCounter()
    try:
        try:
            with time_limit(timeout):
                eager = _run(case.fn, snapshot, case)
        except (TestTimeout, Exception) as e:  # noqa: BLE001 - eager run or copying failed
            detail = f"{type(e).__name__}: {e}"
            return CaseResult(case.source, case.module, case.call, "eager error", "", [], detail)
        compiled = compile_fn(case.fn)
        with counter:
            for call in (1, 2):
                try:
                    with time_limit(timeout):
                        outcome = _run(compiled, snapshot, case)
                except TestTimeout as e:
                    verdict, detail = "timeout", str(e)
                    break
                if isinstance(outcome.error, InternalError):
                    verdict, detail = "internal error", f"{outcome.error!r} (call {call})"
                    break
                try:
                    compare_outcomes(eager, outcome)
                except Mismatch as e:
                    verdict, detail = "mismatch", f"{e} (compiled call {call})"
                    break
    finally:
        snapshot.restore()
        tracer.reset()
    mode, reasons = _mode_and_reasons(counter)
    seconds = time.monotonic() - start
    return CaseResult(
        case.source, case.module, case.call, verdict, mode, reasons, detail, round(seconds, 3)
    )


def run_cases(
    cases: list[Case], progress: Callable[[CaseResult], None] | None = None
) -> list[CaseResult]:
    results = []
    for case in cases:
        result = run_case(case)
        if progress is not None:
            progress(result)
        results.append(result)
    return results
