"""Plain user subclasses of list made in the frame (`class OrderedCollection(list): pass`, as
in pyperformance's deltablue) trace as lists whose type is the subclass
(variables/list_subclass.py). Before, creating one fell back ("creating OrderedCollection,
which customizes __new__"). `check` compiles with fullgraph=True; a subclass that defines
anything falls back with its reason."""

from __future__ import annotations

import collections

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class OrderedCollection(list):
    pass


class Deeper(OrderedCollection):
    """A docstring is no behaviour."""


class Stack(list):
    def __lt__(self, other):
        return self[-1] < other[-1]


def collections_(n):
    a = OrderedCollection()
    a.append(n)
    a.extend([1, 2])
    a.remove(1)
    b = Deeper(range(3))
    b += [7]
    return (
        a,
        b,
        a + b,
        type(a + b),
        b[1:],
        type(b[1:]),
        b * 2,
        isinstance(a, list),
        type(b).__name__,
        a == [n, 2],
        len(b),
        [x * 2 for x in b],
        repr(b),
        a.pop(),
    )


def shared(out):
    c = OrderedCollection([1])
    out.append(c)
    out.append(c)
    return c


def bad_argument():
    return OrderedCollection(5)


@pytest.mark.parametrize(
    ("fn", "args"), [(collections_, (3,)), (shared, ([],)), (bad_argument, ())]
)
def test_plain_list_subclasses_trace_whole(fn, args) -> None:
    check(fn, *args)


def stacks():
    a, b = Stack([3]), Stack([1])
    return a < b


def keyword():
    return OrderedCollection(iterable=[1])


def test_a_subclass_that_defines_something_falls_back_with_a_reason() -> None:
    reason = tracer.explain(stacks)().break_reasons[0]
    assert "creating Stack, which customizes __new__" in str(reason)
    assert_same_behavior(stacks)


def test_keyword_arguments_fall_back() -> None:
    assert_same_behavior(keyword)


Pair = collections.namedtuple("Pair", "x y")


def named_tuple_arithmetic(n):
    p = Pair(n, 2)
    return p + p, type(p + p), p * 2, type(p * 2)


def test_named_tuple_plus_and_times_give_plain_tuples() -> None:
    """Found on the way: `p + p` of named tuples was an InternalError (the tracker's class
    was called without the tuple class); CPython gives a plain tuple."""
    check(named_tuple_arithmetic, 1)
