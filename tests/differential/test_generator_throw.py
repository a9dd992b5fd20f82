"""`g.throw(exc)` on a generator made and consumed in the frame: the exception is raised where
the generator is suspended; no traced generator yields inside a `try` (those fall back), so it
leaves the generator, which is finished from then on, and the caller gets it (through a
`yield from`, the inner generator is finished first). Not started or finished, the generator
raises it as well. Each case traces whole (fullgraph) and matches eager Python."""

from __future__ import annotations

import dis
from collections.abc import Iterator
from typing import Any

import pytest

from tests.differential.helpers import check


def pair(log: list[str]) -> Iterator[int]:
    log.append("start")
    yield 1
    log.append("resumed")
    yield 2


def outer(log: list[str]) -> Iterator[int]:
    yield 0
    yield from pair(log)
    log.append("after")


def thrown_while_suspended(log: list[str]) -> Any:
    g = pair(log)
    first = next(g)
    try:
        g.throw(ValueError("x"))
    except ValueError as e:
        return first, str(e), list(g), next(g, "exhausted")


def thrown_as_a_class(log: list[str]) -> Any:
    g = pair(log)
    next(g)
    try:
        g.throw(KeyError)
    except KeyError as e:
        return repr(e), list(g)


def thrown_before_the_start(log: list[str]) -> Any:
    g = pair(log)
    try:
        g.throw(ValueError("early"))
    except ValueError as e:
        return str(e), list(g)


def thrown_after_the_end(log: list[str]) -> Any:
    g = pair(log)
    items = list(g)
    try:
        g.throw(ValueError("late"))
    except ValueError as e:
        return items, str(e)


def thrown_through_yield_from(log: list[str]) -> Any:
    g = outer(log)
    next(g)
    next(g)
    try:
        g.throw(ValueError("inner"))
    except ValueError as e:
        return str(e), list(g)


def thrown_and_not_caught(log: list[str]) -> Any:
    g = pair(log)
    next(g)
    g.throw(IndexError("out"))


@pytest.mark.parametrize(
    "fn",
    [
        thrown_while_suspended,
        thrown_as_a_class,
        thrown_before_the_start,
        thrown_after_the_end,
        thrown_through_yield_from,
        thrown_and_not_caught,
    ],
)
def test_throw(fn: Any) -> None:
    assert any(i.argval == "throw" for i in dis.get_instructions(fn))
    check(fn, [])
