"""A tuple, named tuple or frozenset made in the frame and held in several places comes back
as ONE object, as in eager code (found by the polyfill tests: `zip` items logged twice)."""

from __future__ import annotations

import collections
from typing import Any

import pytest

import tracer
from tracer.testing import assert_same_behavior

Point = collections.namedtuple("Point", "x y")


def zip_items_in_two_lists(xs: list[int]) -> Any:
    log, out = [], []
    for p in zip(xs, xs, strict=True):
        log.append(p)
        out.append(p)
    return log, out


def tuple_returned_and_listed(xs: list[int]) -> Any:
    t = (xs[0], 2)
    return t, [t]


def named_tuple_twice(xs: list[int]) -> Any:
    p = Point(xs[0], xs[1])
    return p, {"p": p}


def frozenset_twice(xs: list[int]) -> Any:
    fs = frozenset(xs)
    return fs, [fs]


@pytest.mark.parametrize(
    "fn",
    [zip_items_in_two_lists, tuple_returned_and_listed, named_tuple_twice, frozenset_twice],
)
def test_one_object(fn: Any) -> None:
    assert_same_behavior(tracer.compile(fn, fullgraph=True), [1, 2])
