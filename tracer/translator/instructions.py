"""Decoded CPython instructions (3.11, 3.12 or 3.13): what the translator steps through.

`dis` already folds CACHE entries away and gives jump targets as offsets; here they become
indices into the instruction list (`inst.target`), and the exception table becomes a lookup
from offset to handler, so the translator never does offset arithmetic. Decoding also puts
each version's instructions into the translator's vocabulary (`bytecode_versions.vocabulary`):
the few places where the same opcode means different things live there.
"""

from __future__ import annotations

import dataclasses
import dis
import types
import weakref
from typing import Any

from tracer.bytecode_versions import cell_names, starts_line, vocabulary

JUMP_OPCODES = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


@dataclasses.dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction: `Instruction(12: LOAD_FAST x, line 5)`; `target` is an index."""

    opcode: int
    """What the translator dispatches on: the real opcode, or the pseudo-instruction the decode
    step put in its place (LOAD_METHOD for 3.12's LOAD_ATTR with the method bit)."""
    opname: str
    arg: int | None
    argval: Any
    offset: int
    lineno: int | None
    """The line of this instruction, or of the last one before it that has a line."""
    target: int | None = None
    """A jump's target, as an index into the instruction list."""
    index: int = 0
    """This instruction's position in the list."""

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


def decode(code: types.CodeType) -> list[Instruction]:
    """The code's instructions as `dis.get_instructions` gives them, with jump targets turned
    into indices and each instruction's line carried forward from the last line start."""
    raw = list(dis.get_instructions(code))
    index_of = {inst.offset: i for i, inst in enumerate(raw)}
    lineno: int | None = None
    cells = cell_names(code)
    decoded = []
    for i, inst in enumerate(raw):
        line = starts_line(inst)
        if line is not None:
            lineno = line
        target = index_of.get(inst.argval) if inst.opcode in JUMP_OPCODES else None
        opcode, opname = vocabulary(inst, cells)
        decoded.append(
            Instruction(opcode, opname, inst.arg, inst.argval, inst.offset, lineno, target, i)
        )
    return decoded


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


def exception_table(code: types.CodeType) -> list[ExceptionTableEntry]:
    """The exception table (zero-cost `try` blocks, 3.11 on) as entries keyed by byte offset.
    Most traced functions have no `try` or `with`: their empty table is not parsed."""
    if not code.co_exceptiontable:
        return []
    parse = dis._parse_exception_table  # type: ignore[attr-defined]
    return [ExceptionTableEntry(e.start, e.end, e.target, e.depth, e.lasti) for e in parse(code)]
