"""A small CPython 3.11 bytecode writer for generated functions with forward jumps and `try`.

The dispatcher (tracer.dispatch_emit) is straight-line tests that jump forward to a fail label,
inside `try` blocks whose handler catches `Exception`. Compiling its text costs ~2.7 us per
instruction; appending opcode and oparg bytes here, with constants, names and locals resolved
through dicts as they come, costs a fraction of that. What a general assembler would do
between instructions happens once at the end: forward jumps are patched (and, only when one
is farther than 255 code units, widened with EXTENDED_ARG and everything after shifted), the
exception table and the line table are written.

Locations are line numbers only (kind 13 entries, CPython's Objects/locations.md); the lines
point into the text form of the same function, which its owner renders on demand.
"""

from __future__ import annotations

import dis
import operator
import types
from itertools import compress
from typing import Any, Final

from tracer.assembler import ENCODED, signed_varint

OP: Final[dict[str, int]] = dis.opmap
_EXTENDED_ARG: Final = OP["EXTENDED_ARG"]
_LOAD_CONST_OP: Final = OP["LOAD_CONST"]
_LOAD_FAST_OP: Final = OP["LOAD_FAST"]
_STORE_FAST_OP: Final = OP["STORE_FAST"]
_LOAD_ATTR_OP: Final = OP["LOAD_ATTR"]
_JUMP_FORWARD: Final = OP["JUMP_FORWARD"]
_SKIP_IF: Final = {True: OP["POP_JUMP_FORWARD_IF_FALSE"], False: OP["POP_JUMP_FORWARD_IF_TRUE"]}
_BACK_IF: Final = {True: OP["POP_JUMP_BACKWARD_IF_TRUE"], False: OP["POP_JUMP_BACKWARD_IF_FALSE"]}
_LINE_ONLY: Final = 0x80 | (13 << 3)
"""First byte of a location-table entry of kind 13 ("line number only") before its length."""

_ENCODED: Final = ENCODED


def encode(opcode: int, arg: int = 0) -> bytes:
    """One instruction with its CACHE units, behind EXTENDED_ARG when `arg` needs it."""
    if arg <= 0xFF:
        return _ENCODED[opcode][arg]
    if arg > 0xFFFF:
        raise TooComplex(f"oparg {arg}")
    return _ENCODED[_EXTENDED_ARG][arg >> 8] + _ENCODED[opcode][arg & 0xFF]


LOAD_CONST: Final = _ENCODED[OP["LOAD_CONST"]]
LOAD_FAST: Final = _ENCODED[OP["LOAD_FAST"]]
STORE_FAST: Final = _ENCODED[OP["STORE_FAST"]]
LOAD_ATTR: Final = _ENCODED[OP["LOAD_ATTR"]]
"""Each: the instruction's bytes by oparg below 256 (a list index; larger ones by `encode`)."""
NULL: Final = encode(OP["PUSH_NULL"])
CALLS: Final = [encode(OP["PRECALL"], n) + encode(OP["CALL"], n) for n in range(16)]
"""PRECALL + CALL with 0-15 positional arguments (`call_bytes` for more)."""
IS: Final = encode(OP["IS_OP"], 0)
IS_NOT: Final = encode(OP["IS_OP"], 1)
EQUAL: Final = encode(OP["COMPARE_OP"], 2)  # dis.cmp_op.index("==")
NOT_EQUAL: Final = encode(OP["COMPARE_OP"], 3)
NOT_IN: Final = encode(OP["CONTAINS_OP"], 1)
SUBSCR: Final = encode(OP["BINARY_SUBSCR"])
RETURN: Final = encode(OP["RETURN_VALUE"])


def call_bytes(argc: int) -> bytes:
    """PRECALL + CALL of a callable pushed after a NULL, with `argc` positional arguments."""
    return CALLS[argc] if argc < 16 else encode(OP["PRECALL"], argc) + encode(OP["CALL"], argc)


class TooComplex(Exception):
    """The function needs what this writer does not do (an oparg past 16 bits, a short jump
    past 255 units); the caller falls back to compiling text."""


