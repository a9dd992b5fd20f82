"""Grad mode traced (variables/grad_mode.py): `with torch.no_grad():`, `torch.enable_grad()`,
`torch.set_grad_enabled(b)` and `torch.is_grad_enabled()` compile whole, the graph changes the
mode where eager code does, the mode at the call is guarded (the GLOBAL_STATE guard's part
grad_enabled), and the mode a block restores is restored on every way out of it. Each function
runs in both modes: `assert_same_behavior` compares the grad mode each run leaves too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


@pytest.fixture(params=[True, False], ids=["grad", "no_grad"])
def grad_at_call(request: pytest.FixtureRequest) -> Iterator[bool]:
    before = torch.is_grad_enabled()
    torch.set_grad_enabled(request.param)
    try:
        yield request.param
    finally:
        torch.set_grad_enabled(before)


def leaf() -> Any:
    return torch.ones(2, 3, requires_grad=True)


def traced_whole(fn: Any, *args: Any) -> None:
    """Same behavior as eager, and the frame compiled without a break."""
    compiled = tracer.compile(fn)
    assert_same_behavior(compiled, *args)
    assert [entry.break_reason for entry in compiled.entries] == [None]


def no_grad_block(x: Any) -> Any:
    a = x + 1
    with torch.no_grad():
        b = x + 1
        inside = torch.is_grad_enabled()
    return a, b, a.requires_grad, b.requires_grad, inside, torch.is_grad_enabled()


def nested_blocks(x: Any) -> Any:
    with torch.enable_grad():
        with torch.no_grad():
            y = x * 3
        z = x * 3
    return y.requires_grad, z.requires_grad, torch.is_grad_enabled()


def set_grad_enabled_block(x: Any) -> Any:
    with torch.set_grad_enabled(False):
        y = x + 1
    return y, y.requires_grad, torch.is_grad_enabled()


def set_grad_enabled_call(x: Any) -> Any:
    torch.set_grad_enabled(False)  # not restored: the frame leaves grad mode off
    return x + 1


def set_grad_enabled_only(x: Any) -> Any:
    torch.set_grad_enabled(False)  # the graph has nothing else to return, and still runs
    return 1


def caught_inside(x: Any) -> Any:
    try:
        with torch.no_grad():
            raise ValueError("boom")
    except ValueError as e:
        return str(e), torch.is_grad_enabled()
    return None


def raised_out(x: Any) -> Any:
    with torch.no_grad():
        y = x + 1
        if y.shape[0] == 2:
            raise KeyError("out of the block")
    return y


@torch.no_grad()
def decorated_helper(x: Any) -> Any:
    return x * 2


def calls_decorated(x: Any) -> Any:
    y = decorated_helper(x)
    return y, y.requires_grad, torch.is_grad_enabled()


@pytest.mark.parametrize(
    "fn",
    [
        no_grad_block,
        nested_blocks,
        set_grad_enabled_block,
        set_grad_enabled_call,
        set_grad_enabled_only,
        caught_inside,
        calls_decorated,
    ],
)
def test_grad_mode_traced_whole(fn: Any, grad_at_call: bool) -> None:
    traced_whole(fn, leaf())


def test_exception_leaving_the_block_restores_the_mode(grad_at_call: bool) -> None:
    compiled = tracer.compile(raised_out)
    assert_same_behavior(compiled, leaf())
    assert compiled.entries[0].break_reason is None  # compiled: the raise is in the new code


def test_mode_change_recorded_in_the_graph() -> None:
    compiled = tracer.compile(no_grad_block)
    compiled(leaf())
    code = compiled.entries[0].graph.code
    lines = [line.strip() for line in code.splitlines()]
    calls = [line.split("= ")[1] for line in lines if "= " in line]
    assert calls == [
        "tensor_add(x, 1)",
        "torch_set_grad_enabled(False)",
        "tensor_add(x, 1)",
        "torch_set_grad_enabled(True)",
    ]


def no_change_and_back(x: Any) -> Any:
    with torch.enable_grad():  # grad is on: no change
        y = x + 1
    with torch.no_grad():  # off and on again around nothing
        pass
    torch._C._set_grad_enabled(True)  # by hand: recorded as made, as Dynamo does
    return y


def test_changes_that_change_nothing_make_no_node(grad_at_call: bool) -> None:
    """As Dynamo's graph: a context that sets the mode it finds records nothing, and a change
    undone right after, with no op between, drops both; a call by hand stays."""
    compiled = tracer.compile(no_change_and_back)
    assert_same_behavior(compiled, leaf())
    code = compiled.entries[0].graph.code
    calls = [line.split("= ")[1] for line in code.splitlines() if "= " in line]
    expected = ["tensor_add(x, 1)", "torch_set_grad_enabled(True)"]
    if not grad_at_call:  # on for the add; the change back to off is undone by hand at once
        expected = ["torch_set_grad_enabled(True)", "tensor_add(x, 1)"]
    assert calls == expected


def test_changed_grad_mode_recompiles_with_a_reason() -> None:
    compiled = tracer.compile(no_grad_block)
    with torch.enable_grad():
        compiled(leaf())
    with torch.no_grad():
        compiled(leaf())
    assert compiled.compile_count == 2
    (reason,) = compiled.last_miss_reasons
    assert "global state grad_enabled == True (actual False)" in reason
    with torch.enable_grad():
        compiled(leaf())
    assert compiled.compile_count == 2  # both entries serve


def test_grad_mode_not_guarded_when_nothing_depends_on_it() -> None:
    def add(x: Any) -> Any:
        return x + 1

    entry = tracer.trace(add)(torch.ones(2))
    assert "GLOBAL_STATE" not in str(entry.guards)
    entry = tracer.trace(add)(leaf())  # whether the result requires grad depends on it
    assert "GLOBAL_STATE ___global_state: grad_enabled=True" in str(entry.guards)


def _prints(x: Any) -> Any:
    with torch.no_grad():
        a = x * 2
        print("inside", torch.is_grad_enabled())
        y = a + 1
    return y, torch.is_grad_enabled(), x * 3


def _prints_in_set_grad_enabled(x: Any) -> Any:
    with torch.set_grad_enabled(False):
        with torch.enable_grad():
            print("inside", torch.is_grad_enabled())
            y = x + 1
        z = x + 2
    return y, z, torch.is_grad_enabled()


@pytest.mark.parametrize(
    ("fn", "graphs"),
    # (the second has no op before the break: its first graph only sets grad mode, which it
    # leaves as it was at the call when that was on, so there is none then)
    [(_prints, {True: 2, False: 2}), (_prints_in_set_grad_enabled, {True: 1, False: 2})],
)
def test_graph_break_in_the_block_resumes_inside_it(
    capsys: pytest.CaptureFixture[str], grad_at_call: bool, fn: Any, graphs: dict[bool, int]
) -> None:
    """The break runs in the block's mode, and the resume function ends the block with the
    `__exit__` of a real context made in the state the block left it: the mode after the
    block is the one before it, whatever that was at the call."""
    compiled = tracer.compile(fn)
    assert_same_behavior(compiled, leaf())
    entry = compiled.entries[0]
    assert entry.break_reason is not None
    assert "print" in entry.break_reason.explanation
    assert tracer.explain(fn)(leaf()).graph_count == graphs[grad_at_call]
    assert torch.is_grad_enabled() is grad_at_call  # the trace put the mode back


def test_mode_sees_the_grad_mode_calls_eager_does() -> None:
    class Names(torch.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.names: list[str] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.names.append(func.__name__)
            return func(*args, **(kwargs or {}))

    def run(x: Any, mode: Names) -> Any:
        with mode:
            return no_grad_block(x)

    eager, compiled_mode = Names(), Names()
    run(leaf(), eager)
    compiled = tracer.compile(run, fullgraph=True)
    compiled(leaf(), compiled_mode)
    assert compiled_mode.names == eager.names
    assert eager.names.count("_set_grad_enabled") == 2
    assert_same_behavior(compiled, leaf(), Names())


@pytest.mark.parametrize("backend", ["fused", "interpret", "no_passes"])
def test_every_backend_gives_results_the_flag_eager_does(backend: str, grad_at_call: bool) -> None:
    """The fused backend's kernels make their result tensors themselves: `requires_grad` is the
    fake value's, which grad mode (at the call, guarded, and set in the graph) decides."""

    def pointwise(x: Any) -> Any:
        a = x.sin() + 1
        with torch.no_grad():
            b = (x * 2).exp()
        return a, b, a.requires_grad, b.requires_grad

    compiled = tracer.compile(pointwise, backend=backend)
    assert_same_behavior(compiled, leaf())
    assert [entry.break_reason for entry in compiled.entries] == [None]
