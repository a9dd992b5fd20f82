"""Cache entries: what one compile produced, and the per-function list they live in.

A CacheEntry pairs the generated guard check with what to run when it passes: the compiled
function, or the original one when tracing fell back (the decision is cached under the guards
collected up to the break, so the frame is not retraced on every call).
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bytecode.instr import TryBegin, TryEnd

if TYPE_CHECKING:
    from bytecode import Instr

    from guards.manager import CompiledGuards
    from tracer.exc import BreakReason
    from tracer.graph import GraphModule
    from tracer.observability.compile_context import CompileId


@dataclasses.dataclass(eq=False)
class CacheEntry:
    """`CacheEntry(0/1: compiled, 4 guards, 3 ops)` or `CacheEntry(0/0: eager, ...)`."""

    run: Callable[..., Any]
    compile_id: CompileId
    guard_manager: CompiledGuards
    graph: GraphModule | None = None
    side_effects: list[str] = dataclasses.field(default_factory=list)
    bytecode: list[Instr] | None = None
    break_reason: BreakReason | None = None
    traced_instructions: int = 0
    resumes: tuple[Any, ...] = ()
    """The resume functions (CompiledFunctions) the compiled code calls after a graph break."""
    callees: Any = None
    """For a break inside a function the frame inlined: the CalleeFrames that compiles the
    callee as its own frame when the break's CALL runs it (tracer/cache/resume.py)."""

    @functools.cached_property
    def check(self) -> Callable[[Mapping[str, object]], bool]:
        """The generated guard check (`guard_manager.check`, compiled when the entry's guards
        were built); after the first read an attribute of the entry like any other."""
        return self.guard_manager.check

    @property
    def is_fallback(self) -> bool:
        return self.break_reason is not None and not self.resumes

    @property
    def guards(self) -> list[str]:
        return self.guard_manager.flat()

    @property
    def op_count(self) -> int:
        if self.graph is None:
            return 0
        return sum(1 for n in self.graph.graph.nodes if n.op in ("call_function", "call_method"))

    def failure(self, L: Mapping[str, object]) -> str | None:
        """The first failing guard in words (miss path only)."""
        return self.guard_manager.failure_reason(L)

    def bytecode_listing(self) -> str:
        if self.bytecode is None:
            return "(runs the original function)"
        return "\n".join(_format_instr(i) for i in self.bytecode)

    def __repr__(self) -> str:
        reason = self.break_reason
        kind = f"eager ({reason.kind})" if reason is not None and not self.resumes else "compiled"
        return (
            f"CacheEntry({self.compile_id}: {kind}, {len(self.guard_manager.guards)} guards, "
            f"{self.op_count} ops)"
        )


def _format_instr(instr: Instr | TryBegin | TryEnd) -> str:
    """`  LOAD_FAST        'z'`: the name, then the argument (a callable by its qualname)."""
    if isinstance(instr, TryBegin):  # an exception-table region opens: its handler's depth
        lasti = ", lasti" if instr.push_lasti else ""
        return f"  try:            depth {instr.stack_depth}{lasti}"
    if isinstance(instr, TryEnd):
        return "  end try"
    if not hasattr(instr, "require_arg"):  # a jump target (`bytecode.Label`)
        return "label:"
    if not instr.require_arg():
        return f"  {instr.name}"
    arg = instr.arg
    if type(arg) is types.MethodType:  # `__resume_at_82_0.target`: named by its object
        owner = arg.__self__
        text = f"{getattr(owner, '__qualname__', repr(owner))}.{arg.__name__}"
    elif callable(arg):
        text = getattr(arg, "__qualname__", repr(arg))
    else:
        text = repr(arg)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"  {instr.name:<16} {text}"
