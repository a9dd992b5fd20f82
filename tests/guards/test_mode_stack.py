"""The MODE_STACK leaf: length and exact type per position, identity ignored, read live."""

from __future__ import annotations

import pytest

from guards import CompiledGuards, ModeStackSource, mode_stack_guard
from tests.guards.helpers import compile_guards


class LoggingMode:
    pass


class OtherMode:
    pass


class SubLoggingMode(LoggingMode):
    pass


def test_mode_stack_guard_records_exact_types() -> None:
    g = mode_stack_guard([LoggingMode(), OtherMode()])
    assert g.expected == (LoggingMode, OtherMode)
    assert repr(g) == "Guard(MODE_STACK ___mode_stack: [LoggingMode, OtherMode])"


def test_mode_stack_check_reads_the_live_list() -> None:
    stack: list[object] = [LoggingMode()]
    compiled = compile_guards([mode_stack_guard(list(stack))], mode_stack=stack)
    assert compiled.check({})
    stack[0] = LoggingMode()  # same type, another instance
    assert compiled.check({})
    stack.append(LoggingMode())
    assert not compiled.check({})  # length
    stack[:] = [OtherMode()]
    assert not compiled.check({})  # type
    stack[:] = [SubLoggingMode()]
    assert not compiled.check({})  # exact type, not isinstance
    stack.clear()
    assert not compiled.check({})


def test_mode_stack_entries_are_read_after_the_stack_guard() -> None:
    stack: list[object] = []
    guards = [mode_stack_guard([LoggingMode()])]
    from guards import Guard, GuardKind

    guards.append(Guard(GuardKind.TYPE_MATCH, ModeStackSource(0), LoggingMode))
    compiled = compile_guards(guards, mode_stack=stack)
    lines = compiled.source.splitlines()
    assert lines[4].strip().startswith("len(___v0 := ___mode_stack()) == 1")
    assert not compiled.check({})
    assert compiled.failure_reason({}) == "mode stack: expected [LoggingMode] (actual [])"
    stack.append(LoggingMode())
    assert compiled.check({})


def test_a_mode_stack_guard_needs_the_accessor() -> None:
    with pytest.raises(ValueError, match="needs mode_stack_fn"):
        CompiledGuards([mode_stack_guard([])], f_globals={}, builtins={}, closure=None)


def test_the_empty_stack_guard_reads_only_the_length_accessor() -> None:
    """The guard on an empty stack calls `___mode_stack_len`, the caller's counter (torch's C
    function), and builds no list; the reason for a miss still names the stack's modes."""
    stack: list[object] = []
    counted: list[int] = []

    def length() -> int:
        counted.append(len(stack))
        return len(stack)

    compiled = CompiledGuards(
        [mode_stack_guard([])],
        f_globals={},
        builtins={},
        closure=(),
        mode_stack_fn=lambda: stack,
        mode_stack_len_fn=length,
    )
    assert "            ___mode_stack_len() == 0  # MODE_STACK" in compiled.source
    assert compiled.check({})
    assert counted == [0]
    stack.append(LoggingMode())
    assert not compiled.check({})
    assert compiled.failure_reason({}) == "mode stack: expected [] (actual [LoggingMode])"


def test_without_a_length_accessor_the_length_is_read_through_the_stack() -> None:
    stack: list[object] = []
    compiled = compile_guards([mode_stack_guard([])], mode_stack=stack)  # no counter given
    assert compiled.check({})
    stack.append(OtherMode())
    assert not compiled.check({})
    assert compiled.failure_reason({}) == "mode stack: expected [] (actual [OtherMode])"
