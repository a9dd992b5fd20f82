"""Resume functions: when a break may resume, and the resume function of each break point.

A graph break in the compiled frame itself (not in a function it inlined) at a CALL resumes:
the compiled code runs the graph so far, runs the call eagerly and calls a generated function
`__resume_at_<offset>_<n>` holding the rest of the frame (tracer/codegen/resume.py). That
function is compiled lazily on its first call like any other: a CompiledFunction of its own,
with its own frame id, cache entries, guards and recompiles. Its code object is made once per
(original code, break instruction), so a second compile of the same frame (a recompile, or a
call after `tracer.reset()`) calls the same resume function.
"""

from __future__ import annotations

import inspect
import threading
import types
from typing import TYPE_CHECKING, Any

from tracer.codegen.resume import resume_code
from tracer.exc import BreakReason, Unsupported
from tracer.translator.instructions import exception_table, instructions_of

if TYPE_CHECKING:
    from tracer.config import CompileOptions

_lock = threading.Lock()
_codes: dict[tuple[types.CodeType, int, int, tuple[str, ...]], types.CodeType] = {}
"""(original code, resume index, stack depth, local names) -> the resume function's code."""
_functions: dict[tuple[types.CodeType, int, CompileOptions], Any] = {}
"""(resume code, id of its globals, options) -> the CompiledFunction that runs it."""


_NOT_PLAIN = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


_NO_RESUME = frozenset({"instruction-budget"})
"""Break kinds that are about the whole trace, not about the instruction they stopped at."""


def clear() -> None:
    """Forget every resume function (`tracer.reset()`)."""
    with _lock:
        _codes.clear()
        _functions.clear()


def why_not_resumable(fn: types.FunctionType, e: Unsupported) -> BreakReason | None:
    """None when the break `e` can resume; else the reason the whole frame runs eagerly
    instead (the break's own reason, or Dynamo's "graph break in loop")."""
    index = e.break_index
    if index is None or e.user_exception is not None or e.reason.kind in _NO_RESUME:
        return e.reason
    code = fn.__code__
    instructions = instructions_of(code)
    inst = instructions[index]
    if not (inst.opname == "CALL" or is_tensor_jump(inst.opname, e)):
        return e.reason
    if code.co_cellvars or code.co_freevars:
        return e.reason  # cells are not passed to resume functions yet
    if code.co_flags & _NOT_PLAIN:  # a generator's frame cannot be split into plain functions
        return e.reason
    if any(entry.start <= inst.offset < entry.end for entry in exception_table(code)):
        return e.reason  # a break in a try/with block: its handler is not restored yet
    if any(
        other.target is not None and other.target <= index < other.index for other in instructions
    ):
        return BreakReason(
            "graph break in loop",
            f"graph break in a for/while loop: the frame {code.co_name} runs eagerly, as "
            f"graph breaks in loops do not resume ({e.reason.explanation})",
            ("the break comes first; see its reason",),
            location=e.reason.location,
            instruction=e.reason.instruction,
        )
    return None


def is_tensor_jump(opname: str, e: Unsupported) -> bool:
    """A POP_JUMP on a tensor's value: the prefix compiles and each way resumes."""
    jumps = ("_IF_TRUE", "_IF_FALSE")
    return (
        opname.startswith("POP_JUMP_")
        and opname.endswith(jumps)
        and (e.reason.kind == "data-dependent-branch")
    )


def resume_function(
    fn: types.FunctionType,
    start: int,
    stack_count: int,
    local_names: list[str],
    options: CompileOptions,
) -> Any:
    """The compiled resume function that continues `fn` at instruction index `start` with
    `stack_count` values on the stack and the locals `local_names`."""
    from tracer.cache.function import CompiledFunction

    code = fn.__code__
    inst = instructions_of(code)[start]
    key = (code, start, stack_count, tuple(local_names))
    with _lock:
        resume = _codes.get(key)
        if resume is None:
            resume = resume_code(code, start, inst.offset, stack_count, local_names)
            _codes[key] = resume
        fn_key = (resume, id(fn.__globals__), options)
        compiled = _functions.get(fn_key)
        if compiled is None:
            function = types.FunctionType(resume, fn.__globals__, resume.co_name)
            compiled = CompiledFunction(function, options, 8, "recompile")
            _functions[fn_key] = compiled
    return compiled
