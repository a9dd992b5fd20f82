"""The two code objects of a graph break that resumes (notes/resume-functions.md).

`resume_code` builds `__resume_at_<offset>_<n>`: the rest of the original bytecode, behind a
prologue that pushes the live stack back (its first parameters, NULL slots pushed again) and
jumps to the instruction after the break; the live locals and the frame's cells with a value
are its other parameters, its free variables the original's closure. `break_code` builds the
compiled frame: run the graph traced so far, rebuild the live stack, replay the side effects,
run the breaking call eagerly with the original instructions, and return what the resume
function returns.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bytecode import Bytecode, CompilerFlags, Instr, Label
from bytecode.instr import CellVar, FreeVar, InstrLocation, TryBegin, TryEnd

from tracer.bytecode_versions import (
    CALL_OPNAMES,
    NO_FALL_THROUGH,
    OPERAND_BREAKS,
    load_cell_instr,
    make_function_instrs,
    pop_jump_if_instrs,
    split_superinstruction,
    try_region_start,
)
from tracer.codegen.pycodegen import PyCodegen
from tracer.exc import Unsupported, unimplemented
from tracer.translator.instructions import Instruction, PerCode, instructions_of, per_code
from variables.base import NotConstantError
from variables.functions import NestedUserFunctionVariable
from variables.misc import NullVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.graph import Node
    from variables.base import VariableTracker

_resume_numbers = itertools.count()
"""The `<n>` of `__resume_at_<offset>_<n>`: one number per generated resume function."""


RESUME_PREFIX = "__resume_at_"
"""How a resume function's label begins: `__resume_at_<offset>_<n>` (`frame_name`)."""


def frame_name(code: types.CodeType) -> str:
    """The name the compile records, warnings and logs give a frame: a resume function's
    label, which is its code's qualified name (its code's own name is the original
    function's, for tracebacks: `resume_code`), or the code's name."""
    qualname = code.co_qualname
    return qualname if qualname.startswith(RESUME_PREFIX) else code.co_name


STACK_PREFIX = "___stack"
"""The names of a resume function's parameters that hold the live stack."""

PART_PREFIX = "___part"
"""The names of a resume function's parameters that hold the parts of a function it makes
again (`FunctionAgain`)."""


@dataclasses.dataclass(frozen=True)
class FunctionAgain:
    """A function defined in the frame before a break and live after it, which the resume
    function makes again in its prologue, as the frame made it: MAKE_FUNCTION of `code`, with
    its parts taken from the parameters `parts` (positional defaults, keyword defaults and
    annotations, those `flags` names) and its closure from the resume function's own cells
    and free variables `cells` (name, True for a free variable), stored in the local `local`
    (a stack slot's `___stack<i>`, which the prologue then pushes, is then no parameter). Its
    cells are then the ones the rest of the frame reads and writes."""

    local: str
    code: types.CodeType
    flags: int
    parts: tuple[str, ...]
    cells: tuple[tuple[str, bool], ...]

    def instrs(self, **where: Any) -> list[Instr]:
        loads = [Instr("LOAD_FAST", part, **where) for part in self.parts]
        if self.cells:
            for name, free in self.cells:
                loads.append(load_cell_instr(FreeVar(name) if free else CellVar(name), **where))
            loads.append(Instr("BUILD_TUPLE", len(self.cells), **where))
        return [
            *loads,
            Instr("LOAD_CONST", self.code, **where),
            *make_function_instrs(self.flags, **where),
            Instr("STORE_FAST", self.local, **where),
        ]

    @property
    def stack_size(self) -> int:
        """At most what `instrs` has on the stack at once (the cells, then their tuple and
        the code, on the parts)."""
        return len(self.parts) + len(self.cells) + 2


_DECODED: PerCode = {}
"""code object id -> its `bytecode.Bytecode` items (`decoded_items`)."""


