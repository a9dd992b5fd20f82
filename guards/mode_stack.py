"""The leaf guard on the torch-function mode stack: same length, same exact type at each position.

Like Dynamo's TORCH_FUNCTION_MODE_STACK leaf it ignores mode identity: a compiled entry traced under
`with LoggingMode():` serves any later `LoggingMode()` instance. The stack is read live, through an
accessor bound as `___mode_stack`, because it is per-thread state. The accessor is the caller's to
give (`CompiledGuards(mode_stack_fn=...)`; the compiler passes the runtime's), so guards/ needs
nothing of the tracer. The guard on an empty stack, what nearly every entry has, reads only the
length, through `___mode_stack_len` (`mode_stack_len_fn`, the world's own counter): no list of
the stack is built for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from guards.constants import Bind, type_label
from guards.guard import Guard, GuardKind, mode_types_text
from guards.sources import MODE_STACK_LEN_FN, ModeStackListSource

if TYPE_CHECKING:
    from tracer.exc import UserLocation

ModeStackFn = Callable[[], Sequence[object]]
ModeStackLenFn = Callable[[], int]


def mode_stack_guard(modes: Sequence[object], user_location: UserLocation | None = None) -> Guard:
    """The MODE_STACK guard for a snapshot of the stack taken when tracing started (bottom first).

    >>> class LoggingMode: ...
    >>> mode_stack_guard([LoggingMode()])
    Guard(MODE_STACK ___mode_stack: [LoggingMode])
    """
    types = tuple(type(mode) for mode in modes)
    return Guard(GuardKind.MODE_STACK, ModeStackListSource(), types, user_location)


def mode_stack_check_expr(var: str, types: tuple[type, ...], bind: Bind) -> str:
    """`len(S) == n and type(S[0]) is M0 and ...` on the live list held in `var`; for an empty
    stack `___mode_stack_len() == 0`, which does not read `var`."""
    if not types:
        return f"{MODE_STACK_LEN_FN}() == 0"
    checks = [f"len({var}) == {len(types)}"]
    checks += [f"type({var}[{i}]) is {bind(t, type_label(t))}" for i, t in enumerate(types)]
    return " and ".join(checks)


def mode_stack_failure(types: tuple[type, ...], live: Sequence[object]) -> str:
    """`mode stack: expected [LoggingMode] (actual [])`."""
    actual = mode_types_text([type(mode) for mode in live])
    return f"mode stack: expected {mode_types_text(types)} (actual {actual})"


def length_reader(mode_stack_fn: ModeStackFn) -> ModeStackLenFn:
    """The stack's length read through the stack accessor, for a caller that gives no counter."""

    def mode_stack_len() -> int:
        return len(mode_stack_fn())

    return mode_stack_len
