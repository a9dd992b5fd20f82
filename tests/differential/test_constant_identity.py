"""A string or number the frame computed stays its own object in the compiled code, apart
from an equal constant: CPython's test_operator checks `operator.is_(a, a[:3] + a[3:])` is
False after a graph break. The compiled code used to load both as one constant (the
`bytecode` package gives equal constants one slot, and code objects intern name-like
strings among their constants)."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import assert_same_behavior


def string_rebuilt_across_a_break() -> Any:
    a = b = "xyzpdq"
    c = a[:3] + b[3:]
    print("break")
    return a is b, a is c, c == a


def string_rebuilt_not_name_like() -> Any:
    a = "xy zpdq"
    c = a[:3] + a[3:]
    d = a[:3] + a[3:]
    print("break")
    return a is c, c is d, d == a


def big_int_computed() -> Any:
    a = 10**20
    c = 10**19 * 10
    print("break")
    return a is c, a == c


def tuple_holding_a_computed_string() -> Any:
    a = "xyzpdq"
    t = (a[:3] + a[3:], 1)
    print("break")
    return t[0] is a, t == (a, 1)


@pytest.mark.parametrize(
    "fn",
    [
        string_rebuilt_across_a_break,
        string_rebuilt_not_name_like,
        big_int_computed,
        tuple_holding_a_computed_string,
    ],
)
def test_identity_kept(fn: Any) -> None:
    assert_same_behavior(fn)
