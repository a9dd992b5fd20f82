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


class Looped:
    """An object in a reference cycle: only the garbage collector frees it."""


def deleted_then_collected() -> Any:
    o = Looped()
    o.me = o  # type: ignore[attr-defined]
    wr = weakref.ref(o)  # the break: `o` is handed to the resume function
    del o
    gc.collect()  # a break: the resume function's frame no longer holds `o` while it runs
    return wr() is None


def test_a_local_deleted_before_a_break_is_let_go_before_the_eager_call() -> None:
    """CPython's test_memoryview `test_picklebuffer_reference_loop` (3.12+): the compiled
    frame held a parameter the trace had deleted until after the breaking call, so the
    collection there could not free its object."""
    assert deleted_then_collected() is True
    assert_same_behavior(deleted_then_collected)
