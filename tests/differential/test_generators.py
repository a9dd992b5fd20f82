"""Generators made and consumed inside the traced frame trace whole (issue 22 point 1): each
`next` runs the generator's frame to its next `yield`, so its side effects interleave with the
consumer's exactly as in CPython. Each test first asserts that the construct really is in the
bytecode, then compares compiled (fullgraph=True, via `check`) with eager Python: the same result
or exception (type and message) and the same arguments afterwards.

Generators the trace can't follow fall back with a reason and stay correct: one that escapes the
frame, `throw` of StopIteration, a `yield` inside `try`/`finally`, a StopIteration escaping the
body, and a generator passed in as an argument."""

# The forms under test are the point: generator expressions given to builtins, `yield from`
# ruff: noqa: B905, C400, C401, C402

from __future__ import annotations

import dis
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior

XS = [3, 1, 4, 1, 5]


def opnames(fn: Callable[..., Any]) -> set[str]:
    """The opcodes of `fn` and of every code object nested in it (genexprs, inner defs)."""
    names: set[str] = set()
    stack: list[types.CodeType] = [fn.__code__]
    while stack:
        code = stack.pop()
        names.update(inst.opname for inst in dis.get_instructions(code))
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return names


def break_reason(fn: Callable[..., Any], *args: Any) -> str:
    """Why `fn` can't be traced whole (with fullgraph=True the break is raised, not run)."""
    with pytest.raises(tracer.Unsupported) as info:
        tracer.compile(fn, fullgraph=True)(*args)
    return str(info.value)


# -- a generator function, one `next` at a time --------------------------------------------------
def counting(n: int, log: list[Any]) -> Iterator[int]:
    log.append("start")
    for i in range(n):
        log.append(i)
        yield i * 2
    log.append("end")


def interleaved(log: list[Any]) -> Any:
    g = counting(3, log)
    log.append("made")  # the body has not run yet
    a = next(g)
    log.append("between")
    b = next(g)
    return a, b, list(g), log


def test_side_effects_interleave_as_in_cpython() -> None:
    assert {"RETURN_GENERATOR", "YIELD_VALUE"} <= opnames(counting)
    check(interleaved, [])


def partial(log: list[Any]) -> Any:
    g = counting(5, log)
    return next(g), next(g)  # the generator is left suspended


def test_partial_consumption() -> None:
    check(partial, [])


def early_break(log: list[Any]) -> Any:
    g = counting(5, log)
    for v in g:
        if v > 2:
            break
    return v, next(g), log


def test_early_break_then_resume() -> None:
    check(early_break, [])


def next_past_the_end(log: list[Any]) -> Any:
    g = counting(1, log)
    next(g)
    return next(g, "default"), next(g, "again")


def test_next_with_default_past_the_end() -> None:
    check(next_past_the_end, [])


def next_raises_at_the_end(log: list[Any]) -> Any:
    g = counting(1, log)
    next(g)
    return next(g)


def test_next_raises_stop_iteration() -> None:
    # a StopIteration that leaves the frame is raised by eager Python (convert_frame)
    assert_same_behavior(next_raises_at_the_end, [])


def unpack_a_generator(log: list[Any]) -> Any:
    a, *rest = counting(3, log)
    return a, rest


def test_unpacking() -> None:
    check(unpack_a_generator, [])


def generator_identity(xs: list[int]) -> Any:
    g = (x for x in xs)
    return g is iter(g), g.__next__(), bool(g), type(g).__name__


def test_a_generator_is_its_own_iterator() -> None:
    check(generator_identity, XS)


# -- return, yield from, send --------------------------------------------------------------------
def returns_a_value() -> Iterator[int]:
    yield 1
    return 7


def return_value_through_yield_from() -> Any:
    def outer() -> Iterator[Any]:
        result = yield from returns_a_value()
        yield result
        yield from [10, 20]
        yield from range(2)
        yield from (x * 3 for x in (1, 2))

    return list(outer())


def test_yield_from_and_its_return_value() -> None:
    assert {"SEND", "GET_YIELD_FROM_ITER"} <= opnames(return_value_through_yield_from)
    check(return_value_through_yield_from)


def stop_iteration_carries_the_return_value() -> Any:
    g = returns_a_value()
    next(g)
    return next(g)  # StopIteration: 7


def test_stop_iteration_carries_the_return_value() -> None:
    assert_same_behavior(stop_iteration_carries_the_return_value)


