"""A module whose functions the statement tests call from another module: their globals live
here, not in the compiled function's module."""

from __future__ import annotations

from typing import Any

SCALE = 3
TABLE = {"a": 1}


def scaled(x: Any) -> Any:
    return x * SCALE + TABLE["a"]


def via_nested(x: Any) -> Any:
    def inner(y: Any) -> Any:
        return y * SCALE + len(TABLE)

    return inner(x)


def shadows_len(x: Any) -> Any:
    return len(x) + SCALE
