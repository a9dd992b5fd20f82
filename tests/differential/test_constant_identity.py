"""A string or number the frame computed stays its own object in the compiled code, apart
from an equal constant: CPython's test_operator checks `operator.is_(a, a[:3] + a[3:])` is
False after a graph break. The compiled code used to load both as one constant (the
`bytecode` package gives equal constants one slot, and code objects intern name-like
strings among their constants)."""

from __future__ import annotations

import sys
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


KEY = str(0)  # '0' made at run time: equal to the interned '0', another object


def item_under_a_made_key(d: dict[str, Any]) -> Any:
    return d["0"] + 1, list(d)


def test_item_under_a_made_key_loads_its_key_as_a_plain_constant() -> None:
    """The graph input `L['d']['0']` under the key `str(0)` (as nn.Sequential names its
    children): a dict looks keys up by value, so the compiled frame loads the key as a plain
    constant, not out of a namespace that keeps its identity; the key the frame returns is
    still the dict's own object."""
    import tracer
    import tracer.runtime as torch

    assert sys.intern(KEY) is not KEY
    d = {KEY: torch.ones(2)}
    assert_same_behavior(item_under_a_made_key, d)
    tracer.reset()
    compiled = tracer.compile(item_under_a_made_key, fullgraph=True)
    assert compiled(d)[1][0] is KEY
    (entry,) = compiled.entries
    assert entry.bytecode is not None
    names = [i.name for i in entry.bytecode]
    subscript = names.index("BINARY_SUBSCR")
    assert names[subscript - 2 : subscript] == ["LOAD_FAST", "LOAD_CONST"]
    assert entry.bytecode[subscript - 1].arg == "0"
