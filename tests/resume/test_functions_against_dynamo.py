"""Functions defined in the frame at a graph break, on real torch: modetrace's graph and compile
counts next to Dynamo's (tests/resume/test_functions_defined_in_the_frame.py has the behavior).
One difference remains, by design: a function called at the break whose body computes after its
own break is compiled as a frame of its own by Dynamo (one graph more), and run as it is by
modetrace (notes/torch-adapter.md)."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


def in_a_comprehension(torch: Any) -> Callable[..., Any]:
    def fn(x: Any) -> Any:
        y = x + 1
        ys = [print(i) or y * i for i in range(2)]
        return y * 2, ys

    return fn


def live_after_the_break(torch: Any) -> Callable[..., Any]:
    def fn(x: Any) -> Any:
        k = 2
        h = lambda t: t * k  # noqa: E731
        y = h(x).sin()
        print("between")
        k = 3
        return h(y) + 1

    return fn


def live_in_both_ways_of_a_jump(torch: Any) -> Callable[..., Any]:
    def fn(x: Any) -> Any:
        k = 3
        h = lambda t: t + k  # noqa: E731
        if x.sum() > 0:
            return h(x).cos()
        return h(-x).sin()

    return fn


def called_at_the_break(torch: Any) -> Callable[..., Any]:
    def fn(x: Any) -> Any:
        y = x + 1
        h = lambda i: print(i) or y * i  # noqa: E731
        z = h(3)
        return y * 2, z

    return fn


SAME = [live_after_the_break, live_in_both_ways_of_a_jump]
if sys.version_info < (3, 12):  # a comprehension is a function of its own on 3.11 only
    SAME.append(in_a_comprehension)


def explain_both(fn: Callable[..., Any], torch: Any) -> tuple[Any, Any]:
    torch._dynamo.reset()
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = torch._dynamo.explain(fn)(torch.ones(3))
        ours = tracer.explain(fn)(torch.ones(3))
    return ours, theirs


@pytest.mark.parametrize("make", SAME, ids=lambda make: make.__name__)
def test_graphs_match_dynamo(make: Callable[[Any], Callable[..., Any]]) -> None:
    """Graph count and the ops of each graph (by target name), and results, as `python -m
    tracer compare` shows them."""
    torch = real_torch()
    tracer.reset()
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(make(torch))(torch.ones(3))
    assert comparison.same_graphs, comparison
    assert comparison.modetrace_agrees and comparison.dynamo_agrees, comparison
    ours, _ = explain_both(make(torch), torch)
    assert not ours.entries[0].is_fallback, ours.break_reasons


def test_a_function_called_at_the_break_is_not_compiled_as_its_own_frame() -> None:
    torch = real_torch()
    ours, theirs = explain_both(called_at_the_break(torch), torch)
    assert not ours.entries[0].is_fallback, ours.break_reasons
    assert (ours.graph_count, theirs.graph_count) == (2, 3)


@pytest.mark.parametrize("make", [live_after_the_break, called_at_the_break])
def test_later_calls_compile_nothing_in_either(make: Callable[[Any], Callable[..., Any]]) -> None:
    torch = real_torch()
    fn = make(torch)
    torch._dynamo.reset()
    tracer.reset()
    counts = []
    with contextlib.redirect_stdout(io.StringIO()):
        for compiled, records in (
            (torch.compile(fn, backend="eager"), torch._dynamo.utils.get_compilation_metrics),
            (tracer.compile(fn), tracer.get_compilation_metrics),
        ):
            compiled(torch.ones(3))
            first = len(records())
            compiled(torch.ones(3))
            compiled(torch.ones(3))
            counts.append(len(records()) - first)
    assert counts == [0, 0]