def decoded_items(code: types.CodeType) -> tuple[Any, ...]:
    """The code as `bytecode.Bytecode` items (instructions, labels, try-region markers), with
    the stack depths of its exception table kept. Decoded once per code object for the life of
    the code object (`per_code`, which says why it is keyed by identity), as the translator
    decodes it (`instructions_of`, which says why it is cached at all): every
    resume function of the code starts from the same items, across `tracer.reset()` too, as
    Dynamo's `_cached_cleaned_instructions` does.

    The items are shared, so they are never changed: `resume_code` puts them, as they are,
    into a new list behind prologue instructions of its own, and assembling that list (with
    the stack depths given, `compute_exception_stack_depths=False`) only reads them."""
    return per_code(_DECODED, code, _decode_items)


def _decode_items(code: types.CodeType) -> tuple[Any, ...]:
    return tuple(Bytecode.from_code(code, conserve_exception_block_stackdepth=True))


def original_instrs(code: types.CodeType, index: int) -> tuple[tuple[Any, ...], int]:
    """The code's `decoded_items`, and the position among them of the instruction at `index`
    in `dis` order (`dis` lists EXTENDED_ARG, the package folds it away)."""
    items = decoded_items(code)
    before = instructions_of(code)[:index]
    wanted = sum(1 for inst in before if inst.opname != "EXTENDED_ARG")
    seen = 0
    for pos, item in enumerate(items):
        if isinstance(item, Instr):
            if seen == wanted:
                return items, pos
            seen += 1
    raise AssertionError(f"instruction {index} not found in {code.co_name}")


