"""A model that meets a traced value where it needs a Python value (a list indexed by a
tensor) makes the frame run as plain Python, with a reason, never InternalError."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def index_by_tensor(xs: list[int], t: Any) -> Any:
    return xs[t]


def slice_by_tensor(xs: list[int], t: Any) -> Any:
    return xs[t:]


def pop_at_tensor(xs: list[int], t: Any) -> Any:
    return xs.pop(t), xs


@pytest.mark.parametrize("fn", [index_by_tensor, slice_by_tensor, pop_at_tensor])
def test_falls_back_with_a_reason(fn: Any) -> None:
    assert_same_behavior(fn, [1, 2, 3], torch.tensor(1))
    report = tracer.explain(fn)([1, 2, 3], torch.tensor(1))
    assert report.graph_count == 0
    assert any("value is needed while tracing" in str(r) for r in report.break_reasons)