class Label:
    """A position in the code, bound once; jumps to it are patched at the end."""

    __slots__ = ("position",)

    def __init__(self) -> None:
        self.position = -1

    def __repr__(self) -> str:
        return f"<Label at {self.position}>"


class BytecodeWriter:
    """Appends instructions for one code object; see the module docstring.

    Jumps come in three kinds, so that no distance is ever recomputed: short forward jumps
    (`jump`, patched at the end, at most 255 units), far forward jumps (`far_jump`, always
    EXTENDED_ARG + JUMP_FORWARD, patched at the end), and the guards' exits (`exit_if`): a
    backward jump to the nearest far jump to the fail label, or, when none is within 255
    units, a new one placed right there behind a jump over it. A passing test then costs one
    jump instruction either way, and the compare before it stays specializable (CPython
    specializes COMPARE_OP only when a conditional jump, not EXTENDED_ARG, follows it).
    """

    def __init__(self, argnames: list[str]) -> None:
        self.code = bytearray()
        self.attr_loads: dict[str, bytes] = {}
        """Attribute name -> its LOAD_ATTR; the keys, in order, are `co_names` (a name's slot is
        its position)."""
        self.consts: list[Any] = []
        """`co_consts`; holding each object keeps its id its own."""
        self.const_loads: dict[int, bytes] = {}
        """Object id -> its LOAD_CONST (the slot is the object's position in `consts`)."""
        self.local_slots: dict[str, int] = dict(zip(argnames, range(len(argnames)), strict=True))
        """Local name -> its slot; the keys, in order, are `co_varnames`."""
        self.lines: list[int] = []
        """Flat, in code order: the byte offset where a line's run starts, then the line (two
        items per run, appended as `lines += (offset, line)`: no tuple object kept per line)."""
        self._jumps: list[tuple[int, Label]] = []
        self._far_jumps: list[tuple[int, Label]] = []
        self._handlers: list[tuple[int, int, int | Label, int, bool]] = []

    def __repr__(self) -> str:
        return f"<BytecodeWriter {len(self.code) // 2} units, {len(self.consts)} consts>"

    @property
    def names(self) -> list[str]:
        return list(self.attr_loads)

    @property
    def varnames(self) -> list[str]:
        return list(self.local_slots)

    # ------------------------------------------------------------------ appending

    def line(self, lineno: int) -> None:
        """The instructions appended from now on belong to source line `lineno`."""
        self.lines += (len(self.code), lineno)

    def op(self, opcode: int, arg: int = 0) -> None:
        self.code += encode(opcode, arg)

    def const_index(self, value: object) -> int:
        """The slot of this very object in `co_consts` (identity: 1, 1.0, True and -0.0 stay
        apart, and an ID_MATCH loads exactly the object it pins)."""
        load = self.const(value)
        return load[1] if len(load) == 2 else load[1] << 8 | load[3]  # behind EXTENDED_ARG

    # The bytes of one instruction, for the caller to append several at once.

    def const(self, value: object) -> bytes:
        """LOAD_CONST of this very object (see `const_index`)."""
        key = id(value)
        load = self.const_loads.get(key)
        if load is None:
            consts = self.consts
            slot = len(consts)  # one slot per constant: the next index
            load = LOAD_CONST[slot] if slot < 0x100 else encode(_LOAD_CONST_OP, slot)
            self.const_loads[key] = load
            consts.append(value)  # kept alive, so its id stays its own
        return load

    def _local(self, name: str) -> int:
        """The slot of local `name` (a new local on first use)."""
        slots = self.local_slots
        slot = slots.get(name)
        if slot is None:
            slot = slots[name] = len(slots)
        return slot

    def fast(self, name: str) -> bytes:
        """LOAD_FAST of local `name`."""
        slot = self._local(name)
        return LOAD_FAST[slot] if slot < 0x100 else encode(_LOAD_FAST_OP, slot)

    def store(self, name: str) -> bytes:
        """STORE_FAST to local `name`."""
        slot = self._local(name)
        return STORE_FAST[slot] if slot < 0x100 else encode(_STORE_FAST_OP, slot)

    def hoist(self, name: str) -> tuple[bytes, bytes]:
        """(STORE_FAST, LOAD_FAST) of local `name`, its slot looked up once."""
        slot = self._local(name)
        if slot < 0x100:
            return STORE_FAST[slot], LOAD_FAST[slot]
        return encode(_STORE_FAST_OP, slot), encode(_LOAD_FAST_OP, slot)

    def attr(self, name: str) -> bytes:
        """LOAD_ATTR `name`."""
        loads = self.attr_loads
        load = loads.get(name)
        if load is None:
            slot = len(loads)  # one slot per name: the next index
            load = loads[name] = LOAD_ATTR[slot] if slot < 0x100 else encode(_LOAD_ATTR_OP, slot)
        return load

    def jump(self, opcode: int, target: Label) -> None:
        """A short forward jump (JUMP_FORWARD, POP_JUMP_FORWARD_IF_*) to `target`."""
        self._jumps.append((len(self.code) >> 1, target))
        self.code += b"\0\0"
        self.code[-2] = opcode

    def far_jump(self, target: Label) -> int:
        """EXTENDED_ARG + JUMP_FORWARD to `target`; returns where it starts."""
        start = len(self.code) >> 1
        self._far_jumps.append((start, target))
        self.code += bytes((_EXTENDED_ARG, 0, _JUMP_FORWARD, 0))
        return start

    def exit_if(self, value: bool, exit_at: int, target: Label) -> int:
        """Pop the test's result and leave for `target` when it is `value`, through the far
        jump at `exit_at` when it is within reach, else through a new one placed here (returned:
        the exit to use from now on; a negative `exit_at` means none yet)."""
        here = len(self.code) >> 1
        if exit_at >= 0 and here + 1 - exit_at <= 0xFF:
            self.code += _ENCODED[_BACK_IF[value]][here + 1 - exit_at]
            return exit_at
        self.code += bytes((_SKIP_IF[value], 2))  # a passing test jumps over the exit
        return self.far_jump(target)

    def bind(self, label: Label) -> None:
        label.position = len(self.code) >> 1

    def handler(self, start: int, end: int, target: int | Label, depth: int, lasti: bool) -> None:
        """An exception-table entry: an exception in code units [start, end) unwinds the stack
        to `depth` (plus the offset of the raising instruction when `lasti`) and goes to
        `target` (a position, or a label bound by the end)."""
        self._handlers.append((start, end, target, depth, lasti))

    # ------------------------------------------------------------------ finishing

    def code_object(
        self,
        *,
        argcount: int,
        posonlyargcount: int,
        kwonlyargcount: int,
        flags: int,
        stacksize: int,
        filename: str,
        name: str,
        qualname: str,
    ) -> types.CodeType:
        code = self.code
        for unit, target in self._jumps:
            distance = target.position - unit - 1
            if not 0 <= distance <= 0xFF:
                raise TooComplex(f"short jump of {distance} units")
            code[2 * unit + 1] = distance
        for unit, target in self._far_jumps:
            distance = target.position - unit - 2
            if not 0 <= distance <= 0xFFFF:
                raise TooComplex(f"jump of {distance} units")
            code[2 * unit + 1] = distance >> 8
            code[2 * unit + 3] = distance & 0xFF
        return types.CodeType(
            argcount,
            posonlyargcount,
            kwonlyargcount,
            len(self.local_slots),
            stacksize,
            flags,
            bytes(code),
            tuple(self.consts),
            tuple(self.attr_loads),
            tuple(self.local_slots),
            filename,
            name,
            qualname,
            1,
            _line_table(self.lines, len(code)),
            self._exception_table(),
            (),
            (),
        )

    def _exception_table(self) -> bytes:
        table = bytearray()
        for first, end, target, depth, lasti in self._handlers:
            to = target if type(target) is int else target.position  # type: ignore[union-attr]
            if to < 0x1000 and depth < 0x20:  # start and size are below target: 1-2 bytes each
                table += _SHORT_STARTS[first] + _SHORT[end - first] + _SHORT[to]
                table += _CHUNKS[depth << 1 | lasti]
                continue
            _varint(table, first, entry_start=True)
            _varint(table, end - first)
            _varint(table, to)
            _varint(table, depth << 1 | lasti)
        return bytes(table)


