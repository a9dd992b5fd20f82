"""A value the compiled code builds again (made in the frame, then returned or handed on) is one
object wherever the frame held it: `v = <expr>; return v, v` gives the same object twice, as
eagerly. An exception, a `functools.partial` and a bound method (`xs.append`) were built once
for every place that held them, and so was an exception both on the stack and in a local at a
graph break (`u.end = 2` on a UnicodeEncodeError, conformance's test_exceptions)."""

from __future__ import annotations

import collections
import functools
import operator
from typing import Any

import pytest

import tracer
import tracer.runtime as torch

EXPRESSIONS = [
    "ValueError('x')", "KeyError(1, 2)", "functools.partial(print, 1)", "[].append",
    "b'ab'.decode", "{}.get", "range(3)", "[1, 2]", "{1: 2}", "{1, 2}", "frozenset({1, 2})",
    "(1, [2])", "collections.deque([1])", "collections.OrderedDict(a=1)",
    "operator.itemgetter(1)", "slice(1, 2)", "bytearray(b'ab')", "iter([1, 2])",
    "lambda: 1", "object()", "torch.ones(2)",
]  # fmt: skip


def twice(expr: str) -> Any:
    scope = {"collections": collections, "functools": functools, "operator": operator}
    scope["torch"] = torch
    exec(f"def held_twice():\n    v = {expr}\n    return v, v", scope)  # noqa: S102
    return scope["held_twice"]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_a_value_held_twice_is_one_object(expr: str) -> None:
    fn = twice(expr)
    eager = fn()
    for _ in range(2):
        compiled = tracer.compile(fn)()
        assert (compiled[0] is compiled[1]) == (eager[0] is eager[1]) is True


def change_at_a_break() -> Any:
    u = UnicodeEncodeError("baz", "xxxxx", 1, 5, "foo")
    before = str(u)
    u.end = 2  # a break: the store runs in the compiled frame, on the object it hands on
    return before, str(u)


def test_an_object_stored_into_at_a_break_is_the_one_handed_on() -> None:
    assert tracer.compile(change_at_a_break)() == change_at_a_break()
