"""Resume functions: when a break may resume, and the resume function of each break point.

A graph break at a CALL of the compiled frame resumes: the compiled code runs the graph so far,
runs the call eagerly and calls a generated function `__resume_at_<offset>_<n>` holding the
rest of the frame (tracer/codegen/resume.py). A break inside a function the frame inlined makes
the frame's CALL of it the break, and the callee runs as a frame of its own (CalleeFrames). That
function is compiled lazily on its first call like any other: a CompiledFunction of its own,
with its own frame id, cache entries, guards and recompiles. Its code object is made once per
(original code, break instruction), so a second compile of the same frame (a recompile, or a
call after `tracer.reset()`) calls the same resume function.
"""

from __future__ import annotations

import collections
import dataclasses
import inspect
import threading
import types
import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import ClosureSource
from tracer import worlds
from tracer.bytecode_versions import (
    CALL_OPNAMES,
    NO_FALL_THROUGH,
    OPERAND_BREAKS,
    fast_local_accesses,
)
from tracer.codegen.resume import PART_PREFIX, FunctionAgain, resume_code, super_self
from tracer.exc import BreakReason, Unsupported
from tracer.translator.instructions import (
    Instruction,
    PerCode,
    exception_table,
    instructions_of,
    per_code,
)
from variables.base import VariableTracker
from variables.dicts import ConstDictVariable
from variables.functions import NestedUserFunctionVariable
from variables.lazy import LazyVariableTracker
from variables.lifetimes import sees_its_death
from variables.lists import TupleVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from tracer.config import CompileOptions
    from variables.misc import CellVariable

_lock = threading.Lock()


@dataclasses.dataclass(frozen=True)
class CachePolicy:
    """How a compiled function's cache treats a miss (`tracer.compile(recompile_limit=...,
    on_recompile=...)`); the resume functions of its frame get the same policy."""

    recompile_limit: int = 8
    on_recompile: str = "recompile"


DEFAULT_POLICY = CachePolicy()


_CodeKey = tuple[
    types.CodeType, str, str, int, tuple[bool, ...], tuple[str, ...], int, tuple[Any, ...]
]
_codes: dict[_CodeKey, types.CodeType] = {}
"""(original code, its file name and qualified name, resume index, stack NULL slots, local
names, break index, functions made again) -> the resume function's code."""
_functions: dict[tuple[types.CodeType, int, tuple[int, ...], CompileOptions, CachePolicy], Any] = {}
"""(resume code, id of its globals, ids of its closure's cells, options, policy) -> the
CompiledFunction that runs it (it holds the globals and the cells: their ids stay theirs)."""


_NOT_PLAIN = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
_NO_RESUME = frozenset({"instruction-budget"})
"""Break kinds that are about the whole trace, not about the instruction they stopped at."""


_callees: dict[tuple[CompileOptions, CachePolicy], CalleeFrames] = {}
"""(options, policy) -> the compiled stand-ins of functions called eagerly at a break."""


def clear() -> None:
    """Forget every resume function and callee stand-in (`tracer.reset()`)."""
    with _lock:
        _codes.clear()
        _functions.clear()
        _callees.clear()


def why_not_resumable(fn: types.FunctionType, e: Unsupported) -> BreakReason | None:
    """None when the break `e` can resume; else the reason the whole frame runs eagerly
    instead (the break's own reason, or Dynamo's "graph break in loop")."""
    index = e.break_index
    if index is None or e.user_exception is not None or e.reason.kind in _NO_RESUME:
        return e.reason
    code = fn.__code__
    instructions = instructions_of(code)
    inst = instructions[index]
    resumable_at = inst.opname in CALL_OPNAMES or inst.opname in OPERAND_BREAKS
    if not (resumable_at or is_tensor_jump(inst.opname, e)):
        return e.reason
    if code.co_flags & _NOT_PLAIN:  # a generator's frame cannot be split into plain functions
        return e.reason
    if any(block.kind == "try" for block in enclosing_blocks(code, inst.offset)):
        return BreakReason(
            "graph break in try block",
            f"graph break in a try block: the frame {code.co_name} runs eagerly, as a graph "
            "break inside try/except/finally does not resume, in Dynamo either "
            f"({e.reason.explanation})",
            ("move the code that breaks out of the try block",),
            location=e.reason.location,
            instruction=e.reason.instruction,
        )
    back = [o.index for o in instructions if o.target is not None and o.target <= index < o.index]
    # a backward jump over the break closes a loop when it is on the normal path (3.12 and 3.13
    # also jump back from a `with` block's exit handler to the code after the block)
    if back and not _normal_flow(instructions).isdisjoint(back):
        return BreakReason(
            "graph break in loop",
            f"graph break in a for/while loop: the frame {code.co_name} runs eagerly, as "
            f"graph breaks in loops do not resume ({e.reason.explanation})",
            ("the break comes first; see its reason",),
            location=e.reason.location,
            instruction=e.reason.instruction,
        )
    return None


