"""A class whose methods read this module's globals, for tests that call it from another
module (tests/differential/test_globals.py)."""

from __future__ import annotations

from typing import Any

FACTOR = 3


def _offset() -> int:
    return 1


class Scaler:
    def scale(self, x: Any) -> Any:
        return x * FACTOR + _offset()
