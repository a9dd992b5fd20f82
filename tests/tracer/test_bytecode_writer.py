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
    assert _lines_per_unit(_line_table(lines, end), end) == expected


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
