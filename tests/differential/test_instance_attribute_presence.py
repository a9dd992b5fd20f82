"""An attribute found in an object's instance dict and handed on without being read
(`hasattr(o, "w")`, `getattr(o, "w", default)`, `return o.w` inside a `try`) relied on its
presence alone, and nothing guarded it: called again with an object of the same class that
lacks it, the cached entry answered True, or raised the AttributeError outside the user's
`try`. Presence is guarded now (a HASATTR), unless the trace reads the value, whose guard at
`o.w` fails the check just as well (`OutputGraph.guard_attr_present`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter


class Holder:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def has(o: Holder) -> Any:
    return hasattr(o, "w")


def get_default(o: Holder) -> Any:
    return getattr(o, "w", "default")


def caught(o: Holder) -> Any:
    try:
        return o.w
    except AttributeError:
        return "caught"


def branch(o: Holder) -> Any:
    if hasattr(o, "w"):
        return o.w
    return "no"


def nested(o: Holder) -> Any:
    return [hasattr(o.a, "b")]


def _outcome(fn: Callable[..., Any], o: Holder) -> Any:
    try:
        return fn(o)
    except AttributeError as e:
        return ("raised", str(e))


@pytest.mark.parametrize("fn", [has, get_default, caught, branch])
def test_an_object_lacking_the_attribute_misses(fn: Callable[..., Any]) -> None:
    tracer.reset()
    compiled = tracer.compile(fn)
    assert _outcome(compiled, Holder(w=1)) == _outcome(fn, Holder(w=1))
    assert _outcome(compiled, Holder()) == _outcome(fn, Holder())
    assert _outcome(compiled, Holder(w=2)) == _outcome(fn, Holder(w=2))


def test_a_nested_attribute() -> None:
    tracer.reset()
    compiled = tracer.compile(nested)
    present, absent = Holder(a=Holder(b=1)), Holder(a=Holder())
    assert compiled(present) == nested(present) == [True]
    assert compiled(absent) == nested(absent) == [False]


def test_a_value_read_costs_no_presence_guard() -> None:
    """`o.w + 1` guards the value at `L['o'].w`, which fails when `w` is missing: no HASATTR."""

    def reads(o: Holder) -> Any:
        return o.w + 1

    tracer.reset()
    guards = tracer.explain(reads)(Holder(w=1)).guards
    assert not any("___has_attr" in g or "hasattr" in g for g in guards), guards
    compiled = tracer.compile(reads)
    with CompileCounter() as counter:
        assert compiled(Holder(w=1)) == 2
        assert compiled(Holder(w=1)) == 2
    assert counter.compiles == 1
    assert _outcome(compiled, Holder()) == _outcome(reads, Holder())  # a miss, then the error
