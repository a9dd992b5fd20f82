"""Iterators are positions over live objects, and map/filter/zip/enumerate/reversed/iter are
lazy, as in CPython (issue 20 cases 1-6): an iterator over an iterator shares its position, a
list iterator sees the list as it is at each `next`, a function given to `map` runs only when
an item is asked for, and a dict changed while iterated raises CPython's RuntimeError.

Each function traces whole (`check` compiles with fullgraph=True) and behaves as eager Python:
the same result or exception (type and message), the same arguments afterwards."""

# The forms under test are the point: zip without strict=, map over a lambda, a loop over d.keys()
# ruff: noqa: B905, C417, SIM118

from __future__ import annotations

import operator
from typing import Any

import pytest
from test.support.import_helper import import_fresh_module

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior

heapq_py = import_fresh_module("heapq", blocked=["_heapq"])
"""The pure-Python heapq, whose nsmallest/nlargest share one iterator between zip and a loop."""

XS = [1, 2, 3, 4, 5]


# -- case 1: an iterator given twice shares its position ----------------------------------------
def zip_an_iterator_with_itself(xs: list[int]) -> Any:
    it = iter(xs)
    return list(zip(it, it))


def test_zip_an_iterator_with_itself() -> None:
    check(zip_an_iterator_with_itself, XS)


# -- case 2: what a lazy builtin pulled is gone from the iterator -------------------------------
def zip_leaves_the_rest(xs: list[int]) -> Any:
    it = iter(xs)
    head = list(zip(range(2), it))
    return head, list(it)


def filter_leaves_the_rest(xs: list[int]) -> Any:
    it = iter(xs)
    first = next(filter(lambda v: v > 2, it))
    return first, list(it)


def map_leaves_the_rest(xs: list[int]) -> Any:
    it = iter(xs)
    sums = list(map(operator.add, it, range(2)))
    return sums, list(it)


def zip_with_an_empty_first_pulls_nothing(xs: list[int]) -> Any:
    it = iter(xs)
    return list(zip([], it)), list(it)


def dict_of_zip_leaves_the_rest(xs: list[int]) -> Any:
    it = iter(xs)
    return dict(zip("ab", it)), list(it)


@pytest.mark.parametrize(
    "fn",
    [
        zip_leaves_the_rest,
        filter_leaves_the_rest,
        map_leaves_the_rest,
        zip_with_an_empty_first_pulls_nothing,
        dict_of_zip_leaves_the_rest,
    ],
)
def test_lazy_builtins_leave_the_rest(fn: Any) -> None:
    check(fn, XS)


def nsmallest(xs: list[int], n: int) -> Any:
    return heapq_py.nsmallest(n, xs), heapq_py.nsmallest(n, xs, key=lambda v: -v)


def nlargest(xs: list[int], n: int) -> Any:
    return heapq_py.nlargest(n, xs), heapq_py.nlargest(n, xs, key=lambda v: -v)


@pytest.mark.parametrize("n", [2, 3, 10])
@pytest.mark.parametrize("fn", [nsmallest, nlargest])
def test_pure_python_heapq(fn: Any, n: int) -> None:
    check(fn, [5, 1, 4, 2, 8, 3, 7, 1], n)


@pytest.mark.parametrize("fn", [nsmallest, nlargest])
def test_pure_python_heapq_of_one(fn: Any) -> None:
    # n == 1 takes min(it, default=object()): `object()` is not traced, so this falls back
    assert_same_behavior(fn, [5, 1, 4, 2, 8, 3, 7, 1], 1)


# -- case 3: the function of a map runs when an item is asked for --------------------------------
def map_never_consumed(xs: list[int]) -> Any:
    seen: list[int] = []
    m = map(seen.append, xs)
    return seen, m is not None


def zipped_maps_interleave(xs: list[int]) -> Any:
    seen: list[Any] = []

    def left(v: int) -> int:
        seen.append(("left", v))
        return v

    def right(v: int) -> int:
        seen.append(("right", v))
        return -v

    pairs = list(zip(map(left, xs), map(right, xs[:2])))
    return pairs, seen


@pytest.mark.parametrize("fn", [map_never_consumed, zipped_maps_interleave])
def test_map_calls_lazily(fn: Any) -> None:
    check(fn, XS)


