"""A graph break at an instruction that works on its operands alone (OPERAND_BREAKS: `x[i]`,
`x[i] = v`, `a + b`, `a == b`, `-a`, `o.attr = v`, `del x[i]`) resumes after it, as at a call:
the graph before it runs, the compiled frame runs the instruction itself on the rebuilt
operands, and a resume function continues with its result. Before, the whole frame ran
eagerly (Dynamo resumes after any instruction). Each case is checked against plain Python, and
traced as one graph before the break and one after."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.real_torch import real_torch
from tracer.runtime import _C
from tracer.runtime.overrides import BaseTorchFunctionMode
from tracer.testing import assert_same_behavior


class Loud:
    """Every operation prints (a break) and then works on a tensor."""

    def __init__(self, t: Any) -> None:
        self.t = t
        self.seen: list[str] = []

    def __getitem__(self, i: Any) -> Any:
        print("getitem")
        return self.t * (2 if isinstance(i, slice) else i)

    def __setitem__(self, i: Any, v: Any) -> None:
        print("setitem")
        self.seen.append(f"set {i}")
        self.t = self.t + v

    def __delitem__(self, i: Any) -> None:
        print("delitem")
        self.seen.append(f"del {i}")

    def __add__(self, other: Any) -> Any:
        print("add")
        return self.t + other

    def __eq__(self, other: object) -> bool:
        print("eq")
        return True

    def __neg__(self) -> Any:
        print("neg")
        return -self.t

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "late":
            print("setattr")
        object.__setattr__(self, name, value)

    __hash__ = None  # type: ignore[assignment]


def subscript(x: Any, box: Loud) -> Any:
    y = x * 2
    z = box[3]  # BINARY_SUBSCR
    return y + z


def store_subscript(x: Any, box: Loud) -> Any:
    y = x.sin()
    box[1] = y  # STORE_SUBSCR: nothing on the stack after it
    return box.t.cos(), box.seen


def store_slice(x: Any, box: Loud) -> Any:
    y = x * 2
    box[0:1] = y  # 3.12 and 3.13: STORE_SLICE
    return y.sum(), box.seen


def load_slice(x: Any, box: Loud) -> Any:
    y = x * 2
    return box[1:2] + y  # 3.12 and 3.13: BINARY_SLICE


def delete_subscript(x: Any, box: Loud) -> Any:
    y = x + 1
    del box[0]  # DELETE_SUBSCR
    return y * 3, box.seen


def binary(x: Any, box: Loud) -> Any:
    y = x.exp()
    return (box + y) * 2  # BINARY_OP, the result kept on the stack


def compare(x: Any, box: Loud) -> Any:
    y = x.neg()
    same = box == y  # COMPARE_OP
    return same, y.abs()


def unary(x: Any, box: Loud) -> Any:
    y = x - 1
    return [y, -box, y * 2]  # UNARY_NEGATIVE under a list being built


def store_attribute(x: Any, box: Loud) -> Any:
    y = x.relu()
    box.late = y  # STORE_ATTR
    return box.late + 1


CASES = [
    subscript, store_subscript, store_slice, load_slice, delete_subscript, binary, compare,
    unary, store_attribute,
]  # fmt: skip


def _args() -> tuple[Any, Any]:
    return torch.tensor([1.0, -2.0, 3.0]), Loud(torch.tensor([0.5, 0.5, 0.5]))


@pytest.mark.parametrize("fn", CASES, ids=lambda fn: fn.__name__)
def test_a_break_at_an_operation_resumes_after_it(fn: Any) -> None:
    assert_same_behavior(fn, *_args())
    with contextlib.redirect_stdout(io.StringIO()):
        explanation = tracer.explain(fn)(*_args())
    assert explanation.graph_count == 2, explanation
    assert explanation.graph_break_count == 1, explanation


def in_a_loop(x: Any, box: Loud) -> Any:
    for i in range(2):
        x = x + box[i]
    return x


def test_a_break_at_an_operation_in_a_loop_still_runs_the_frame_eagerly() -> None:
    assert_same_behavior(in_a_loop, *_args())
    with contextlib.redirect_stdout(io.StringIO()):
        explanation = tracer.explain(in_a_loop)(*_args())
    assert explanation.graph_count == 0
    assert explanation.break_reasons[0].kind == "graph break in loop"


def raising(x: Any, box: Loud) -> Any:
    y = x * 2
    return box[None] + y  # the eager subscript raises inside Loud.__getitem__


def test_an_error_of_the_operation_is_raised_from_the_users_line() -> None:
    assert_same_behavior(raising, *_args())


def test_real_torch_mask_resumes_as_dynamo_does() -> None:
    """`x[x > 0]` needs the data of the mask (a dynamic output shape): both compile `gt`,
    index eagerly and resume; the resume function's graph adds."""
    rt = real_torch()

    def masked(x: Any) -> Any:
        y = x * 2
        return y[y > 0] + 1

    comparison = tracer.compare(masked)(rt.tensor([1.0, -2.0, 3.0]))
    assert comparison.results_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 2, comparison


class Recording(BaseTorchFunctionMode):
    """Runs every op unchanged and keeps the names of the ops it saw."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.calls.append(func.__name__)
        return func(*args, **(kwargs or {}))


def in_a_mode_block(x: Any, box: Loud, mode: Any) -> Any:
    with mode:
        y = x * 2
        z = box[3]  # the eager subscript runs inside the block: the mode sees `z`'s mul
        w = z + y
    return w, _C._len_torch_function_stack()


def test_a_break_at_an_operation_inside_a_mode_block_resumes_inside_it() -> None:
    seen = []
    for run in (in_a_mode_block, tracer.compile(in_a_mode_block)):
        mode = Recording()
        with contextlib.redirect_stdout(io.StringIO()):
            result = run(*_args(), mode)
        seen.append((mode.calls, result[0].tolist(), result[1]))
    assert seen[0] == seen[1]
    assert seen[0][0] == ["mul", "mul", "add"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert tracer.explain(in_a_mode_block)(*_args(), Recording()).graph_count == 2


class Holder:
    def __init__(self) -> None:
        self.box = Loud(torch.ones(2))


def nothing_live_after(holder: Holder) -> Any:
    holder.box["k"] = 1.0  # the resume function gets no argument at all
    return 5


def test_a_break_with_nothing_live_after_it() -> None:
    """The resume function of a break with no result and no live local takes no argument: the
    compiled frame let go of its locals once, before the call (it deleted them a second time,
    an UnboundLocalError; conformance's test_builtin TestBreakpoint, `self.env[k] = v`)."""
    assert_same_behavior(nothing_live_after, Holder())
    with contextlib.redirect_stdout(io.StringIO()):
        assert tracer.explain(nothing_live_after)(Holder()).graph_break_count == 1


def made_again_across_two_breaks(x: Any, box: Loud) -> Any:
    def helper(t: Any = x) -> Any:  # a default: a part the resume functions make it from
        return t * 2

    a = box[1]  # the first resume function makes `helper` again from its parts...
    b = box[2]  # ...and hands them on from its own parameters at its own break
    return helper(), a + b


def test_a_function_made_again_across_two_breaks() -> None:
    """A resume function's parameters holding the parts of a function it makes again were
    taken for locals the trace deleted (its prologue deletes them), so its own break deleted
    them before reading them to hand on (UnboundLocalError; conformance's test_typing)."""
    assert_same_behavior(made_again_across_two_breaks, *_args())
    with contextlib.redirect_stdout(io.StringIO()):
        assert tracer.explain(made_again_across_two_breaks)(*_args()).graph_break_count == 2