@dataclasses.dataclass(frozen=True)
class Block:
    """A `with` or `try` block of the user's code around an instruction. For a `with` block,
    the stack holds `depth` values in the block, the last of them its `__exit__` (what
    BEFORE_WITH pushed)."""

    kind: str  # "with" or "try"
    depth: int


def enclosing_blocks(code: types.CodeType, offset: int) -> list[Block]:
    """The blocks around the instruction at byte `offset`, innermost first, read from the
    3.11 exception table. The entry covering an instruction leads to the innermost block's
    handler; the handler's own instructions are covered by an entry that leads to its cleanup
    (COPY 3; POP_EXCEPT; RERAISE), and the entry covering that cleanup is the next block out.
    A handler that starts PUSH_EXC_INFO; WITH_EXCEPT_START is a `with` block's; any other is
    a `try` block's (except or finally)."""
    entries = exception_table(code)
    if not entries:
        return []
    by_offset = {inst.offset: inst for inst in instructions_of(code)}

    def covering(at: int) -> Any:
        return next((x for x in entries if x.start <= at < x.end), None)

    blocks: list[Block] = []
    entry = covering(offset)
    while entry is not None:
        handler = by_offset[entry.target]
        following = by_offset.get(handler.offset + 2)
        is_with = handler.opname == "PUSH_EXC_INFO" and (
            following is not None and following.opname == "WITH_EXCEPT_START"
        )
        blocks.append(Block("with" if is_with else "try", entry.depth))
        cleanup = covering(entry.target)
        entry = covering(cleanup.target) if cleanup is not None else None
    return blocks


WITH_BLOCK_BREAK = "graph break in with block"
"""The kind of a break in a `with` block that a resume function can't restore."""


def with_contexts(
    code: types.CodeType, offset: int, stack: Sequence[VariableTracker], where: Unsupported
) -> list[tuple[int, VariableTracker]]:
    """The `with` blocks around the break at byte `offset`, innermost first, as (block depth,
    context object), when each can be restored around the eager call and in the resume
    function: a torch-function mode entered with the default `__exit__`, which only pops it
    from the mode stack, or a grad-mode context made in the frame (`torch.no_grad()`), whose
    `__exit__` sets the mode from before the block (Dynamo restores both). Any other context
    manager raises Unsupported: the frame runs eagerly, as Dynamo's does for a context
    manager it cannot restore."""
    from variables.base import GetAttrVariable
    from variables.grad_mode import GradModeContextVariable
    from variables.misc import PartialVariable
    from variables.modes import ModeStackFunctionVariable, TorchFunctionModeVariable

    found = []
    for block in enclosing_blocks(code, offset):
        assert block.kind == "with", block  # why_not_resumable refused breaks in try blocks
        exit_fn = stack[block.depth - 1].realize()
        if (
            isinstance(exit_fn, PartialVariable)
            and isinstance(exit_fn.func, ModeStackFunctionVariable)
            and exit_fn.func.kind == "exit"
            and len(exit_fn.args) == 1
            and isinstance(exit_fn.args[0].realize(), TorchFunctionModeVariable)
        ):
            found.append((block.depth, exit_fn.args[0].realize()))
            continue
        if (
            isinstance(exit_fn, GetAttrVariable)
            and exit_fn.name == "__exit__"
            and isinstance(exit_fn.obj, GradModeContextVariable)
            and len(exit_fn.obj.saved) == 1
        ):
            found.append((block.depth, exit_fn.obj))
            continue
        owner = getattr(exit_fn, "obj", None)  # a bound method's object
        name = owner.type_name() if isinstance(owner, VariableTracker) else exit_fn.type_name()
        raise Unsupported(
            BreakReason(
                WITH_BLOCK_BREAK,
                f"graph break in a with block of {name}: a resume function restores only the "
                "with blocks of torch function modes with the default __exit__ (Dynamo: "
                "'Attempted to graph break in an active context manager(s) that doesn't "
                f"support graph breaking'), so the frame {code.co_name} runs eagerly "
                f"({where.reason.explanation})",
                ("move the code that breaks out of the with block",),
                location=where.reason.location,
                instruction=where.reason.instruction,
            )
        )
    return found


