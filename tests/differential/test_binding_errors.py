"""A call inside traced code that does not fit the callee's parameters raises CPython's own
TypeError, word for word: inlined calls bind through a binder with the callee's parameter list
(variables/binding.py), so the interpreter itself binds and words the error."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior

Point = namedtuple("Point", ["x", "y"])


def _outer(call: Callable[..., Any]) -> Callable[[Any], Any]:
    def f(t: Any) -> Any:
        def g(x: Any, y: Any, /, z: Any = 1, *, k: Any) -> Any:
            return x + y + z + k

        return call(g, t)

    return f


BAD_CALLS: dict[str, Callable[[Callable[..., Any], Any], Any]] = {
    "missing positional": lambda g, t: g(t),
    "missing keyword-only": lambda g, t: g(t, t),
    "unexpected keyword": lambda g, t: g(t, t, k=1, w=2),
    "multiple values": lambda g, t: g(t, t, 2, z=3, k=1),
    "too many positionals": lambda g, t: g(t, t, 1, 2, k=1),
    "positional-only as keyword": lambda g, t: g(t, y=t, k=1),
}


@pytest.mark.parametrize("case", list(BAD_CALLS))
def test_binding_errors_are_cpythons(case: str) -> None:
    f = _outer(BAD_CALLS[case])
    with pytest.raises(TypeError, match=r"f\.<locals>\.g\(\)"):
        f(torch.ones(2))
    assert_same_behavior(f, torch.ones(2))  # the same TypeError, word for word


def test_a_good_call_still_binds_defaults_and_keywords() -> None:
    assert_same_behavior(_outer(lambda g, t: g(t, t, k=2)), torch.ones(2))
    assert_same_behavior(_outer(lambda g, t: g(t, t, 3, k=2)), torch.ones(2))


def test_star_args_and_star_kwargs_bind_as_python_does() -> None:
    def f(t: Any) -> Any:
        def g(a: Any, *rest: Any, **named: Any) -> Any:
            return a + len(rest) + len(named) + rest[0] + named["b"]

        return g(t, 1, 2, b=3, c=4)

    assert_same_behavior(f, torch.ones(2))


def test_namedtuple_construction_errors_name_its_new() -> None:
    def f(t: Any) -> Any:
        return Point(t)

    with pytest.raises(TypeError, match=r"Point\.__new__\(\)"):
        f(torch.ones(2))
    assert_same_behavior(f, torch.ones(2))
