"""A staticmethod read through an instance or its class is the function itself: the source
`type(L['c']).firsts` reads it with getattr, which unwraps the staticmethod, so rebuilding it
in the compiled code must not ask for `.__func__` again (CPython's test_itertools calls
`self.islice(...)`, a generator staticmethod that yields in a `try`, which falls back there)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from tracer.testing import assert_same_behavior


class Recipes:
    @staticmethod
    def firsts(iterable: Iterable[Any], n: int) -> Iterator[Any]:
        try:
            for i, x in enumerate(iterable):
                if i == n:
                    return
                yield x
        except StopIteration:
            pass

    @staticmethod
    def twice(x: int) -> int:
        return 2 * x


def generator_staticmethod_rebuilt(c: Recipes) -> Any:
    return list(c.firsts("ABCDEFG", 2))


def staticmethod_across_a_break(c: Recipes) -> Any:
    f = c.twice
    print("break")
    return f(3), type(c).twice(4)


@pytest.mark.parametrize("fn", [generator_staticmethod_rebuilt, staticmethod_across_a_break])
def test_same_behavior(fn: Any) -> None:
    assert_same_behavior(fn, Recipes())
