"""A module whose functions and class the tests call from another module: their globals live
here, not in the compiled function's module (tests/differential/test_statements.py and
test_globals.py)."""

from __future__ import annotations

from typing import Any

SCALE = 3
TABLE = {"a": 1}
FACTOR = 3


def scaled(x: Any) -> Any:
    return x * SCALE + TABLE["a"]


def via_nested(x: Any) -> Any:
    def inner(y: Any) -> Any:
        return y * SCALE + len(TABLE)

    return inner(x)


def shadows_len(x: Any) -> Any:
    return len(x) + SCALE


def _offset() -> int:
    return 1


class Scaler:
    def scale(self, x: Any) -> Any:
        return x * FACTOR + _offset()


FLAG = False


def flag() -> bool:
    """Its global handed back unread (as `torch.compiler.is_compiling()` returns its flag)."""
    return FLAG
