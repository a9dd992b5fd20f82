"""`x in seq` compares item by item in order, as CPython's list, tuple and dict-values searches
do: identity first, then `==`. The comparisons with the items before one that is `x` itself
run, with their side effects and errors (the tracer answered True from the identical item
and skipped them)."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import assert_same_behavior


class Loud:
    def __eq__(self, other: object) -> bool:
        raise ValueError("compared")

    __hash__ = object.__hash__


class Counting:
    seen: list[str] = []  # noqa: RUF012 - the comparisons, in order

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        Counting.seen.append(self.name)
        return False

    __hash__ = object.__hash__


class Plain:
    pass


def in_list(x: Any) -> Any:
    return x in [Loud(), x]


def in_tuple(x: Any) -> Any:
    return x in (Loud(), x)


def in_dict_values(x: Any) -> Any:
    return x in {"a": Loud(), "b": x}.values()


def comparisons_before(x: Any) -> Any:
    Counting.seen = []
    found = x in [Counting("a"), Counting("b"), x, Counting("c")]
    return found, list(Counting.seen)


@pytest.mark.parametrize("fn", [in_list, in_tuple, in_dict_values, comparisons_before])
def test_items_before_an_identical_one_are_compared(fn: Any) -> None:
    assert_same_behavior(fn, Plain())


def test_identical_first_item_needs_no_comparison() -> None:
    def fn(x: Any) -> Any:
        return x in [x, Loud()], [x, 1].count(x)

    assert_same_behavior(fn, Plain(), compile_options={"fullgraph": True})
