"""A list's `index`, `count` and `remove` find an element by identity before `==`, as CPython
does, so a NaN taken from the list finds itself (issue 20 case 11)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def count_and_index(t: Any, xs: list[float]) -> Any:
    x = xs[0]
    return xs.count(x), xs.index(x), t + 1


def remove(t: Any, xs: list[float]) -> Any:
    xs.remove(xs[0])
    return len(xs), t + 1


def a_different_nan_is_not_found(t: Any, xs: list[float]) -> Any:
    return xs.count(float("nan")), t + 1


@pytest.mark.parametrize("fn", [count_and_index, remove, a_different_nan_is_not_found])
def test_nan_identity(fn: Any) -> None:
    assert_same_behavior(fn, torch.ones(2), [float("nan"), 1.0])
