"""The step loop (`TranslatorBase.run` / `step`): the instruction budget counts every step of
every frame of a trace, graph breaks name the user's line, and the debug checks (stack effects,
`config.debug_checks`) only check: with them on, a trace is the same as with them off."""

import dis
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer import config
from tracer.observability.metrics import clear_compilation_metrics, get_compilation_metrics
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
def test_debug_checks_do_not_change_the_trace(fn: Any, args: tuple[Any, ...]) -> None:
    with config.patch(debug_checks=False):
        plain = _trace_facts(fn, args)
        assert_same_behavior(fn, *args)
    with config.patch(debug_checks=True):
        checked = _trace_facts(fn, args)
    assert plain == checked
    assert plain[0] is not None and plain[0] > 0


def test_break_reason_names_the_user_line() -> None:
    with config.patch(debug_checks=False):
        _count, reasons, _graphs, _guards = _trace_facts(breaks_on_data, (torch.ones(2),))
    [reason] = reasons
    line = breaks_on_data.__code__.co_firstlineno + 2  # the `if`
    assert f"test_run_loop.py:{line} in breaks_on_data" in reason


def test_long_loop_passes_the_instruction_budget() -> None:
    def long_loop(x: Any) -> Any:
        for _ in range(1000):
            x = x + 1
        return x

    with config.patch(debug_checks=False, instruction_budget=300):
        explanation = tracer.explain(long_loop)(torch.ones(2))
    assert [r.kind for r in explanation.break_reasons] == ["instruction-budget"]


def _budget_facts(fn: Any, args: tuple[Any, ...], budget: int, checked: bool) -> tuple[Any, ...]:
    with config.patch(debug_checks=checked, instruction_budget=budget):
        return _trace_facts(fn, args)


def test_budget_is_exact_across_inlined_frames() -> None:
    """The budget counts every step of every frame: a trace of N steps fits a budget of N and
    breaks on a budget of N - 1, at the step that passes it."""
    args = (torch.ones(3), [torch.ones(3), torch.arange(3)])
    with config.patch(debug_checks=False):
        steps, reasons, _graphs, _guards = _trace_facts(loops_and_calls, args)
    assert reasons == []
    for checked in (False, True):
        count, reasons, _graphs, _guards = _budget_facts(loops_and_calls, args, steps, checked)
        assert (count, reasons) == (steps, [])
        count, reasons, _graphs, _guards = _budget_facts(loops_and_calls, args, steps - 1, checked)
        assert count == steps
        [reason] = reasons
        assert f"budget of {steps - 1} instructions" in reason


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.3, 0.5, 0.7, 0.9])
def test_budget_stops_at_the_step_that_passes_it(fraction: float) -> None:
    """Wherever the budget runs out (the root frame, a helper, a comprehension, the first step
    of a new frame), the trace stops at the step that passes it, with or without the debug
    checks."""
    args = (torch.ones(3), [torch.ones(3), torch.arange(3)])
    with config.patch(debug_checks=False):
        steps = _trace_facts(loops_and_calls, args)[0]
    for budget in range(int(steps * fraction), int(steps * fraction) + 8):
        plain = _budget_facts(loops_and_calls, args, budget, checked=False)
        checked = _budget_facts(loops_and_calls, args, budget, checked=True)
        assert plain == checked
        assert plain[0] == budget + 1
        [reason] = plain[1]
        assert f"budget of {budget} instructions" in reason


def test_guards_made_after_an_inlined_call_name_the_caller() -> None:
    """OutputGraph.current_tx goes back to the caller when an inlined call returns."""
    from tracer.output_graph import OutputGraph

    seen: list[str] = []
    original = OutputGraph.add_guard

    def spy(self: OutputGraph, kind: Any, source: Any, expected: object) -> None:
        assert self.current_tx is not None
        seen.append(self.current_tx.code.co_name)
        original(self, kind, source, expected)

    def after_call(x: Any, k: int) -> Any:
        y = helper(x, 2)
        return y + k

    OutputGraph.add_guard = spy  # type: ignore[method-assign]
    try:
        tracer.reset()
        tracer.explain(after_call)(torch.ones(2), 3)
    finally:
        OutputGraph.add_guard = original  # type: ignore[method-assign]
    assert seen and seen[-1] == "after_call"


def test_debug_checks_catch_a_handler_with_a_wrong_stack_effect() -> None:
    """A handler that leaves one item too many on the stack passes unnoticed with the debug
    checks off, and is an InternalError with them on (as in the modules tests/conftest.py runs
    with them on)."""
    from tracer.exc import InternalError
    from tracer.translator import InstructionTranslator

    def returns_a_sum(x: Any) -> Any:
        y = x + 1
        return y

    table = InstructionTranslator.dispatch_table
    opcode = dis.opmap["STORE_FAST"]
    correct = table[opcode]

    def leaves_the_value(tx: Any, inst: Any) -> None:
        tx.symbolic_locals[inst.argval] = tx.peek()

    table[opcode] = leaves_the_value
    try:
        with config.patch(debug_checks=False):
            tracer.reset()
            tracer.explain(returns_a_sum)(torch.ones(2))
        with config.patch(debug_checks=True), pytest.raises(InternalError, match="STORE_FAST"):
            tracer.reset()
            tracer.explain(returns_a_sum)(torch.ones(2))
    finally:
        table[opcode] = correct
        tracer.reset()