def echo() -> Iterator[Any]:
    received = yield "ready"
    while received is not None:
        received = yield received * 2


def send_values() -> Any:
    g = echo()
    return next(g), g.send(5), g.send(7), g.send(1)


def test_send() -> None:
    check(send_values)


def send_to_a_just_started_generator() -> Any:
    return echo().send(1)


def test_send_to_a_just_started_generator_raises() -> None:
    check(send_to_a_just_started_generator)


def send_through_yield_from() -> Any:
    def outer() -> Iterator[Any]:
        yield from echo()

    g = outer()
    return next(g), g.send(3), g.send(4)


def test_send_through_yield_from() -> None:
    check(send_through_yield_from)


def recursive_generator(n: int) -> Any:
    def countdown(k: int) -> Iterator[int]:
        if k:
            yield k
            yield from countdown(k - 1)

    return list(countdown(n))


def test_recursive_yield_from() -> None:
    check(recursive_generator, 4)


def reentrant() -> Any:
    def gen() -> Iterator[Any]:
        yield next(g)

    g = gen()
    return next(g)


def test_a_generator_that_runs_itself_raises() -> None:
    # CPython: ValueError: generator already executing
    check(reentrant)


def closes(log: list[Any]) -> Any:
    g = counting(3, log)
    first = next(g)
    closed = g.close()
    unstarted = counting(2, log)
    unstarted.close()  # its body never runs
    return first, closed, list(g), list(unstarted), g.close(), log


def close_delegates(log: list[Any]) -> Any:
    inner = counting(3, log)

    def outer() -> Iterator[int]:
        yield from inner

    g = outer()
    first = next(g)
    g.close()  # closes `inner` too
    return first, next(inner, "inner closed"), log


def test_close() -> None:
    check(closes, [])
    check(close_delegates, [])


# -- generator expressions consumed by builtins ----------------------------------------------------
def reductions(xs: list[int]) -> Any:
    return (
        sum(x * 2 for x in xs),
        any(x > 4 for x in xs),
        all(x > 0 for x in xs),
        min(x for x in xs),
        max(-x for x in xs),
    )


def test_reductions_over_a_genexpr() -> None:
    assert "YIELD_VALUE" in opnames(reductions)
    check(reductions, XS)
    check(reductions, [])  # min() of an empty genexpr: CPython's ValueError


def short_circuits(xs: list[int]) -> Any:
    log: list[int] = []
    g = (log.append(x) or x for x in xs)
    return any(x > 1 for x in g), all(x < 2 for x in g), log, list(g)


def zip_pulls_the_generator_first(xs: list[int]) -> Any:
    log: list[int] = []

    def gen() -> Iterator[int]:
        for x in xs:
            log.append(x)
            yield x

    return dict(zip(gen(), range(2))), log  # the third item is pulled, then zip stops


def test_consumers_pull_only_what_cpython_pulls() -> None:
    check(short_circuits, [1, 2, 3, 0, 1])
    check(zip_pulls_the_generator_first, XS)


def collections_of(xs: list[int]) -> Any:
    return (
        list(x for x in xs),
        tuple(x + 1 for x in xs),
        sorted(-x for x in xs),
        dict((x, i) for i, x in enumerate(xs)),
        set(x % 3 for x in xs),
        ",".join(str(x) for x in xs),
    )


def test_collections_from_a_genexpr() -> None:
    check(collections_of, XS)


def lazy_builtins_over(xs: list[int]) -> Any:
    g = (x for x in xs)
    pairs = list(zip(g, g))  # one generator given twice shares its position
    return pairs, list(enumerate(y * 2 for y in xs)), 4 in (x for x in xs)


def test_zip_enumerate_and_in_over_a_genexpr() -> None:
    check(lazy_builtins_over, XS)


def extend_update_and_star(xs: list[int]) -> Any:
    out: list[int] = []
    out.extend(x for x in xs)
    d: dict[int, int] = {}
    d.update((x, 1) for x in xs)
    return out, d, sum((x for x in xs), 10), [*(x for x in xs)], (*(x for x in xs),)


def test_methods_and_star_unpacking_consume_a_genexpr() -> None:
    check(extend_update_and_star, XS)


def takes_from_a_shared_iterator(xs: list[int]) -> Any:
    it = iter(xs)

    def take(n: int) -> Iterator[int]:
        for _ in range(n):
            yield next(it)

    return list(take(2)), list(it)


