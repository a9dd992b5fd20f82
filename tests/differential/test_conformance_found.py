"""Behaviours `make conformance` (CPython's own tests, eager vs compiled) found wrong, one
minimal function each: compiled == eager, twice, with the exception's type and message."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tracer.testing import assert_same_behavior


def set_init_refills(word: str) -> Any:
    s = set()
    s.__init__(word)
    first = sorted(s)
    s.__init__("xy")
    return first, sorted(s), len(s)


def set_init_of_two_arguments(word: str) -> Any:
    s = set(word)
    s.__init__(word, 2)
    return s


def set_iter_called_by_name(word: str) -> Any:
    s = set(word)
    it = s.__iter__()
    return sorted(it)


def len_of_a_range_past_maxsize(n: int) -> Any:
    return len(range(-sys.maxsize, sys.maxsize + n))


def a_range_past_maxsize_otherwise(n: int) -> Any:
    r = range(-sys.maxsize, sys.maxsize)
    return bool(r), r[sys.maxsize + n], n in r


@pytest.mark.parametrize(
    ("fn", "arg"),
    [
        (set_init_refills, "simsalabim"),
        (set_init_of_two_arguments, "ab"),
        (set_iter_called_by_name, "abc"),
        (len_of_a_range_past_maxsize, 1),
        (a_range_past_maxsize_otherwise, 1),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_same_as_eager(fn: Any, arg: Any) -> None:
    assert_same_behavior(fn, arg)


def test_set_init_empties_then_raises() -> None:
    """`s.__init__(1)` empties s and then raises: the frame falls back rather than replay a
    half-done change."""

    def f(word: str) -> Any:
        s = set(word)
        try:
            s.__init__(1)
        except TypeError as e:
            return str(e), s
        return None

    assert_same_behavior(f, "ab")


class LenOnly:
    def __len__(self) -> int:
        return 10


def subscript_without_getitem(n: int) -> Any:
    return LenOnly()[n]


def assign_without_setitem(n: int) -> Any:
    o = LenOnly()
    o[n] = 1  # type: ignore[index]
    return o


def delete_without_delitem(n: int) -> Any:
    o = LenOnly()
    del o[n]  # type: ignore[attr-defined]
    return o


@pytest.mark.parametrize(
    "fn", [subscript_without_getitem, assign_without_setitem, delete_without_delitem]
)
def test_subscript_of_an_object_without_the_method(fn: Any) -> None:
    """test_bisect's test_len_only: CPython's TypeError ('... is not subscriptable'), not an
    AttributeError about a missing `__getitem__`."""
    assert_same_behavior(fn, 1)
