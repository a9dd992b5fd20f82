"""A function defined in the traced frame (a `def`, a lambda, a 3.11 comprehension) that outlives
the trace is made again, over the same cells: by the compiled code when it is returned, stored
or called at a graph break, by the resume function when it is live in a local after the break.
At a break the frame's own cells are copied into the resume function, so a function the
compiled code makes may close over only the cells nothing writes afterwards (tracer/cache/
resume.py `cells_written_after`); one the resume function makes closes over its cells. The
others still run the frame eagerly, with the reason."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()


def break_in_a_comprehension(x: Any, xs: list[int]) -> Any:
    y = x + 1
    ys = [print(i) or y * i for i in xs]  # 3.11: a function over the cell `y`, called here
    return y * 2, ys


def break_in_a_lambda(x: Any) -> Any:
    y = x + 1
    h = lambda i: print(i) or y * i  # noqa: E731
    z = h(3)
    return y * 2, z


def break_in_a_def_with_its_attributes(x: Any) -> Any:
    y = x + 1

    def h(i: int, s: int = 2, *, t: int = 3) -> Any:
        """h's doc."""
        print(h.__name__, h.__qualname__, h.__defaults__, h.__kwdefaults__, h.__annotations__)
        print(h.__doc__, h.__module__, h.__code__ is h.__code__)
        return y * i * s * t

    return h(1) + y


def function_kept_across_the_break(x: Any) -> Any:
    k = 2
    hold = []
    h = lambda t: t * k  # noqa: E731
    hold.append(h)
    print("between")
    return hold[0] is h, h(x)


def function_live_at_the_break_again(x: Any) -> Any:
    k = 2
    h = lambda t: t * k  # noqa: E731
    print("between")
    return h(x)


def recursive_function_across_the_break(x: Any) -> Any:
    def fact(n: int) -> int:
        return 1 if n <= 1 else n * fact(n - 1)  # its own cell holds it

    y = x * fact(3)
    print("between")
    return y + fact(4)


def nonlocal_writer_called_at_the_break(x: Any) -> Any:
    k = 1

    def bump() -> int:
        nonlocal k
        print("bump")
        k += 1
        return k

    y = x + bump()
    return y, k


def comprehension_with_walrus(x: Any, xs: list[int]) -> Any:
    y = x + 1
    last = 0
    ys = [print(i) or (last := i) for i in xs]  # binds `last` in the frame
    return y * last, ys


def closure_of_a_closure(scale: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        y = x + 1
        h = lambda i: print(i) or y * i * scale  # noqa: E731 - a cell of f's and one of f's closure
        return h(2) + scale

    return f


def jump_with_a_function_live(x: Any) -> Any:
    k = 3
    h = lambda t: t + k  # noqa: E731
    if x.sum() > 0:
        return h(x)
    return h(-x)


def show(fn: Callable[..., Any]) -> Any:
    print(fn.__name__, fn.__qualname__, fn.__defaults__, fn.__closure__ is not None)
    return fn(1)


def function_passed_to_the_breaking_call(x: Any) -> Any:
    y = x * 2
    return show(lambda i, j=3: y + i + j) + y


INLINED_COMPREHENSIONS = sys.version_info >= (3, 12)
"""PEP 709: a comprehension is part of its frame, inside a `try` block (a break there runs
the frame eagerly)."""

CASES: list[tuple[Callable[..., Any], tuple[Any, ...], int | None]] = [
    (break_in_a_comprehension, (torch.ones(3), [1, 2]), None if INLINED_COMPREHENSIONS else 2),
    (break_in_a_lambda, (torch.ones(3),), 2),
    (break_in_a_def_with_its_attributes, (torch.ones(3),), 2),
    (closure_of_a_closure(5), (torch.ones(3),), 2),
    (function_passed_to_the_breaking_call, (torch.ones(3),), 2),
]


@pytest.mark.parametrize(
    "fn,args,graphs", CASES, ids=[f"{fn.__name__}-{i}" for i, (fn, _, _) in enumerate(CASES)]
)
def test_resumes_with_the_function_made_again(
    fn: Callable[..., Any], args: tuple[Any, ...], graphs: int | None
) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *args)
        explanation = tracer.explain(fn)(*args)
    if graphs is None:
        return
    assert not explanation.entries[0].is_fallback, explanation.break_reasons
    assert explanation.graph_count == graphs, explanation


def live_function_sees_a_later_write(x: Any) -> Any:
    k = 2
    h = lambda t: t * k  # noqa: E731
    y = h(x).sin()
    print("between")
    k = 3  # the resume function's cell: the function it made again sees it
    return h(y) + 1


def live_function_with_its_parts(x: Any) -> Any:
    y = x + 1

    def h(i: int, s: Any = y, *, t: int = 3) -> Any:
        """h's doc."""
        return i * s * t

    print("between")
    return h(2), h.__defaults__[0] is y, h.__kwdefaults__, h.__annotations__, h.__doc__


def live_functions_share_a_cell(x: Any) -> Any:
    count = 0

    def bump() -> int:
        nonlocal count
        count += 1
        return count

    read = lambda: count  # noqa: E731
    bump()
    print("between")
    bump()
    return x + read(), count, bump.__closure__[0] is read.__closure__[0]


