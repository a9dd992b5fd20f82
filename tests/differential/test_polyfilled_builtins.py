"""C functions with a polyfill (issue 22 point 3) trace whole and behave as eager Python:
heapq and bisect on lists that are mutated afterwards, with user `__lt__`s whose side effects
are replayed in CPython's order; functools.reduce; itertools objects consumed lazily, their
calls interleaved with the consumer's; operator objects; CPython's errors for bad arguments.
Each `check` compiles with fullgraph=True; an itertools object that escapes the frame falls
back, with a reason."""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
from tests.differential.helpers import FAST, check
from tracer.testing import assert_same_behavior
from variables.polyfills.registry import POLYFILLS


class Logged:
    """A value whose `<` is logged into a shared list (a side effect to replay)."""

    def __init__(self, v: int, log: list[Any]) -> None:
        self.v = v
        self.log = log

    def __lt__(self, other: Logged) -> bool:
        self.log.append((self.v, other.v))
        return self.v < other.v


def heap_sort_then_mutate(values: list[int], heap: list[int], log: list[Any]) -> Any:
    items = [Logged(v, log) for v in values]
    heapq.heapify(items)
    for v in values[:2]:
        heapq.heappush(items, Logged(v + 1, log))
    out = [heapq.heappop(items).v for _ in range(len(items) // 2)]
    out.append(heapq.heapreplace(items, Logged(0, log)).v if items else None)
    out.append(heapq.heappushpop(items, Logged(5, log)).v)
    for v in values:
        heapq.heappush(heap, v)  # an argument: mutated in place, then further below
    heap.append(-1)
    return out, [item.v for item in items]


def test_heapq_with_logged_comparisons() -> None:
    check(heap_sort_then_mutate, [5, 3, 8, 1, 9, 2, 7], [4, 6], [])
    check(heap_sort_then_mutate, [], [], [])


def nsmallest_nlargest(xs: list[int]) -> Any:
    return heapq.nsmallest(3, xs), heapq.nlargest(3, xs, key=lambda v: -v)


def test_pure_python_heapq_over_the_polyfills() -> None:
    check(nsmallest_nlargest, [5, 1, 4, 2, 8, 3, 7, 1])


def bisect_then_mutate(xs: list[int], x: int, log: list[Any]) -> Any:
    def key(v: int) -> int:
        log.append(v)
        return v

    found = (
        bisect.bisect_left(xs, x),
        bisect.bisect(xs, x, 1),
        bisect.bisect_right(xs, x, key=key),
    )
    bisect.insort(xs, x)
    bisect.insort_left(xs, x + 1, 0, len(xs), key=key)
    xs.append(100)  # mutated after the polyfill: replayed after its inserts
    return found


def test_bisect_on_an_argument_mutated_afterwards() -> None:
    check(bisect_then_mutate, [1, 3, 3, 5, 9], 3, [])
    check(bisect_then_mutate, [], 0, [])


def reduce_with_side_effects(xs: list[int], log: list[Any]) -> Any:
    def step(total: int, v: int) -> int:
        log.append((total, v))
        return total * 2 + v

    return functools.reduce(step, xs), functools.reduce(step, iter(xs), -1)


def test_reduce() -> None:
    check(reduce_with_side_effects, [1, 2, 3], [])
    check(reduce_with_side_effects, [], [])  # CPython's "empty iterable" TypeError


def comparison_fails_half_way(xs: list[int]) -> Any:
    class Bad:
        def __init__(self, v: int) -> None:
            self.v = v

        def __lt__(self, other: Any) -> bool:
            if self.v == 3 or other.v == 3:
                raise ValueError("no 3")
            return self.v < other.v

    heap = [Bad(v) for v in xs]
    try:
        heapq.heapify(heap)
    finally:
        xs[:] = [b.v for b in heap]  # the partial order CPython leaves
    return xs


def test_a_failing_comparison_leaves_the_partial_heap() -> None:
    assert_same_behavior(comparison_fails_half_way, [9, 8, 7, 3, 1, 2])


ERRORS = [
    lambda xs: heapq.heappop([]),
    lambda xs: heapq.heapreplace([], 1),
    lambda xs: heapq.heappush(tuple(xs), 1),
    lambda xs: heapq.heappush(xs),
    lambda xs: heapq.heapify(xs, 1),
    lambda xs: bisect.bisect_left(xs, 1, -1),
    lambda xs: bisect.insort(xs, 1, hi=1.5),
    lambda xs: bisect.bisect(xs),
    lambda xs: functools.reduce(operator.add, 3),
    lambda xs: functools.reduce(operator.add, xs, 0, 1),
    lambda xs: functools.reduce(operator.add, xs, initial=0),
]


@pytest.mark.parametrize("fn", ERRORS, ids=range(len(ERRORS)))
def test_argument_errors_are_cpythons(fn: Any) -> None:
    check(fn, [3, 1, 2])


def lazy_pipeline(xs: list[int], log: list[Any]) -> Any:
    def seen(v: int) -> int:
        log.append(("map", v))
        return v

    it = itertools.chain(map(seen, xs), [10])
    first = next(it)
    log.append("after first")
    pairs = itertools.pairwise(itertools.islice(it, 3))
    taken = list(itertools.takewhile(lambda p: log.append(("pred", p[0])) or p[0] < 9, pairs))
    xs.append(7)  # the list iterator inside `map` sees it
    return first, taken, list(it)


def test_itertools_pull_lazily_and_interleave() -> None:
    check(lazy_pipeline, [1, 2, 3, 4, 5, 6], [])


def grouped_totals(rows: list[tuple[str, int]]) -> Any:
    by_name = sorted(rows, key=operator.itemgetter(0))
    return {
        name: functools.reduce(operator.add, map(operator.itemgetter(1), group))
        for name, group in itertools.groupby(by_name, key=operator.itemgetter(0))
    }


def test_groupby_with_itemgetter_keys() -> None:
    check(grouped_totals, [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)])


def returns_a_chain(xs: list[int]) -> Any:
    it = itertools.chain(xs, xs)
    next(it)
    return it


def test_an_itertools_object_that_escapes_falls_back_with_a_reason() -> None:
    explanation = tracer.explain(returns_a_chain)([1, 2])
    assert explanation.graph_break_count == 1
    assert "escapes the traced frame" in explanation.break_reasons[0].explanation
    compiled = tracer.compile(returns_a_chain)
    assert list(compiled([1, 2])) == [2, 1, 2]


@pytest.mark.parametrize(
    "fn",
    [heap_sort_then_mutate, bisect_then_mutate, lazy_pipeline, grouped_totals],
)
def test_traced_whole(fn: Any) -> None:
    args = {
        heap_sort_then_mutate: ([5, 3, 8], [1], []),
        bisect_then_mutate: ([1, 3], 2, []),
        lazy_pipeline: ([1, 2, 3], []),
        grouped_totals: ([("a", 1), ("a", 2)],),
    }[fn]
    assert tracer.explain(fn)(*args).graph_break_count == 0


def test_registry_holds_the_c_functions_by_identity() -> None:
    originals = [
        heapq.heappush, heapq.heappop, heapq.heapify, heapq.heapreplace, heapq.heappushpop,
        bisect.bisect_left, bisect.bisect_right, bisect.insort_left, bisect.insort_right,
        functools.reduce, itertools.chain, itertools.islice, itertools.product,
        itertools.permutations, itertools.combinations,
        itertools.combinations_with_replacement, itertools.accumulate, itertools.zip_longest,
        itertools.count, itertools.repeat, itertools.starmap, itertools.takewhile,
        itertools.dropwhile, itertools.compress, itertools.pairwise, itertools.groupby,
        itertools.tee, itertools.cycle,
        operator.itemgetter, operator.attrgetter, operator.methodcaller,
    ]  # fmt: skip
    for original in originals:
        assert POLYFILLS[id(original)][0] is original


def bisect_all(xs: list[int], x: int, lo: int, hi: Any, log: list[Any]) -> Any:
    def key(v: int) -> int:
        log.append(v)
        return v

    xs.sort()
    found = [
        bisect.bisect_left(xs, x, lo, hi),
        bisect.bisect_right(xs, x, lo, hi=hi, key=key),
    ]
    bisect.insort_left(xs, x, lo, hi)
    bisect.insort_right(xs, x, lo=lo, hi=hi, key=key)
    return found


@FAST
@given(
    st.lists(st.integers(0, 9), max_size=8),
    st.integers(0, 9),
    st.integers(-1, 10),
    st.one_of(st.none(), st.integers(-2, 10)),
)
def test_bisect_bounds_through_the_dispatch(xs: list[int], x: int, lo: int, hi: Any) -> None:
    """lo/hi in and out of range: the real function checks the arguments on stand-ins,
    which must not read items (an IndexError of the check is not the user's)."""
    check(bisect_all, xs, x, lo, hi, [])


def heap_operations(xs: list[int], ops: list[tuple[int, int]]) -> Any:
    out = []
    for op, v in ops:
        if op == 0:
            heapq.heappush(xs, v)
        elif op == 1:
            out.append(heapq.heappop(xs) if xs else None)
        elif op == 2:
            out.append(heapq.heapreplace(xs, v) if xs else None)
        elif op == 3:
            out.append(heapq.heappushpop(xs, v))
        else:
            heapq.heapify(xs)
    return out


@FAST
@given(
    st.lists(st.integers(0, 9), max_size=8),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9)), max_size=6),
)
def test_heapq_operations_through_the_dispatch(xs: list[int], ops: list[tuple[int, int]]) -> None:
    check(heap_operations, xs, ops)


