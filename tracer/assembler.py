"""A small CPython 3.11 assembler for the straight-line code that PyCodegen emits.

PyCodegen's output has no jumps, no exception table and no cell variables, so turning its
instructions into a code object needs much less than a general assembler: look up each
argument's index (constant, name, local or free variable), prefix large arguments with
EXTENDED_ARG, follow each opcode with its inline CACHE entries, and write the location table.
The `bytecode` package did this before, but through per-instruction validation and a general
conversion that cost more than the rest of codegen; `tests/tracer/test_assembler.py` checks
that both produce identical code objects.
"""

from __future__ import annotations

import dis
import marshal
import types
from itertools import count
from typing import Any, Final, NamedTuple

_CACHE_ENTRIES: Final[list[int]] = dis._inline_cache_entries  # type: ignore[attr-defined]
"""How many CACHE code units follow each opcode (CPython's own table, indexed by opcode)."""
_EXTENDED_ARG: Final = dis.opmap["EXTENDED_ARG"]
_HEADER: Final = 0x80 | (13 << 3)
"""First byte of a location-table entry of kind 13, "line number only", before its length
(CPython's Objects/locations.md)."""
_FULL_ENTRY: Final = bytes((_HEADER | 7, 0))
"""An entry of eight code units on the same line."""
_BY_IDENTITY: Final = frozenset(
    {types.FunctionType, types.BuiltinFunctionType, types.MethodType, type, types.ModuleType}
)
"""Constant types that marshal cannot write: codegen loads functions, classes and builtins."""
# How an instruction's argument becomes its oparg.
_INT, _CONST, _LOCAL, _NAME, _GLOBAL, _FREE, _JUMP = range(7)


def _argument_kind(opcode: int) -> int:
    if opcode in dis.hasjrel or opcode in dis.hasjabs:
        return _JUMP
    if opcode in dis.hasconst:
        return _CONST
    if opcode in dis.haslocal:
        return _LOCAL
    if opcode == dis.opmap["LOAD_GLOBAL"]:
        return _GLOBAL
    if opcode in dis.hasname:
        return _NAME
    if opcode in dis.hasfree:
        return _FREE
    return _INT


_OPCODES: Final[dict[str, tuple[int, int]]] = {
    name: (opcode, _argument_kind(opcode)) for name, opcode in dis.opmap.items()
}
"""name -> (opcode, argument kind)."""
_LOCAL_OPS: Final = frozenset(name for name, (_, kind) in _OPCODES.items() if kind == _LOCAL)
_CACHES: Final = [bytes(2 * entries) for entries in _CACHE_ENTRIES]
"""opcode -> the zeroed CACHE units that follow it."""


class _Encodings(dict[int, list[bytes]]):
    """opcode -> the bytes of that instruction for each oparg 0-255, CACHE units included:
    appending an instruction is one `+=`. A table of CPython's encoding, filled per opcode on
    first use; it holds nothing about any compiled function."""

    def __missing__(self, opcode: int) -> list[bytes]:
        caches = bytes(2 * _CACHE_ENTRIES[opcode])
        row = self[opcode] = [bytes((opcode, arg)) + caches for arg in range(256)]
        return row

    def __repr__(self) -> str:
        return f"<instruction encodings of {len(self)} opcodes>"


ENCODED: Final = _Encodings()
"""Shared with tracer.bytecode_writer: `ENCODED[opcode][oparg]` for opargs below 256."""


class _Counted(dict[str, list[tuple["Instr", bytes]]]):
    """name -> (the Instr, its bytes) for each oparg 0-255 of an instruction whose argument is
    a count (CALL, BUILD_LIST, ...) or that has none (row of one, its Instr's arg None).
    Constants like ENCODED's, filled per name on first use: codegen appends them as they
    are, and nothing in them is about a compiled function."""

    def __missing__(self, name: str) -> list[tuple[Instr, bytes]]:
        opcode = dis.opmap[name]
        if opcode < dis.HAVE_ARGUMENT:
            row = [(Instr(name), ENCODED[opcode][0])]
        else:
            row = [(Instr(name, arg), ENCODED[opcode][arg]) for arg in range(256)]
        self[name] = row
        return row

    def __repr__(self) -> str:
        return f"<counted instructions of {len(self)} opcodes>"


class FreeVar(NamedTuple):
    """The argument of LOAD_DEREF/STORE_DEREF: a free variable of the compiled function."""

    name: str

    def __repr__(self) -> str:
        return f"<FreeVar {self.name!r}>"


