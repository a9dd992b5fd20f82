"""A resume function holds the rest of the original: the instructions after the break, behind
its prologue, inside the try regions open at the break (tracer/codegen/resume.py, `_rest`).

Every resume function of a code object starts from the same decoded original
(`decoded_items`): decoded once per code object, across `tracer.reset()`, and shared, so making
and assembling a resume function must leave the shared items as they were. Here with the parts
of the original a resume function uses: a `with` block (try-region markers and their stack
depths), a jump on a tensor's value (two resume functions, one per way, from the same items), a
later break and a loop after it (labels)."""

from __future__ import annotations

import contextlib
import dis
import io
from collections.abc import Callable
from typing import Any

import pytest
from bytecode import Instr, Label
from bytecode.instr import TryBegin, TryEnd

import tracer
import tracer.runtime as torch
from tests.resume.test_resume import entries_of
from tracer.bytecode_versions import try_region_start
from tracer.codegen.resume import decoded_items
from tracer.runtime.overrides import BaseTorchFunctionMode
from tracer.testing import assert_same_behavior


class Quiet(BaseTorchFunctionMode):
    pass


def breaks_in_a_block(x: Any) -> Any:
    y = x.sin()
    with Quiet():
        if (y * 3).sum() > 0:
            y = y + 1
        else:
            y = y - 1
        print("inside")
    for _ in range(2):
        y = y * 2
    return y.cos()


def described(items: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """What assembling reads from each item: an instruction's name, argument (a label by its
    position) and location; a try region's handler, depth and lasti; a label's identity."""
    position = {id(item): i for i, item in enumerate(items)}

    def arg_of(arg: Any) -> Any:
        return ("label", position[id(arg)]) if isinstance(arg, Label) else arg

    out: list[tuple[Any, ...]] = []
    for item in items:
        if isinstance(item, Instr):
            out.append(("instr", item.name, arg_of(item.arg), item.location))
        elif isinstance(item, TryBegin):
            out.append(("try", position[id(item.target)], item.stack_depth, item.push_lasti))
        elif isinstance(item, TryEnd):
            out.append(("end try", position[id(item.entry)]))
        else:
            out.append((type(item).__name__, position[id(item)]))
    return out


def test_resume_functions_share_the_decoded_original_and_leave_it_unchanged() -> None:
    tracer.reset()
    items = decoded_items(breaks_in_a_block.__code__)
    before = described(items)
    for sign in (1.0, -1.0):  # each way of the jump: its own resume function
        with contextlib.redirect_stdout(io.StringIO()):
            assert_same_behavior(breaks_in_a_block, torch.ones(3) * sign)
    compiled = tracer.compile(breaks_in_a_block)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
        compiled(-torch.ones(3))
    assert any(entry.resumes and len(entry.resumes) == 2 for entry in entries_of(compiled))
    tracer.reset()
    assert decoded_items(breaks_in_a_block.__code__) is items
    assert described(items) == before


def _opnames(code: Any) -> list[str]:
    return [inst.opname for inst in dis.get_instructions(code)]


def test_each_way_of_a_jump_holds_the_instructions_after_it() -> None:
    """Each way holds what it reaches of the original after the jump: the fall-through way the
    `if` branch and the code after the `if`/`else`, the taken way the `else` branch on."""
    tracer.reset()
    compiled = tracer.compile(breaks_in_a_block)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    entry = entries_of(compiled)[0]
    assert entry.resumes is not None and len(entry.resumes) == 2
    original = list(dis.get_instructions(breaks_in_a_block.__code__))
    names = [inst.opname for inst in original]
    at = {inst.offset: i for i, inst in enumerate(original)}
    jump = next(i for i, name in enumerate(names) if name.startswith("POP_JUMP_"))
    taken = at[original[jump].argval]  # the `else` branch
    join = at[original[taken - 1].argval]  # where the `if` branch jumps over it
    expected = (names[jump + 1 : taken] + names[join:], names[taken:])
    for resume, want in zip(entry.resumes, expected, strict=True):
        got = _opnames(resume.fn.__code__)
        # RESUME, the stack pushed back, the jump, and what begins the try regions open there
        prologue = got.index("JUMP_FORWARD") + 1 + len(try_region_start())
        assert got[prologue:] == want


class Loud(BaseTorchFunctionMode):
    pass


def print_last_in_block(x: Any) -> Any:
    y = x.sin()
    with Loud():
        print("last in the block")
    return y


def jump_last_in_block(x: Any) -> Any:
    y = x.sin()
    with Loud():
        if y.sum() > 0:
            y = y + 1
    return y


def break_in_inner_block(x: Any) -> Any:
    with Loud():
        y = x.sin()
        with Loud():
            y = y + 1
            print("inner")
            y = y * 2
        y = y - 1
    return y


def break_between_blocks(x: Any) -> Any:
    with Loud():
        y = x.sin()
    print("between the blocks")
    with Loud():
        y = y + 1
    return y


def loops_after_the_break(x: Any) -> Any:
    y = x.sin()
    print("before the loops")
    for _ in range(3):
        y = y * 2
    n = 0
    while n < 2:
        n += 1
        y = y - n
    return y


def loop_after_a_jump(x: Any) -> Any:
    a = x.sin()
    if a.sum() > 0:
        n = 0
        while n < 3:
            n += 1
            a = a + n
    return a


@pytest.mark.parametrize(
    "fn",
    [
        print_last_in_block,
        jump_last_in_block,
        break_in_inner_block,
        break_between_blocks,
        loops_after_the_break,
        loop_after_a_jump,
    ],
)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_the_rest_runs_as_the_original_does(fn: Callable[..., Any], sign: float) -> None:
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, torch.ones(3) * sign)
    compiled = tracer.compile(fn)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3) * sign)
    assert entries_of(compiled)[0].resumes, "the break resumes"


def test_a_resume_function_made_again_after_reset_reuses_the_binder_of_its_parameters() -> None:
    from variables.binding import _compiled_binder

    def run() -> None:
        tracer.reset()
        with contextlib.redirect_stdout(io.StringIO()):
            tracer.compile(print_last_in_block)(torch.ones(3))

    run()
    compiled_before = _compiled_binder.cache_info().misses
    run()  # a new resume code object, with the same parameter list
    assert _compiled_binder.cache_info().misses == compiled_before
