"""After a break, only the resume function holds what it was handed, so that an object it
drops dies as in eager code (CPython's test_set/test_deque/test_functools `test_weakref`)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def dropped_after_break(word: str) -> Any:
    s = set(word)
    p = weakref.proxy(s)  # weakref.proxy is called eagerly: the break
    first = str(p) == str(s)
    s = None
    gc.collect()
    try:
        str(p)
    except ReferenceError:
        return first, "dead"
    return first, "alive"


def dropped_after_tensor_jump(x: Any) -> Any:
    y = x * 2
    box = {"y": y}
    ref = weakref.ref(tracer)  # a module: alive either way, the break
    if y.sum() > 0:
        box = None
        return ref() is tracer, box
    return ref() is tracer, box


def test_a_dropped_object_dies_after_a_break() -> None:
    assert_same_behavior(dropped_after_break, "gallahad")
    assert dropped_after_break("gallahad") == (True, "dead")
    explanation = tracer.explain(dropped_after_break)("gallahad")
    assert explanation.graph_break_count >= 1


def test_jump_break_releases_its_locals() -> None:
    assert_same_behavior(dropped_after_tensor_jump, torch.ones(2))


def eval_reads_the_frame(x: Any) -> Any:
    y = x * 2
    seen = eval("x")  # runs eagerly at the break and reads this frame's locals
    return y + seen


def test_the_eager_call_still_sees_the_frames_locals() -> None:
    """test_scope's testClassAndGlobal: `exec(src)` at a break reads the frame's locals."""
    assert_same_behavior(eval_reads_the_frame, torch.ones(2))
    assert tracer.explain(eval_reads_the_frame)(torch.ones(2)).graph_break_count == 1