def _varint(out: bytearray, value: int, *, entry_start: bool = False) -> None:
    """Exception-table varint: 6-bit chunks, most significant first, 0x40 on all but the last;
    0x80 marks the first byte of an entry (CPython's Objects/exception_handling_notes.txt)."""
    flag = 0x80 if entry_start else 0
    if value < 0x40:  # one or two chunks: a dispatcher's offsets and depths, written at once
        out.append(value | flag)
        return
    if value < 0x1000:
        out += bytes(((value >> 6) | 0x40 | flag, value & 0x3F))
        return
    chunks = [value & 0x3F]
    value >>= 6
    while value:
        chunks.append(value & 0x3F)
        value >>= 6
    last = len(chunks) - 1
    for i, chunk in enumerate(reversed(chunks)):
        byte = chunk | (0x40 if i < last else 0)
        out.append(byte | 0x80 if entry_start and i == 0 else byte)


def _short_varint(value: int, flag: int = 0) -> bytes:
    """`_varint` of a value below 0x1000 (one or two chunks), from tables of the encoding."""
    if value < 0x40:
        return _CHUNKS[value | flag]
    return _CHUNKS[value >> 6 | 0x40 | flag] + _CHUNKS[value & 0x3F]


_CHUNKS: Final = [bytes((byte,)) for byte in range(0x100)]


