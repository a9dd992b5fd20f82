"""`min` and `max` with a key function, over user objects or over an iterator run the Python
implementation in variables/polyfills/min_max_functions.py, traced like user code: the same
key calls, comparisons and errors as CPython. They broke the graph before ("min() with
non-constant argument"; TheAlgorithms' ciphers and the corpus's nsmallest/nlargest)."""

from __future__ import annotations

import dis

import pytest

from tracer.testing import CompileCounter, assert_same_behavior

LOG: list[object] = []


class Item:
    def __init__(self, n):
        self.n = n

    def __lt__(self, other):
        LOG.append(("lt", self.n, other.n))
        return self.n < other.n

    def __gt__(self, other):
        LOG.append(("gt", self.n, other.n))
        return self.n > other.n

    def __eq__(self, other):
        return isinstance(other, Item) and self.n == other.n


def with_key(xs):
    return min(xs, key=len), max(xs, key=len), min(xs, key=lambda s: s[-1])


def by_key_of_dict(d):
    return max(d, key=d.get), min(d.items(), key=lambda kv: (kv[1], kv[0]))


def objects(a, b, c):
    LOG.clear()
    return min(a, b, c).n, max([a, b, c]).n, list(LOG)


def from_iterator(xs):
    it = iter(xs)
    return max(x * 2 for x in xs), min(it, key=abs), list(it)


def with_default(xs):
    return min(xs, key=abs, default="none"), max([], key=abs, default=None)


def empty(xs):
    return min(xs, key=abs)


def bad_key(xs):
    return max(xs, key=3)


def default_with_many(a, b):
    return min(a, b, key=abs, default=0)


def incomparable(xs):
    return max(xs, key=lambda x: x)


def test_the_functions_call_min_and_max() -> None:
    names = {i.argval for f in (with_key, objects) for i in dis.get_instructions(f)}
    assert {"min", "max"} <= names


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (with_key, (["ccc", "a", "bb", "dd"],)),
        (by_key_of_dict, ({"a": 3, "b": 1, "c": 3},)),
        (objects, (Item(2), Item(1), Item(3))),
        (from_iterator, ([3, -1, 2, -5],)),
        (with_default, ([],)),
        (with_default, ([-3, 2],)),
        (empty, ([],)),
        (bad_key, ([],)),
        (default_with_many, (1, 2)),
        (incomparable, ([1, "a"],)),
    ],
)
def test_min_max_trace_as_python(fn, args) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)


def test_a_key_that_is_not_callable_still_behaves() -> None:
    """Calling an int is not modeled (a break, not this polyfill's): CPython's TypeError."""
    assert_same_behavior(bad_key, [1, 2])


def test_symbolic_numbers_still_become_a_graph_op() -> None:
    """min/max of symbolic ints (dynamic=True) record a graph node, so other values reuse
    the entry, rather than the polyfill's comparisons specializing on them."""
    import tracer

    def pick(a, b):
        return min(a, b) + max(a, b)

    assert_same_behavior(pick, 3, 5, compile_options={"dynamic": True})
    compiled = tracer.compile(pick, dynamic=True)
    with CompileCounter() as counter:
        assert compiled(3, 5) == 8 and compiled(7, 2) == 9 and compiled(4, 4) == 8
    assert counter.compiles == 1 and counter.graph_breaks == 0
