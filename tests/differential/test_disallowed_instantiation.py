"""Calling a C type that makes no instances (`functools.KeyWrapper`, `list_iterator`, ...:
Py_TPFLAGS_DISALLOW_INSTANTIATION) raises CPython's `TypeError: cannot create '...'
instances` in the compiled code too (CPython's test_functools checks it; the tracer used to
make an object of it as `object.__new__` would)."""

from __future__ import annotations

import functools
from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior

KEY_WRAPPER = type(functools.cmp_to_key(None))
LIST_ITERATOR = type(iter([]))


def create(tp: Any) -> Any:
    def make() -> Any:
        try:
            tp()
        except TypeError as e:
            return str(e)
        return "no error"

    return make


def create_uncaught() -> Any:
    return KEY_WRAPPER(1, 2)


@pytest.mark.parametrize("tp", [KEY_WRAPPER, LIST_ITERATOR])
def test_refused_as_in_cpython(tp: Any) -> None:
    make = create(tp)
    assert_same_behavior(make)
    with CompileCounter() as counter:
        assert tracer.compile(make)() == make()
    assert [r.graph_break_count for r in counter.records] == [0]


def test_uncaught() -> None:
    assert_same_behavior(create_uncaught)
