"""The step loop has two forms: `run` (the plain one every benchmark and user compile takes) and
`_run_checked` (trace_bytecode logging and the stack-effect check, which the test suite turns on
everywhere else). Both must trace the same way: same results, same instruction counts, same
break reasons at the same user lines."""

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer import config
from tracer.metrics import clear_compilation_metrics, get_compilation_metrics
from tracer.testing import assert_same_behavior


def helper(x: Any, k: int) -> Any:
    return x * k + 1


def loops_and_calls(x: Any, ys: list[Any]) -> Any:
    total = x
    for i, y in enumerate(ys):
        total = total + helper(y, i)
    squares = [t * t for t in ys if t is not None]
    return total, len(squares), {"n": squares[0].sum()}


def breaks_on_data(x: Any) -> Any:
    y = x + 1
    if y.sum() > 0:
        return y * 2
    return y


def breaks_inside_helper(x: Any) -> Any:
    return helper(x, 2) + breaks_on_data(x)


CASES = [
    (loops_and_calls, (torch.ones(3), [torch.ones(3), torch.arange(3)])),
    (breaks_on_data, (torch.ones(2),)),
    (breaks_inside_helper, (torch.ones(2),)),
]


def _trace_facts(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    tracer.reset()
    clear_compilation_metrics()
    explanation = tracer.explain(fn)(*args)
    metrics = get_compilation_metrics()[-1]
    return (
        metrics.traced_instruction_count,
        [str(r) for r in explanation.break_reasons],
        explanation.graph_count,
        explanation.guards,
    )


@pytest.mark.parametrize(("fn", "args"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_plain_and_checked_loops_trace_alike(fn: Any, args: tuple[Any, ...]) -> None:
    with config.patch(debug_checks=False):
        plain = _trace_facts(fn, args)
        assert_same_behavior(fn, *args)
    with config.patch(debug_checks=True):
        checked = _trace_facts(fn, args)
    assert plain == checked
    assert plain[0] is not None and plain[0] > 0


def test_plain_loop_break_reason_names_the_user_line() -> None:
    with config.patch(debug_checks=False):
        _count, reasons, _graphs, _guards = _trace_facts(breaks_on_data, (torch.ones(2),))
    [reason] = reasons
    assert "test_run_loop.py:31 in breaks_on_data" in reason


def test_plain_loop_keeps_the_instruction_budget() -> None:
    def long_loop(x: Any) -> Any:
        for _ in range(1000):
            x = x + 1
        return x

    with config.patch(debug_checks=False, instruction_budget=300):
        explanation = tracer.explain(long_loop)(torch.ones(2))
    assert [r.kind for r in explanation.break_reasons] == ["instruction-budget"]