class Instr(NamedTuple):
    """One instruction by name, with its argument as a value rather than an index.

    The argument is the constant (LOAD_CONST), the name (LOAD_ATTR, STORE_GLOBAL, ...), the
    local's name (LOAD_FAST), a FreeVar (LOAD_DEREF), `(push_null, name)` for LOAD_GLOBAL, an
    int for counted opcodes (CALL, BUILD_TUPLE, ...), or None. `lineno` is the source line the
    instruction reports; None continues the previous instruction's (the `def` line at first).
    A plain tuple, so emitting one costs no Python-level work; `build_code` checks the names.
    """

    name: str
    arg: Any = None
    lineno: int | None = None


COUNTED: Final = _Counted()
"""`COUNTED[name][oparg]`: (Instr, bytes) of a counted or argument-free instruction."""


def const_key(value: Any) -> bytes | tuple[type, int]:
    """When two constants may share a `co_consts` slot: same marshalled form (so 1, 1.0, True,
    0.0 and -0.0 stay apart), or, for values marshal cannot write, the very same object."""
    if type(value) in _BY_IDENTITY:  # marshal would refuse them anyway, by raising
        return (type(value), id(value))
    try:
        return marshal.dumps(value)
    except ValueError:
        return (type(value), id(value))


def build_code(
    instructions: list[Instr],
    template: types.CodeType,
    *,
    argnames: tuple[str, ...],
    flags: int,
    stacksize: int,
) -> types.CodeType:
    """A code object running `instructions`, with `template`'s signature, names and line.

    `argnames` are the parameters (the first locals); the other locals are numbered in order of
    first use, like the constants and names. Free variables are `template`'s own.

    The general path: `Assembly` encodes as codegen emits, and comes here only for code that
    reads or writes a free variable (whose index follows every local, so is known at the end).
    """
    if not instructions:
        raise ValueError("no instructions to assemble")
    freevars = template.co_freevars
    # Free variables come after all locals in the frame (there are no cell variables).
    n_locals = (
        len(argnames) + len({a for n, a, _ in instructions if n in _LOCAL_OPS} - set(argnames))
        if freevars
        else 0
    )
    assembly = Assembly(argnames)
    add = assembly.add
    for instr in instructions:
        if add(instr):
            name, arg, _lineno = instr
            oparg = n_locals + freevars.index(arg.name)
            assembly.append(_OPCODES[name][0], oparg)
    return assembly.finished(template, flags, stacksize)


class Assembly:
    """Straight-line code assembled while it is emitted: each instruction's bytes are appended
    as its argument is numbered (constants, names and locals in order of first use).

    `instructions` keeps the `Instr` list, which the cache entry lists and the tests compare
    with the `bytecode` package. PyCodegen's verbs append to both and keep each local's,
    name's and constant's encoded bytes for this code object (one dict lookup on a repeat).
    An instruction naming a free variable cannot be encoded before every local is known:
    `code_object` then assembles the list again through `build_code`.
    """

    def __init__(self, argnames: tuple[str, ...] = ()) -> None:
        self.instructions: list[Instr] = []
        self.argnames = argnames
        self.code = bytearray()
        self.consts: list[Any] = []
        self.const_slots: dict[Any, int] = {}
        self.names: dict[str, int] = {}
        self.varnames: dict[str, int] = dict(zip(argnames, count()))
        self.lines: list[tuple[int, int | None]] = [(0, None)]  # (offset, line from there on)
        self.has_free = False

    def __repr__(self) -> str:
        return f"<Assembly of {len(self.instructions)} instructions, {len(self.code)} bytes>"

    def append(self, opcode: int, oparg: int) -> None:
        """One instruction's bytes."""
        self.code += encoded(opcode, oparg)

    def local_slot(self, name: str) -> int:
        varnames = self.varnames
        return varnames.setdefault(name, len(varnames))

    def name_slot(self, name: str) -> int:
        names = self.names
        return names.setdefault(name, len(names))

    def const_slot(self, value: Any) -> int:
        slot = self.const_slots.setdefault(const_key(value), len(self.consts))
        if slot == len(self.consts):
            self.consts.append(value)
        return slot

    def add(self, instr: Instr) -> bool:
        """Append `instr` and its bytes; True (and no bytes) for a free variable's."""
        name, arg, lineno = instr
        found = _OPCODES.get(name)
        if found is None:
            raise ValueError(f"unknown opcode {name!r}")
        self.instructions.append(instr)
        opcode, kind = found
        if lineno is not None:
            self.lines.append((len(self.code), lineno))
        if kind == _INT:
            oparg = 0 if arg is None else arg
        elif kind == _LOCAL:
            oparg = self.local_slot(arg)
        elif kind == _CONST:
            oparg = self.const_slot(arg)
        elif kind == _GLOBAL:
            oparg = self.name_slot(arg[1]) << 1 | bool(arg[0])
        elif kind == _NAME:
            oparg = self.name_slot(arg)
        elif kind == _FREE:
            self.has_free = True
            return True
        else:
            raise ValueError("the straight-line assembler has no jumps")
        self.code += encoded(opcode, oparg)
        return False

    def code_object(
        self, template: types.CodeType, *, flags: int, stacksize: int
    ) -> types.CodeType:
        """The code object, with `template`'s signature, names, line and free variables."""
        if self.has_free:
            return build_code(
                self.instructions, template, argnames=self.argnames, flags=flags,
                stacksize=stacksize,
            )  # fmt: skip
        if not self.instructions:
            raise ValueError("no instructions to assemble")
        return self.finished(template, flags, stacksize)

    def finished(self, template: types.CodeType, flags: int, stacksize: int) -> types.CodeType:
        """The code object of the bytes appended so far."""
        code = bytes(self.code)
        lines = self.lines
        return types.CodeType(
            template.co_argcount,
            template.co_posonlyargcount,
            template.co_kwonlyargcount,
            len(self.varnames),
            stacksize,
            flags,
            code,
            tuple(self.consts),
            tuple(self.names),
            tuple(self.varnames),
            template.co_filename,
            template.co_name,
            template.co_qualname,
            template.co_firstlineno,
            _line_table(lines, len(code), template.co_firstlineno)
            if len(lines) > 1
            else _def_line_table(len(code)),
            b"",  # no exception table: nothing is caught
            template.co_freevars,
            (),
        )


