"""CPython limits conversions between int and text to `sys.get_int_max_str_digits()` digits
(4300 by default; a ValueError past it). The tracer folds such conversions on constants, and
folded them under the limit of trace time for good: `str(10 ** 5000)` kept raising after
`sys.set_int_max_str_digits(0)` lifted the limit (found by an audit). An operation on an int or
a text of 640 digits or more (below that no limit applies) now guards the limit it ran under."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import tracer


@pytest.fixture
def restore_limit() -> Iterator[None]:
    limit = sys.get_int_max_str_digits()
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def digits_of_a_power(x: int) -> Any:
    try:
        return len(str(10**5000)) + x
    except ValueError:
        return "too many digits"


def parse_long_text(x: int) -> Any:
    try:
        return int("1" * 5000) % 7 + x
    except ValueError:
        return "too many digits"


def formatted(x: int) -> Any:
    try:
        return len(f"{x**5000:,}")
    except ValueError:
        return "too many digits"


@pytest.mark.parametrize("fn", [digits_of_a_power, parse_long_text, formatted])
@pytest.mark.usefixtures("restore_limit")
def test_the_limit_in_force_on_each_call_decides(fn: Callable[[int], Any]) -> None:
    tracer.reset()
    sys.set_int_max_str_digits(4300)
    compiled = tracer.compile(fn)
    assert compiled(10) == fn(10) == "too many digits"
    sys.set_int_max_str_digits(0)  # no limit
    assert compiled(10) == fn(10) != "too many digits"
    sys.set_int_max_str_digits(4300)
    assert compiled(10) == fn(10) == "too many digits"


def test_ordinary_numbers_add_no_guard() -> None:
    tracer.reset()

    def small(x: int) -> str:
        return str(x * 1000) + f"{x:,}"

    explained = tracer.explain(small)(12)
    assert not any("int_max_str_digits" in guard for guard in explained.guards)