# -- case 4: a list iterator reads the list as it is at each next --------------------------------
def append_after_iter(xs: list[int]) -> Any:
    it = iter(xs)
    xs.append(99)
    return list(it)


def append_while_looping(xs: list[int]) -> Any:
    seen = []
    for x in xs:
        seen.append(x)
        if x < 3:
            xs.append(x * 10)
    return seen, xs


def remove_while_looping(xs: list[int]) -> Any:
    for x in xs:
        xs.remove(x)
    return xs


def exhausted_stays_exhausted(xs: list[int]) -> Any:
    it = iter(xs)
    first = list(it)
    xs.append(7)
    return first, list(it), next(it, "done")


def reversed_sees_shrinking_list(xs: list[int]) -> Any:
    out = []
    for x in reversed(xs):
        out.append(x)
        if x == 4:
            xs.pop(0)
    return out


@pytest.mark.parametrize(
    "fn",
    [
        append_after_iter,
        append_while_looping,
        remove_while_looping,
        exhausted_stays_exhausted,
        reversed_sees_shrinking_list,
    ],
)
def test_list_iterators_are_live(fn: Any) -> None:
    check(fn, [1, 2, 3])
    check(fn, [1, 2, 3, 4, 5])


# -- case 5: a dict or set changed while iterated raises what CPython raises ---------------------
def add_keys_while_looping(d: dict[str, int]) -> Any:
    for k in d:
        d[k + "x"] = 0
    return d


def delete_keys_while_looping(d: dict[str, int]) -> Any:
    for k in d.keys():
        del d[k]
    return d


def replace_keys_while_looping(d: dict[str, int]) -> Any:
    for k in d:
        del d[k]
        d[k + "x"] = 1
    return d


def update_values_while_looping(d: dict[str, int]) -> Any:
    for k, v in d.items():
        d[k] = v * 2
    return d


def add_to_set_while_looping(t: Any) -> Any:
    s = {1, 2, 3}
    for v in s:
        s.add(v + 10)
    return s, t + 1


@pytest.mark.parametrize(
    "fn",
    [
        add_keys_while_looping,
        delete_keys_while_looping,
        replace_keys_while_looping,
        update_values_while_looping,
    ],
)
def test_dict_changed_while_iterated(fn: Any) -> None:
    check(fn, {"a": 1, "b": 2})


def test_set_changed_while_iterated() -> None:
    check(add_to_set_while_looping, torch.ones(2))


# -- case 6: iter(callable, sentinel), reversed and enumerate as CPython has them -----------------
def iter_with_sentinel(xs: list[int]) -> Any:
    it = iter(xs)
    return list(iter(lambda: next(it), 3))


def iter_with_sentinel_until_stop(xs: list[int]) -> Any:
    it = iter(xs)
    return list(iter(lambda: next(it), 99)), list(it)


def reversed_iterator(xs: list[int]) -> Any:
    return list(reversed(iter(xs)))


def reversed_set(xs: list[int]) -> Any:
    return list(reversed(set(xs)))


def enumerate_float_start(xs: list[int]) -> Any:
    return list(enumerate(xs, 1.5))


def enumerate_bool_start(xs: list[int]) -> Any:
    return list(enumerate(xs, True))


def zip_strict(xs: list[int]) -> Any:
    return list(zip(xs, range(3), strict=True))


def zip_strict_longer(xs: list[int]) -> Any:
    return list(zip(range(3), range(3), xs, strict=True))


def next_on_a_list(xs: list[int]) -> Any:
    return next(xs)


@pytest.mark.parametrize(
    "fn",
    [
        iter_with_sentinel,
        iter_with_sentinel_until_stop,
        reversed_iterator,
        reversed_set,
        enumerate_float_start,
        enumerate_bool_start,
        zip_strict,
        zip_strict_longer,
        next_on_a_list,
    ],
)
def test_builtins_as_cpython(fn: Any) -> None:
    check(fn, [1, 2, 3, 4])
    check(fn, [1, 2])


# -- consumers and unpacking pull one item at a time ----------------------------------------------
def unpack_an_iterator(xs: list[int]) -> Any:
    it = iter(xs)
    a, b = next(it), next(it)
    c, *rest = it
    return a, b, c, rest


def unpack_too_many(xs: list[int]) -> Any:
    a, b = map(xs.append, xs[:4])  # pulls three items, then raises
    return a, b


