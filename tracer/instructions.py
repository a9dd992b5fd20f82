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


def decode(code: types.CodeType) -> list[Instruction]:
    """The code's instructions, with jump targets turned into indices."""
    raw = list(dis.get_instructions(code))
    index_of = {inst.offset: i for i, inst in enumerate(raw)}
    lineno: int | None = None
    decoded = []
    for i, inst in enumerate(raw):
        if inst.positions is not None and inst.positions.lineno is not None:
            lineno = inst.positions.lineno
        target = index_of.get(inst.argval) if inst.opcode in JUMP_OPCODES else None
        decoded.append(
            Instruction(
                inst.opcode, inst.opname, inst.arg, inst.argval, inst.offset, lineno, target, i
            )
        )
    return decoded


def exception_table(code: types.CodeType) -> list[ExceptionTableEntry]:
    """The 3.11 exception table (zero-cost `try` blocks) as entries keyed by byte offset."""
    parse = dis._parse_exception_table  # type: ignore[attr-defined]
    return [ExceptionTableEntry(e.start, e.end, e.target, e.depth, e.lasti) for e in parse(code)]