def test_a_generator_pulling_from_a_shared_iterator() -> None:
    check(takes_from_a_shared_iterator, XS)


def in_stops_pulling(xs: list[int]) -> Any:
    log: list[int] = []

    def gen() -> Iterator[int]:
        for x in xs:
            log.append(x)
            yield x

    g = gen()
    return 4 in g, log, list(g)


def test_in_stops_at_the_first_match() -> None:
    check(in_stops_pulling, XS)


def nested_genexprs(xs: list[int]) -> Any:
    return sum(sum(y for y in range(x)) for x in xs), [list(y * x for y in xs) for x in xs]


def test_nested_genexprs() -> None:
    check(nested_genexprs, XS)


def closes_over_a_cell(xs: list[int]) -> Any:
    k = 1
    g = (x + k for x in xs)
    k = 10  # the genexpr reads the cell when it runs
    return list(g)


def test_a_genexpr_reads_its_cells_when_it_runs() -> None:
    assert "LOAD_DEREF" in opnames(closes_over_a_cell)
    check(closes_over_a_cell, XS)


def mutates_while_iterating(xs: list[int]) -> Any:
    def gen() -> Iterator[int]:
        for x in xs:
            xs.append(x)
            yield x
            if len(xs) > 8:
                return

    return list(gen()), xs


def test_a_generator_mutating_its_input() -> None:
    check(mutates_while_iterating, [1, 2])


def raises_inside(xs: list[int]) -> Any:
    return list(1 / x for x in xs)


def test_an_exception_inside_a_genexpr_is_the_users() -> None:
    check(raises_inside, [1, 0])


def genexpr_len(xs: list[int]) -> Any:
    return len(x for x in xs)


def test_len_of_a_genexpr_raises() -> None:
    # len() of an iterator is not modeled: the frame falls back and raises CPython's TypeError
    assert_same_behavior(genexpr_len, XS)


# -- what falls back, with a reason ----------------------------------------------------------------
def returns_the_generator(xs: list[int]) -> Any:
    return (x for x in xs)


def stores_the_generator(holder: Any, xs: list[int]) -> Any:
    holder.gen = (x for x in xs)
    return 1


class Holder:
    gen: Any = None


def throws(log: list[Any]) -> Any:
    g = counting(3, log)
    next(g)
    return g.throw(StopIteration)  # the generator turns it into RuntimeError


def yield_in_try_finally(log: list[Any]) -> Any:
    def gen() -> Iterator[int]:
        try:
            yield 1
        finally:
            log.append("cleanup")  # runs when CPython finalizes the generator

    return next(gen()), log


def stop_iteration_inside(xs: list[int]) -> Any:
    def gen() -> Iterator[int]:
        yield 1
        next(iter(xs))  # exhausted for []: CPython's RuntimeError (PEP 479)

    return list(gen())


def consume(g: Any) -> Any:
    return list(g)


@pytest.mark.parametrize(
    ("fn", "args", "words"),
    [
        (throws, ([],), "throw() of"),
        (yield_in_try_finally, ([],), "yields inside a try or with block"),
        (stop_iteration_inside, ([],), "StopIteration raised inside the generator"),
    ],
)
def test_unmodeled_generators_fall_back(fn: Any, args: Any, words: str) -> None:
    reason = break_reason(fn, *args)
    assert words in reason and "test_generators.py:" in reason, reason
    assert_same_behavior(fn, *args)


def test_a_returned_generator_falls_back() -> None:
    reason = break_reason(returns_the_generator, XS)
    assert "escapes the traced frame" in reason and "test_generators.py:" in reason, reason
    compiled = tracer.compile(returns_the_generator)
    assert list(compiled(XS)) == XS


def test_a_generator_stored_on_an_object_falls_back() -> None:
    holder = Holder()
    reason = break_reason(stores_the_generator, holder, XS)
    assert "escapes the traced frame" in reason and "test_generators.py:" in reason, reason
    holder = Holder()
    assert tracer.compile(stores_the_generator)(holder, XS) == 1
    assert list(holder.gen) == XS


def test_a_generator_passed_in_falls_back() -> None:
    reason = break_reason(consume, (x for x in XS))
    assert "generator" in reason, reason
    assert tracer.compile(consume)(x for x in XS) == XS