def _normal_flow(instructions: Sequence[Instruction]) -> frozenset[int]:
    """The indices of the instructions reached from the first without an exception."""
    seen: set[int] = set()
    todo = [0]
    while todo:
        i = todo.pop()
        if i in seen or i >= len(instructions):
            continue
        seen.add(i)
        inst = instructions[i]
        if inst.target is not None:
            todo.append(inst.target)
        if inst.opname not in NO_FALL_THROUGH:
            todo.append(i + 1)
    return frozenset(seen)


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
    stack_nulls: tuple[bool, ...],
    local_names: list[str],
    options: CompileOptions,
    policy: CachePolicy,
    break_index: int,
    again: tuple[FunctionAgain, ...] = (),
) -> Any:
    """The compiled resume function that continues `fn` at instruction index `start` with
    the stack `stack_nulls` (True for a NULL slot, see `resume_code`) and the locals
    `local_names`, after the break at instruction index `break_index`, making the functions
    `again` first. It is compiled with
    the options and cache policy `fn` was compiled with (backend, dynamic, specialize_float,
    recompile_limit, on_recompile), as a frame of its own: the ints automatic dynamic marked
    in `fn`'s frame are not marked in it (Dynamo keeps that state per code object)."""
    options = dataclasses.replace(options, dynamic_sources=frozenset())
    from tracer.cache.function import CompiledFunction

    code = fn.__code__
    inst = instructions_of(code)[start]
    # equal code objects may come from different files (code equality ignores co_filename
    # and co_qualname): each gets its own resume code, so tracebacks and warnings name it
    names = (code.co_filename, code.co_qualname)
    key: _CodeKey = (code, *names, start, stack_nulls, tuple(local_names), break_index, again)
    with _lock:
        resume = _codes.get(key)
        if resume is None:
            resume = resume_code(
                code, start, inst.offset, stack_nulls, local_names, break_index, again
            )
            _codes[key] = resume
        closure = fn.__closure__
        cell_ids = tuple(id(cell) for cell in closure or ())
        fn_key = (resume, id(fn.__globals__), cell_ids, options, policy)
        compiled = _functions.get(fn_key)
        if compiled is None:
            # the free variables are the original's cells: a store through them after the
            # break is seen by the functions that share them, and the other way around
            function = types.FunctionType(resume, fn.__globals__, resume.co_name, None, closure)
            function.__qualname__ = resume.co_qualname
            compiled = CompiledFunction(
                function, options, policy.recompile_limit, policy.on_recompile
            )
            _functions[fn_key] = compiled
    return compiled


@dataclasses.dataclass
class MadeAgain:
    """What `functions_made_again` found: the functions the resume function makes again, the
    locals it is passed instead of them (their parts last), and what the compiled code must
    know (`made`: tracker id -> name, which it must not make itself; `cells`: the frame's
    cells those functions close over, passed even when the rest of the code does not name
    them)."""

    again: tuple[FunctionAgain, ...]
    names: list[str]
    values: list[VariableTracker]
    made: dict[int, str]
    cells: frozenset[str]


