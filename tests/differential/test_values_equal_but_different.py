"""Inputs equal to what a trace saw but observably different, which a guard by value let
through to a stale entry:

- a NaN: `L['x'] == nan` accepted any NaN, while `y in lst`, `lst.count(y)`, list `==` and dict
  lookups test identity before `==` (a NaN is unequal to itself, even the same one), so which
  NaN object an input is decides them. A NaN input is guarded by identity now; and list `==`
  of the very same NaN was False while tracing (CPython: True);
- a set whose members are frozensets: the set was guarded by value and on its own order, but
  each member frozenset iterates in an order of its own (`frozenset([8, 16])` and
  `frozenset([16, 8])` are equal and iterate differently), as dict keys were already guarded.
"""

from __future__ import annotations

from typing import Any

import tracer
from tests.differential.helpers import check

NAN_A = float("nan")
NAN_B = float("nan")


def contains(lst: list[float], y: float) -> Any:
    return y in lst, lst.count(y), [y] == [lst[0]]


def lookup(x: float, y: float) -> Any:
    return {x: 1}.get(y, "missing"), len({x, y}), [x] == [y]


def test_which_nan_object_an_input_is_decides() -> None:
    tracer.reset()
    compiled = tracer.compile(contains)
    lst = [NAN_A]
    assert compiled(lst, NAN_A) == contains(lst, NAN_A) == (True, 1, True)
    lst[0] = NAN_B
    assert compiled(lst, NAN_A) == contains(lst, NAN_A) == (False, 0, False)

    tracer.reset()
    compiled = tracer.compile(lookup)
    assert compiled(NAN_A, NAN_A) == lookup(NAN_A, NAN_A) == (1, 1, True)
    assert compiled(NAN_A, NAN_B) == lookup(NAN_A, NAN_B) == ("missing", 2, False)


def test_the_same_nan_twice_in_a_list_comparison() -> None:
    check(lookup, NAN_A, NAN_A)


def first_members(s: Any) -> Any:
    for inner in s:
        return list(inner)
    return None


def test_a_frozenset_members_order_is_guarded() -> None:
    one, other = frozenset([8, 16]), frozenset([16, 8])
    assert one == other and list(one) != list(other)
    for make in (set, frozenset):
        tracer.reset()
        compiled = tracer.compile(first_members)
        assert compiled(make([one])) == first_members(make([one]))
        assert compiled(make([other])) == first_members(make([other]))
