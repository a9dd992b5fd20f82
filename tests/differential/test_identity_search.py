"""`in`, `index`, `count` and `remove` on a list of user objects whose class keeps
`object.__eq__` decide by identity, which the trackers know (found by the corpus:
pyperformance's deltablue removes a constraint made in the frame from a list; before, "looking
for UserDefinedObjectVariable(EditConstraint, new) in a container needs its runtime value").
`check` compiles with fullgraph=True."""

from __future__ import annotations

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Item:
    def __init__(self, n):
        self.n = n


class Equal:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return isinstance(other, Equal) and other.n == self.n

    __hash__ = None


def searches(k):
    a, b, c = Item(1), Item(2), Item(3)
    xs = [a, 1, "b", b, a]
    found = (a in xs, c in xs, xs.index(b), xs.count(a), xs.count(c), c not in (a, b))
    xs.remove(a)
    xs.remove(b)
    return found, [x.n if isinstance(x, Item) else x for x in xs], k


def missing_remove():
    xs = [Item(1)]
    xs.remove(Item(1))


def outside(items, extra):
    return items[0] in items, extra in items, items.count(items[1])


@pytest.mark.parametrize(("fn", "args"), [(searches, (0,)), (missing_remove, ())])
def test_identity_searches_trace_whole(fn, args) -> None:
    check(fn, *args)


def test_objects_from_outside() -> None:
    shared = Item(5)
    check(outside, [shared, Item(6), shared], Item(7))
    check(outside, [shared, shared], shared)


def test_one_compiled_function_sees_the_aliasing_change() -> None:
    """The second call passes the object it looks for inside the list: the guards that kept
    the trackers distinct fail, and the new entry finds it."""
    compiled = tracer.compile(outside)
    shared = Item(5)
    assert_same_behavior(compiled, [shared, Item(6), shared], Item(7))
    assert_same_behavior(compiled, [shared, shared], shared)
    assert_same_behavior(compiled, [Item(1), shared], shared)


def custom_eq():
    return Equal(1) in [Equal(1)]


def test_a_custom_eq_still_falls_back() -> None:
    assert "needs its runtime value" in str(tracer.explain(custom_eq)().break_reasons[0])
    assert_same_behavior(custom_eq)