def live_closure_of_a_closure(scale: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        y = x + 1
        h = lambda i: y * i * scale  # noqa: E731 - a cell of f's and one of f's closure
        print("between")
        return h(2) + scale

    return f


def on_the_stack_at_a_break_in_its_arguments(x: Any) -> Any:
    k = 2
    s = lambda a, b: a * k + b  # noqa: E731 - under the break, on the stack, then called
    return s(x, print("b") or 1) + k


def on_the_stack_writing_its_cell(x: Any) -> Any:
    out = []
    c = 3

    def bump(n: int) -> int:
        nonlocal c
        c += n
        return c * 7

    out.append(bump(7))
    pair = (bump(print("p") or 2), c)  # `bump` on the stack; it writes the resume's `c`
    return out, pair, x + c


LIVE_AFTER: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
    (on_the_stack_at_a_break_in_its_arguments, (torch.ones(3),)),
    (on_the_stack_writing_its_cell, (torch.ones(3),)),
    (function_live_at_the_break_again, (torch.ones(3),)),
    (live_function_sees_a_later_write, (torch.ones(3),)),
    (live_function_with_its_parts, (torch.ones(3),)),
    (live_functions_share_a_cell, (torch.ones(3),)),
    (live_closure_of_a_closure(5), (torch.ones(3),)),
    (jump_with_a_function_live, (torch.ones(3),)),
    (jump_with_a_function_live, (-torch.ones(3),)),
]


@pytest.mark.parametrize("fn,args", LIVE_AFTER, ids=[fn.__name__ for fn, _ in LIVE_AFTER])
def test_a_function_live_after_the_break_is_made_again_by_the_resume_function(
    fn: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    """The resume function gets the function's parts and makes it again over its own cells;
    a second call compiles nothing (nothing pins the function object)."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *args)
        tracer.reset()
        explanation = tracer.explain(fn)(*args)
        compiled = tracer.compile(fn)
        compiled(*args)
        with CompileCounter() as counter:
            compiled(*args)
    assert not explanation.entries[0].is_fallback, explanation.break_reasons
    assert counter.compiles == 0


def in_a_local_and_on_the_stack(x: Any) -> Any:
    k = 2
    s = lambda a, b: a * k + b  # noqa: E731
    r = s(x, print("b") or 1)
    return s(r, 1)


STILL_EAGER: list[tuple[Callable[..., Any], str]] = [
    (function_kept_across_the_break, "is live after the break, in a local and held by another"),
    (in_a_local_and_on_the_stack, "is live after the break"),
    (recursive_function_across_the_break, "is live after the break"),
]


@pytest.mark.parametrize("fn,reason", STILL_EAGER, ids=[fn.__name__ for fn, _ in STILL_EAGER])
def test_a_function_live_after_the_break_otherwise_runs_the_frame_eagerly(
    fn: Callable[..., Any], reason: str
) -> None:
    """Held by something else too (a list, the stack and a local), the function would be two
    objects; held in a cell (a recursive function), it is not a plain local."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, torch.ones(3))
        explanation = tracer.explain(fn)(torch.ones(3))
    assert explanation.entries[0].is_fallback
    (found,) = explanation.break_reasons
    assert reason in found.explanation


@pytest.mark.parametrize(
    "fn", [break_in_a_lambda, *([] if INLINED_COMPREHENSIONS else [break_in_a_comprehension])]
)
def test_second_call_compiles_nothing(fn: Callable[..., Any]) -> None:
    """The function is a new object on each call; it runs eagerly, not through a cache of
    its own, and the frame's cache is hit."""
    compiled = tracer.compile(fn)
    args = (torch.ones(3), [1, 2]) if fn is break_in_a_comprehension else (torch.ones(3),)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(*args)
        with CompileCounter() as counter:
            compiled(*args)
    assert counter.compiles == 0


@pytest.mark.parametrize(
    "fn,args",
    [
        (nonlocal_writer_called_at_the_break, (torch.ones(3),)),
        (comprehension_with_walrus, (torch.ones(3), [1, 2])),
    ],
)
def test_a_cell_the_function_writes_runs_the_frame_eagerly(
    fn: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *args)
        explanation = tracer.explain(fn)(*args)
    if fn is comprehension_with_walrus and INLINED_COMPREHENSIONS:
        return  # `last` is no cell
    assert explanation.entries[0].is_fallback
    assert any(
        "which the frame writes after the break" in r.explanation for r in explanation.break_reasons
    )


def closures_sharing_a_cell() -> Any:
    k = 1

    def bump() -> int:
        nonlocal k
        k += 1
        return k

    return bump, lambda: k


def test_returned_closures_share_their_cell() -> None:
    bump, read = tracer.compile(closures_sharing_a_cell)()
    assert bump.__closure__ is not None and read.__closure__ is not None
    assert bump.__closure__[0] is read.__closure__[0]
    assert (bump(), read(), bump(), read()) == (2, 2, 3, 3)
    explanation = tracer.explain(closures_sharing_a_cell)()
    assert not explanation.entries[0].is_fallback


def returns_a_recursive_function() -> Any:
    def fact(n: int) -> int:
        return 1 if n <= 1 else n * fact(n - 1)

    return fact


def test_a_returned_function_that_holds_itself() -> None:
    fact = tracer.compile(returns_a_recursive_function)()
    assert fact(5) == 120
    assert fact.__closure__ is not None and fact.__closure__[0].cell_contents is fact
