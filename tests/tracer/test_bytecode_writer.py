"""The bytecode writer's line table: every code unit reports the line its run says."""

from __future__ import annotations

import dis

from hypothesis import given
from hypothesis import strategies as st

from tracer.bytecode_writer import _line_table

_NOP = bytes((dis.opmap["NOP"], 0))


def _lines_per_unit(table: bytes, units: int) -> list[int | None]:
    """What CPython reads back from `table`: the line of each code unit."""
    code = (lambda: None).__code__.replace(
        co_code=_NOP * units, co_linetable=table, co_firstlineno=1, co_consts=(None,)
    )
    lines: list[int | None] = [None] * units
    for start, end, line in code.co_lines():
        lines[start // 2 : end // 2] = [line] * ((end - start) // 2)
    return lines


runs = st.lists(st.tuples(st.integers(0, 300), st.integers(1, 2000)), min_size=1, max_size=12)


@given(runs, st.integers(0, 20))
def test_every_unit_reports_its_runs_line(
    sizes_and_lines: list[tuple[int, int]], tail: int
) -> None:
    starts, unit = [], 0
    for size, _ in sizes_and_lines:
        starts.append(unit)
        unit += size
    end = unit + tail
    lines = [(start, line) for start, (_, line) in zip(starts, sizes_and_lines, strict=True)]
    expected: list[int | None] = [None] * end
    for (start, line), stop in zip(lines, [*starts[1:], end], strict=True):
        expected[start:stop] = [line] * (stop - start)
    flat = [value for start, line in lines for value in (2 * start, line)]  # bytes, line
    assert _lines_per_unit(_line_table(flat, 2 * end), end) == expected


def test_no_lines_no_table() -> None:
    assert _line_table([], 0) == b""


def _reference_varint(value: int, entry_start: bool) -> bytes:
    """Objects/exception_handling_notes.txt, chunk by chunk: 6 bits each, most significant
    first, 0x40 on all but the last, 0x80 on an entry's first byte."""
    chunks = [value & 0x3F]
    value >>= 6
    while value:
        chunks.append(value & 0x3F)
        value >>= 6
    chunks.reverse()
    out = [chunk | (0x40 if i < len(chunks) - 1 else 0) for i, chunk in enumerate(chunks)]
    if entry_start:
        out[0] |= 0x80
    return bytes(out)


def test_exception_table_varints_of_every_size() -> None:
    from tracer.bytecode_writer import _varint

    for value in [*range(300), 0xFFF, 0x1000, 0x1001, 0x3FFFF, 0x40000, 10**7]:
        for entry_start in (False, True):
            out = bytearray()
            _varint(out, value, entry_start=entry_start)
            assert bytes(out) == _reference_varint(value, entry_start), (value, entry_start)


def _instructions(code: bytes) -> list[tuple[str, int]]:
    """(opname, oparg) of each instruction, EXTENDED_ARG folded into the next one, CACHE units
    left out."""
    found, extended = [], 0
    for i in range(0, len(code), 2):
        opcode, arg = code[i], code[i + 1] | extended
        if opcode == dis.opmap["EXTENDED_ARG"]:
            extended = arg << 8
            continue
        extended = 0
        if opcode != dis.opmap["CACHE"]:
            found.append((dis.opname[opcode], arg))
    return found


def test_names_and_locals_keep_their_first_slot() -> None:
    """`attr` and `fast` remember each name's bytes: a repeat loads the same slot, a new name
    takes the next one, past 255 behind EXTENDED_ARG, and `hoist`/`store` agree with `fast`."""
    from tracer.bytecode_writer import BytecodeWriter

    w = BytecodeWriter(["x", "y"])
    names = [f"a{i}" for i in range(300)]
    attrs = [w.attr(n) for n in names]
    assert w.names == names
    assert [w.attr(n) for n in reversed(names)] == attrs[::-1]
    assert _instructions(b"".join(attrs)) == [("LOAD_ATTR", i) for i in range(300)]

    locals_ = [f"v{i}" for i in range(300)]
    pairs = [w.hoist(n) for n in locals_]
    assert w.varnames == ["x", "y", *locals_]
    loads = [w.fast(n) for n in ["y", *locals_, "x"]]
    assert loads[1:-1] == [load for _, load in pairs]
    assert [w.store(n) for n in locals_] == [store for store, _ in pairs]
    expected = [("LOAD_FAST", 1), *[("LOAD_FAST", i + 2) for i in range(300)], ("LOAD_FAST", 0)]
    assert _instructions(b"".join(loads)) == expected
    assert w.varnames == ["x", "y", *locals_]  # no name was added twice


def test_short_varints_match_the_general_encoding() -> None:
    """The exception table's table-driven varints (values below 0x1000, the dispatcher's) are
    `_varint`'s bytes, with and without the entry-start flag."""
    from tracer.bytecode_writer import _short_varint, _varint

    for value in range(0x1000):
        for flag, entry_start in ((0, False), (0x80, True)):
            out = bytearray()
            _varint(out, value, entry_start=entry_start)
            assert _short_varint(value, flag) == bytes(out), (value, entry_start)


def test_exception_table_short_and_long_entries() -> None:
    """Handlers below and past the table-driven range write the same entries as `_varint`."""
    from tracer.bytecode_writer import BytecodeWriter, Label, _varint

    w = BytecodeWriter([])
    spans = [(3, 70, 100, 1, True), (0, 5, 9, 0, False), (10, 4000, 4095, 2, False)]
    spans += [(5000, 5100, 70000, 3, True), (64, 4096, 5000, 0, True)]
    for i, (start, end, target, depth, lasti) in enumerate(spans):
        if i % 2:  # a target given as a label bound by the end, or as a position
            label = Label()
            label.position = target
            w.handler(start, end, label, depth, lasti)
        else:
            w.handler(start, end, target, depth, lasti)
    expected = bytearray()
    for start, end, target, depth, lasti in spans:
        _varint(expected, start, entry_start=True)
        _varint(expected, end - start)
        _varint(expected, target)
        _varint(expected, depth << 1 | lasti)
    assert w._exception_table() == bytes(expected)


def test_constants_keep_their_first_slot() -> None:
    """`const` and `const_index` agree on each object's slot, by identity (1, 1.0 and True
    apart), past 255 behind EXTENDED_ARG too."""
    from tracer.bytecode_writer import BytecodeWriter

    w = BytecodeWriter([])
    values: list[object] = [1, 1.0, True, *(object() for _ in range(300))]
    loads = [w.const(v) for v in values]
    assert w.consts == values
    assert [w.const_index(v) for v in values] == list(range(len(values)))
    assert [w.const(v) for v in reversed(values)] == loads[::-1]
    assert _instructions(b"".join(loads)) == [("LOAD_CONST", i) for i in range(len(values))]
    fresh = BytecodeWriter([])
    assert fresh.const_index(values[5]) == 0 and fresh.const(values[5]) == loads[0]
    assert fresh.consts == [values[5]]
