"""The two code objects of a graph break that resumes (notes/resume-functions.md).

`resume_code` builds `__resume_at_<offset>_<n>`: the original bytecode, whole, behind a prologue
that pushes the live stack back (its first parameters, NULL slots pushed again) and jumps to the
instruction after the break; the live locals and the frame's cells with a value are its other
parameters, its free variables the original's closure. `break_code` builds the compiled frame:
run the graph traced so far, rebuild the live stack, replay the side effects, run the breaking
call eagerly with the original instructions, and return what the resume function returns.
"""

from __future__ import annotations

import dis
import inspect
import itertools
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bytecode import Bytecode, CompilerFlags, Instr, Label

from tracer.codegen.pycodegen import PyCodegen
from tracer.exc import unimplemented
from variables.base import NotConstantError
from variables.misc import NullVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.graph import Node
    from variables.base import VariableTracker

_resume_numbers = itertools.count()
"""The `<n>` of `__resume_at_<offset>_<n>`: one number per generated resume function."""


STACK_PREFIX = "___stack"
"""The names of a resume function's parameters that hold the live stack."""


def original_instrs(code: types.CodeType, index: int) -> tuple[list[Any], int]:
    """The code as `bytecode.Bytecode` items, and the position in that list of the instruction
    at `index` in `dis` order (`dis` lists EXTENDED_ARG, the package folds it away)."""
    items = list(Bytecode.from_code(code))
    wanted = sum(1 for i, raw in enumerate(_dis_names(code)) if i < index and raw != "EXTENDED_ARG")
    seen = 0
    for pos, item in enumerate(items):
        if isinstance(item, Instr):
            if seen == wanted:
                return items, pos
            seen += 1
    raise AssertionError(f"instruction {index} not found in {code.co_name}")


def _dis_names(code: types.CodeType) -> list[str]:
    return [inst.opname for inst in dis.get_instructions(code)]


def resume_code(
    original: types.CodeType,
    index: int,
    offset: int,
    stack_nulls: tuple[bool, ...],
    local_names: list[str],
) -> types.CodeType:
    """`__resume_at_<offset>_<n>(___stack0, ..., *local_names)`: continues `original` at the
    instruction with `dis` index `index` (byte offset `offset`) with that stack and locals.
    `stack_nulls` is the live stack, bottom first: True for the NULL slot of a call the break
    happened inside the arguments of (`g(x.sin(), print(1))`). A NULL is not a value and can't
    be an argument: the prologue pushes it again (PUSH_NULL), as Dynamo's does on 3.11."""
    items, pos = original_instrs(original, index)
    first_line = original.co_firstlineno
    target = Label()
    frame_setup = ("RESUME", "COPY_FREE_VARS", "MAKE_CELL")
    body = [
        item for item in items[:pos] if not (isinstance(item, Instr) and item.name in frame_setup)
    ]
    # The frame's own cells are made again (MAKE_CELL, from the parameter of the same name
    # when the cell had a value at the break), its free variables copied from the closure
    # the resume function is made with: the original's (tracer/cache/resume.py).
    cells = [
        Instr(item.name, item.arg, lineno=first_line)
        for item in items[:pos]
        if isinstance(item, Instr) and item.name in ("COPY_FREE_VARS", "MAKE_CELL")
    ]
    stack_names = [f"{STACK_PREFIX}{i}" for i, null in enumerate(stack_nulls) if not null]
    prologue: list[Any] = [*cells, Instr("RESUME", 0, lineno=first_line)]
    for i, null in enumerate(stack_nulls):
        load = Instr("PUSH_NULL") if null else Instr("LOAD_FAST", f"{STACK_PREFIX}{i}")
        load.lineno = first_line
        prologue.append(load)
    prologue.append(Instr("JUMP_FORWARD", target, lineno=first_line))
    bc = Bytecode([*prologue, *body, target, *items[pos:]])
    name = f"__resume_at_{offset}_{next(_resume_numbers)}"
    bc.argnames = [*stack_names, *local_names]
    bc.cellvars = list(original.co_cellvars)
    bc.freevars = list(original.co_freevars)
    bc.argcount = len(bc.argnames)
    bc.posonlyargcount = 0
    bc.kwonlyargcount = 0
    bc.name = name
    bc.qualname = name
    bc.filename = original.co_filename
    bc.first_lineno = first_line
    varargs = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
    bc.flags = CompilerFlags(original.co_flags & ~varargs)
    return bc.to_code()


