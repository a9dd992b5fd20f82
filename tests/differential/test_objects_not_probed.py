"""Wrapping a value runs none of its code: a user object whose `__getattr__` records every
call is read, passed on, stored and returned by compiled code exactly as by plain Python, with
the same record. Tracing once asked every such object for `__self__` (is it a bound regex
method?) and, twice, for `__modetrace_op__` (is it a runtime op?) with `getattr`, which ran
the object's `__getattr__` while tracing: the record held three calls plain Python never
made, and a `__getattr__` answering them could change what the trace decided."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Recorder:
    """Every attribute the ordinary lookup misses is recorded; a dunder then raises, as a
    well-behaved `__getattr__` does, and any other name reads as the count so far."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Recorder:
        """(The test harness copies inputs; copying asks nothing of `__getattr__`.)"""
        new = Recorder()
        new.log = list(self.log)
        return new

    def __getattr__(self, name: str) -> Any:
        self.log.append(name)
        if name.startswith("__"):
            raise AttributeError(name)
        return len(self.log)


def passes_through(o: Recorder) -> Any:
    return o.log


def reads_a_missing_attribute(o: Recorder) -> Any:
    return o.a, o.log


def stores_and_returns(o: Recorder, x: Any) -> Any:
    box = [o, x * 2]
    return box, len(o.log)


def method_call(o: Recorder) -> Any:
    o.log.append("called")
    return o.log


@pytest.mark.parametrize(
    "fn", [passes_through, method_call, reads_a_missing_attribute], ids=lambda f: f.__name__
)
def test_an_object_with_getattr_is_not_asked_while_tracing(fn: Any) -> None:
    check(fn, Recorder())


def test_an_object_with_getattr_next_to_a_tensor() -> None:
    check(stores_and_returns, Recorder(), torch.ones(2))


def test_getattr_asked_once_per_read_across_calls() -> None:
    """`reads_a_missing_attribute` is traced (`__getattr__` inlined: its record is replayed
    once per read), on the first call and on the cached entry's."""
    assert_same_behavior(reads_a_missing_attribute, Recorder(), compile_options={}, calls=3)
