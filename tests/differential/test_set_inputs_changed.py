"""A set passed in (or reached through an input, as `self.set` in CPython's test_set) may be
changed by the trace: the change is made on a copy while tracing, and replayed on the real set
by the compiled code, call by call, so the set ends with eager's members and eager's hash table
(its iteration order). After a change its order is not known, so iterating it falls back, as
does `pop` (which takes the member the table decides)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Holder:
    def __init__(self) -> None:
        self.set = set("simsalabim")


def add_and_discard(s: set[Any]) -> Any:
    s.add(5)
    s.discard("a")
    s.discard("not there")
    return len(s), 5 in s, "a" in s


def in_place_operators(s: set[Any]) -> Any:
    s |= {1, 2}
    s.update([3], (4,))
    s -= {"s"}
    s &= {1, 2, 3, 4, "i", "m"}
    s ^= {"m", 9}
    s.difference_update("x")
    s.intersection_update(range(20), {1, 2, 3, 4, 9, "i"})
    s.symmetric_difference_update([1])
    return s == {2, 3, 4, 9, "i"}, len(s)


def through_an_attribute(holder: Holder) -> Any:
    holder.set.add("q")
    holder.set.remove("s")
    return "q" in holder.set, len(holder.set)


def remove_missing(s: set[Any]) -> Any:
    s.add(1)
    s.remove("zz")


def unhashable_argument(s: set[Any]) -> Any:
    s.add(7)
    s.update([[1]])


def cleared_and_returned(s: set[Any]) -> Any:
    s.clear()
    s.add(3)
    return s


def aliased(s: set[Any], t: set[Any]) -> Any:
    s.add(1)
    return 1 in t, len(t)


@pytest.mark.parametrize(
    "fn",
    [
        add_and_discard,
        in_place_operators,
        remove_missing,
        unhashable_argument,
        cleared_and_returned,
    ],
)
def test_input_set_changed(fn: Any) -> None:
    check(fn, set("simsalabim"))


def test_set_attribute_changed() -> None:
    check(through_an_attribute, Holder())


def test_aliased_input_sets() -> None:
    s = {"a"}
    check(aliased, s, s)
    check(aliased, {"a"}, {"a"})


def iterated_after_a_change(s: set[Any]) -> Any:
    s.add("z")
    return list(s)


def popped(s: set[Any]) -> Any:
    return s.pop(), s


def changed_part_way(s: set[Any]) -> Any:
    s.update([1, [2]])  # 1 is added, then the list is refused


@pytest.mark.parametrize("fn", [iterated_after_a_change, popped, changed_part_way])
def test_falls_back_where_the_table_decides(fn: Any) -> None:
    assert_same_behavior(fn, set("simsalabim"))