class _ShortVarints(dict[int, bytes]):
    """value -> `_short_varint(value, flag)`, for values below 0x1000, filled on first use (the
    exception table's encoding, nothing about any function)."""

    def __init__(self, flag: int) -> None:
        super().__init__()
        self.flag = flag

    def __missing__(self, value: int) -> bytes:
        encoded = self[value] = _short_varint(value, self.flag)
        return encoded


_SHORT: Final = _ShortVarints(0)
_SHORT_STARTS: Final = _ShortVarints(0x80)
"""The same, with the entry-start flag (an entry's first varint)."""


def _line_table(lines: list[int], end: int) -> bytes:
    """`co_linetable` with line-only entries of at most 8 units each; `lines` is flat, the byte
    offset where each line's run starts followed by its line (the first run starts at 0, on
    line 1 after `co_firstlineno` 1; a run of no units is skipped); `end` is the code's size
    in bytes.

    A dispatcher has a line per guard, so this runs over every run with builtins (`map`,
    `zip`; each pass costs about what one Python statement per run would) and takes each
    run's bytes from `_RUNS`, a table of the encoding itself."""
    if not lines:
        return b""
    starts, linenos = lines[0::2], lines[1::2]
    sizes = list(map(operator.sub, (*starts[1:], end), starts))  # in bytes
    if 0 in sizes:  # runs of 0 units dropped (rare: two passes more)
        runs = list(compress(zip(sizes, linenos, strict=True), sizes))
        if not runs:
            return b""
        sizes, linenos = map(list, zip(*runs, strict=True))
    deltas = map(operator.sub, linenos, (1, *linenos[:-1]))
    return b"".join(map(_RUNS.__getitem__, zip(sizes, deltas, strict=True)))


class _RunEncodings(dict[tuple[int, int], bytes]):
    """(bytes, line delta) -> the line-only entries of one run: the first carries the delta,
    the others (runs past 8 units) delta 0. Filled on first use; it holds CPython's encoding,
    nothing about any compiled function."""

    def __missing__(self, key: tuple[int, int]) -> bytes:
        size, delta = key[0] >> 1, key[1]  # in code units
        step = _DELTAS[delta] if -64 < delta < 64 else signed_varint(delta)
        head = bytes((_LINE_ONLY | (min(size, 8) - 1),)) + step
        encoded = head + (_more(size) if size > 8 else b"")
        if -64 < delta < 64 and size <= 256:
            self[key] = encoded
        return encoded


_DELTAS: Final = {d: signed_varint(d) for d in range(-63, 64)}


def _more(size: int) -> bytes:
    """The entries that carry a run of `size` > 8 units on past its first 8 (line delta 0)."""
    full, rest = divmod(size - 8, 8)
    tail = bytes((_LINE_ONLY | (rest - 1), 0)) if rest else b""
    return bytes((_LINE_ONLY | 7, 0)) * full + tail


_RUNS: Final = _RunEncodings()
