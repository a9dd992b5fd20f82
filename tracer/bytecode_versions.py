"""What differs between the bytecode of CPython 3.11, 3.12 and 3.13, in one place.

modetrace reads bytecode (the translator) and writes it (codegen). Both speak one vocabulary:
the opcodes of the running CPython, plus CPython's own pseudo-instruction LOAD_METHOD (and
LOAD_SUPER_METHOD), which 3.12's compiler still uses internally before folding it into
LOAD_ATTR's low bit. Every fact below is one such difference, named after what it means; the
translator's decode step (`tracer/translator/instructions.py`), a few handlers and the codegen
verbs (`tracer/codegen/pycodegen.py`) read them, and nothing else in modetrace asks which
Python is running. notes/python-versions.md lists every change and where it is handled.

Opcodes that exist only in some versions get a handler named after them (`RETURN_CONST`,
`TO_BOOL`, ...), in `tracer/translator/newer_opcodes.py`; a handler of an opcode the running
version lacks is simply never dispatched to.
"""

from __future__ import annotations

import dis
import sys
import types
from typing import Any

from bytecode import Instr
from bytecode.instr import CellVar, FreeVar

VERSION = sys.version_info[:2]
SUPPORTED = ((3, 11), (3, 12), (3, 13))

# -- opcode names of each version (the translator's handler names must be one of them) --------
ONLY_IN_311 = frozenset(
    {
        "ASYNC_GEN_WRAP", "IMPORT_STAR", "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP",
        "LIST_TO_TUPLE", "LOAD_CLASSDEREF", "POP_JUMP_BACKWARD_IF_FALSE",
        "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
        "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_NONE",
        "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_FORWARD_IF_TRUE", "PRECALL",
        "PREP_RERAISE_STAR", "PRINT_EXPR", "UNARY_POSITIVE",
    }
)  # fmt: skip
"""3.11 opcodes that 3.12 removed (most became CALL_INTRINSIC_1/2 or a direction-free jump)."""
ADDED_IN_312 = frozenset(
    {
        "BINARY_SLICE", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2", "CLEANUP_THROW", "END_FOR",
        "END_SEND", "LOAD_FAST_AND_CLEAR", "LOAD_FAST_CHECK", "LOAD_FROM_DICT_OR_DEREF",
        "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_LOCALS", "LOAD_SUPER_ATTR", "POP_JUMP_IF_FALSE",
        "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_TRUE", "RETURN_CONST",
        "STORE_SLICE", "LOAD_SUPER_METHOD", "LOAD_ZERO_SUPER_ATTR", "LOAD_ZERO_SUPER_METHOD",
    }
)  # fmt: skip
"""Opcodes (and pseudo-instructions the translator uses) that 3.12 added."""
ADDED_IN_313 = frozenset(
    {
        "CALL_KW", "CONVERT_VALUE", "EXIT_INIT_CHECK", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC",
        "LOAD_FAST_LOAD_FAST", "SET_FUNCTION_ATTRIBUTE", "STORE_FAST_LOAD_FAST",
        "STORE_FAST_STORE_FAST", "TO_BOOL",
    }
)  # fmt: skip
"""Opcodes that 3.13 added (it removed 3.12's FORMAT_VALUE and KW_NAMES)."""
KNOWN_OPNAMES = (
    frozenset(dis.opmap)
    | ONLY_IN_311
    | ADDED_IN_312
    | ADDED_IN_313
    | {
        "FORMAT_VALUE",
        "KW_NAMES",
    }
)
"""Every opcode name of a supported version: what a handler may be named after."""

NOT_IN_BYTECODE = frozenset(
    name
    for name, opcode in dis.opmap.items()
    if opcode >= 256
    or name.startswith("INSTRUMENTED_")
    or name in {"CACHE", "RESERVED", "INTERPRETER_EXIT", "ENTER_EXECUTOR", "EXIT_INIT_CHECK"}
)
"""Opcodes of this version that `dis.get_instructions` never shows in a function's code:
pseudo-instructions (the compiler's own), instrumented copies (sys.monitoring swaps them in
at run time), inline-cache slots and the interpreter's internal ones."""


# -- the call convention -----------------------------------------------------------------------
NULL_AFTER_CALLABLE = VERSION >= (3, 13)
"""A call's two bottom slots: 3.11 and 3.12 push [NULL, callable] (or [method, self]); 3.13
pushes [callable, NULL] (or [method, self]). LOAD_GLOBAL's and LOAD_ATTR's low bit push the
NULL in this order, and codegen loads a function to call in this order."""

PRECALL_BEFORE_CALL = VERSION < (3, 12)
"""3.11 emits PRECALL(argc) before every CALL(argc)."""

