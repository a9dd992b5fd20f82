"""Frames with cells resume (issue 21): a frame's own cells (`co_cellvars`) are passed to the
resume function by value, which makes its cells from them again; its free variables
(`co_freevars`) are the original function's closure, which the resume function is made with."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.cache.entry import CacheEntry
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


def cell_across_the_break(x: Any) -> Any:
    k = 2
    add = lambda t: t + k  # noqa: E731 - a function made before the break, dead after it
    y = add(x) * k
    print("k is", k)
    scale = lambda t: t * k  # noqa: E731 - made after the break: reads the cell written before
    k = k + 1  # written after the break: `scale` sees it
    return scale(y)


def cell_unbound_at_the_break(x: Any) -> Any:
    y = x + 1
    print("no k yet")
    k = 4
    return (lambda: y * k)()  # noqa: PLC3002 - a nested function reads the cell


def cell_parameter(x: Any, n: int) -> Any:
    y = x * n
    print("n is", n)
    n = n + 1
    return (lambda: y + n)()  # noqa: PLC3002 - a nested function reads the cell


def make_counter() -> Callable[[Any], Any]:
    count = 0

    def step(x: Any) -> Any:
        nonlocal count
        count += 1  # stored before the break: the eager print sees it
        y = x * count
        print("count", count)
        count += 10  # stored after the break, in the resume function, into the same cell
        return y + count

    return step


def read_count(step: Callable[[Any], Any]) -> Any:
    assert step.__closure__ is not None
    return step.__closure__[0].cell_contents


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()


def entries_of(fn: Any) -> list[CacheEntry]:
    from tracer.explain import _all_entries

    return _all_entries(fn)


@pytest.mark.parametrize(
    "fn,args",
    [
        (cell_across_the_break, (torch.ones(3),)),
        (cell_unbound_at_the_break, (torch.ones(3),)),
        (cell_parameter, (torch.ones(3), 2)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_own_cells(fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *args)
        explanation = tracer.explain(fn)(*args)
    assert (explanation.graph_count, explanation.graph_break_count) == (2, 1), explanation
    assert not explanation.entries[0].is_fallback


def test_cell_values() -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        result = tracer.compile(cell_across_the_break)(torch.ones(3))
    assert result.tolist() == [18.0, 18.0, 18.0]  # (1 + 2) * 2 * 3: the new k
    assert out.getvalue() == "k is 2\n"


def test_free_variables_are_the_closure() -> None:
    eager, compiled_step = make_counter(), make_counter()
    compiled = tracer.compile(compiled_step)
    with contextlib.redirect_stdout(io.StringIO()) as eager_out:
        expected = [eager(torch.ones(3)).tolist() for _ in range(2)]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        got = [compiled(torch.ones(3)).tolist() for _ in range(2)]
    assert got == expected
    assert out.getvalue() == eager_out.getvalue()
    assert read_count(compiled_step) == read_count(eager) == 22
    entries = entries_of(compiled)
    assert not entries[0].is_fallback and entries[0].resumes
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))  # the cell's int changed: guarded, so this recompiles
    assert read_count(compiled_step) == 33


def test_second_call_compiles_nothing() -> None:
    compiled = tracer.compile(cell_across_the_break)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
        with CompileCounter() as counter:
            compiled(torch.ones(3))
    assert counter.compiles == 0


def test_two_closures_of_one_code_keep_their_own_cells() -> None:
    first, second = make_counter(), make_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        tracer.compile(first)(torch.ones(3))
        tracer.compile(second)(torch.ones(3))
        tracer.compile(second)(torch.ones(3))
    assert (read_count(first), read_count(second)) == (11, 22)


def function_live_at_the_break(x: Any) -> Any:
    k = 2
    scale = lambda t: t * k  # noqa: E731 - live at the break: the resume function makes it
    print("between")
    k = 3  # ... over its own cell, which this writes
    return scale(x)


def test_a_function_made_before_the_break_and_live_after_it_sees_the_resume_cells() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(function_live_at_the_break, torch.ones(3))
        explanation = tracer.explain(function_live_at_the_break)(torch.ones(3))
        result = tracer.compile(function_live_at_the_break)(torch.ones(3))
    assert (explanation.graph_count, explanation.graph_break_count) == (1, 1), explanation
    assert not explanation.entries[0].is_fallback
    assert result.tolist() == [3.0, 3.0, 3.0]


def reads_its_locals(x: Any) -> Any:
    k = 2
    y = x + k
    names = sorted(locals())  # the frame's locals, with the cell `k`
    return names, (lambda: y * k)()  # noqa: PLC3002 - a nested function reads the cell


def reads_its_locals_no_cells(x: Any) -> Any:
    y = x + 1
    return sorted(locals()), y


@pytest.mark.parametrize("fn", [reads_its_locals, reads_its_locals_no_cells])
def test_a_call_that_reads_the_frame_does_not_resume(fn: Callable[..., Any]) -> None:
    assert_same_behavior(fn, torch.ones(3))
    (reason,) = tracer.explain(fn)(torch.ones(3)).break_reasons
    assert "locals() reads the frame it is called in" in reason.explanation