def encoded(opcode: int, oparg: int) -> bytes:
    """The bytes of one instruction, EXTENDED_ARG prefixes and CACHE units included."""
    if oparg > 0xFF:
        return _extended_args(oparg) + bytes((opcode, oparg & 0xFF)) + _CACHES[opcode]
    return ENCODED[opcode][oparg]


def _extended_args(arg: int) -> bytes:
    """The EXTENDED_ARG prefixes carrying the bits of `arg` above its low byte."""
    prefix = bytearray()
    for shift in (24, 16, 8):
        if arg >> shift:
            prefix += bytes((_EXTENDED_ARG, (arg >> shift) & 0xFF))
    return bytes(prefix)


def _line_table(lines: list[tuple[int, int | None]], end: int, first_lineno: int) -> bytes:
    """`co_linetable`: line-number-only entries, each covering at most 8 code units.

    `lines` lists where each instruction naming a line starts (None: the def line). A run on
    the def line and a run that names the def line explicitly get separate entries even when
    adjacent: they read the same, and the bytes match what the `bytecode` package wrote.
    """
    if len(lines) == 1:  # everything on the def line (the usual case)
        return _def_line_table(end)
    table = bytearray()
    previous = first_lineno
    runs = [(lines[i][1], lines[i + 1][0] - lines[i][0]) for i in range(len(lines) - 1)]
    runs.append((lines[-1][1], end - lines[-1][0]))
    for key, size_bytes in _merge_runs(runs) if len(runs) > 1 else runs:
        line = first_lineno if key is None else key
        size = size_bytes // 2
        table.append(_HEADER | (min(size, 8) - 1))
        table += signed_varint(line - previous) if line != previous else b"\0"
        previous = line
        full, rest = divmod(max(size - 8, 0), 8)  # the same line goes on: delta 0
        table += bytes((_HEADER | 7, 0)) * full
        if rest:
            table += bytes((_HEADER | (rest - 1), 0))
    return bytes(table)


def _def_line_table(end: int) -> bytes:
    """`co_linetable` of code that is all on the def line: 8-unit entries of line delta 0."""
    full, rest = divmod(end >> 1, 8)
    return _FULL_ENTRY * full + (bytes((_HEADER | (rest - 1), 0)) if rest else b"")


def _merge_runs(runs: list[tuple[int | None, int]]) -> list[tuple[int | None, int]]:
    """Join adjacent runs on the same line key; drop empty ones."""
    merged: list[tuple[int | None, int]] = []
    for key, size in runs:
        if not size:
            continue
        if merged and merged[-1][0] == key:
            merged[-1] = (key, merged[-1][1] + size)
        else:
            merged.append((key, size))
    return merged


def signed_varint(value: int) -> bytes:
    """CPython's location-table signed varint: sign in the low bit, then 6-bit chunks."""
    unsigned = ((-value) << 1) | 1 if value < 0 else value << 1
    out = bytearray()
    while True:
        chunk = unsigned & 0x3F
        unsigned >>= 6
        out.append(chunk | 0x40 if unsigned else chunk)
        if not unsigned:
            return bytes(out)