KW_NAMES_BEFORE_CALL = VERSION < (3, 13)
"""3.11 and 3.12 name a call's keywords with KW_NAMES(consti) before CALL; 3.13 pushes the
names tuple as the last stack item and calls CALL_KW."""

CALL_OPNAMES = frozenset({"CALL", "CALL_KW"})
"""The instructions that call a callable with its arguments on the stack (CALL_KW: 3.13, with
the keyword names tuple above them); a graph break at one resumes after it."""

OPERAND_BREAKS: dict[str, tuple[int, int]] = {
    "BINARY_SUBSCR": (2, 1),
    "BINARY_SLICE": (3, 1),  # 3.12 and 3.13: `x[a:b]`
    "STORE_SUBSCR": (3, 0),
    "STORE_SLICE": (4, 0),  # 3.12 and 3.13: `x[a:b] = v`
    "DELETE_SUBSCR": (2, 0),
    "BINARY_OP": (2, 1),
    "COMPARE_OP": (2, 1),
    "UNARY_NEGATIVE": (1, 1),
    "UNARY_INVERT": (1, 1),
    "STORE_ATTR": (2, 0),
}
"""Instructions that work on their operands alone, as (values they pop, values they push): they
read nothing but the stack, bind no name and do not jump. A graph break at one resumes as at a
call (Dynamo resumes after any instruction): the compiled frame runs the instruction itself on
the operands the trace rebuilt, and the resume function continues after it with its result."""

METHOD_BIT_IN_LOAD_ATTR = VERSION >= (3, 12)
"""3.12 folded LOAD_METHOD into LOAD_ATTR: the low bit of its argument asks for the method
form. The decode step turns such a LOAD_ATTR back into the LOAD_METHOD pseudo-instruction."""

CELLS_IN_FAST_LOCALS = VERSION >= (3, 13)
"""3.13 made LOAD_CLOSURE a pseudo-instruction: building a closure loads each cell with
LOAD_FAST (a cell variable's fast slot holds its cell). The decode step turns such a LOAD_FAST
back into LOAD_CLOSURE; 3.13's LOAD_FAST_LOAD_FAST handles both itself."""

FOR_ITER_LEAVES_ITERATOR = VERSION >= (3, 12)
"""An exhausted FOR_ITER: 3.11 pops the iterator and jumps past the loop; 3.12 and 3.13 jump
to END_FOR, which `dis` models as FOR_ITER pushing one more value and END_FOR popping it with
the iterator (3.13: END_FOR pops one, the POP_TOP after it the iterator). The translator does
what `dis` says, so its stack-effect checks hold on every version."""


SEND_LEAVES_RECEIVER = VERSION >= (3, 12)
"""`yield from` whose inner iterator is exhausted: 3.11's SEND pops it and pushes its return
value; 3.12's leaves it under the value for END_SEND to pop (FOR_ITER's change, for SEND)."""


def pop_jump_if_instrs(when: str, target: Any, **where: Any) -> list[Instr]:
    """Jump to `target` (a Label) if TOS is true ("TRUE") or false ("FALSE"), popping it.
    3.11 has a forward and a backward opcode of each (codegen's jumps go forward); 3.12 one,
    whose direction the assembler works out; 3.13's takes only an exact bool, so TO_BOOL comes
    first, as the compiler emits it."""
    if VERSION < (3, 12):
        return [Instr(f"POP_JUMP_FORWARD_IF_{when}", target, **where)]
    jump = Instr(f"POP_JUMP_IF_{when}", target, **where)
    return [Instr("TO_BOOL", **where), jump] if VERSION >= (3, 13) else [jump]


# -- decoding: each version's instructions in the translator's vocabulary ---------------------
def starts_line(inst: dis.Instruction) -> int | None:
    """The line `inst` starts, or None: 3.13 made `starts_line` a bool next to `line_number`."""
    if sys.version_info >= (3, 13):
        return inst.line_number if inst.starts_line else None
    return inst.starts_line


_LOAD_ATTR = dis.opmap["LOAD_ATTR"]
_LOAD_FAST = dis.opmap["LOAD_FAST"]
_LOAD_SUPER_ATTR = dis.opmap.get("LOAD_SUPER_ATTR", -1)


