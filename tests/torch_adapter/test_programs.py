"""Real-torch programs through modetrace and torch._dynamo (issue 24, points 1, 3 and 6).

For each program of programs.py (the gallery's samples written for real torch, a counting mode,
nested modes, a mode popped and pushed by hand, `_pop_mode_temporarily`, a break by print...) and
of block_programs.py (breaks inside a mode's `with` block): modetrace's compiled result equals
eager torch, the torch-function mode stack afterwards is the one eager left, and the graph count
and the ops of each graph (by target name, tracer.torch_adapter.compare.op_name) equal Dynamo's.
Differences, where there are any, are listed in notes/torch-adapter.md with their reasons."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tests.torch_adapter.programs import Program, programs


def _programs() -> list[Program]:
    return programs(real_torch())


def _program_ids() -> list[str]:
    """The ids, known without torch: the programs' names, in order."""
    return [
        "small MLP", "control flow on shapes", "user class", "closure", "loop over a list",
        "dict of tensors", "graph break on print", "data-dependent branch", "dtype",
        "int argument", "mode entered inside", "mode active at call", "mode stack by hand",
        "counting mode", "nested modes", "_pop_mode_temporarily", "mode stack depth",
        "functional", "views", "where and compare", "cat and stack", "in-place ops",
        "assignment into tensors", "metadata reads", "only the shape of a result",
    ]  # fmt: skip


def _compare(program: Program) -> Any:
    args = program.inputs()
    around = program.active_mode() if program.active_mode else contextlib.nullcontext()
    with contextlib.redirect_stdout(io.StringIO()), around:
        return tracer.compare(program.fn)(*args)


@pytest.mark.parametrize("name", _program_ids())
def test_program_agrees_with_eager_and_dynamo(name: str) -> None:
    found = {p.name: p for p in _programs()}
    assert list(found) == _program_ids()
    comparison = _compare(found[name])
    assert comparison.results_agree, comparison
    assert comparison.mode_stacks_agree, comparison
    assert comparison.same_graphs, comparison


@pytest.mark.parametrize(
    "name", ["mode_break", "nested_mode_break", "branch_in_mode", "branch_in_nested_modes"]
)
def test_break_in_a_mode_block_agrees_with_dynamo(name: str) -> None:
    torch = real_torch()
    from tests.torch_adapter import block_programs

    fn = getattr(block_programs, name)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(fn)(torch.ones(3))
    assert comparison.results_agree, comparison
    assert comparison.mode_stacks_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count >= 2  # it resumed, not fell back


def test_a_counting_mode_counts_as_eagerly_and_traces_whole() -> None:
    torch = real_torch()
    program = next(p for p in _programs() if p.name == "counting mode")
    x, eager_mode = program.inputs()
    eager = program.fn(x, eager_mode)
    compiled_mode = type(eager_mode)()
    explanation = tracer.explain(program.fn)(x, compiled_mode)
    assert explanation.graph_count == 1 and explanation.graph_break_count == 0
    assert compiled_mode.count == eager_mode.count == 4
    assert torch.equal(explanation.result[0], eager[0])


def test_a_mode_popped_by_hand_is_back_on_torchs_stack() -> None:
    torch = real_torch()
    program = next(p for p in _programs() if p.name == "mode stack by hand")
    assert program.active_mode is not None
    compiled = tracer.compile(program.fn)
    inputs = program.inputs()
    with program.active_mode() as mode:
        for _ in range(2):  # the first call compiles, the second runs the entry
            compiled(*inputs)
            assert torch._C._len_torch_function_stack() == 1
            assert torch._C._get_function_stack_at(0) is mode
        assert mode.count == 2  # `hidden * 2` only, each time
    assert torch._C._len_torch_function_stack() == 0
