"""Decoded CPython 3.11 instructions: what the translator steps through.

`dis` already folds CACHE entries away and gives jump targets as offsets; here they become
indices into the instruction list (`inst.target`), and the exception table becomes a lookup
from offset to handler, so the translator never does offset arithmetic.
"""

from __future__ import annotations

import bisect
import dataclasses
import dis
import itertools
import operator
import types
from collections.abc import Callable
from typing import Any, NamedTuple

JUMP_OPCODES = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


class Instruction(NamedTuple):
    """One instruction: `Instruction(12: LOAD_FAST x, line 5)`; `target` is an index.

    A named tuple, so `decode` builds each one with `tuple.__new__` (C) rather than a
    Python-level initializer: every inlined call decodes its callee once per trace, and the
    instructions are only ever read."""

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
_OFFSET = operator.attrgetter("offset")
_EXTENDED_ARG: int = dis.EXTENDED_ARG
_TWICE = (2).__mul__
_NO_ARG: Callable[[int], None] = dict[int, None]().get  # a C callable: None for any arg
"""`decode`'s arg (None for an opcode without one) and argval by kind: C callables only, so
that `map` computes a whole column without a Python-level frame per instruction."""
_ARG_OF_KIND: list[Callable[[int], int | None]] = [
    _NO_ARG if k == _NONE else int for k in range(13)
]
_RARE_PLACEHOLDERS = (_NO_ARG,) * (13 - 6)
_RARE_KIND = [k not in (_NONE, _ARG, _LOCAL, _LOAD_CONST, _NAME, _GLOBAL) for k in range(13)]


def decode(code: types.CodeType) -> list[Instruction]:
    """The code's instructions, with jump targets turned into indices.

    The same instructions, args and argvals as `dis.get_instructions(code)` (a test compares
    them), read straight from `co_code`: `dis` also builds labels, reprs and positions for every
    instruction, which made decoding a fifth of the tracing time. Every inlined call decodes its
    callee once per trace, and a long function has hundreds of instructions, so the fields are
    computed column by column with C-level `map`s rather than one Python-level step per
    instruction: a code unit whose opcode is not CACHE (0) starts an instruction; each kind of
    argument has a C callable that turns the arg into the argval (`co_consts.__getitem__`, ...);
    the rare kinds (jumps, comparisons, FORMAT_VALUE, KW_NAMES) are patched afterwards. Line
    numbers come from the `co_lines()` ranges (a few per line). Code with EXTENDED_ARG (an arg
    spread over several units) takes the one-instruction-at-a-time loop, `_decode_stepwise`.
    """
    co_code = code.co_code
    ops = co_code[0::2]
    if _EXTENDED_ARG in ops:
        return _decode_stepwise(code)
    starts = list(itertools.compress(range(len(ops)), ops))  # unit indices of instructions
    opcodes = bytes(map(ops.__getitem__, starts))
    kinds = list(map(_KIND.__getitem__, opcodes))
    raw_args = map(co_code[1::2].__getitem__, starts)
    args = list(map(operator.call, map(_ARG_OF_KIND.__getitem__, kinds), raw_args))
    names = code.co_names
    argval_of_kind = (
        _NO_ARG,
        int,
        code._varname_from_oparg,  # type: ignore[attr-defined]
        code.co_consts.__getitem__,
        names.__getitem__,
        # LOAD_GLOBAL's arg is twice the name's index (plus the push-NULL bit)
        tuple(itertools.chain.from_iterable(zip(names, names, strict=True))).__getitem__,
        *_RARE_PLACEHOLDERS,  # the rare kinds, patched below
    )
    argvals = list(map(operator.call, map(argval_of_kind.__getitem__, kinds), args))
    offsets = list(map(_TWICE, starts))
    unit_lines: list[int | None] = []
    lineno: int | None = None
    for start, end, line in code.co_lines():
        if line is not None:
            lineno = line
        unit_lines += [lineno] * ((end - start) >> 1)
    count = len(starts)
    decoded = list(
        map(
            _NEW_TUPLE,
            itertools.repeat(Instruction, count),
            zip(
                opcodes,
                map(_OPNAME.__getitem__, opcodes),
                args,
                argvals,
                offsets,
                map(unit_lines.__getitem__, starts),
                itertools.repeat(None, count),
                range(count),
                strict=True,
            ),
        )
    )
    rare = list(itertools.compress(range(count), map(_RARE_KIND.__getitem__, kinds)))
    if rare:
        index_of = dict(zip(offsets, range(count), strict=True))
        for i in rare:
            inst = decoded[i]
            kind = kinds[i]
            argval = _argval(kind, inst.arg, inst.offset, names)  # type: ignore[arg-type]
            target = index_of.get(argval) if kind in _JUMP_KINDS else None
            decoded[i] = _NEW_TUPLE(Instruction, (*inst[:3], argval, *inst[4:6], target, i))
    return decoded


def _decode_stepwise(code: types.CodeType) -> list[Instruction]:
    """`decode` one instruction at a time, for code with EXTENDED_ARG."""
    co_code = code.co_code
    consts, names, varname = code.co_consts, code.co_names, code._varname_from_oparg  # type: ignore[attr-defined]
    kinds, sizes, opnames, new, cls = _KIND, _SIZE, _OPNAME, _NEW_TUPLE, Instruction
    decoded: list[Instruction] = []
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
        append(new(cls, (op, opnames[op], arg, argval, offset, lineno, None, index)))
        index += 1
        offset += sizes[op]
    for i in jumps:  # a few per function: each rebuilt with its target
        inst = decoded[i]
        found = bisect.bisect_left(decoded, inst.argval, key=_OFFSET)
        if found < index and decoded[found].offset == inst.argval:
            decoded[i] = new(cls, (*inst[:6], found, i))
    return decoded


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