def vocabulary(inst: dis.Instruction, cells: frozenset[str]) -> tuple[int, str]:
    """The (opcode, opname) the translator dispatches `inst` on: its own, except that 3.12's
    LOAD_ATTR and LOAD_SUPER_ATTR with the method bit become the LOAD_METHOD and
    LOAD_SUPER_METHOD pseudo-instructions (their stack effects, which `dis` knows, match),
    and that 3.13's LOAD_FAST of a cell variable (`cells`: the code's cell and free
    variables), which pushes the cell itself to build a closure, is LOAD_CLOSURE again."""
    if METHOD_BIT_IN_LOAD_ATTR and inst.arg is not None and inst.arg & 1:
        if inst.opcode == _LOAD_ATTR:
            return dis.opmap["LOAD_METHOD"], "LOAD_METHOD"
        if inst.opcode == _LOAD_SUPER_ATTR:
            return dis.opmap["LOAD_SUPER_METHOD"], "LOAD_SUPER_METHOD"
    if CELLS_IN_FAST_LOCALS and inst.opcode == _LOAD_FAST and inst.argval in cells:
        return dis.opmap["LOAD_CLOSURE"], "LOAD_CLOSURE"
    return inst.opcode, inst.opname


def cell_names(code: types.CodeType) -> frozenset[str]:
    """The names whose fast-local slot holds a cell: `vocabulary`'s `cells`."""
    return frozenset(code.co_cellvars) | frozenset(code.co_freevars)


def is_implicit_handler(handler: list[tuple[str, int | None]]) -> bool:
    """Is `handler` ((opname, arg) from an exception handler's start to its RERAISE) one the
    compiler adds where the source has no `try`? 3.12 added three (the third is `yield from`'s
    CLEANUP_THROW): an inlined comprehension's
    (PEP 709), which puts back the locals it shadowed (`SWAP 2; POP_TOP; SWAP 2;
    STORE_FAST x; RERAISE`), and a generator's, around its whole body, which turns an
    escaping StopIteration into RuntimeError (`CALL_INTRINSIC_1 STOPITERATION_ERROR;
    RERAISE`, PEP 479)."""
    names = [name for name, _arg in handler]
    if names[:1] == ["CLEANUP_THROW"]:
        # `yield from`'s: a StopIteration that throw() into the inner iterator raised becomes
        # the value of the `yield from`, as 3.11's SEND protocol did without a handler
        return True
    if names[:2] == ["CALL_INTRINSIC_1", "RERAISE"]:
        arg = handler[0][1]
        descs = dis._intrinsic_1_descs  # type: ignore[attr-defined]
        return arg is not None and descs[arg] == "INTRINSIC_STOPITERATION_ERROR"
    stores = {"SWAP", "POP_TOP", "STORE_FAST", "STORE_FAST_STORE_FAST"}
    return (
        len(names) > 2
        and names[:2] == ["SWAP", "POP_TOP"]
        and names[-1] == "RERAISE"
        and all(name in stores for name in names[:-1])
    )


STACK_EFFECT_ADJUST: dict[str, Any] = (
    {
        # PRECALL/CALL split the stack effect between them in 3.11; our CALL does all the work.
        "PRECALL": lambda arg: 0,
        "CALL": lambda arg: (
            dis.stack_effect(dis.opmap["PRECALL"], arg) + dis.stack_effect(dis.opmap["CALL"], arg)
        ),
    }
    if VERSION < (3, 12)
    else {
        # 3.13's `dis` counts the value a generator is resumed with (None, which the POP_TOP
        # after RETURN_GENERATOR drops) at RETURN_GENERATOR; we push it when the frame resumes
        "RETURN_GENERATOR": lambda arg: 0,
    }
    if VERSION >= (3, 13)
    else {}
)
"""Handlers whose stack effect differs from `dis.stack_effect` by design, opname -> arg -> the
effect they have."""


# -- emitting: the instructions codegen writes for the same thing on each version -------------
def call_instrs(argc: int, **where: Any) -> list[Instr]:
    """Call with the callable, its NULL (or self) and `argc` arguments on the stack."""
    if PRECALL_BEFORE_CALL:
        return [Instr("PRECALL", argc, **where), Instr("CALL", argc, **where)]
    return [Instr("CALL", argc, **where)]


def kw_call_instrs(kw_names: tuple[str, ...], argc: int, **where: Any) -> list[Instr]:
    """A call whose last len(kw_names) arguments are keywords by these names."""
    if KW_NAMES_BEFORE_CALL:
        return [Instr("KW_NAMES", kw_names, **where), *call_instrs(argc, **where)]
    return [Instr("LOAD_CONST", kw_names, **where), Instr("CALL_KW", argc, **where)]


def load_attr_instr(name: str, *, method: bool = False) -> Instr:
    """`TOS.name`; with `method`, the attribute with a NULL (or the unbound method and self)
    for a call: 3.11's LOAD_METHOD, 3.12's LOAD_ATTR with the low bit."""
    if not METHOD_BIT_IN_LOAD_ATTR:
        return Instr("LOAD_METHOD" if method else "LOAD_ATTR", name)
    return Instr("LOAD_ATTR", (method, name))