def functions_made_again(
    code: types.CodeType,
    frame_cells: dict[str, CellVariable],
    names: list[str],
    values: list[VariableTracker],
    stack: Sequence[tuple[str, VariableTracker]] = (),
) -> MadeAgain:
    """The functions defined in the frame that are live after a break in local variables
    `names` (with `values`) or in the slots of the stack under the break (`stack`: each slot's
    parameter name, `___stack<i>`, and value), which the resume function makes again itself
    (`FunctionAgain`): it then holds the one function object of the call, over its own cells,
    as the frame would have. A function qualifies when it is held in one place only (one plain
    local, not a cell; or one stack slot) and closes only over the frame's own cells
    (`frame_cells`) and free variables; the others stay where they are, and the compiled code
    refuses them (NestedUserFunctionVariable)."""
    cell_names = {id(cell): name for name, cell in frame_cells.items() if name in code.co_cellvars}
    held = collections.Counter(id(value) for value in [*values, *(vt for _, vt in stack)])
    again: list[FunctionAgain] = []
    kept_names: list[str] = []
    kept_values: list[VariableTracker] = []
    part_names: list[str] = []
    part_values: list[VariableTracker] = []
    made: dict[int, str] = {}
    cells: set[str] = set()
    local_count = len(names)
    for position, (name, value) in enumerate([*zip(names, values, strict=True), *stack]):
        closure = None
        if (
            type(value) is NestedUserFunctionVariable
            and held[id(value)] == 1
            and name not in code.co_cellvars
        ):
            closure = _closure_names(value.closure, cell_names, code)
        if closure is None:
            if position < local_count:
                kept_names.append(name)
                kept_values.append(value)
            continue
        assert isinstance(value, NestedUserFunctionVariable)
        prefix = f"{PART_PREFIX}{len(again)}_"
        parts: list[tuple[int, str, VariableTracker]] = []
        if value.defaults:
            parts.append((1, "defaults", TupleVariable(list(value.defaults))))
        if value.kwdefaults:
            parts.append((2, "kwdefaults", ConstDictVariable(dict(value.kwdefaults))))
        if value.annotations is not None:
            parts.append((4, "annotations", value.annotations))
        flags = sum(flag for flag, _, _ in parts) | (8 if closure else 0)
        again.append(
            FunctionAgain(
                name, value.code, flags, tuple(prefix + part for _, part, _ in parts), closure
            )
        )
        part_names += [prefix + part for _, part, _ in parts]
        part_values += [part_value for _, _, part_value in parts]
        made[id(value)] = value.qualname
        cells.update(cell for cell, free in closure if not free)
    return MadeAgain(
        tuple(again), kept_names + part_names, kept_values + part_values, made, frozenset(cells)
    )


def _closure_names(
    closure: Sequence[CellVariable], cell_names: dict[int, str], code: types.CodeType
) -> tuple[tuple[str, bool], ...] | None:
    """The names of the frame's cells (False) and free variables (True) `closure` consists
    of, or None when a cell is neither (an inlined function's)."""
    found: list[tuple[str, bool]] = []
    for cell in closure:
        source = cell.source
        if id(cell) in cell_names:
            found.append((cell_names[id(cell)], False))
        elif (
            not cell.is_new
            and isinstance(source, ClosureSource)
            and source.freevar_name in code.co_freevars
        ):
            found.append((source.freevar_name, True))
        else:
            return None
    return tuple(found)


READS_LOCALS_BY_NAME = frozenset(
    {"locals", "vars", "dir", "eval", "exec", "_getframe", "currentframe", "f_locals"}
)
"""Names (of builtins, functions or attributes) in `co_names` that may read a frame's locals."""