def _call_graph(
    cg: PyCodegen,
    original: types.CodeType,
    graph_fn: Callable[..., Any] | None,
    graph_inputs: list[Source],
    graph_outputs: list[Node],
) -> None:
    """Run the graph traced before the break and keep its outputs in locals."""
    if original.co_freevars:  # the closure's cells become readable (LOAD_DEREF)
        cg.emit(Instr("COPY_FREE_VARS", len(original.co_freevars)))
    cg.emit(Instr("RESUME", 0))
    if graph_fn is not None and graph_outputs:
        cg.push_null()
        cg.load_const(graph_fn)
        for source in graph_inputs:
            cg.load_source(source)
        cg.call(len(graph_inputs))
        cg.emit(Instr("UNPACK_SEQUENCE", len(graph_outputs)))
        for node in graph_outputs:
            cg.store_fast(cg.graph_outputs[node])


def _into_temps(cg: PyCodegen, values: Sequence[VariableTracker]) -> list[str]:
    """Rebuild each value into a temporary. Locals are read before the eager part runs: it may
    rebind what their sources name."""
    temps = []
    for vt in values:
        cg(vt)
        temps.append(cg.store_temp())
    return temps


def stack_nulls(stack: Sequence[VariableTracker]) -> tuple[bool, ...]:
    """Which slots of a live stack are NULLs (see `resume_code`)."""
    return tuple(isinstance(vt, NullVariable) for vt in stack)


def _values(stack: Sequence[VariableTracker]) -> list[VariableTracker]:
    """The stack's values without its NULL slots: those are passed to the resume function."""
    return [vt for vt in stack if not isinstance(vt, NullVariable)]


_READS_THE_FRAME = (locals, vars, dir, exec, eval)
"""Builtins that read the frame they are called in (called without their optional mapping or
object): at a break they would read the compiled frame's locals, not the original's."""


def _reads_the_frame(vt: VariableTracker) -> None:
    try:
        value = vt.realize().as_python_constant()
    except NotConstantError:
        return
    if any(value is builtin for builtin in _READS_THE_FRAME):
        unimplemented(
            "graph-break",
            f"{value.__name__}() reads the frame it is called in, and the frame is replaced by "
            "compiled code",
        )


def _flags(original: types.CodeType) -> int:
    return original.co_flags & ~(inspect.CO_GENERATOR | inspect.CO_COROUTINE)


