"""A resume function numbers its locals anew (its parameters first), so a local may sit past
index 15 there. 3.13's two-local instructions (LOAD_FAST_LOAD_FAST and its kin) hold each index
in 4 bits: the `bytecode` package then wrote a wrong oparg, and the instruction read other
locals (functools' `_lru_cache_wrapper` set an attribute on a cell). `resume_code` writes them
as two simple instructions (`split_superinstruction`)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def many_cells(x: Any) -> Any:
    a0, a1, a2, a3, a4, a5, a6, a7 = range(8)
    b0, b1, b2, b3, b4, b5, b6, b7 = range(8, 16)

    def total() -> int:  # the sixteen become cells, passed to the resume function first
        return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7

    y = x + 1
    print("between")
    u, v = total(), y
    return u + v  # 3.13: LOAD_FAST_LOAD_FAST (u, v), locals 3 and 4 of the original


def test_locals_past_fifteen_after_the_break() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(many_cells, torch.ones(3))
        explanation = tracer.explain(many_cells)(torch.ones(3))
    assert not explanation.entries[0].is_fallback
