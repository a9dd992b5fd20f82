"""Decoded CPython 3.11 instructions: what the translator steps through.

`dis` already folds CACHE entries away and gives jump targets as offsets; here they become
indices into the instruction list (`inst.target`), and the exception table becomes a lookup
from offset to handler, so the translator never does offset arithmetic.
"""

from __future__ import annotations

import bisect
import dataclasses
import dis
import operator
import types
import weakref
from itertools import repeat
from typing import Any, NamedTuple

JUMP_OPCODES = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


class Instruction(NamedTuple):
    """One instruction: `Instruction(12: LOAD_FAST x, line 5)`; `target` is an index.

    A named tuple, so `decode` builds them all with one C-level `map` of `tuple.__new__`
    rather than a Python-level initializer each: every inlined call decodes its callee once
    per trace, and the instructions are only ever read. (Its fields are all values the
    garbage collector can untrack it by: no per-code object in each instruction.)"""

    opcode: int
    opname: str
    arg: int | None
    argval: Any
    offset: int
    lineno: int | None
    target: int | None = None
    index: int = 0  # type: ignore[assignment]  # shadows tuple.index: the position is read more

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


# How an instruction's argval comes from its arg (the order of `dis`'s own tests). The first
# five are decoded inline; the rest are rarer and go through `_argval`.
(_NONE, _ARG, _LOCAL, _LOAD_CONST, _NAME, _GLOBAL, _CONST, _JABS, _JREL_FORWARD,
 _JREL_BACKWARD, _COMPARE, _FORMAT, _EXTENDED) = range(13)  # fmt: skip
_JUMP_KINDS = frozenset({_JABS, _JREL_FORWARD, _JREL_BACKWARD})


def _argval_kind(opcode: int) -> int:
    """How `dis` turns this opcode's arg into `argval`: its tests, in its own order."""
    deop = dis._deoptop(opcode)  # type: ignore[attr-defined]
    if deop < dis.HAVE_ARGUMENT:
        return _NONE
    if deop == dis.EXTENDED_ARG:
        return _EXTENDED
    if deop in dis.hasconst:
        return _LOAD_CONST if deop == dis.opmap["LOAD_CONST"] else _CONST
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
    return _ARG


# Per-opcode facts `dis.get_instructions` recomputes for every instruction, computed once.
_KIND = [_argval_kind(op) for op in range(256)]
_SIZE = [2 * (1 + dis._inline_cache_entries[dis._deoptop(op)]) for op in range(256)]  # type: ignore[attr-defined]
_INT_OVERFLOW: int = dis._INT_OVERFLOW  # type: ignore[attr-defined]
_OPNAME = dis.opname
_NEW_TUPLE = tuple.__new__
_OFFSET = operator.itemgetter(4)  # of a row: an Instruction's offset


def decode(code: types.CodeType) -> list[Instruction]:
    """The code's instructions, with jump targets turned into indices.

    The same instructions, args and argvals as `dis.get_instructions(code)` (a test compares
    them), read straight from `co_code`: `dis` also builds labels, reprs and positions for every
    instruction, which made decoding a fifth of the tracing time. Line numbers come from the
    `co_lines()` ranges (a few per line) rather than `co_positions()` (a tuple per code unit).
    Every inlined call decodes its callee once per trace, so the loop does as little as it can:
    the common argvals inline, one table lookup per opcode, each instruction a plain tuple
    until one C-level `map` makes them all Instructions (a named tuple built in the loop costs
    a call each), jump targets found afterwards by bisecting the offsets.
    """
    co_code = code.co_code
    consts, names, varname = code.co_consts, code.co_names, code._varname_from_oparg  # type: ignore[attr-defined]
    kinds, sizes, opnames = _KIND, _SIZE, _OPNAME
    decoded: list[tuple[Any, ...]] = []
    append = decoded.append
    jumps: list[int] = []  # indices of the jump instructions
    lines = code.co_lines()
    lineno: int | None = None
    line_end = 0  # where the current co_lines() range ends
    extended_arg = 0
    offset, end, index = 0, len(co_code), 0
    while offset < end:
        op = co_code[offset]
        while offset >= line_end:
            _start, line_end, line = next(lines)
            if line is not None:
                lineno = line
        kind = kinds[op]
        if kind == _NONE:
            arg = argval = None
        else:
            arg = co_code[offset + 1]
            if extended_arg:
                arg |= extended_arg
                extended_arg = 0
            if kind == _LOCAL:
                argval = varname(arg)
            elif kind == _LOAD_CONST:
                argval = consts[arg]
            elif kind == _NAME:
                argval = names[arg]
            elif kind == _ARG:
                argval = arg
            elif kind == _GLOBAL:
                argval = names[arg >> 1]
            else:
                argval = _argval(kind, arg, offset, names)
                if kind == _EXTENDED:
                    extended_arg = arg << 8
                    if extended_arg >= _INT_OVERFLOW:
                        extended_arg -= 2 * _INT_OVERFLOW
                elif kind in _JUMP_KINDS:
                    jumps.append(index)
        append((op, opnames[op], arg, argval, offset, lineno, None, index))
        index += 1
        offset += sizes[op]
    for i in jumps:  # a few per function: each rebuilt with its target
        row = decoded[i]
        found = bisect.bisect_left(decoded, row[3], key=_OFFSET)
        if found < index and decoded[found][4] == row[3]:
            decoded[i] = (*row[:6], found, i)
    return list(map(_NEW_TUPLE, repeat(Instruction), decoded))


