"""Common subexpressions are not merged when the caller can see both results through views:
`t0 = x.sin(); t1 = x.sin(); return t1, t0.T` gives two storages in plain Python, and writing
`t1` afterwards must leave `t0.T` alone (first rule; the fused backend's aliasing tests found it,
but the eager backend runs the same pass)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.fused.test_fused_aliasing import assert_aliasing_like_eager


def one_returned_and_one_viewed(x: Any) -> Any:
    t0 = x.sin()
    t1 = x.sin()
    return t1, t0.T


def both_viewed(x: Any) -> Any:
    t0 = x * 2.0
    t1 = x * 2.0
    return t0.reshape(-1), t1.unsqueeze(0)


def merged_where_unseen(x: Any) -> Any:
    t0 = x.sin()
    t1 = x.sin()
    return t0.T, t0 + t1


@pytest.mark.parametrize("backend", ["eager", "fused"])
@pytest.mark.parametrize("fn", [one_returned_and_one_viewed, both_viewed])
def test_results_seen_through_views_keep_their_own_storage(fn: Any, backend: str) -> None:
    x = torch.randn(2, 3)
    tracer.reset()
    first, second = tracer.compile(fn, backend=backend, fullgraph=True)(x)
    assert first._storage is not second._storage
    assert_aliasing_like_eager(fn, x)  # fused, written afterwards, against plain Python


def test_a_duplicate_nobody_sees_is_still_merged() -> None:
    tracer.reset()
    gm = tracer.explain(merged_where_unseen)(torch.randn(2, 3)).graphs[0]
    assert gm.code.count("tensor_sin(") == 1
