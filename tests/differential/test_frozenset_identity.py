"""`frozenset(fs)` and `fs.copy()` return `fs` itself in CPython, so the compiled code must
hand back one object too (CPython's test_set checks `id(frozenset(s)) == id(s)`); the
tracer used to make a second frozenset for them."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def frozenset_of_a_frozenset(n: int) -> Any:
    s = frozenset(range(n))
    t = frozenset(s)
    print("a break: both are rebuilt after it")
    return s is t, t


def copy_of_a_frozenset(n: int) -> Any:
    s = frozenset(range(n))
    t = s.copy()
    print("a break")
    return s is t, t


def of_an_input(s: frozenset[int]) -> Any:
    return frozenset(s) is s, s.copy() is s


@pytest.mark.parametrize("fn", [frozenset_of_a_frozenset, copy_of_a_frozenset])
def test_one_object_after_a_break(fn: Any) -> None:
    assert_same_behavior(fn, 3)


def test_an_input_frozenset_traced_whole() -> None:
    assert_same_behavior(of_an_input, frozenset({1, 2}))
    with CompileCounter() as counter:
        assert tracer.compile(of_an_input)(frozenset({1, 2})) == (True, True)
    assert all(r.graph_break_count == 0 for r in counter.records)
