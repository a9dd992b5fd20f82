"""The itertools trackers against the C itertools, traced whole: on hypothesis inputs, the
same items, the same exceptions (type and message), and the same calls of the user's functions
(predicates, keys, `func`, `__eq__`), logged into an argument, in the same order relative to the
consumer's own work. Also the operator objects (itemgetter, attrgetter, methodcaller)."""

# The forms under test are the point: zip without strict=, lambdas given to itertools
# ruff: noqa: B905, RUF058

from __future__ import annotations

import itertools
import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check

SMALL = st.lists(st.integers(0, 4), max_size=6)


def consume(it: Any, log: list[Any]) -> list[Any]:
    """Pull items one by one, logging each pull: the user's calls interleave with these. (The
    log holds the count, not the item: a tuple made in the frame comes back as two equal
    tuples when it is both logged and returned, see the report of the polyfills branch.)"""
    out = []
    for item in it:
        log.append(("got", len(out)))
        out.append(item)
    return out


def chain_forms(xs: list[int], ys: list[int], log: list[Any]) -> Any:
    a = consume(itertools.chain(xs, ys, xs), log)
    b = consume(itertools.chain.from_iterable([ys, xs, []]), log)
    return a, b


def islice_forms(xs: list[int], start: int, stop: int, step: int, log: list[Any]) -> Any:
    it = iter(xs)
    a = consume(itertools.islice(it, start, stop, step), log)
    return a, list(it), consume(itertools.islice(xs, stop), log)


def predicates(xs: list[int], limit: int, log: list[Any]) -> Any:
    def small(v: int) -> bool:
        log.append(("pred", v))
        return v < limit

    return (
        consume(itertools.takewhile(small, xs), log),
        consume(itertools.dropwhile(small, xs), log),
        consume(itertools.compress(xs, map(small, xs)), log),
        consume(itertools.starmap(lambda a, b: log.append((a, b)) or a + b, zip(xs, xs)), log),
    )


def accumulations(xs: list[int], log: list[Any]) -> Any:
    def func(a: int, b: int) -> int:
        log.append(("func", a, b))
        return a * 2 - b

    return (
        consume(itertools.accumulate(xs), log),
        consume(itertools.accumulate(xs, func), log),
        consume(itertools.accumulate(xs, func, initial=7), log),
        consume(itertools.pairwise(xs), log),
    )


def combinatorics(xs: list[int], ys: list[int], r: int, log: list[Any]) -> Any:
    return (
        consume(itertools.product(xs, ys), log),
        consume(itertools.product(xs, repeat=2), log),
        consume(itertools.permutations(xs, r), log),
        consume(itertools.permutations(ys), log),
        consume(itertools.combinations(xs, r), log),
        consume(itertools.combinations_with_replacement(ys, r), log),
    )


def counting(xs: list[int], start: int, step: int, log: list[Any]) -> Any:
    return (
        consume(zip(itertools.count(start, step), xs), log),
        consume(zip(xs, itertools.repeat(start)), log),
        consume(itertools.repeat(xs, step), log),
        consume(itertools.zip_longest(xs, [start], [], fillvalue=step), log),
        consume(itertools.islice(itertools.cycle(map(abs, xs)), 2 * len(xs) + 1), log),
    )


class Key:
    """A key whose `__eq__` is logged (groupby compares keys with `==`)."""

    def __init__(self, v: int, log: list[Any]) -> None:
        self.v = v
        self.log = log

    def __eq__(self, other: object) -> bool:
        self.log.append(("eq", self.v, getattr(other, "v", None)))
        return isinstance(other, Key) and self.v == other.v

    __hash__ = None  # type: ignore[assignment]


