"""Graph breaks inside `with` blocks (issue 21, point 4).

A break inside the `with` block of a torch-function mode resumes: the compiled frame replays the
mode-stack push so the eager call sees the mode, runs the call inside the block (an exception
there runs the mode's `__exit__` once, as CPython's handler does), and the resume function
continues inside the block with the block's `__exit__` on its stack and the original exception
table. A break in a `try` block, or in the `with` block of a context manager that is not a
mode, runs the frame eagerly with a reason that says so (Dynamo does not resume there either:
tests/resume/test_against_dynamo.py)."""

from __future__ import annotations

import contextlib
import copy
import io
from collections.abc import Callable
from typing import Any, Self

import pytest

import tracer
import tracer.runtime as torch
from tests.resume.test_resume import entries_of, printed
from tracer.runtime import _C
from tracer.runtime.overrides import BaseTorchFunctionMode, _pop_mode_temporarily
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


class Recording(BaseTorchFunctionMode):
    """Runs every op unchanged; what it saw is printed, so stdout shows the mode was active."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


class Managed:
    """A user context manager (not a mode): Dynamo can't restore it after a break."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> bool:
        return False


def depth() -> int:
    return _C._len_torch_function_stack()


def mode_break(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        print("in the mode", depth())
        z = z + 1
    print("after", depth())
    return z.cos()


def mode_break_returns_inside(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        print("in the mode", depth())
        return z + 1


def nested_mode_break(x: Any) -> Any:
    with Recording(), Recording():
        z = x * 2
        print("in both", depth())
        z = z + 1
    return z.cos()


def mode_two_breaks(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        print("in", depth())
        z = z + 1
        print("in again", depth())
        z = z - 1
    return z.cos()


def branch_in_mode(x: Any) -> Any:
    y = x + 1
    with Recording():
        if (x * 3).sum() > 0:  # a jump on a tensor's value: tested eagerly inside the block
            y = y * 2
        else:
            y = y - 1
    return y.cos()


def branch_in_mode_other_way(x: Any) -> Any:
    y = x + 1
    with Recording():
        if (x * -3).sum() > 0:
            y = y * 2
        else:
            y = y - 1
    return y.cos()


def branch_in_nested_modes(x: Any) -> Any:
    with Recording(), Recording():
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        print("in both", depth())
    return y + 1


def ambiguous_branch_in_mode(x: Any) -> Any:
    with Recording():
        if x > 0:  # a 3-element tensor: the eager test raises RuntimeError inside the block
            y = x * 2
        else:
            y = x
    return y


def mode_from_argument(x: Any, mode: Any) -> Any:
    y = x.sin()
    with mode:
        z = y * 2
        print("in the mode", depth())
        z = z + 1
    return z.cos()


def raises_in_resumed_block(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        print("in the mode", depth())
        raise ValueError(f"boom at depth {depth()}")
    return z


def raises_in_eager_call(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        open("/modetrace/no such file")  # noqa: SIM115 - a break; eagerly, FileNotFoundError
    return z


def catches_after_block(x: Any) -> Any:
    y = x.sin()
    try:
        raises_in_resumed_block(y)
    except ValueError as e:
        print("caught", e, depth())
    return y


def user_manager_break(x: Any) -> Any:
    y = x.sin()
    with Managed():
        z = y * 2
        print("in the manager")
        z = z + 1
    return z.cos()


def try_except_break(x: Any) -> Any:
    y = x.sin()
    try:
        print("in the try")
    except ValueError:
        y = y * 2
    return y.cos()


def try_finally_break(x: Any) -> Any:
    y = x.sin()
    try:
        print("in the try")
    finally:
        y = y + 3
    return y.cos()


def popped_mode_break(x: Any) -> Any:
    with Recording(), _pop_mode_temporarily():
        print("popped", depth())
        x = x + 1
    return x


class ExitOverridden(BaseTorchFunctionMode):
    def __exit__(self, *exc: object) -> None:
        print("exit overridden")
        super().__exit__(*exc)


def overridden_exit_break(x: Any) -> Any:
    with ExitOverridden():
        print("in", depth())
        x = x + 1
    return x


def mode_block_in_try(x: Any) -> Any:
    """Runs eagerly: the block is inside a try block. (Dynamo skips this frame too, but its
    explain() counts 2 graphs: its frame hook compiles the mode's `__torch_function__`, called
    eagerly for `y * 2` and `z + 1`, as frames of their own. modetrace has no frame hook.)"""
    y = x.sin()
    try:
        with Recording():
            z = y * 2
            print("in the mode", depth())
            z = z + 1
    except ValueError:
        z = y
    return z.cos()


CASES: list[tuple[Callable[..., Any], int, int]] = [
    (mode_break, 3, 2),
    (mode_break_returns_inside, 2, 1),
    (nested_mode_break, 2, 1),
    (mode_two_breaks, 3, 2),
    (branch_in_mode, 2, 1),
    (branch_in_mode_other_way, 2, 1),
    (branch_in_nested_modes, 3, 2),
    (user_manager_break, 0, 1),
    (try_except_break, 0, 1),
    (try_finally_break, 0, 1),
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


def test_the_eager_call_and_the_resume_function_see_the_mode() -> None:
    out = printed(tracer.compile(mode_break), torch.ones(3))
    assert out == "in the mode 1\nafter 0\n"
    assert depth() == 0


def test_mode_from_an_argument() -> None:
    mode = Recording()
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(mode_from_argument, torch.ones(3), mode)
        explanation = tracer.explain(mode_from_argument)(torch.ones(3), mode)
    assert (explanation.graph_count, explanation.graph_break_count) == (2, 1)
    assert depth() == 0


@pytest.mark.parametrize(
    "fn",
    [raises_in_resumed_block, raises_in_eager_call, catches_after_block, ambiguous_branch_in_mode],
)
def test_exceptions_leave_the_block_with_exit_run_once(fn: Callable[..., Any]) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, torch.ones(3))
    compiled = tracer.compile(fn)
    eager_out = _report(fn)
    assert _report(compiled) == eager_out
    assert depth() == 0, "__exit__ did not pop the mode"
    assert _report(compiled) == eager_out
    assert depth() == 0


def _report(fn: Callable[..., Any]) -> str:
    """What the call printed and raised, and the mode-stack depth after it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            fn(torch.ones(3))
        except Exception as e:  # noqa: BLE001
            print("raised", type(e).__name__, e)
    return f"{out.getvalue()}depth after: {depth()}"


def test_exception_in_the_eager_call_runs_exit_in_the_compiled_frame() -> None:
    compiled = tracer.compile(raises_in_eager_call)
    with pytest.raises(FileNotFoundError):
        compiled(torch.ones(3))
    assert depth() == 0
    (first, *_rest) = entries_of(compiled)
    assert not first.is_fallback and first.resumes, "the frame did not resume"


def test_exception_in_the_eager_jump_runs_exit_in_the_compiled_frame() -> None:
    compiled = tracer.compile(ambiguous_branch_in_mode)
    with pytest.raises(RuntimeError, match="ambiguous"):
        compiled(torch.ones(3))
    assert depth() == 0
    (first, *_rest) = entries_of(compiled)
    assert not first.is_fallback and first.resumes, "the frame did not resume"


def test_resume_function_guards_the_mode_stack() -> None:
    compiled = tracer.compile(mode_break)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    entries = entries_of(compiled)
    assert [str(e.compile_id) for e in entries] == ["0/0", "1/0", "2/0"]  # a break after too
    resume_guards = str(entries[1].guards)
    # the mode stack leaf guard: the resume function starts with the mode pushed
    assert "len(___mode_stack) == 1 and type(___mode_stack[0]) is Recording" in resume_guards
    # the block's __exit__, handed over on the stack, is bound to that same mode
    assert "L['___stack0'].__func__ is <function TorchFunctionMode.__exit__>" in resume_guards
    assert "L['___stack0'].__self__ is ___mode_stack[0]" in resume_guards
    # called with no mode pushed, the resume function's own frame still sees one: its guard
    # holds, and a second call of the function compiles nothing
    with CompileCounter() as counter, contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    assert counter.compiles == 0


def test_resume_function_recompiles_when_the_mode_type_changes() -> None:
    class Other(Recording):
        pass

    def with_mode(x: Any, cls: Any) -> Any:
        y = x.sin()
        with cls():
            print("in", depth())
            z = y + 1
        return z

    compiled = tracer.compile(with_mode)
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(with_mode, torch.ones(3), Recording)
        compiled(torch.ones(3), Recording)
        compiled(torch.ones(3), Other)
    ids = [str(e.compile_id) for e in entries_of(compiled)]
    assert ids.count("0/1") == 1 and depth() == 0, ids


@pytest.mark.parametrize(
    "fn,words",
    [
        (user_manager_break, "graph break in a with block of Managed"),
        (try_except_break, "graph break in a try block"),
        (try_finally_break, "graph break in a try block"),
        (mode_block_in_try, "graph break in a try block"),
        (popped_mode_break, "graph break in a with block of _pop_mode_temporarily()"),
        (overridden_exit_break, "graph break in a with block of ExitOverridden"),
    ],
)
def test_blocks_that_do_not_resume_say_why(fn: Callable[..., Any], words: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, torch.ones(3))
        explanation = tracer.explain(fn)(torch.ones(3))
    assert explanation.graph_count == 0
    (reason,) = explanation.break_reasons
    assert words in reason.explanation
    assert "call to builtin print is not supported" in reason.explanation


def test_fullgraph_still_raises_inside_a_block() -> None:
    with pytest.raises(tracer.Unsupported, match="print"):
        tracer.compile(mode_break, fullgraph=True)(torch.ones(3))
    assert depth() == 0


def test_second_call_compiles_nothing_for_copied_inputs() -> None:
    compiled = tracer.compile(nested_mode_break)
    x = torch.ones(3)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(copy.deepcopy(x))
        with CompileCounter() as counter:
            compiled(copy.deepcopy(x))
    assert counter.compiles == 0
