"""A set and a frozenset compare by their elements, as in CPython (issue 20 case 12); other
builtin containers of different types never compare equal."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def set_and_frozenset(t: Any, xs: list[int]) -> Any:
    return (
        frozenset(xs) == set(xs),
        set() != frozenset(),
        set(xs) == frozenset(xs),
        set(xs) != frozenset(xs[:1]),
        t + 1,
    )


def other_containers(t: Any, xs: list[int]) -> Any:
    return xs == tuple(xs), list(xs) != tuple(xs), set(xs) == list(xs), t + 1


@pytest.mark.parametrize("fn", [set_and_frozenset, other_containers])
def test_container_equality_across_types(fn: Any) -> None:
    assert_same_behavior(fn, torch.ones(2), [1, 2, 3])