def stores_operator_objects(out: list[Any], xs: list[int]) -> int:
    out.append(operator.itemgetter(1, 0))
    out.append(operator.attrgetter("real"))
    out.append(operator.methodcaller("count", 1))
    return len(xs)


def test_operator_objects_that_escape_are_rebuilt() -> None:
    out: list[Any] = []
    assert tracer.compile(stores_operator_objects, fullgraph=True)(out, [1]) == 1
    assert (out[0]([5, 6]), out[1](3), out[2]([1, 1])) == ((6, 5), 3, 2)


class Num:
    """A number CPython's `count` accepts (it has `__int__`) but a plain object would not."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __int__(self) -> int:
        return self.v

    def __add__(self, other: int) -> Num:
        return Num(self.v + other)


def count_from_a_user_number(n: Num) -> Any:
    return next(itertools.count(n)).v


def test_an_inexact_stand_in_falls_back_instead_of_raising() -> None:
    """The check can't stand in for a user object exactly: the stand-in's error (here "a
    number is required") is not raised as the user's; the frame falls back and runs."""
    assert_same_behavior(count_from_a_user_number, Num(3))
    reason = tracer.explain(count_from_a_user_number)(Num(3)).break_reasons[0].explanation
    assert "stand-in" in reason


CALLS: list[int] = []


def logged_step(total: int, v: int) -> int:
    CALLS.append(v)
    return total + v


def reduce_with_a_global_function(xs: list[int]) -> Any:
    return functools.reduce(logged_step, xs, 0), len(CALLS)


def test_the_argument_check_never_runs_the_users_function() -> None:
    """A module-level function is a constant to the tracer; the check must still not call
    it (a call at trace time would be a side effect that eager Python never has)."""
    del CALLS[:]
    assert tracer.compile(reduce_with_a_global_function, fullgraph=True)([1, 2]) == (3, 2)
    assert CALLS == [1, 2]
