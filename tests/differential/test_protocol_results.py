"""What `len`, `hash` and `bool` make of a user method's result is CPython's: `__len__`
returning -1 or 2.0 raises, True counts as 1, `__hash__` returning 2**70 is reduced and -1 becomes
-2, `__bool__` returning 0 raises (issue 20 case 9)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def _returning(value: Any) -> Any:
    class R:
        def __len__(self) -> Any:
            return value

        def __hash__(self) -> Any:
            return value

    return R


class Falsy:
    def __bool__(self) -> Any:
        return 0  # noqa: PLE0304 - the wrong type on purpose


class Empty:
    def __len__(self) -> int:
        return 0


@pytest.mark.parametrize("value", [-1, True, 2.0, 3, 2**70, -(2**70)])
def test_len_and_hash_results(value: Any) -> None:
    cls = _returning(value)

    def measure_len(t: Any) -> Any:
        return len(cls()), t + 1

    def measure_hash(t: Any) -> Any:
        return hash(cls()), t + 1

    assert_same_behavior(measure_len, torch.ones(2))
    assert_same_behavior(measure_hash, torch.ones(2))


@pytest.mark.parametrize("cls", [Falsy, Empty])
def test_bool_results(cls: type) -> None:
    def truth(t: Any) -> Any:
        return bool(cls()), (1 if cls() else 2), t + 1

    assert_same_behavior(truth, torch.ones(2))
