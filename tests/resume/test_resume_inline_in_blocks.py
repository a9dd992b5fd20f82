"""Where the two kinds of resume meet: a break inside an inlined call, or with another call's
NULL slot under it, inside a torch-function mode's `with` block (issue 21, points 3 and 4).

The compiled frame rebuilds the stack under the break into temporaries (NULL slots left out,
the block's `__exit__` from the mode), pushes back what the block's handler needs around the
eager call, and the resume function pushes the NULL slots again inside the rest of the block. The
graph and break counts are those of `torch._dynamo.explain` on real torch 2.13."""

from __future__ import annotations

import contextlib
import dis
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.real_torch import real_torch
from tests.resume.test_resume import entries_of, printed
from tests.resume.test_resume_with_blocks import Recording, depth
from tracer.bytecode_versions import NULL_AFTER_CALLABLE
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


def helper(z: Any) -> Any:
    z = z * 2
    print("in helper", depth())
    return z + 1


def inlined_break_in_mode(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = helper(y)
        z = z.cos()
    return z - 1


def combine(a: Any, b: Any) -> Any:
    return a * 2 if b is None else a


def null_slot_break_in_mode(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = combine(y, print("inside", depth()))
        z = z + 1
    return z.cos()


def null_slot_jump_in_mode(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = combine(y, None if (x * 3).sum() > 0 else 2)
        z = z + 1
    return z.cos()


def raising_helper(z: Any) -> Any:
    print("in helper", depth())
    raise ValueError(f"no {z.shape}")


def inlined_raise_in_mode(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = raising_helper(y)
    return z


CASES: list[tuple[Callable[..., Any], int, int]] = [
    (inlined_break_in_mode, 4, 3),
    (null_slot_break_in_mode, 2, 1),
    (null_slot_jump_in_mode, 2, 1),
]


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()
    assert depth() == 0


@pytest.mark.parametrize("fn,graphs,breaks", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_same_behavior_and_counts(fn: Callable[..., Any], graphs: int, breaks: int) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, torch.ones(3))
        explanation = tracer.explain(fn)(torch.ones(3))
    assert (explanation.graph_count, explanation.graph_break_count) == (graphs, breaks)
    compiled = tracer.compile(fn)
    eager_out = printed(fn, torch.ones(3))
    assert printed(compiled, torch.ones(3)) == eager_out
    assert depth() == 0
    with CompileCounter() as counter:
        assert printed(compiled, torch.ones(3)) == eager_out
    assert counter.compiles == 0


def test_inlined_call_in_a_block_runs_the_callee_as_its_own_frame_inside_the_block() -> None:
    compiled = tracer.compile(inlined_break_in_mode)
    assert printed(compiled, torch.ones(3)) == "in helper 1\n"
    first = entries_of(compiled)[0]
    assert first.callees is not None and helper in first.callees.compiled
    assert "try:            depth 1, lasti" in first.bytecode_listing()


def test_null_slot_in_a_block_is_pushed_again_by_the_resume_prologue() -> None:
    compiled = tracer.compile(null_slot_break_in_mode)
    assert printed(compiled, torch.ones(3)) == "inside 1\n"
    resume = entries_of(compiled)[0].resumes[0].fn.__code__
    prologue = [inst.opname for inst in dis.get_instructions(resume)][:5]
    # the block's __exit__, the NULL of combine's call, combine, y, print's result (3.13 puts
    # the NULL after the callable: tracer/bytecode_versions.py, NULL_AFTER_CALLABLE)
    if NULL_AFTER_CALLABLE:
        assert prologue == ["RESUME", "LOAD_FAST", "LOAD_FAST", "PUSH_NULL", "LOAD_FAST"]
    else:
        assert prologue == ["RESUME", "LOAD_FAST", "PUSH_NULL", "LOAD_FAST", "LOAD_FAST"]


def test_exception_in_the_inlined_call_runs_exit_once() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(inlined_raise_in_mode, torch.ones(3))
    compiled = tracer.compile(inlined_raise_in_mode)
    for _ in range(2):
        with pytest.raises(ValueError, match=r"no torch.Size\(\[3\]\)"):
            printed(compiled, torch.ones(3))
        assert depth() == 0, "__exit__ did not pop the mode"
    assert entries_of(compiled)[0].callees is not None  # it resumed, not fell back


def torch_versions(torch: Any) -> dict[str, Any]:
    class Recording(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return func(*args, **(kwargs or {}))

    def depth() -> int:
        return int(torch._C._len_torch_function_stack())

    def helper(z: Any) -> Any:
        z = z * 2
        print("in helper", depth())
        return z + 1

    def inlined_break_in_mode(x: Any) -> Any:
        y = x.sin()
        with Recording():
            z = helper(y)
            z = z.cos()
        return z - 1

    def combine(a: Any, b: Any) -> Any:
        return a * 2 if b is None else a

    def null_slot_break_in_mode(x: Any) -> Any:
        y = x.sin()
        with Recording():
            z = combine(y, print("inside", depth()))
            z = z + 1
        return z.cos()

    def null_slot_jump_in_mode(x: Any) -> Any:
        y = x.sin()
        with Recording():
            z = combine(y, None if (x * 3).sum() > 0 else 2)
            z = z + 1
        return z.cos()

    return {
        fn.__name__: fn
        for fn in (inlined_break_in_mode, null_slot_break_in_mode, null_slot_jump_in_mode)
    }


@pytest.mark.parametrize("case", range(len(CASES)))
def test_counts_match_dynamo(case: int) -> None:
    real = real_torch()
    ours_fn, graphs, breaks = CASES[case]
    fn = torch_versions(real)[ours_fn.__name__]
    real._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = real._dynamo.explain(fn)(real.ones(3))
    with contextlib.redirect_stdout(io.StringIO()):
        ours = tracer.explain(ours_fn)(torch.ones(3))
    assert ours.graph_count == theirs.graph_count == graphs
    assert ours.graph_break_count == theirs.graph_break_count == breaks