def grouping(xs: list[int], log: list[Any]) -> Any:
    def key(v: int) -> Key:
        log.append(("key", v))
        return Key(v // 2, log)

    whole = [(k.v, consume(g, log)) for k, g in itertools.groupby(xs, key)]
    groups = itertools.groupby(xs)
    first = next(groups, None)
    rest = [k for k, _ in groups]
    stale = [] if first is None else list(first[1])  # read after the groupby moved on: empty
    return whole, rest, stale


def teeing(xs: list[int], log: list[Any]) -> Any:
    def seen(v: int) -> int:
        log.append(("map", v))
        return v

    a, b = itertools.tee(map(seen, xs))
    head = next(a, None)
    log.append("after head")
    c, d, e = itertools.tee(a, 3)  # a tee of a tee: `c` is `a` itself
    same = c is a
    return (
        same,
        head,
        consume(b, log),
        consume(c, log),
        consume(d, log),
        list(e),
        itertools.tee(xs, 0),
    )


@FAST
@given(SMALL)
def test_tee(xs: list[int]) -> None:
    check(teeing, xs, [])


@FAST
@given(SMALL, SMALL)
def test_chain(xs: list[int], ys: list[int]) -> None:
    check(chain_forms, xs, ys, [])


@FAST
@given(SMALL, st.integers(0, 7), st.integers(0, 7), st.integers(1, 3))
def test_islice(xs: list[int], start: int, stop: int, step: int) -> None:
    check(islice_forms, xs, start, stop, step, [])


@FAST
@given(SMALL, st.integers(0, 5))
def test_predicates(xs: list[int], limit: int) -> None:
    check(predicates, xs, limit, [])


@FAST
@given(SMALL)
def test_accumulate_and_pairwise(xs: list[int]) -> None:
    check(accumulations, xs, [])


@FAST
@given(st.lists(st.integers(0, 4), max_size=4), st.lists(st.integers(0, 4), max_size=3))
def test_combinatorics(xs: list[int], ys: list[int]) -> None:
    check(combinatorics, xs, ys, len(ys), [])


@FAST
@given(SMALL, st.integers(-3, 3), st.integers(-2, 3))
def test_count_repeat_zip_longest(xs: list[int], start: int, step: int) -> None:
    check(counting, xs, start, step, [])


@FAST
@given(st.lists(st.integers(0, 5), max_size=8))
def test_groupby(xs: list[int]) -> None:
    check(grouping, xs, [])


ARGUMENT_ERRORS = [
    lambda xs: itertools.islice(xs, -1),
    lambda xs: itertools.islice(xs, 1, 2, 0),
    lambda xs: itertools.islice(xs, "a"),
    lambda xs: itertools.islice(xs),
    lambda xs: itertools.islice(5, 1),
    lambda xs: itertools.permutations(xs, -1),
    lambda xs: itertools.combinations(xs, "2"),
    lambda xs: itertools.combinations(xs),
    lambda xs: itertools.product(xs, repeat=-1),
    lambda xs: itertools.repeat(),
    lambda xs: itertools.count("a"),
    lambda xs: itertools.chain(xs, key=1),
    lambda xs: itertools.pairwise(1),
    lambda xs: itertools.accumulate(xs, initial=1, x=2),
    lambda xs: list(itertools.chain(xs, 1)),
    lambda xs: list(itertools.starmap(operator.add, xs)),
    lambda xs: itertools.zip_longest(xs, fill=1),
    lambda xs: itertools.groupby(xs, xs, xs),
    lambda xs: itertools.tee(xs, -1),
    lambda xs: itertools.cycle(),
    lambda xs: itertools.cycle(3),
    lambda xs: itertools.tee(xs, "2"),
    lambda xs: operator.itemgetter(),
    lambda xs: operator.attrgetter(1),
    lambda xs: operator.methodcaller(),
    lambda xs: operator.itemgetter(1)(xs, xs),
    lambda xs: operator.itemgetter(9)(xs),
]


@pytest.mark.parametrize("fn", ARGUMENT_ERRORS, ids=range(len(ARGUMENT_ERRORS)))
def test_argument_errors_are_cpythons(fn: Any) -> None:
    check(fn, [1, 2])


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y
        self.inner = self if x == 0 else None

    def scaled(self, k: int, *, plus: int = 0) -> int:
        return self.x * k + plus


def operator_objects(pairs: list[tuple[int, int]]) -> Any:
    points = [Point(a, b) for a, b in pairs]
    by_y = sorted(points, key=operator.attrgetter("y", "x"))
    return (
        [p.x for p in by_y],
        sorted(pairs, key=operator.itemgetter(1)),
        list(map(operator.itemgetter(1, 0), pairs)),
        list(map(operator.methodcaller("scaled", 3, plus=1), points)),
        [operator.attrgetter("inner.x")(p) for p in points if p.inner is not None],
    )


@FAST
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=5))
def test_operator_objects(pairs: list[tuple[int, int]]) -> None:
    check(operator_objects, pairs)
