"""A function that reads its caller's frame, called at a break inside it, runs as it is (not as
a compiled callee, tracer/cache/resume.py's `CalleeFrames`): a compiled callee runs one frame
further down, under `CompiledFunction.__call__`, and read modetrace's frame as its caller.
3.12's `make_dataclass` takes the new class's `__module__` from `sys._getframemodulename(1)`:
compiled, the class was in module `tracer.cache.function` (CPython's test_dataclasses,
TestMakeDataclass.test_module_attr)."""

from __future__ import annotations

import sys
from dataclasses import make_dataclass
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def whose_caller() -> Any:
    frame = sys._getframe(1)  # not traced: the caller's CALL of this function is the break
    return frame.f_globals["__name__"], frame.f_code.co_name


def reads_its_callers_frame(x: Any) -> Any:
    y = x + 1
    return whose_caller(), y * 2


def makes_a_dataclass(x: Any) -> Any:
    y = x + 1
    made = make_dataclass("Made", [("a", int)])
    return made.__module__, made(3).a, y * 2


def test_a_callee_reading_its_callers_frame_sees_the_compiled_frame() -> None:
    assert_same_behavior(reads_its_callers_frame, torch.ones(2))
    assert_same_behavior(makes_a_dataclass, torch.ones(2))


def test_the_frame_before_the_call_still_compiles() -> None:
    explanation = tracer.explain(reads_its_callers_frame)(torch.ones(2))
    assert explanation.graph_count == 2  # `x + 1`, then `y * 2` in the resume function
    assert "sys._getframe" in str(explanation.break_reasons[0])