def live_locals(code: types.CodeType, starts: Iterable[int]) -> frozenset[str]:
    """The locals of `code` live at any of the instructions `starts` (indices): those some
    path from there reads before writing them. Only these are passed to a resume function;
    the others are never read again, so leaving them unbound changes nothing.

    A backward dataflow over the instructions, repeated until nothing changes (loops):
    what is live before an instruction is what is live after it (at the next instruction
    and at its jump target), minus what it writes (STORE_FAST), plus what it reads
    (LOAD_FAST, and DELETE_FAST, which raises UnboundLocalError on an unbound local, so the
    binding must be passed, as Dynamo's analysis also does). Inside a `try` block the
    handler is a successor too: an error can leave before the instruction writes.

    Code that can read its locals by name (`locals()`, `vars()`, `dir()`, `eval`/`exec`
    with the frame's namespace, a frame's `f_locals`) reads some that no instruction shows
    (`exec("with localcontext(): pass", locals())`): there every local is live.
    """
    if READS_LOCALS_BY_NAME & set(code.co_names):
        return frozenset(code.co_varnames)
    implicit = super_self(code)  # (read by `super()`, which no instruction shows)
    instructions, successors = _flow(code)
    live: list[frozenset[str]] = [frozenset()] * len(instructions)
    changed = True
    while changed:
        changed = False
        for inst in reversed(instructions):
            after: set[str] = set()
            handler: frozenset[str] = frozenset()
            for following, is_handler in successors[inst.index]:
                if is_handler:
                    handler = live[following]
                else:
                    after |= live[following]
            for access, name in reversed(fast_local_accesses(inst.opname, inst.argval)):
                if access == "write":
                    after.discard(name)
                else:
                    after.add(name)
            after |= handler  # an error can leave before the instruction writes
            before = frozenset(after)
            if before != live[inst.index]:
                live[inst.index] = before
                changed = True
    live_there = frozenset().union(*(live[start] for start in starts))
    return live_there if implicit is None else live_there | {implicit}


def kept_though_dead(vt: VariableTracker, call_args: Sequence[VariableTracker]) -> bool:
    """Whether a local dead after a break is passed to the resume function anyway: its
    object's death may be seen, and in eager code it lives until the local is rebound or the
    frame returns (CPython's test_weakref `test_ref_repr`: `obj = C(); ref =
    weakref.ref(obj)` breaks, and `obj` is only rebound later; dropped at the break, `ref`
    would be dead too early). The resume function's own `del` or rebinding of it then makes
    that frame run in Python (NOTE [a dropped reference its object sees]).

    Kept: a handed-in object that has weak references or a `__del__` already, a weak
    reference (a `weakref.ref` counts in `getweakrefcount`), and an object, handed in or made
    in the trace, that the breaking call gets as an argument (`call_args`), which may make
    a weak reference to it. Not a tensor, whose memory is what dropping dead locals frees
    (as Dynamo does), nor anything else nothing can watch."""
    if isinstance(vt, LazyVariableTracker):
        value = vt.value
        kind = type(value)
        if issubclass(kind, weakref.ReferenceType) or kind in weakref.ProxyTypes:
            return True
        if sees_its_death(value) is not None:
            return True
        watchable = kind.__weakrefoffset__ != 0 and not issubclass(
            kind, (type, worlds.current().tensor_type)
        )  # (by type: `isinstance` would read a `__class__` the object defines)
        return watchable and _among(vt, call_args)
    if isinstance(vt, UserDefinedObjectVariable) and vt.is_new:
        return vt.cls.__weakrefoffset__ != 0 and _among(vt, call_args)
    return False


def _among(vt: VariableTracker, items: Sequence[VariableTracker]) -> bool:
    return any(item is vt for item in items)


Flow = tuple[Sequence[Instruction], tuple[tuple[tuple[int, bool], ...], ...]]

_FLOWS: PerCode = {}
"""code object id -> its `Flow` (`_flow`): a break's analyses each walk it."""


def _flow(code: types.CodeType) -> Flow:
    """The instructions of `code` and, for each, where control can go next: (index, True for
    the handler of the `try` block it is in, reached before it has done its work). Made once
    per code object (`per_code`), as its instructions are."""
    return per_code(_FLOWS, code, _make_flow)