def unpack_too_few(xs: list[int]) -> Any:
    a, b, *c, d, e = iter(xs)
    return a, b, c, d, e


def unpack_a_number(n: int) -> Any:
    a, b = n
    return a, b


def any_stops_early(xs: list[int]) -> Any:
    it = iter(xs)
    return any(map(lambda v: v > 1, it)), list(it)


def all_stops_early(xs: list[int]) -> Any:
    it = iter(xs)
    return all(map(lambda v: v < 2, it)), list(it)


def consumers(xs: list[int]) -> Any:
    it = iter(xs)
    return sum(zip(it, it), ()), sorted(iter(xs)), max(iter(xs)), tuple(enumerate(xs))


def sum_stops_at_an_error(xs: list[Any]) -> Any:
    return sum(map(lambda v: xs.append(v) or v, xs[:4]))


def iter_of_an_iterator_is_itself(xs: list[int]) -> Any:
    it = iter(xs)
    return iter(it) is it, iter(map(abs, it)) is not it


@pytest.mark.parametrize(
    "fn",
    [
        unpack_an_iterator,
        unpack_too_many,
        unpack_too_few,
        any_stops_early,
        all_stops_early,
        consumers,
        iter_of_an_iterator_is_itself,
    ],
)
def test_consumers(fn: Any) -> None:
    check(fn, [1, 2, 3, 4, 5])
    check(fn, [3, 1])


def test_sum_stops_at_an_error() -> None:
    check(sum_stops_at_an_error, [1, "a", 3, 4])


def test_unpack_a_number() -> None:
    check(unpack_a_number, 5)


# -- an iterator that escapes the frame -----------------------------------------------------------
def return_a_started_iterator(xs: list[int]) -> Any:
    it = iter(xs)
    next(it)
    return it


def return_a_new_list_iterator(t: Any) -> Any:
    ys = [t, t + 1, t + 2]
    it = iter(ys)
    next(it)
    return it, ys


def return_lazy_builtins(xs: list[int]) -> Any:
    it = iter(xs)
    next(it)
    return zip(it, it), enumerate(it, 5), map(abs, it)


def test_a_returned_list_iterator_is_over_the_real_list() -> None:
    compiled = tracer.compile(return_a_started_iterator, fullgraph=True)
    for _ in range(2):
        xs = [1, 2, 3]
        it = compiled(xs)
        assert type(it) is type(iter([]))
        xs.append(4)  # the caller's list itself, at position 1
        assert list(it) == [2, 3, 4]


def test_a_returned_iterator_over_a_new_list() -> None:
    compiled = tracer.compile(return_a_new_list_iterator, fullgraph=True)
    it, ys = compiled(torch.ones(2))
    ys.append("end")
    assert [v if isinstance(v, str) else v.tolist() for v in it] == [[2.0, 2.0], [3.0, 3.0], "end"]


def test_returned_lazy_builtins_share_the_iterator() -> None:
    compiled = tracer.compile(return_lazy_builtins, fullgraph=True)
    pairs, numbered, absolute = compiled([-1, -2, -3, -4, -5, -6, -7])
    assert next(pairs) == (-2, -3)
    assert next(numbered) == (5, -4)
    assert list(absolute) == [5, 6, 7]


def return_a_dict_iterator(d: dict[str, int]) -> Any:
    it = iter(d)
    next(it)
    return it


def test_a_returned_dict_iterator_falls_back() -> None:
    explanation = tracer.explain(return_a_dict_iterator)({"a": 1, "b": 2})
    assert explanation.graph_break_count == 1
    assert "escapes" in str(explanation.break_reasons[0])
    assert list(tracer.compile(return_a_dict_iterator)({"a": 1, "b": 2})) == ["b"]


# -- `in` over an iterator pulls until a match -----------------------------------------------
def in_over_lazy_iterators(xs: list[int]) -> Any:
    calls: list[int] = []

    def record(v: int) -> int:
        calls.append(v)
        return v

    it = map(record, xs)
    found = 4 in it  # pulls up to the first 4, leaves the rest
    return found, calls, list(it), 9 in iter(xs), 3 in zip(xs, xs)


def test_in_over_lazy_iterators() -> None:
    check(in_over_lazy_iterators, XS)
