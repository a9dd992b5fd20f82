"""An operation the tracer runs for real on constants may warn (`bool(NotImplemented)` is a
DeprecationWarning): it warned once, at trace time, from variables/constant.py, and the cached
entry never warned again. Now the trace breaks at the instruction that warned
(tracer/translator/trace_warnings.py), and plain Python emits the warning at the user's line on
every call; assert_same_behavior compares the warnings (category, message, location)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import CompileCounter, assert_same_behavior


def branch_on_not_implemented(x: Any) -> Any:
    return x + 1 if NotImplemented else x


def negated_not_implemented(n: int) -> bool:
    return not NotImplemented


def not_implemented_as_number(n: int) -> int:
    y = n * 2
    return bool(NotImplemented) + y


def in_a_helper(n: int) -> bool:
    return bool(NotImplemented)


def calls_a_helper_that_warns(x: Any, n: int) -> Any:
    y = x * n
    return y + in_a_helper(n)


CASES = [
    (branch_on_not_implemented, (torch.ones(2),)),
    (negated_not_implemented, (1,)),
    (not_implemented_as_number, (3,)),
    (calls_a_helper_that_warns, (torch.ones(2), 2)),
]


@pytest.mark.parametrize("fn, args", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_a_warning_at_trace_time_is_emitted_by_every_call(fn: Any, args: Any) -> None:
    outcome = assert_same_behavior(fn, *args)
    [record] = outcome.warnings
    assert record.category is DeprecationWarning
    assert record.location is not None and record.location.startswith(__file__)


def test_the_trace_breaks_where_the_warning_was_emitted() -> None:
    tracer.reset()
    with CompileCounter() as counter, pytest.warns(DeprecationWarning, match="NotImplemented"):
        tracer.compile(not_implemented_as_number)(3)
    first = counter.records[0]
    assert first.has_guarded_code, "the multiplication before it is still traced"
    (reason,) = first.graph_break_reasons or []
    assert "DeprecationWarning('NotImplemented should not be used" in reason
    assert "the compiled code would not emit it" in reason


def test_a_trace_without_warnings_is_unchanged() -> None:
    tracer.reset()
    with CompileCounter() as counter:
        assert_same_behavior(lambda x, n: x * n + 1, torch.ones(2), 3)
    assert counter.graph_breaks == 0
