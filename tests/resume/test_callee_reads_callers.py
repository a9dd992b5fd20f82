"""A break inside an inlined function whose code looks at the frames that called it.

The compiled frame runs such a callee eagerly at the break. A callee is usually compiled as a
frame of its own first (a CompiledFunction stand-in, tracer/cache/resume.py's CalleeFrames),
whose `__call__` would then be the caller the callee finds: `dataclasses.make_dataclass` on
3.12 and 3.13 named the module of the class it makes `tracer.cache.function`. A callee that
names `sys._getframe`, `sys._getframemodulename`, `inspect.currentframe` or `warnings.warn`
is called as it is, from the compiled frame, which has the original's globals and name."""

from __future__ import annotations

import dataclasses
import logging
import sys
import warnings
from typing import Any

import tracer
from tracer.cache.resume import reads_callers
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


def who_called(n: int) -> Any:
    total = 0
    for i in range(n):  # a break in a loop: this frame runs eagerly, as its own frame
        total += len(str(i))
        print(end="")
    caller = sys._getframe(1)
    return caller.f_code.co_name, caller.f_globals["__name__"], total


def calls_who_called(n: int) -> Any:
    return who_called(n), n + 1


def makes_a_dataclass(n: int) -> Any:
    cls = dataclasses.make_dataclass("Made", [("x", int)])
    return cls.__module__, cls(n).x


def warns_at_caller(n: int) -> int:
    for _ in range(n):
        print(end="")
    warnings.warn("look at your caller", stacklevel=2)
    return n


def calls_warns_at_caller(n: int) -> int:
    return warns_at_caller(n) + 1


def _resumed(fn: Any, *args: Any) -> None:
    """The frame resumed at the break (a fallback of the whole frame has no generated code)."""
    tracer.reset()
    with CompileCounter() as counter:
        tracer.compile(fn)(*args)
    assert counter.records[0].has_guarded_code and counter.graph_breaks >= 1


def test_a_callee_sees_the_compiled_frame_as_its_caller() -> None:
    assert_same_behavior(calls_who_called, 3)
    _resumed(calls_who_called, 3)


def test_make_dataclass_names_the_calling_module() -> None:
    assert_same_behavior(makes_a_dataclass, 4)


def test_a_warning_names_the_callers_line() -> None:
    def caught(fn: Any) -> tuple[str, int, str]:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            fn(2)
        [warning] = seen
        return warning.filename, warning.lineno, str(warning.message)

    eager = caught(calls_warns_at_caller)
    assert caught(tracer.compile(calls_warns_at_caller)) == eager
    with warnings.catch_warnings(record=True):
        _resumed(calls_warns_at_caller, 2)


def test_what_counts_as_reading_the_callers() -> None:
    assert reads_callers(who_called.__code__)
    assert reads_callers(warns_at_caller.__code__)
    assert not reads_callers(calls_who_called.__code__)


LOG = logging.getLogger("modetrace.tests.callee_reads_callers")


def logs_between_ops(x: int) -> Any:
    y = x + 1
    LOG.warning("value %s", y)  # breaks inside Logger.findCaller (sys._getframe)
    return y * 2


def test_a_log_record_names_the_callers_file_line_and_function() -> None:
    """`Logger.warning` reads no frame itself: its method `_log` calls `findCaller`, which
    calls `logging.currentframe()`. Found through the methods of the logger's class, it is
    called as it is, so the record names the user's line, not CompiledFunction.__call__."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep()
    LOG.addHandler(handler)
    LOG.propagate = False
    try:
        logs_between_ops(1)
        compiled = tracer.compile(logs_between_ops)
        assert compiled(1) == 4
        assert compiled(1) == 4
    finally:
        LOG.removeHandler(handler)
        LOG.propagate = True
    where = [(r.filename, r.lineno, r.funcName, r.getMessage()) for r in records]
    assert where[1:] == [where[0], where[0]]
    assert where[0][2] == "logs_between_ops"
