"""`x in xs`, `xs.count(x)`, `xs.index(x)` and `xs.remove(x)` where x is a user object with
its own `__eq__`: the comparison runs user code at runtime, so the frame falls back with a
reason instead of failing with an InternalError (found by `make conformance`: CPython's
seq_tests.test_contains_fake and test_count, test_range.test_types)."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import CompileCounter, assert_same_behavior


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]


ALWAYS_EQUAL = AlwaysEqual()


def contains(xs: list[int]) -> Any:
    return ALWAYS_EQUAL in xs, ALWAYS_EQUAL not in (1, 2)


def in_a_range() -> Any:
    return ALWAYS_EQUAL in range(3)


def count(xs: list[int]) -> Any:
    return xs.count(ALWAYS_EQUAL)


def index(xs: list[int]) -> Any:
    return xs.index(ALWAYS_EQUAL)


def remove(xs: list[int]) -> Any:
    xs.remove(ALWAYS_EQUAL)
    return xs


@pytest.mark.parametrize("fn", [contains, in_a_range, count, index, remove])
def test_search_for_a_user_object(fn: Any) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *([] if fn is in_a_range else [[1, 2]]))
    assert "needs its runtime value" in counter.graph_break_reasons[0]