def _make_flow(code: types.CodeType) -> Flow:
    instructions = instructions_of(code)
    index_of = {inst.offset: inst.index for inst in instructions}
    successors: list[list[tuple[int, bool]]] = [[] for _ in instructions]
    for inst in instructions:
        if inst.opname not in NO_FALL_THROUGH and inst.index + 1 < len(instructions):
            successors[inst.index].append((inst.index + 1, False))
        if inst.target is not None:
            successors[inst.index].append((inst.target, False))
    for entry in exception_table(code):  # 3.11 table entries do not overlap
        for inst in instructions:
            if entry.start <= inst.offset < entry.end:
                successors[inst.index].append((index_of[entry.target], True))
    return instructions, tuple(tuple(following) for following in successors)


CELL_WRITES = frozenset({"STORE_DEREF", "DELETE_DEREF"})


def cells_used_after(code: types.CodeType, starts: Iterable[int]) -> frozenset[str]:
    """The frame's own cells (`co_cellvars`) that a resume function starting at the
    instructions `starts` (indices) may use: some instruction a path from there reaches names
    it (reads, writes, or takes the cell for a closure), or the code reads locals by name.
    The others are not passed to it."""
    cellvars = frozenset(code.co_cellvars)
    if not cellvars or READS_LOCALS_BY_NAME & set(code.co_names):
        return cellvars
    used: set[str] = set()
    for inst in _reachable(code, starts):
        names = inst.argval if isinstance(inst.argval, tuple) else (inst.argval,)
        used.update(name for name in names if isinstance(name, str))
    return cellvars & used


def cells_written_after(code: types.CodeType, starts: Iterable[int]) -> frozenset[str]:
    """The frame's own cells (`co_cellvars`) that may be written once a resume function that
    starts at the instructions `starts` (indices) has taken their values: the rest of `code`
    writes them (a STORE_DEREF or DELETE_DEREF some path from there reaches), or a function
    defined in `code` can (`nonlocal`, at any depth: it may run at any time, even inside the
    call at the break). The resume function makes its own cells from the values (see
    `resume_code`), so a function made again at the break over the frame's cells keeps the
    values it was made with: it may close over the others only (NestedUserFunctionVariable).
    Code that reads or writes locals by name (`f_locals` is written through on 3.13) may write
    any of them."""
    cellvars = frozenset(code.co_cellvars)
    if not cellvars:
        return cellvars
    written = _nested_cell_writes(code)
    if written is None:
        return cellvars
    written.update(i.argval for i in _reachable(code, starts) if i.opname in CELL_WRITES)
    return cellvars & written


def _reachable(code: types.CodeType, starts: Iterable[int]) -> list[Instruction]:
    """The instructions of `code` some path from the instructions `starts` (indices) reaches."""
    instructions, successors = _flow(code)
    seen = set(starts)
    todo = list(seen)
    while todo:
        for following, _ in successors[todo.pop()]:
            if following not in seen:
                seen.add(following)
                todo.append(following)
    return [instructions[index] for index in sorted(seen)]


def _nested_cell_writes(code: types.CodeType) -> set[str] | None:
    """The names the functions defined in `code` (at any depth) write as cells, or None when
    one of them, or `code`, can reach a frame's locals by name."""
    if READS_LOCALS_BY_NAME & set(code.co_names):
        return None
    written: set[str] = set()
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner = _nested_cell_writes(const)
            if inner is None:
                return None
            written |= inner
            written |= {i.argval for i in instructions_of(const) if i.opname in CELL_WRITES}
    return written


