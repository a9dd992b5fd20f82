"""A Python function that raises, called by the first instruction of a generated try region.

CPython 3.13 looks up the handler of an exception that comes back from a Python callee one code
unit before the calling instruction. A `with` block's region in a compiled frame (around the
eager call at a break) or in a resume function (from where it resumes) that began with that
call would miss the exception: the mode's `__exit__` would not run and the mode would stay on
the stack. Codegen begins each region with what `tracer.bytecode_versions.try_region_start`
says (a NOP on 3.13)."""

from __future__ import annotations

import contextlib
import dis
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.resume.test_resume_with_blocks import Recording, _report, depth
from tracer import config
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


def python_raiser(z: Any) -> Any:
    for _ in range(200):  # more than the budget below: its caller's frame runs as it is
        pass
    raise ValueError(f"no {z}")


def eager_call_raises_in_python(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = x.item()  # a break: x has 3 items, so Tensor.item (a Python function) raises
    return y + z


def resumed_region_starts_with_a_raising_call(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = python_raiser(print("in the mode", depth()))  # resumes at the CALL python_raiser
    return y + z


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()
    assert depth() == 0


@pytest.mark.parametrize(
    "fn", [eager_call_raises_in_python, resumed_region_starts_with_a_raising_call]
)
def test_the_blocks_exit_runs_when_a_python_callee_raises(fn: Callable[..., Any]) -> None:
    """The resume function of the second runs as generated (not traced: the instruction
    budget runs out inside `python_raiser`), so its own exception table is what counts."""
    with config.patch(instruction_budget=400):
        with contextlib.redirect_stdout(io.StringIO()):
            assert_same_behavior(fn, torch.ones(3))
        tracer.reset()
        compiled = tracer.compile(fn)
        eager = _report(fn)
        with CompileCounter() as counter:
            assert _report(compiled) == eager
        assert depth() == 0, "__exit__ did not pop the mode"
        assert _report(compiled) == eager
    # the frame resumed at the break (a fallback would have no generated code)
    first = counter.records[0]
    assert first.has_guarded_code and counter.graph_breaks >= 1
    assert depth() == 0, "__exit__ did not pop the mode"
    assert _report(compiled) == eager


def test_the_resumed_call_is_the_first_instruction_of_its_region() -> None:
    """The case above is the one it means to be: in the original code the CALL that resumes
    is not the first instruction the `with` block's region covers."""
    calls = list(dis.get_instructions(resumed_region_starts_with_a_raising_call))
    call_print = next(i for i, inst in enumerate(calls) if inst.argval == "print")
    later_calls = [inst for inst in calls[call_print:] if inst.opname == "CALL"]
    assert len(later_calls) >= 2  # print's CALL, then python_raiser's right after it
    between = calls[calls.index(later_calls[0]) + 1 : calls.index(later_calls[1])]
    assert all(inst.opname == "PRECALL" for inst in between)  # 3.11's half of a call
