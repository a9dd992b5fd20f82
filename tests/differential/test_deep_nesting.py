"""Folding a deeply nested container (its constant is built recursively) can take the
tracer past Python's recursion limit where plain Python is still within it, or where plain
Python raises RecursionError itself (CPython's test_list/test_dict `test_repr_deep`): the
frame falls back and runs eagerly, raising what plain Python raises. It used to leak the
tracer's own RecursionError out of the compile."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def repr_of_nested_dicts(depth: int) -> Any:
    d: dict[int, Any] = {}
    for _ in range(depth):
        d = {1: d}
    try:
        return len(repr(d))
    except RecursionError:
        return "RecursionError"


def repr_of_nested_lists(depth: int) -> Any:
    a: list[Any] = []
    for _ in range(depth):
        a = [a]
    try:
        return len(repr(a))
    except RecursionError:
        return "RecursionError"


@pytest.mark.parametrize("fn", [repr_of_nested_dicts, repr_of_nested_lists])
@pytest.mark.parametrize("depth", [sys.getrecursionlimit() // 2, sys.getrecursionlimit() + 100])
def test_same_as_eager(fn: Any, depth: int) -> None:
    assert_same_behavior(fn, depth)


def test_falls_back_with_a_reason() -> None:
    with CompileCounter() as counter:
        tracer.compile(repr_of_nested_dicts)(sys.getrecursionlimit() + 100)
    reasons = [reason for r in counter.records for reason in r.graph_break_reasons or []]
    assert "tracing went past Python's recursion limit" in reasons


def nested_user_lists(depth: int) -> Any:
    from collections import UserList

    a: Any = UserList([])
    for _ in range(depth):
        a = UserList([a])
    tracer.graph_break()  # the objects made so far are rebuilt for the resume function
    try:
        return len(repr(a))
    except RecursionError:
        return "RecursionError"


def test_rebuilding_deeply_nested_objects_falls_back() -> None:
    """The trace made 1,100 nested objects (CPython's test_userlist `test_repr_deep`), and
    the compiled frame's code to rebuild them at the break went past the recursion limit:
    the RecursionError leaked out of the compile. The frame runs eagerly now."""
    assert_same_behavior(nested_user_lists, sys.getrecursionlimit() + 100)
