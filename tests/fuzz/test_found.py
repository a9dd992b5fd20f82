"""Bugs the program fuzzer found beyond the listed issue-20 cases, one minimal test each
(compiled == eager, twice, with the exception's type and message)."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import assert_same_behavior


class Plain:
    def __init__(self, v: int) -> None:
        self.v = v


def in_list(n: int) -> Any:
    return Plain(1) in [Plain(2), n]


def count_in_list(n: int) -> Any:
    p = Plain(1)
    return [p, Plain(1), n].count(p)


@pytest.mark.parametrize("fn", [in_list, count_in_list])
def test_user_object_in_list(fn: Any) -> None:
    assert_same_behavior(fn, 3)


def len_of_plain(n: int) -> Any:
    return len(Plain(n))


def test_len_of_object_without_len() -> None:
    assert_same_behavior(len_of_plain, 1)


def len_of_two(xs: list[int]) -> Any:
    return len(xs, xs)  # type: ignore[call-arg]


def abs_of_nothing(xs: list[int]) -> Any:
    return abs()  # type: ignore[call-arg]


def list_with_keyword(xs: list[int]) -> Any:
    return list(xs, bad=1)  # type: ignore[call-overload]


def int_with_bad_base(xs: list[int]) -> Any:
    return int(str(len(xs)), base=37)


@pytest.mark.parametrize("fn", [len_of_two, abs_of_nothing, list_with_keyword, int_with_bad_base])
def test_builtin_called_with_wrong_arguments(fn: Any) -> None:
    assert_same_behavior(fn, [1, 2])


def slice_with_zero_step(xs: list[int]) -> Any:
    return xs[::0]


def test_list_slice_with_zero_step() -> None:
    assert_same_behavior(slice_with_zero_step, [1, 2])


class OnlyRight:
    def __init__(self, v: int) -> None:
        self.v = v

    def __radd__(self, other: Any) -> Any:
        return "OnlyRight.__radd__"


def add_same_type(n: int) -> Any:
    return OnlyRight(n) + OnlyRight(n)  # type: ignore[operator]


def test_reflected_operator_not_tried_for_same_type() -> None:
    assert_same_behavior(add_same_type, 1)


def unbound_cell_variable(xs: list[int]) -> Any:
    def read() -> Any:
        return k

    for k in xs:  # noqa: B007 - k is read by `read`, a closure
        read()
    return k


def unbound_free_variable(xs: list[int]) -> Any:
    def read() -> Any:
        return k

    result = read()
    k = 1
    return result, k


@pytest.mark.parametrize("fn", [unbound_cell_variable, unbound_free_variable])
def test_unbound_closure_variable(fn: Any) -> None:
    """An empty cell read by its own function is an UnboundLocalError there ("cannot access
    local variable"); read through a closure it is a NameError ("cannot access free
    variable"). Found by the fuzzer: the tracer raised the NameError in both places."""
    assert_same_behavior(fn, [])


def index_too_big(xs: list[int]) -> Any:
    return xs[int(1e308)]


def test_list_index_too_big_for_ssize_t() -> None:
    assert_same_behavior(index_too_big, [1])
