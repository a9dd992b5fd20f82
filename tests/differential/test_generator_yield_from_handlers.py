"""A `yield from` inside a `try` or `except` block falls back, as a bare `yield` there does
(InliningGeneratorTranslator.start). On 3.12 the exception table covers a `yield from`'s
YIELD_VALUE with CLEANUP_THROW's implicit handler alone; the block around it is the handler of
that CLEANUP_THROW, which the check must follow. It did not, and the generator was traced as if
nothing caught there: `throw()` and the `except` block's exception state went wrong
(CPython's test_generators `test_exception_context_with_yield_from`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tracer
from tracer.testing import assert_same_behavior


def inner() -> Iterator[None]:
    yield


def throw_into_except_block() -> Any:
    def gen() -> Iterator[None]:
        try:
            raise KeyError("a")
        except KeyError:
            yield from inner()

    g = gen()
    g.send(None)
    try:
        g.throw(ValueError)
    except ValueError as e:
        return type(e.__context__).__name__


def throw_caught_around_yield_from() -> Any:
    def gen() -> Iterator[Any]:
        try:
            yield from inner()
        except ValueError:
            return "caught"

    g = gen()
    next(g)
    try:
        g.throw(ValueError)
    except StopIteration as e:
        return e.value


def yield_from_outside_any_try(log: list[str]) -> Any:
    def gen() -> Iterator[None]:
        log.append("start")
        yield from inner()
        log.append("end")

    return list(gen()), log


@pytest.mark.parametrize("fn", [throw_into_except_block, throw_caught_around_yield_from])
def test_yield_from_in_a_handled_block_falls_back(fn: Any) -> None:
    with pytest.raises(tracer.Unsupported) as info:
        tracer.compile(fn, fullgraph=True)()
    assert "yields inside a try or with block" in str(info.value), info.value
    assert_same_behavior(fn)


def test_yield_from_outside_any_try_traces_whole() -> None:
    assert_same_behavior(yield_from_outside_any_try, [], compile_options={"fullgraph": True})
