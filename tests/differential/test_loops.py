# ruff: noqa: B905, PERF401, PERF402, SIM118
# The sample functions spell out loops, zip() and .keys() on purpose: they are what is traced.
"""for-loops over lists, tuples, range, enumerate, zip, reversed and dict views; while-loops with
a trace-time condition; break, continue and for-else: all unrolled into one graph."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check
from tests.differential.strategies import (
    mixed_lists,
    small_ints,
    tensor_dicts,
    tensor_lists,
    tensors,
)


def loop_over_list(xs):
    total = 0
    for x in xs:
        total = total + x
    return total


def loop_over_tuple(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return tuple(out)


def loop_over_range(x, n):
    for i in range(n):
        x = x + i
    for j in range(n, 0, -2):
        x = x * j
    return x


def loop_enumerate(xs):
    acc = []
    for i, x in enumerate(xs):
        acc.append(x * i)
    for i, x in enumerate(xs, start=10):
        acc.append(x - i)
    return acc


def loop_zip(xs, ys):
    return [a + b for a, b in zip(xs, ys)], [(i, a) for i, (a, _) in enumerate(zip(xs, ys))]


def loop_zip_explicit(xs, ys):
    out = []
    for a, b in zip(xs, ys):
        out.append(a * b)
    return out


def loop_reversed(xs):
    out = []
    for x in reversed(xs):
        out.append(x)
    for i in reversed(range(len(xs))):
        out.append(i)
    return out


def loop_dict_views(d):
    keys = []
    for k in d:
        keys.append(k)
    for k in d.keys():
        keys.append(k.upper())
    total = None
    for v in d.values():
        total = v if total is None else total + v
    items = []
    for k, v in d.items():
        items.append((k, v * 2))
    return keys, total, items


def while_counter(x, n):
    i = 0
    while i < n:
        x = x + 1
        i += 1
    return x, i


def while_on_shape(x):
    while x.ndim < 3:
        x = x.unsqueeze(0)
    return x


def break_and_continue(xs, stop):
    out = []
    for i, x in enumerate(xs):
        if i == stop:
            break
        if i % 2:
            continue
        out.append(x)
    return out


def for_else(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            found = i
            break
    else:
        found = -1
    return found


def while_true_break(n):
    i = 0
    total = 0
    while True:
        total += i
        i += 1
        if i > n:
            break
    return total


def nested_loops(xs, n):
    out = []
    for i in range(n):
        for x in xs:
            if i == 1:
                continue
            out.append(x + i)
    return out


@FAST
@given(xs=tensor_lists())
def test_loop_over_list(xs):
    check(loop_over_list, xs)


@FAST
@given(xs=tensor_lists().map(tuple))
def test_loop_over_tuple(xs):
    check(loop_over_tuple, xs)


@FAST
@given(x=tensors(), n=st.integers(0, 5))
def test_loop_over_range(x, n):
    check(loop_over_range, x, n)


@FAST
@given(xs=tensor_lists())
def test_loop_enumerate(xs):
    check(loop_enumerate, xs)


@FAST
@given(xs=tensor_lists(), ys=st.lists(small_ints, max_size=5))
def test_loop_zip(xs, ys):
    check(loop_zip, xs, ys)
    check(loop_zip_explicit, xs, tuple(ys))


@FAST
@given(xs=mixed_lists())
def test_loop_reversed(xs):
    check(loop_reversed, xs)


@FAST
@given(d=tensor_dicts())
def test_loop_dict_views(d):
    check(loop_dict_views, d)


@FAST
@given(x=tensors(), n=st.integers(0, 5))
def test_while_counter(x, n):
    check(while_counter, x, n)


@FAST
@given(x=tensors())
def test_while_on_shape(x):
    check(while_on_shape, x)


@FAST
@given(xs=tensor_lists(max_size=6), stop=st.integers(0, 6))
def test_break_and_continue(xs, stop):
    check(break_and_continue, xs, stop)


@FAST
@given(xs=st.lists(small_ints, max_size=6), target=small_ints)
def test_for_else(xs, target):
    check(for_else, xs, target)


@FAST
@given(n=st.integers(0, 10))
def test_while_true_break(n):
    check(while_true_break, n)


@FAST
@given(xs=tensor_lists(max_size=3), n=st.integers(0, 3))
def test_nested_loops(xs, n):
    check(nested_loops, xs, n)
