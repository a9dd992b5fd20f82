"""A tuple indexed out of range or with a wrong key raises the tuple's own error (found by the
exactness hunt: a tuple from outside, or made by `tuple(xs)`, said "list index out of range",
as the tracker keeps its items in a list)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check


def index_input(t: tuple[int, ...], n: int) -> Any:
    return t[n]


def index_made(xs: list[int], n: int) -> Any:
    return tuple(xs)[n]


def index_with_str(t: tuple[int, ...], n: int) -> Any:
    return t[str(n)]  # type: ignore[call-overload]


def index_list_with_str(t: tuple[int, ...], n: int) -> Any:
    return list(t)[str(n)]  # type: ignore[call-overload]


@pytest.mark.parametrize("fn", [index_input, index_made, index_with_str, index_list_with_str])
@pytest.mark.parametrize("n", [1, 3, -4, 10**30])
def test_tuple_index_errors_are_the_tuples(fn: Any, n: int) -> None:
    seq = [1, 2, 3] if fn is index_made else (1, 2, 3)
    check(fn, seq, n)
