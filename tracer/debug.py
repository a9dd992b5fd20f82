"""`tracer.breakpoint()`: stop inside the translator at a chosen line of traced code.

Run eagerly, `breakpoint()` does nothing. When the translator reaches a call to it, it calls
`on_traced_breakpoint(tx)` instead of tracing the call: that snapshots what the translator knows
at that point (the instruction, the inline call stack, the symbolic stack and locals with the
values of inputs not looked at yet, the guards installed so far) as a `BreakpointContext` and
hands it to the hook set with `set_breakpoint_hook`, or opens pdb with the snapshot as locals
when no hook is set. The call itself traces as `None`; no graph break.
"""

from __future__ import annotations

import dataclasses
import pdb  # noqa: T100 - opening pdb is the point of this module
from collections.abc import Callable
from typing import TYPE_CHECKING

from tracer.exc import UserError

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

BreakpointHook = Callable[["BreakpointContext"], object]

_hook: BreakpointHook | None = None


@dataclasses.dataclass(frozen=True)
class BreakpointContext:
    """What the translator knew when it reached `tracer.breakpoint()`, as readable strings.

    >>> ctx = BreakpointContext("f.py:3 in f", "Instruction(8: CALL 0, line 3)",
    ...     ["TensorVariable(x)"], {"x": "TensorVariable(x)"}, ["len(___mode_stack) == 0"],
    ...     ["f.py:9 in g", "f.py:3 in f"])
    >>> print(ctx)
    tracer.breakpoint() at f.py:3 in f (Instruction(8: CALL 0, line 3))
      frames: ['f.py:9 in g', 'f.py:3 in f']
      stack:  ['TensorVariable(x)']
      locals: {'x': 'TensorVariable(x)'}
      guards: ['len(___mode_stack) == 0']
    """

    location: str
    """`user.py:12 in f`: the user line being traced."""
    instruction: str
    """The instruction being traced (the call to `tracer.breakpoint`)."""
    stack: list[str]
    """The symbolic stack, bottom first, as VariableTracker reprs."""
    locals: dict[str, str]
    """The symbolic locals by name, as VariableTracker reprs."""
    guards: list[str]
    """The guards installed so far, each `Guard.describe()`."""
    frames: list[str] = dataclasses.field(default_factory=list)
    """The inline call stack, outermost first: the compiled frame, then each function it
    inlined down to the one that called `tracer.breakpoint()` (`location`, the last)."""

    def __str__(self) -> str:
        return (
            f"tracer.breakpoint() at {self.location} ({self.instruction})\n"
            f"  frames: {self.frames}\n"
            f"  stack:  {self.stack}\n"
            f"  locals: {self.locals}\n"
            f"  guards: {self.guards}"
        )


def breakpoint() -> None:
    """A no-op when run eagerly; when traced, the translator calls `on_traced_breakpoint`."""


def graph_break() -> None:
    """A no-op when run eagerly; when traced, a graph break (like `torch._dynamo.graph_break()`):
    the graph so far is compiled and the rest of the frame runs in a resume function."""


def set_breakpoint_hook(fn: BreakpointHook | None) -> BreakpointHook | None:
    """Call `fn(context)` at every traced `tracer.breakpoint()` (None: open pdb instead).
    Returns the previous hook, so a caller can restore it."""
    global _hook
    if fn is not None and not callable(fn):
        raise UserError(f"a breakpoint hook is a callable or None, got {fn!r}")
    previous, _hook = _hook, fn
    return previous


def breakpoint_context(tx: TranslatorBase) -> BreakpointContext:
    """Snapshot the translator's state at the current instruction."""
    inst = tx.current_inst
    instruction = repr(inst) if inst is not None else "?"
    frames: list[str] = []
    frame: TranslatorBase | None = tx
    while frame is not None:
        frames.insert(0, str(frame.location()))
        frame = getattr(frame, "parent", None)
    return BreakpointContext(
        location=str(tx.location()),
        instruction=instruction,
        stack=[describe(vt) for vt in tx.stack],
        locals={name: describe(vt) for name, vt in tx.symbolic_locals.items()},
        guards=[guard.describe() for guard in tx.output.all_guards()],
        frames=frames,
    )


def describe(vt: object) -> str:
    """A tracker's repr; an input not looked at yet (an unrealized LazyVariableTracker) shows
    its source and the value found there, without realizing it (which would add guards):
    `LazyVariableTracker(unrealized: L['cfg']) = {'a': 1}`."""
    text = repr(vt)
    if getattr(vt, "is_realized", True):
        return text
    try:
        value = " ".join(repr(getattr(vt, "value", None)).split())
    except Exception as e:  # noqa: BLE001 - a user __repr__ may fail; say so instead
        value = f"<repr failed: {type(e).__name__}>"
    return f"{text} = {value if len(value) <= 200 else value[:197] + '...'}"


def on_traced_breakpoint(tx: TranslatorBase) -> None:
    """Called by the translator when traced code calls `tracer.breakpoint()`."""
    context = breakpoint_context(tx)
    if _hook is not None:
        try:
            _hook(context)
        except Exception as e:  # the user's hook: its error is theirs, not the tracer's
            raise UserError(f"the breakpoint hook raised {e!r} at {context.location}") from e
    else:
        _open_pdb(context, tx)


def _open_pdb(context: BreakpointContext, tx: TranslatorBase) -> None:
    print(context)
    _stop_here(
        context.instruction, context.frames, context.stack, context.locals, context.guards, tx
    )


def _stop_here(
    instruction: str,
    frames: list[str],
    stack: list[str],
    symbolic_locals: dict[str, str],
    guards: list[str],
    tx: TranslatorBase,
) -> None:
    """pdb opens in this frame: `p frames`, `p stack`, `p symbolic_locals`, `p guards`, `p tx`;
    `c` goes on tracing."""
    pdb.Pdb().set_trace()