class CalleeFrames:
    """The functions called eagerly at a break inside them, each compiled as its own frame.

    A break inside an inlined function makes the compiled frame's CALL the break (as in
    Dynamo); the call then runs the callee eagerly, and Dynamo's frame hook compiles the
    callee's frame as any other: its own graphs, breaks, resume functions and compile ids.
    modetrace has no frame hook, so the break's generated code passes the callable through
    this object first (`break_code`), which returns a CompiledFunction of the same function
    object, compiled with the caller's options and cache policy. It is made once per function
    object and kept (until `tracer.reset()`), so a second call hits its cache; the function's
    globals, closure and defaults are its own, and a method stays bound to its `self`.
    Anything else (a builtin whose polyfill broke, a class, a generator function) is called
    as it is, and so is a function that looks at the frames that called it, itself or through
    a function it calls (`calls_a_caller_reader`: a log call, whose record names the caller's
    file, line and function): its CompiledFunction's `__call__` would be the frame it finds.
    """

    def __init__(self, options: CompileOptions, policy: CachePolicy) -> None:
        self.options = options
        self.policy = policy
        self.compiled: dict[types.FunctionType, Any] = {}
        """function -> its CompiledFunction, in first-call order (`tracer.explain` lists them)."""
        self.as_is: dict[tuple[types.FunctionType, type | None], bool] = {}
        """(function, class of the object it is bound to) -> whether it is called as it is."""

    def __call__(self, fn: Any) -> Any:
        if type(fn) is types.MethodType and type(fn.__func__) is types.FunctionType:
            method = self.compiled_for(fn.__func__, type(fn.__self__))
            return fn if method is fn.__func__ else types.MethodType(method, fn.__self__)
        if type(fn) is types.FunctionType:
            return self.compiled_for(fn)
        return fn

    def compiled_for(self, fn: types.FunctionType, owner: type | None = None) -> Any:
        as_is = self.as_is.get((fn, owner))
        if as_is is None:
            # a generator's or coroutine's body runs when it is iterated or awaited
            as_is = bool(fn.__code__.co_flags & _NOT_PLAIN) or calls_a_caller_reader(fn, owner)
            self.as_is[(fn, owner)] = as_is
        if as_is:
            return fn
        from tracer.cache.function import CompiledFunction

        with _lock:
            compiled = self.compiled.get(fn)
            if compiled is None:
                policy = self.policy
                compiled = CompiledFunction(
                    fn, self.options, policy.recompile_limit, policy.on_recompile
                )
                self.compiled[fn] = compiled
        return compiled


_CALLER_READERS = frozenset({"_getframe", "_getframemodulename", "currentframe", "f_back", "warn"})
"""Names of the calls that look at the calling frames: `sys._getframe(n)` and
`inspect.currentframe().f_back` (or a frame's `f_back` got otherwise),
`sys._getframemodulename(n)` (3.12's `make_dataclass`, `namedtuple`, `Enum` use it to find the
module they are called from), and `warnings.warn`, whose `stacklevel` names a caller's line."""


def calls_a_caller_reader(fn: types.FunctionType, owner: type | None = None) -> bool:
    """Does `fn`, or a function it calls by name, look at the frames that called it
    (`reads_callers`)? Followed by name, three calls deep: the functions of its module
    (typing.NamedTuple's `_caller()`) and the methods of `owner`, the class of the object it
    is bound to (`Logger.warning` -> `_log` -> `findCaller` -> `currentframe()`: a log record
    names the caller's file, line and function)."""
    seen: set[types.CodeType] = set()
    todo = [(fn, 0)]
    while todo:
        function, depth = todo.pop()
        code = function.__code__
        if code in seen:
            continue
        seen.add(code)
        if reads_callers(code):
            return True
        if depth == 3:
            continue
        for name in code.co_names:
            found = function.__globals__.get(name)
            if type(found) is not types.FunctionType and owner is not None:
                found = inspect.getattr_static(owner, name, None)
            if type(found) is types.FunctionType:
                todo.append((found, depth + 1))
    return False


def reads_callers(code: types.CodeType) -> bool:
    """Does the code, or a function defined in it, name a call that looks at calling frames?"""
    return not _CALLER_READERS.isdisjoint(code.co_names) or any(
        reads_callers(const) for const in code.co_consts if isinstance(const, types.CodeType)
    )


def callee_frames(options: CompileOptions, policy: CachePolicy) -> CalleeFrames:
    """The stand-in maker for breaks of frames compiled with `options` and `policy` (the
    callee's automatic-dynamic marks start empty, as a resume function's do)."""
    options = dataclasses.replace(options, dynamic_sources=frozenset())
    with _lock:
        frames = _callees.get((options, policy))
        if frames is None:
            frames = _callees[(options, policy)] = CalleeFrames(options, policy)
    return frames