def break_code(
    original: types.CodeType,
    index: int,
    kw_names: tuple[str, ...],
    graph_fn: Callable[..., Any] | None,
    graph_inputs: list[Source],
    graph_outputs: list[Node],
    stack: Sequence[VariableTracker],
    local_values: Sequence[VariableTracker],
    resume: Any,
    replay: Callable[[PyCodegen], None],
    callee: Callable[[Any], Any] | None = None,
) -> tuple[types.CodeType, list[Instr]]:
    """The compiled frame of a break at the CALL with `dis` index `index`: `stack` is the
    symbolic stack before the CALL (its own NULL/callable/arguments on top) and `local_values`
    the values of the resume function's local parameters, in order. When the break happened
    inside the function this CALL inlined, `callee` (tracer/cache/resume.py, CalleeFrames)
    turns the callable into its compiled stand-in first: the callee runs as its own frame."""
    items, pos = original_instrs(original, index)
    call = items[pos]
    argc = call.arg
    assert isinstance(call, Instr) and call.name == "CALL" and isinstance(argc, int), call
    below = len(stack) - (argc + 2)  # stack items under the call's NULL/callable slots
    if below < 0:
        unimplemented("graph-break", "a CALL without its NULL/callable slots")
    cg = PyCodegen({node: f"___out_{i}" for i, node in enumerate(graph_outputs)})
    _call_graph(cg, original, graph_fn, graph_inputs, graph_outputs)
    temps = _into_temps(cg, local_values)
    kept = _into_temps(cg, _values(stack[:below]))  # the stack under the call, for the resume
    call_slots = stack[below:]
    callable_slot = 1 if isinstance(call_slots[0], NullVariable) else 0  # else [method, self]
    _reads_the_frame(call_slots[callable_slot])
    for i, vt in enumerate(call_slots):
        if callee is not None and i == callable_slot:  # callee(the callable)
            cg.push_null()
            cg.load_const(callee)
            cg(vt)
            cg.call(1)
        else:
            cg(vt)
    replay(cg)  # the eager call sees the state the traced code left
    if kw_names:
        cg.emit(Instr("KW_NAMES", kw_names, location=call.location))
    cg.emit(Instr("PRECALL", argc, location=call.location))
    cg.emit(Instr("CALL", argc, location=call.location))
    result = cg.store_temp()
    _call_resume(cg, original, resume, [*kept, result, *temps])
    return cg.code_object(original, flags=_flags(original)), cg.instructions


def _call_resume(cg: PyCodegen, original: types.CodeType, resume: Any, args: list[str]) -> None:
    """`return resume(*args)`, where `resume` is the resume function's CompiledFunction: its
    `target` chooses (or compiles) what runs, then that is called with the arguments, after
    this frame lets go of its locals, so that only the resume function holds what it is
    handed, as the original frame would."""
    cg.push_null()
    cg.push_null()
    cg.load_const(resume.target)
    for name in args:
        cg.load_fast(name)
    cg.call(len(args))
    for name in args:
        cg.load_fast(name)
    cg.release_locals(original)
    cg.call(len(args))
    cg.emit(Instr("RETURN_VALUE"))


def jump_break_code(
    original: types.CodeType,
    index: int,
    graph_fn: Callable[..., Any] | None,
    graph_inputs: list[Source],
    graph_outputs: list[Node],
    stack: Sequence[VariableTracker],
    local_values: Sequence[VariableTracker],
    resumes: tuple[Any, Any],
    replay: Callable[[PyCodegen], None],
) -> tuple[types.CodeType, list[Instr]]:
    """The compiled frame of a break at a jump on a tensor's value (`if x.sum() > 0:`):
    the condition (on top of `stack`) is tested eagerly by the original kind of jump, and
    each way continues in its own resume function, `resumes` = (fall through, jump taken)."""
    items, pos = original_instrs(original, index)
    jump = items[pos]
    assert isinstance(jump, Instr) and jump.name.startswith("POP_JUMP_"), jump
    *below, condition = stack
    cg = PyCodegen({node: f"___out_{i}" for i, node in enumerate(graph_outputs)})
    _call_graph(cg, original, graph_fn, graph_inputs, graph_outputs)
    temps = _into_temps(cg, [*_values(below), *local_values])
    replay(cg)
    cg(condition)
    taken = Label()
    name = "POP_JUMP_FORWARD_IF_FALSE" if "IF_FALSE" in jump.name else "POP_JUMP_FORWARD_IF_TRUE"
    cg.emit(Instr(name, taken, location=jump.location))
    for resume in resumes:
        _call_resume(cg, original, resume, temps)
        if resume is resumes[0]:
            cg.instructions.append(taken)  # type: ignore[arg-type]
    return cg.code_object(original, flags=_flags(original)), cg.instructions
