"""`tracer.breakpoint()` and `tracer.set_breakpoint_hook`: a no-op eagerly, a snapshot of the
translator's state when traced."""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from guards.guard import Guard, GuardKind
from guards.sources import LocalSource
from tracer import debug
from tracer.debug import BreakpointContext


@pytest.fixture
def seen() -> Iterator[list[BreakpointContext]]:
    contexts: list[BreakpointContext] = []
    previous = tracer.set_breakpoint_hook(contexts.append)
    try:
        yield contexts
    finally:
        tracer.set_breakpoint_hook(previous)


def with_breakpoint(x: Any) -> Any:
    y = x + 1
    tracer.breakpoint()
    return y * 2


def test_breakpoint_is_a_noop_eagerly(seen: list[BreakpointContext]) -> None:
    assert tracer.breakpoint() is None
    assert with_breakpoint(torch.ones(2)).tolist() == [4.0, 4.0]
    assert seen == []


def test_set_breakpoint_hook_returns_the_previous_hook() -> None:
    def first(ctx: BreakpointContext) -> None:
        pass

    original = tracer.set_breakpoint_hook(first)
    try:
        assert tracer.set_breakpoint_hook(None) is first
    finally:
        tracer.set_breakpoint_hook(original)


def _fake_tx() -> Any:
    guard = Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 3)
    inst = types.SimpleNamespace(opname="CALL", argval=0)
    return types.SimpleNamespace(
        current_inst=inst,
        stack=["NullVariable()", "BreakpointFn"],
        symbolic_locals={"n": "ConstantVariable(int: 3)"},
        output=types.SimpleNamespace(all_guards=lambda: [guard]),
        location=lambda: "user.py:3 in f",
    )


def test_on_traced_breakpoint_calls_the_hook_with_a_snapshot(
    seen: list[BreakpointContext],
) -> None:
    debug.on_traced_breakpoint(_fake_tx())
    [context] = seen
    assert context.location == "user.py:3 in f"
    assert "CALL" in context.instruction
    assert context.stack == ["'NullVariable()'", "'BreakpointFn'"]
    assert context.locals == {"n": "'ConstantVariable(int: 3)'"}
    assert context.guards == ["L['n'] == 3"]


def test_without_a_hook_pdb_opens_with_the_snapshot_as_locals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    frames: list[dict[str, Any]] = []

    class FakePdb:
        def set_trace(self) -> None:
            import sys

            frames.append(dict(sys._getframe(1).f_locals))

    monkeypatch.setattr(debug.pdb, "Pdb", FakePdb)
    previous = tracer.set_breakpoint_hook(None)
    try:
        debug.on_traced_breakpoint(_fake_tx())
    finally:
        tracer.set_breakpoint_hook(previous)
    [scope] = frames
    assert scope["guards"] == ["L['n'] == 3"]
    assert scope["symbolic_locals"] == {"n": "'ConstantVariable(int: 3)'"}
    assert {"instruction", "stack", "tx"} <= set(scope)
    assert "tracer.breakpoint() at user.py:3 in f" in capsys.readouterr().out


def test_traced_breakpoint_reaches_the_hook(seen: list[BreakpointContext]) -> None:
    compiled = tracer.compile(with_breakpoint)
    assert compiled(torch.ones(2)).tolist() == [4.0, 4.0]
    [context] = seen
    assert context.location.startswith(Path(__file__).name + ":")
    assert context.location.endswith(" in with_breakpoint")
    assert "TensorVariable" in context.locals["y"]
    assert any("L['x']" in guard for guard in context.guards)
    [entry] = compiled.entries
    assert entry.break_reason is None  # the call traces as None: no graph break
    assert compiled(torch.ones(2)).tolist() == [4.0, 4.0]
    assert len(seen) == 1  # the hook runs while tracing, not when the compiled code runs
