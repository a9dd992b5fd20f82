"""Builtins called with arguments CPython refuses raise CPython's own TypeError in traced code
(issue 20 case 8): `sum` with a string start, `max`/`min` with a default and several positional
arguments; good calls still fold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior

CALLS: dict[str, Callable[[Any], Any]] = {
    "sum of strings": lambda n: sum(["a", "b"], ""),
    "sum with bytes start": lambda n: sum([], b""),
    "max with default and two args": lambda n: max(n, 2, default=0),
    "min with default and two args": lambda n: min(n, 2, default=0),
    "max of two": lambda n: max(n, 2),
    "max of an iterable with default": lambda n: max([], default=n),
    "sum with a start": lambda n: sum([1, 2], n),
    "min of no arguments": lambda n: min(),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_builtin_arguments(name: str) -> None:
    call = CALLS[name]

    def f(t: Any, n: int) -> Any:
        return call(n), t + 1

    assert_same_behavior(f, torch.ones(2), 3)
