"""One test method, run eagerly and compiled, and what each run came to.

A run is one fresh TestCase instance driven by unittest's own `TestCase.run`: setUp, the test
method, tearDown and cleanups, skips, expected failures and subtests all behave as unittest
defines them. In the compiled run the instance's test method is replaced by
`tracer.compile(<the method's function>)` called with the instance, so setUp and tearDown run
eagerly and only the test body is compiled (as PyTorch runs CPython's tests under Dynamo).

An `Outcome` is what the run came to: pass, fail (the AssertionError's message), error (type
and message), skip (the reason), xfail / xpass (expected failures), with one detail line per
failure, error or skip (subtests included) and what the test printed to stdout. Addresses
(`0x7f...`) are blanked, since two runs never share them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import signal
import types
import unittest
from collections.abc import Callable, Iterator
from typing import Any

import tracer
from tracer.testing.counters import CompileCounter
from tracer.testing.observe import blank_addresses

STATUSES = ("error", "fail", "xpass", "xfail", "skip", "pass")
"""Most severe first: a run with a failing subtest and a skipped one is a fail."""


class TestTimeout(BaseException):
    """Raised by the alarm when one run takes longer than its limit. A BaseException, so the
    tracer's `except Exception` handlers let it through; unittest records it as an error."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one run of one test came to; two outcomes are equal when everything here is."""

    status: str
    details: tuple[str, ...] = ()
    stdout: str = ""

    def describe(self) -> str:
        """`fail: AssertionError: 1 != 2`: the details (each names its kind) joined by ` | `,
        or the status alone (`pass`)."""
        text = " | ".join(self.details) or self.status
        if self.stdout:
            text += f" (stdout {self.stdout[:200]!r})"
        return text

    @property
    def timed_out(self) -> bool:
        return any(f"{TestTimeout.__name__}: " in d for d in self.details)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "details": list(self.details), "stdout": self.stdout}


def _error_text(err: tuple[type[BaseException], BaseException, Any]) -> str:
    kind, value = err[0], err[1]
    return blank_addresses(f"{kind.__qualname__}: {value}")


class RecordingResult(unittest.TestResult):
    """A TestResult that keeps each failure, error and skip as a line (type and message, not
    a traceback), tagged with the subtest's description when it came from a subtest."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def addError(self, test: Any, err: Any) -> None:
        self.found.append(("error", _error_text(err)))

    def addFailure(self, test: Any, err: Any) -> None:
        self.found.append(("fail", _error_text(err)))

    def addSkip(self, test: Any, reason: str) -> None:
        self.found.append(("skip", blank_addresses(reason)))

    def addExpectedFailure(self, test: Any, err: Any) -> None:
        self.found.append(("xfail", _error_text(err)))

    def addUnexpectedSuccess(self, test: Any) -> None:
        self.found.append(("xpass", "unexpected success"))

    def addSubTest(self, test: Any, subtest: Any, err: Any) -> None:
        if err is None:
            return
        failed = issubclass(err[0], test.failureException)
        where = blank_addresses(subtest._subDescription())
        self.found.append(("fail" if failed else "error", f"{where}: {_error_text(err)}"))

    def outcome(self, stdout: str) -> Outcome:
        kinds = {kind for kind, _ in self.found}
        status = next((s for s in STATUSES if s in kinds), "pass")
        return Outcome(status, tuple(f"{k}: {d}" for k, d in self.found), blank_addresses(stdout))


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TestTimeout in the main thread after `seconds` (0: no limit)."""
    if seconds <= 0:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TestTimeout(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_test(
    cls: type[unittest.TestCase],
    name: str,
    replace: Callable[[unittest.TestCase], None] | None = None,
    timeout: float = 0,
) -> Outcome:
    """Run test `name` on a fresh instance of `cls` through unittest; `replace(instance)`
    may swap the instance's test method first. stdout and stderr are captured."""
    result = RecordingResult()
    out, err = io.StringIO(), io.StringIO()
    try:
        with time_limit(timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            instance = cls(name)
            if replace is not None:
                replace(instance)
            instance.run(result)
    except TestTimeout as e:  # the alarm fired outside the parts unittest guards
        result.found.append(("error", f"{TestTimeout.__name__}: {e}"))
    return result.outcome(out.getvalue())


@dataclasses.dataclass
class Compiled:
    """How the compiled run went: whether the method traced whole or fell back, and why."""

    compiles: int = 0
    fell_back: bool = False
    reasons: list[str] = dataclasses.field(default_factory=list)

    @property
    def mode(self) -> str:
        """`whole` (one graph, no break), `fallback`, or `not compiled` (never called)."""
        if self.compiles == 0:
            return "not compiled"
        return "fallback" if self.fell_back else "whole"


CompileFn = Callable[[types.FunctionType], Callable[..., Any]]


def compiling(compile_fn: CompileFn, stats: Compiled) -> Callable[[unittest.TestCase], None]:
    """A `replace` for run_test: the instance's test method becomes `compile_fn(function)`
    called with the instance; `stats` learns whether it traced whole."""

    def replace(instance: unittest.TestCase) -> None:
        name = instance._testMethodName
        function = getattr(type(instance), name)
        if not isinstance(function, types.FunctionType):
            stats.reasons.append(f"not a Python function: {type(function).__name__}")
            return
        compiled = compile_fn(function)

        @functools.wraps(function)  # keeps __unittest_skip__ and __unittest_expecting_failure__
        def method() -> Any:
            with CompileCounter() as counter:
                try:
                    return compiled(instance)
                finally:
                    for record in counter.records:
                        stats.compiles += 1
                        if not record.has_guarded_code or record.graph_break_count:
                            stats.fell_back = True
                            stats.reasons.extend(record.graph_break_reasons or [])
                            if record.fail_reason and not record.graph_break_reasons:
                                stats.reasons.append(f"{record.fail_type}: {record.fail_reason}")

        setattr(instance, name, method)

    return replace


@dataclasses.dataclass
class Verdict:
    """One test, both ways: `equal`, `mismatch`, `timeout` (the compiled run hit the limit,
    eager did not) or `unstable` (two eager runs already disagree)."""

    test: str
    eager: Outcome
    compiled: Outcome
    verdict: str
    mode: str
    reasons: list[str]
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "test": self.test,
            "verdict": self.verdict,
            "compiled_as": self.mode,
            "eager": self.eager.to_json(),
            "compiled": self.compiled.to_json(),
            "fallback_reasons": self.reasons,
            "note": self.note,
        }


def run_both_ways(
    cls: type[unittest.TestCase],
    name: str,
    test_id: str,
    compile_fn: CompileFn = tracer.compile,
    timeout: float = 0,
) -> Verdict:
    """Run `name` eagerly on a fresh instance, then compiled on another; on a difference run
    it eagerly once more, to tell a compiler bug from a test that does not repeat itself."""
    eager = run_test(cls, name, timeout=timeout)
    stats = Compiled()
    try:
        compiled = run_test(cls, name, compiling(compile_fn, stats), timeout=timeout)
    finally:
        tracer.reset()
    verdict, note = "equal", ""
    if compiled != eager:
        again = run_test(cls, name, timeout=timeout)
        if compiled.timed_out and not eager.timed_out:
            verdict = "timeout"
        elif again == compiled:
            note = "differs from the first eager run only: the test depends on earlier runs"
        elif again != eager:
            verdict, note = "unstable", f"a second eager run gave: {again.describe()}"
        else:
            verdict = "mismatch"
    return Verdict(test_id, eager, compiled, verdict, stats.mode, stats.reasons[:3], note)