def _breaking_instruction(code: types.CodeType, index: int) -> tuple[Instruction, InstrLocation]:
    """The instruction with `dis` index `index` and its source position: the compiled frame
    runs it eagerly at that position, so a traceback from it names the user's line."""
    inst = instructions_of(code)[index]
    position = next(itertools.islice(code.co_positions(), inst.offset // 2, None))
    return inst, InstrLocation(*position)


def resume_code(
    original: types.CodeType,
    index: int,
    offset: int,
    stack_nulls: tuple[bool, ...],
    local_names: list[str],
    break_index: int,
    again: tuple[FunctionAgain, ...] = (),
) -> types.CodeType:
    """`__resume_at_<offset>_<n>(___stack0, ..., *local_names)`: continues `original` at the
    instruction with `dis` index `index` (byte offset `offset`) with that stack and locals.
    It holds the rest of `original`: the instructions after the breaking one (`dis` index
    `break_index`; for a jump on a tensor's value the taken way resumes further on), behind a
    prologue that rebuilds the stack and jumps to where it resumes.
    `stack_nulls` is the live stack, bottom first: True for the NULL slot of a call the break
    happened inside the arguments of (`g(x.sin(), print(1))`). A NULL is not a value and can't
    be an argument: the prologue pushes it again (PUSH_NULL), as Dynamo's does on 3.11.
    The prologue first makes the functions `again` (their parts are among `local_names`)."""
    items, pos = original_instrs(original, index)
    _, split = original_instrs(original, break_index)
    rest = _rest(items, split + 1, items[pos])
    first_line = original.co_firstlineno
    target = Label()
    # The frame's own cells are made again (MAKE_CELL, from the parameter of the same name
    # when the cell had a value at the break), its free variables copied from the closure
    # the resume function is made with: the original's (tracer/cache/resume.py).
    cells = [
        Instr(item.name, item.arg, lineno=first_line)
        for item in items[:split]
        if isinstance(item, Instr) and item.name in ("COPY_FREE_VARS", "MAKE_CELL")
    ]
    stack_names = [f"{STACK_PREFIX}{i}" for i, null in enumerate(stack_nulls) if not null]
    prologue: list[Any] = [*cells, Instr("RESUME", 0, lineno=first_line)]
    for function in again:
        prologue += function.instrs(lineno=first_line)
    for i, null in enumerate(stack_nulls):
        load = Instr("PUSH_NULL") if null else Instr("LOAD_FAST", f"{STACK_PREFIX}{i}")
        load.lineno = first_line
        prologue.append(load)
    # unbound once on the stack: `locals()` after the break shows the original's locals only
    parts = [part for function in again for part in function.parts]
    made = {function.local for function in again}
    argnames = [*(slot for slot in stack_names if slot not in made), *local_names]
    first = super_self(original)
    for name in stack_names + parts:
        if first in local_names and name == argnames[0]:
            # `super()` with no arguments takes the frame's first local: the original's
            prologue += [
                Instr("LOAD_FAST", first, lineno=first_line),
                Instr("STORE_FAST", name, lineno=first_line),
            ]
        else:
            prologue.append(Instr("DELETE_FAST", name, lineno=first_line))
    prologue.append(Instr("JUMP_FORWARD", target, lineno=first_line))
    at = next(i for i, item in enumerate(rest) if item is items[pos])  # where it resumes
    # the try regions open where it resumes begin at `target` (3.13: with a NOP)
    start = try_region_start(location=items[pos].location)
    # (3.13's two-local instructions as two: the resume function numbers its locals anew)
    before, after = (
        [s for item in part for s in split_superinstruction(item)]
        for part in (rest[:at], rest[at:])
    )
    bc = Bytecode([*prologue, *before, target, *start, *after])
    label = f"{RESUME_PREFIX}{offset}_{next(_resume_numbers)}"
    bc.argnames = argnames
    bc.cellvars = list(original.co_cellvars)
    bc.freevars = list(original.co_freevars)
    bc.argcount = len(bc.argnames)
    bc.posonlyargcount = 0
    bc.kwonlyargcount = 0
    # Named as the original, so that a traceback through it and `inspect.stack()` name the
    # user's function, as eagerly; its label is its qualified name (`frame_name`), as in its
    # function's `__qualname__`.
    bc.name = original.co_name
    bc.qualname = label
    bc.filename = original.co_filename
    bc.first_lineno = first_line
    varargs = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
    bc.flags = CompilerFlags(original.co_flags & ~varargs)
    # The rest starts inside any `with` block around the resume point, entered by the
    # prologue's jump: the package's walk of the flow would see the block's handler entered
    # from an empty stack. Nothing needs that walk: the prologue rebuilds a stack the original
    # code had there, so the original depths hold, for the stack (`co_stacksize`) and for each
    # handler (the original exception table's).
    stacksize = max([original.co_stacksize, *(function.stack_size for function in again)])
    return bc.to_code(stacksize=stacksize, compute_exception_stack_depths=False)


def super_self(code: types.CodeType) -> str | None:
    """The first local of `code` when it may call `super()` with no arguments (it names
    `super` and has the `__class__` cell): CPython's `super()` then takes the frame's first
    local as its object. A resume function is passed that local (`live_locals`) and holds
    it in its own first slot (`resume_code`), so a break in a resume function finds it among
    its parameters; else None."""
    if not ("super" in code.co_names and "__class__" in code.co_freevars and code.co_argcount):
        return None
    if not code.co_qualname.startswith(RESUME_PREFIX):
        return code.co_varnames[0]
    # a resume function's own break: the original's first local is its first local parameter
    params = code.co_varnames[: code.co_argcount]
    return next((p for p in params if not p.startswith((STACK_PREFIX, PART_PREFIX))), None)


def _rest(items: tuple[Any, ...], split: int, resume_at: Any) -> list[Any]:
    """The items from position `split` on that the resume function can reach, inside the try
    regions open there: the TryBegin of each (its handler's stack depth as the original table
    has it) is placed again at the start, unless the region ends before any instruction of the
    rest (an exception table entry covers at least one instruction). The rest is entered at
    `resume_at`; what it cannot reach from there is left out (`_reachable`): the other way of a
    jump on a tensor's value, and the handler of a `with` block that ended before the break
    (3.12 ends it with a jump back to the code after its block). Nothing kept refers back to
    what is left out: a break inside a loop does not resume (`why_not_resumable`), and a
    block's handler comes after its body; code that did would make the frame run eagerly."""
    open_regions: list[TryBegin] = []
    for item in items[:split]:
        if isinstance(item, TryBegin):
            open_regions.append(item)
        elif isinstance(item, TryEnd):
            open_regions.remove(item.entry)
    later = items[split:]
    first = next(i for i, item in enumerate(later) if isinstance(item, Instr))
    empty = [end for end in later[:first] if isinstance(end, TryEnd) and end.entry in open_regions]
    reopened = [begin for begin in open_regions if not any(end.entry is begin for end in empty)]
    rest = [*reopened, *(item for item in later if not any(item is end for end in empty))]
    rest = _reachable(rest, next(i for i, item in enumerate(rest) if item is resume_at))
    labels = {id(item) for item in rest if isinstance(item, Label)}
    for item in rest:
        label = item.target if isinstance(item, TryBegin) else getattr(item, "arg", None)
        if isinstance(label, Label) and id(label) not in labels:
            unimplemented("graph-break", "the code after the break jumps back to code before it")
    return rest


def _reachable(items: list[Any], start: int) -> list[Any]:
    """`items` without the instructions no path from position `start` reaches (by falling
    through, by a jump, or by an exception: a try region's handler is reached when one of the
    instructions it covers is), and without the try regions left with no instruction. Labels
    stay: one nothing jumps to is harmless."""
    position = {id(item): i for i, item in enumerate(items) if isinstance(item, Label)}
    region_of: dict[int, TryBegin] = {}  # instruction position -> the try region covering it
    region: TryBegin | None = None
    for i, item in enumerate(items):
        if isinstance(item, TryBegin):
            region = item
        elif isinstance(item, TryEnd):
            region = None
        elif isinstance(item, Instr) and region is not None:
            region_of[i] = region
    reached: set[int] = set()
    todo = [start]
    while todo:
        i = todo.pop()
        if i in reached or i >= len(items):
            continue
        reached.add(i)
        item = items[i]
        targets = [getattr(item, "arg", None)]
        if i in region_of:
            targets.append(region_of[i].target)
        todo += [position[id(t)] for t in targets if isinstance(t, Label) and id(t) in position]
        if not (isinstance(item, Instr) and item.name in NO_FALL_THROUGH):
            todo.append(i + 1)
    covering = {id(region_of[i]) for i in reached if i in region_of}
    return [
        item
        for i, item in enumerate(items)
        if i in reached
        or isinstance(item, Label)
        or (isinstance(item, TryBegin) and id(item) in covering)
        or (isinstance(item, TryEnd) and id(item.entry) in covering)
    ]


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
    if graph_fn is not None:  # (a graph with no outputs returns (): nothing unpacked)
        cg.load_function(graph_fn)
        cg.load_sources(graph_inputs)
        cg.call(len(graph_inputs))
        cg.emit(Instr("UNPACK_SEQUENCE", len(graph_outputs)))
        for node in graph_outputs:
            cg.store_fast(cg.graph_outputs[node])


def _into_temps(
    cg: PyCodegen, values: Sequence[VariableTracker], released: Sequence[str] = ()
) -> list[str]:
    """The locals the values are read from, read before the eager part runs (`_kept`)."""
    return [_kept(cg, vt, released) for vt in values]


def _kept(cg: PyCodegen, vt: VariableTracker, released: Sequence[str] = ()) -> str:
    """The local that holds `vt`'s value for the resume function's call. The eager part may
    rebind what a source names (a global, an attribute), so the value is rebuilt into a new
    temporary before it runs; but a value whose rebuilding only reads a local of this frame
    (an argument of the frame, a graph output) is passed from that local: nothing rebinds it,
    unless it is one of the `released` arguments, deleted before the eager part (`y = x;
    del x`: `y` is read from `x` into a temporary first)."""
    start = len(cg.instructions)
    cg(vt)
    rebuilt = cg.instructions[start:]
    if len(rebuilt) == 1 and rebuilt[0].name == "LOAD_FAST" and rebuilt[0].arg not in released:
        del cg.instructions[start:]
        return str(rebuilt[0].arg)
    return cg.store_temp()


def stack_nulls(stack: Sequence[VariableTracker]) -> tuple[bool, ...]:
    """Which slots of a live stack are NULLs (see `resume_code`)."""
    return tuple(isinstance(vt, NullVariable) for vt in stack)


def _reads_the_frame(
    callable_vt: VariableTracker, args: Sequence[VariableTracker], kw_names: tuple[str, ...]
) -> None:
    """Refuse a break at a call that reads the frame it is called in: at a break it would read
    the compiled frame's locals, not the original's. `locals()` always does; `vars()` and
    `dir()` without an argument; `exec` and `eval` without a globals mapping (a missing or None
    second argument; a keyword argument is taken to be one that might be missing)."""
    try:
        value = callable_vt.realize().as_python_constant()
    except NotConstantError:
        return
    positional = args[: len(args) - len(kw_names)]
    if value is locals:
        reads = True
    elif value is vars or value is dir:
        reads = not args
    elif value is exec or value is eval:
        reads = bool(kw_names) or len(positional) < 2 or _is_none(positional[1])
    else:
        return
    if reads:
        unimplemented(
            "graph-break",
            f"{value.__name__}() reads the frame it is called in, and the frame is replaced by "
            "compiled code",
        )


def _is_none(vt: VariableTracker) -> bool:
    """Whether a globals argument may be None: only a value known to be a dict is not."""
    try:
        return not issubclass(vt.realize().python_type(), dict)
    except Unsupported:
        return True


def _flags(original: types.CodeType) -> int:
    return original.co_flags & ~(inspect.CO_GENERATOR | inspect.CO_COROUTINE)


WithBlocks = Sequence[tuple[int, "VariableTracker"]]
"""The `with` blocks around a break, innermost first, as (block depth, context object): the
block's `__exit__` is at `stack[depth - 1]` (tracer/cache/resume.py, `with_contexts`)."""


def _keep_stack(
    cg: PyCodegen,
    below: Sequence[VariableTracker],
    with_blocks: WithBlocks,
    released: Sequence[str] = (),
) -> list[str]:
    """The locals holding the live stack under the break (`_kept`), bottom first: they are
    the resume function's first arguments. NULL slots are left out (the resume prologue pushes
    them again), and so are functions it makes again; a `with` block's slot holds what
    BEFORE_WITH pushed, the context's bound `__exit__`, rebuilt from the context itself."""
    exits = {depth - 1: context for depth, context in with_blocks}
    kept = []
    for i, vt in enumerate(below):
        if isinstance(vt, NullVariable) or id(vt) in cg.made_by_resume:
            continue  # (a function the resume function makes itself: FunctionAgain)
        if i in exits:
            cg(exits[i])
            cg.load_attr("__exit__")
            kept.append(cg.store_temp())
        else:
            kept.append(_kept(cg, vt, released))
    return kept


def _push_held(cg: PyCodegen, kept: list[str], with_blocks: WithBlocks) -> int:
    """Push back the stack values the innermost `with` block's handler cuts the stack to (its
    depth; the outer blocks' values are among them): the eager part runs inside the blocks,
    and a handler finds its `__exit__` on the stack. They sit at statement level, where the
    stack holds no NULL, so they are the first `kept` values. Returns how many were pushed."""
    held = with_blocks[0][0] if with_blocks else 0
    for name in kept[:held]:
        cg.load_fast(name)
    return held


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
    with_blocks: WithBlocks = (),
    unbound: Sequence[str] = (),
    unshared_cells: dict[int, str] | None = None,
    made_by_resume: dict[int, str] | None = None,
) -> tuple[types.CodeType, list[Instr]]:
    """The compiled frame of a break at the CALL with `dis` index `index`: `stack` is the
    symbolic stack before the CALL (its own NULL/callable/arguments on top) and `local_values`
    the values of the resume function's local parameters, in order. When the break happened
    inside the function this CALL inlined, `callee` (tracer/cache/resume.py, CalleeFrames)
    turns the callable into its compiled stand-in first: the callee runs as its own frame.
    A break at an instruction of OPERAND_BREAKS (`x[mask]`, `x[i] = v`) is compiled the same
    way, the instruction itself run on its operands in place of the call.
    Inside `with_blocks` the eager call runs inside the blocks (`_push_held`). `unbound` are
    the parameters of `original` the trace deleted (`del o`) before the break: the original
    frame no longer holds them while the eager call runs, so neither does this one (an object
    only they held dies before the call, as a `gc.collect()` there would find).
    `unshared_cells` and `made_by_resume`: see PyCodegen's attributes of those names."""
    call, location = _breaking_instruction(original, index)
    operands = OPERAND_BREAKS.get(call.opname)
    argc = call.arg or 0  # (a call's argument count; an operation's arg is not used)
    if operands is not None:
        below = len(stack) - operands[0]  # stack items under the instruction's operands
        assert below >= 0, call
    else:
        assert call.opname in CALL_OPNAMES and call.arg is not None, call
        below = len(stack) - (argc + 2)  # stack items under the call's NULL/callable slots
        if below < 0:
            unimplemented("graph-break", "a CALL without its NULL/callable slots")
    cg = PyCodegen({node: f"___out_{i}" for i, node in enumerate(graph_outputs)})
    cg.unshared_cells = unshared_cells or {}
    cg.made_by_resume = made_by_resume or {}
    _call_graph(cg, original, graph_fn, graph_inputs, graph_outputs)
    cg.resume_inputs = True
    temps = _into_temps(cg, local_values, unbound)
    kept = _keep_stack(cg, stack[:below], with_blocks, unbound)  # the stack under the call
    cg.resume_inputs = False  # the call's own slots: the eager call consumes them
    held = _push_held(cg, kept, with_blocks)
    call_slots = stack[below:]
    callable_slot = 1 if isinstance(call_slots[0], NullVariable) else 0  # else [method, self]
    if operands is None:
        _reads_the_frame(call_slots[callable_slot], call_slots[2:], kw_names)
    for i, vt in enumerate(call_slots):
        # callee(the callable), but not for a function defined in the frame: it is a new
        # object on every call, and a CompiledFunction (with its cache) is made for one
        # function object, so it runs eagerly (Dynamo compiles its frame, keyed by its code)
        if (
            callee is not None
            and operands is None
            and i == callable_slot
            and not isinstance(vt, NestedUserFunctionVariable)
        ):
            cg.load_function(callee)
            cg(vt)
            cg.call(1)
        else:
            cg(vt)
    cg.resume_inputs = True  # the state the resume function can read
    replay(cg)  # the eager call sees the state the traced code left
    for name in unbound:
        cg.emit(Instr("DELETE_FAST", name))
    handlers = [Label() for _ in with_blocks]
    inner = TryBegin(handlers[0], True, held) if with_blocks else None
    if inner is not None:  # the eager call runs inside the innermost block
        _begin_try(cg, inner, location)
    if operands is not None:  # the instruction itself, as the package decoded it
        items, pos = original_instrs(original, index)
        cg.emit(items[pos].copy())
    elif kw_names:
        cg.call_kw(kw_names, argc, location=location)
    else:
        cg.call(argc, location=location)
    if inner is not None:
        _place(cg, TryEnd(inner))
    results = [cg.store_temp()] if operands is None or operands[1] else []
    for _ in range(held):
        cg.pop_top()
    _call_resume(cg, original, resume, [*kept, *results, *temps], released=unbound)
    if with_blocks:
        _with_cleanups(cg, [depth for depth, _ in with_blocks], handlers, location)
    return (
        cg.code_object(original, flags=_flags(original), try_depths_given=bool(with_blocks)),
        cg.instructions,
    )


def _with_cleanups(cg: PyCodegen, depths: list[int], handlers: list[Label], location: Any) -> None:
    """The handlers of the `with` blocks around the eager call, innermost first, as CPython
    compiles a `with` statement: an exception calls the block's `__exit__(type, exc, tb)`
    (WITH_EXCEPT_START) and is raised again into the next block out, and so out of the frame.
    Only the default `TorchFunctionMode.__exit__` is restored (`with_contexts` in
    tracer/cache/resume.py); it never returns true, so the exception is never suppressed."""
    for i, (depth, handler) in enumerate(zip(depths, handlers, strict=True)):
        cleanup = Label()
        _place(cg, handler)  # [..., __exit__, lasti, exception]
        begin = TryBegin(cleanup, True, depth + 2)
        _begin_try(cg, begin, location)
        cg.emit(Instr("PUSH_EXC_INFO", location=location))
        cg.emit(Instr("WITH_EXCEPT_START", location=location))
        cg.emit(Instr("POP_TOP", location=location))
        cg.emit(Instr("RERAISE", 2, location=location))
        _place(cg, TryEnd(begin))
        _place(cg, cleanup)  # restore the exception handled before, raise into the next block
        outer = TryBegin(handlers[i + 1], True, depths[i + 1]) if i + 1 < len(depths) else None
        if outer is not None:
            _begin_try(cg, outer, location)
        cg.emit(Instr("COPY", 3, location=location))
        cg.emit(Instr("POP_EXCEPT", location=location))
        cg.emit(Instr("RERAISE", 1, location=location))
        if outer is not None:
            _place(cg, TryEnd(outer))


def _begin_try(cg: PyCodegen, begin: TryBegin, location: Any) -> None:
    """The start of a try region: its marker, then what the version needs before the first
    instruction it covers (3.13: a NOP, see `try_region_start`)."""
    _place(cg, begin)
    cg.instructions += try_region_start(location=location)


def _place(cg: PyCodegen, item: Label | TryBegin | TryEnd) -> None:
    """A label or a try-region marker, in the instruction list where it applies (the package
    turns the markers into the exception table)."""
    cg.instructions.append(item)  # type: ignore[arg-type]


def _call_resume(
    cg: PyCodegen,
    original: types.CodeType,
    resume: Any,
    args: list[str],
    released: Sequence[str] = (),
) -> None:
    """`return resume(*args)`, where `resume` is the resume function's CompiledFunction: its
    `target` chooses (or compiles) what runs, then that is called with the arguments, after
    this frame lets go of its locals, so that only the resume function holds what it is
    handed, as the original frame would. What it does not hand on is let go before `target`
    checks the guards: an object dropped there dies first, and its finalizer or a weak
    reference's callback may change what the guards read (test_weakref's callback count).
    `released`: locals deleted already (before the eager call, `break_code`)."""
    cg.null_before_callable()  # of the second call, whose callable the first call returns
    cg.load_function(resume.target)
    cg.release_locals(original, keep=[*args, *released])
    for name in args:
        cg.load_fast(name)
    cg.call(len(args))
    cg.null_after_callable()
    for name in args:
        cg.load_fast(name)
    cg.release_locals(original, only=args)
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
    with_blocks: WithBlocks = (),
    made_by_resume: dict[int, str] | None = None,
) -> tuple[types.CodeType, list[Instr]]:
    """The compiled frame of a break at a jump on a tensor's value (`if x.sum() > 0:`):
    the condition (on top of `stack`) is tested eagerly by the original kind of jump, and
    each way continues in its own resume function, `resumes` = (fall through, jump taken).
    Inside `with` blocks (as in `break_code`) the test runs inside them: the blocks' values
    are pushed back for their handlers, and each way drops them before it resumes."""
    jump, location = _breaking_instruction(original, index)
    assert jump.opname.startswith("POP_JUMP_"), jump
    *below, condition = stack
    cg = PyCodegen({node: f"___out_{i}" for i, node in enumerate(graph_outputs)})
    cg.resume_inputs = True  # all but the condition, a tensor
    cg.made_by_resume = made_by_resume or {}
    _call_graph(cg, original, graph_fn, graph_inputs, graph_outputs)
    kept = _keep_stack(cg, below, with_blocks)
    temps = kept + _into_temps(cg, local_values)
    replay(cg)
    held = _push_held(cg, kept, with_blocks)
    handlers = [Label() for _ in with_blocks]
    inner = TryBegin(handlers[0], True, held) if with_blocks else None
    if inner is not None:
        _begin_try(cg, inner, location)
    cg(condition)
    taken = Label()
    when = "FALSE" if "IF_FALSE" in jump.opname else "TRUE"
    cg.instructions += pop_jump_if_instrs(when, taken, location=location)
    if inner is not None:
        _place(cg, TryEnd(inner))
    for resume in resumes:
        for _ in range(held):
            cg.pop_top()
        _call_resume(cg, original, resume, temps)
        if resume is resumes[0]:
            _place(cg, taken)
    if with_blocks:
        _with_cleanups(cg, [depth for depth, _ in with_blocks], handlers, location)
    return (
        cg.code_object(original, flags=_flags(original), try_depths_given=bool(with_blocks)),
        cg.instructions,
    )
