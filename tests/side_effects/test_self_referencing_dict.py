"""A dict that comes to hold itself traces and replays like any other: describing the side
effect no longer recurses forever (issue 20 case 14)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def holds_itself(t: Any, d: dict[str, Any]) -> Any:
    d["self"] = d
    return list(d), t + 1


def new_dict_holds_itself(t: Any) -> Any:
    d: dict[str, Any] = {"a": 1}
    d["self"] = d
    return list(d), d["self"] is d, t + 1


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (holds_itself, lambda: (torch.ones(2), {"a": 1})),
        (new_dict_holds_itself, lambda: (torch.ones(2),)),
    ],
)
def test_a_dict_that_holds_itself(fn: Any, args: Any) -> None:
    assert_same_behavior(fn, *args())
