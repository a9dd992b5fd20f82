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
from collections.abc import Callable
from typing import Any, TypeVar

from tracer.bytecode_versions import cell_names, starts_line, vocabulary

T = TypeVar("T")

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


PerCode = dict[int, tuple[weakref.ref[types.CodeType], Any]]
"""A cache of something made from a code object: id(code) -> (a weak reference to the code, the
thing made); see `per_code`."""

_DECODED: PerCode = {}
"""code object id -> its decoded instructions; see `instructions_of`."""


def per_code(cache: PerCode, code: types.CodeType, make: Callable[[types.CodeType], T]) -> T:
    """`make(code)`, made once per code object for the life of the code object and kept in
    `cache`.

    Keyed by `id(code)` rather than by the code object, for two reasons. Code objects compare
    equal whatever their `co_filename` and `co_qualname`, and so do the code objects among
    their constants (a comprehension, a nested function): keyed by equality, the second of
    two equal functions from different files would get what was made from the first, with
    the first one's nested code in it, whose frames name the first file (tests/resume/
    test_resume_same_code_other_file.py). And hashing a code object hashes its bytecode,
    constants and names on every lookup. The entry holds the code only weakly, and its weak
    reference's callback drops the entry when the code object dies, before its id can be
    reused."""
    entry = cache.get(id(code))
    if entry is not None and entry[0]() is code:
        made: T = entry[1]
        return made
    made = make(code)
    key = id(code)
    cache[key] = (weakref.ref(code, lambda _ref: cache.pop(key, None)), made)
    return made


def instructions_of(code: types.CodeType) -> tuple[Instruction, ...]:
    """`decode(code)`, decoded once per code object for the life of the code object
    (`per_code`).

    Decoding is a pure function of the (immutable) code object, and the same functions are
    traced again and again: after `tracer.reset()`, on every recompile (a new shape, a failed
    guard), and for every helper inlined into several traced functions. Dynamo keeps the same
    kind of cache (`_cached_cleaned_instructions` in torch/_dynamo/bytecode_transformation.py,
    an `lru_cache` of 128 code objects that `torch._dynamo.reset()` leaves alone), and so does
    modetrace: `tracer.reset()` drops assumptions, and a decoded code object holds none. The
    instructions are a tuple: every translator of the code shares them.
    """
    return per_code(_DECODED, code, lambda c: tuple(decode(c)))


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