def load_cell_instr(var: CellVar | FreeVar, **where: Any) -> Instr:
    """Push the cell itself of a cell or free variable (to build a closure): LOAD_CLOSURE,
    which 3.13 made a pseudo-instruction for a LOAD_FAST of the cell's slot."""
    return Instr("LOAD_FAST" if CELLS_IN_FAST_LOCALS else "LOAD_CLOSURE", var, **where)


def make_function_instrs(flags: int, **where: Any) -> list[Instr]:
    """A function of the code object on top of the stack, with the parts `flags` names pushed
    below it in this order: positional defaults (1), keyword defaults (2), annotations (4),
    closure (8). 3.13's MAKE_FUNCTION takes the code alone, and SET_FUNCTION_ATTRIBUTE then
    sets each part, the last pushed first."""
    if VERSION < (3, 13):
        return [Instr("MAKE_FUNCTION", flags, **where)]
    parts = [flag for flag in (8, 4, 2, 1) if flags & flag]
    return [
        Instr("MAKE_FUNCTION", **where),
        *(Instr("SET_FUNCTION_ATTRIBUTE", flag, **where) for flag in parts),
    ]


SUPERINSTRUCTIONS = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
}
"""3.13's instructions on two fast locals, each a 4-bit index of its oparg: the two simple
instructions each does, in order (the first name is the high nibble's)."""


def split_superinstruction(item: Any) -> list[Any]:
    """`item` as the simple instructions it does, if it is a superinstruction of the `bytecode`
    package's (arg: the two names); else `[item]`. Code made again with other locals (a resume
    function, whose parameters come first) may put a local past index 15, which a nibble can't
    hold: the package then writes a wrong oparg, and the instruction reads other locals."""
    ops = SUPERINSTRUCTIONS.get(getattr(item, "name", ""))
    if ops is None or not isinstance(item, Instr) or not isinstance(item.arg, tuple):
        return [item]
    names: tuple[Any, ...] = item.arg
    return [Instr(op, name, location=item.location) for op, name in zip(ops, names, strict=True)]


# -- what an instruction does to the frame's fast locals (for liveness analyses) --------------
_LOCAL_OPS: dict[str, tuple[str, ...]] = {
    "LOAD_FAST": ("read",),
    "LOAD_FAST_CHECK": ("read",),  # 3.12
    "LOAD_FAST_AND_CLEAR": ("read",),  # 3.12: saved and put back around a comprehension
    "DELETE_FAST": ("read",),  # raises UnboundLocalError on an unbound local: needs it
    "STORE_FAST": ("write",),
    "LOAD_FAST_LOAD_FAST": ("read", "read"),  # 3.13: argval is both names
    "STORE_FAST_STORE_FAST": ("write", "write"),  # 3.13
    "STORE_FAST_LOAD_FAST": ("write", "read"),  # 3.13
}


def fast_local_accesses(opname: str, argval: Any) -> list[tuple[str, str]]:
    """("read" or "write", name) for each fast local `opname` touches, in the order it does;
    3.13's superinstructions touch two, their argval naming both."""
    ops = _LOCAL_OPS.get(opname)
    if ops is None:
        return []
    names = argval if len(ops) == 2 else (argval,)
    return list(zip(ops, names, strict=True))


HANDLER_FOUND_BEFORE_A_CALLS_OFFSET = VERSION >= (3, 13)
"""An exception that a Python function raises returns to its caller's frame: 3.13 looks the
caller's handler up one code unit before the CALL (or other instruction) that called it, so a
try region beginning with that CALL would not catch it. CPython's compiler never begins a
region with a call; codegen begins each of its regions with a NOP (`try_region_start`)."""


def try_region_start(**where: Any) -> list[Instr]:
    """The instructions that begin a try region, right after its TryBegin."""
    return [Instr("NOP", **where)] if HANDLER_FOUND_BEFORE_A_CALLS_OFFSET else []


# -- C builtins modetrace writes in Python (variables/polyfills), where their algorithm changed --
SORT_DESCENDING_RUNS_HOLD_EQUAL_KEYS = VERSION >= (3, 13)
"""How `list.sort` finds its first run, and so which keys it compares (a user `__lt__` sees
each comparison): up to 3.12 a descending run is strictly descending; 3.13 lets one hold equal
neighbours, which it keeps in their order (`polyfills.sort_small` does either)."""


NO_FALL_THROUGH = frozenset(
    {
        "RETURN_VALUE",
        "RETURN_CONST",  # 3.12
        "RAISE_VARARGS",
        "RERAISE",
        "JUMP_FORWARD",
        "JUMP_BACKWARD",
        "JUMP_BACKWARD_NO_INTERRUPT",
    }
)
"""Instructions after which control never reaches the next instruction."""
