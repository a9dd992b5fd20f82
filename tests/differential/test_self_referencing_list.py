"""A list (or dict) that holds itself has no constant to fold: `repr` and `str` of it fall back
with a reason instead of recursing until a RecursionError (found by `make conformance`:
CPython's list_tests.test_repr and test_dict.test_repr; the iteration analogue is issue 20 case
14)."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import CompileCounter, assert_same_behavior


def repr_of_argument(xs: list[Any]) -> Any:
    xs.append(xs)
    return repr(xs), str(xs)


def repr_of_new_list() -> Any:
    a: list[Any] = [0]
    a.append(a)
    return repr(a), len(a)


def nested_in_a_tuple(xs: list[Any]) -> Any:
    xs.append((1, xs))
    return repr(xs)


@pytest.mark.parametrize(
    ("fn", "args"),
    [(repr_of_argument, ([0, 1],)), (repr_of_new_list, ()), (nested_in_a_tuple, ([0],))],
)
def test_a_list_that_holds_itself(fn: Any, args: Any) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert "non-constant argument" in counter.graph_break_reasons[0]


def dict_holds_itself(d: dict[int, Any]) -> Any:
    d[1] = d
    return repr(d), str([d])


def test_a_dict_that_holds_itself_prints() -> None:
    with CompileCounter() as counter:
        assert_same_behavior(dict_holds_itself, {0: "a"})
    assert "non-constant argument" in counter.graph_break_reasons[0]
