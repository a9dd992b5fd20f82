"""Decoded CPython 3.11 instructions: what the translator steps through.

`dis` already folds CACHE entries away and gives jump targets as offsets; here they become
indices into the instruction list (`inst.target`), and the exception table becomes a lookup
from offset to handler, so the translator never does offset arithmetic.
"""

from __future__ import annotations

import dataclasses
import dis
import types
from typing import Any

JUMP_OPCODES = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


@dataclasses.dataclass(slots=True)
class Instruction:
    """One instruction: `Instruction(12: LOAD_FAST x, line 5)`; `target` is an index."""

    opcode: int
    opname: str
    arg: int | None
    argval: Any
    offset: int
    lineno: int | None
    target: int | None = None
    index: int = 0

    def __repr__(self) -> str:
        arg = "" if self.arg is None else f" {self.argval!r}"
        if isinstance(self.argval, str):
            arg = f" {self.argval}"
        line = f", line {self.lineno}" if self.lineno is not None else ""
        return f"Instruction({self.offset}: {self.opname}{arg}{line})"


@dataclasses.dataclass(frozen=True, slots=True)
class ExceptionTableEntry:
    """Instructions in [start, end) jump to `target` with the stack cut to `depth` on error."""

    start: int
    end: int
    target: int
    depth: int
    lasti: bool


_NO_ARG, _CONST, _GLOBAL, _NAME, _JABS, _JREL_FORWARD, _JREL_BACKWARD, _LOCAL, _COMPARE, _FORMAT = (
    range(10)
)


def _argval_kind(opcode: int) -> int:
    """How `dis` turns this opcode's arg into `argval`: its tests, in its own order."""
    deop = dis._deoptop(opcode)  # type: ignore[attr-defined]
    if deop in dis.hasconst:
        return _CONST
    if deop in dis.hasname:
        return _GLOBAL if deop == dis.opmap["LOAD_GLOBAL"] else _NAME
    if deop in dis.hasjabs:
        return _JABS
    if deop in dis.hasjrel:
        return _JREL_BACKWARD if "JUMP_BACKWARD" in dis.opname[deop] else _JREL_FORWARD
    if deop in dis.haslocal or deop in dis.hasfree:
        return _LOCAL
    if deop in dis.hascompare:
        return _COMPARE
    if deop == dis.opmap["FORMAT_VALUE"]:
        return _FORMAT
    return _NO_ARG


# Per-opcode facts `dis.get_instructions` recomputes for every instruction, computed once.
_KIND = [_argval_kind(op) for op in range(256)]
_CACHES = [dis._inline_cache_entries[dis._deoptop(op)] for op in range(256)]  # type: ignore[attr-defined]
_HAS_ARG = [dis._deoptop(op) >= dis.HAVE_ARGUMENT for op in range(256)]  # type: ignore[attr-defined]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
_LOAD_CONST = dis.opmap["LOAD_CONST"]
_INT_OVERFLOW: int = dis._INT_OVERFLOW  # type: ignore[attr-defined]
_OPNAME = dis.opname
_IS_JUMP = [op in JUMP_OPCODES for op in range(256)]


def decode(code: types.CodeType) -> list[Instruction]:
    """The code's instructions, with jump targets turned into indices.

    The same instructions, args and argvals as `dis.get_instructions(code)` (a test compares
    them), read straight from `co_code`: `dis` also builds labels, reprs and positions for every
    instruction, which made decoding a fifth of the tracing time. Line numbers come from the
    `co_lines()` ranges (a few per line) rather than `co_positions()` (a tuple per code unit);
    the most common argvals are looked up inline.
    """
    co_code = code.co_code
    consts, names, varname = code.co_consts, code.co_names, code._varname_from_oparg  # type: ignore[attr-defined]
    decoded: list[Instruction] = []
    jumps: list[Instruction] = []
    index_of: dict[int, int] = {}
    lines = code.co_lines()
    lineno: int | None = None
    line_end = 0  # where the current co_lines() range ends
    extended_arg = 0
    offset, end, index = 0, len(co_code), 0
    while offset < end:
        op = co_code[offset]
        arg: int | None = None
        argval: Any = None
        if _HAS_ARG[op]:
            arg = co_code[offset + 1] | extended_arg
            extended_arg = (arg << 8) if op == _EXTENDED_ARG else 0
            if extended_arg >= _INT_OVERFLOW:
                extended_arg -= 2 * _INT_OVERFLOW
            kind = _KIND[op]
            if kind == _LOCAL:
                argval = varname(arg)
            elif kind == _CONST and op == _LOAD_CONST:
                argval = consts[arg]
            elif kind == _NAME:
                argval = names[arg]
            else:
                argval = _argval(kind, op, arg, offset, consts, names, varname)
        else:
            extended_arg = 0
        while offset >= line_end:
            _start, line_end, line = next(lines)
            if line is not None:
                lineno = line
        index_of[offset] = index
        inst = Instruction(op, _OPNAME[op], arg, argval, offset, lineno, None, index)
        decoded.append(inst)
        if _IS_JUMP[op]:
            jumps.append(inst)
        index += 1
        offset += 2 * (1 + _CACHES[op])
    for inst in jumps:
        inst.target = index_of.get(inst.argval)
    return decoded


def _argval(
    kind: int,
    op: int,
    arg: int,
    offset: int,
    consts: tuple[Any, ...],
    names: tuple[str, ...],
    varname: Any,
) -> Any:
    """`dis`'s argval for one instruction with an argument."""
    if kind == _NO_ARG:
        return arg
    if kind == _CONST:
        return consts[arg] if op == _LOAD_CONST else dis.UNKNOWN  # type: ignore[attr-defined]
    if kind == _GLOBAL:
        return names[arg // 2]
    if kind == _NAME:
        return names[arg]
    if kind == _JABS:
        return arg * 2
    if kind == _JREL_FORWARD:
        return offset + 2 + arg * 2
    if kind == _JREL_BACKWARD:
        return offset + 2 - arg * 2
    if kind == _LOCAL:
        return varname(arg)
    if kind == _COMPARE:
        return dis.cmp_op[arg]
    converter = dis.FORMAT_VALUE_CONVERTERS[arg & 0x3][0]  # type: ignore[attr-defined]
    return (converter, bool(arg & 0x4))


def exception_table(code: types.CodeType) -> list[ExceptionTableEntry]:
    """The 3.11 exception table (zero-cost `try` blocks) as entries keyed by byte offset."""
    parse = dis._parse_exception_table  # type: ignore[attr-defined]
    return [ExceptionTableEntry(e.start, e.end, e.target, e.depth, e.lasti) for e in parse(code)]