# code object id -> (a weak reference to it, its decoded instructions); see `instructions_of`
_DECODED: dict[int, tuple[weakref.ref[types.CodeType], tuple[Instruction, ...]]] = {}


def instructions_of(code: types.CodeType) -> tuple[Instruction, ...]:
    """`decode(code)`, decoded once per code object for the life of the code object.

    Decoding is a pure function of the (immutable) code object, and the same functions are
    traced again and again: after `tracer.reset()`, on every recompile (a new shape, a failed
    guard), and for every helper inlined into several traced functions. Dynamo keeps the same
    kind of cache (`_cached_cleaned_instructions` in torch/_dynamo/bytecode_transformation.py,
    an `lru_cache` of 128 code objects that `torch._dynamo.reset()` leaves alone), and so does
    modetrace: `tracer.reset()` drops assumptions, and a decoded code object holds none.

    Keyed by `id(code)` rather than by the code object: hashing a code object hashes its
    bytecode, constants and names on every lookup. The entry holds the code only weakly, and
    its weak reference's callback drops the entry when the code object dies, before its id can
    be reused. The instructions are a tuple: every translator of the code shares them.
    """
    entry = _DECODED.get(id(code))
    if entry is not None and entry[0]() is code:
        return entry[1]
    instructions = tuple(decode(code))
    key = id(code)
    _DECODED[key] = (weakref.ref(code, lambda _ref: _DECODED.pop(key, None)), instructions)
    return instructions


def clear_decoded() -> None:
    """Forget every decoded code object (for measuring decode itself; never needed for
    soundness)."""
    _DECODED.clear()


def _argval(kind: int, arg: int, offset: int, names: tuple[str, ...]) -> Any:
    """`dis`'s argval for the rarer kinds of instruction argument."""
    if kind == _GLOBAL:
        return names[arg // 2]
    if kind == _JABS:
        return arg * 2
    if kind == _JREL_FORWARD:
        return offset + 2 + arg * 2
    if kind == _JREL_BACKWARD:
        return offset + 2 - arg * 2
    if kind == _COMPARE:
        return dis.cmp_op[arg]
    if kind == _FORMAT:
        converter = dis.FORMAT_VALUE_CONVERTERS[arg & 0x3][0]  # type: ignore[attr-defined]
        return (converter, bool(arg & 0x4))
    if kind == _CONST:  # KW_NAMES: dis leaves its argval unknown
        return dis.UNKNOWN  # type: ignore[attr-defined]
    return arg  # EXTENDED_ARG


def exception_table(code: types.CodeType) -> list[ExceptionTableEntry]:
    """The 3.11 exception table (zero-cost `try` blocks) as entries keyed by byte offset.
    Most traced functions have no `try` or `with`: their empty table is not parsed."""
    if not code.co_exceptiontable:
        return []
    parse = dis._parse_exception_table  # type: ignore[attr-defined]
    return [ExceptionTableEntry(e.start, e.end, e.target, e.depth, e.lasti) for e in parse(code)]
