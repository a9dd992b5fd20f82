"""`decode` reads `co_code` itself; it must agree with `dis.get_instructions` on every field."""

import dis
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from tracer.instructions import JUMP_OPCODES, Instruction, decode

ROOT = Path(__file__).resolve().parents[2]
STDLIB = Path(dis.__file__).parent
SOURCES = sorted(
    [
        path
        for package in ("tracer", "variables", "guards", "samples")
        for path in (ROOT / package).rglob("*.py")
    ]
    + [
        STDLIB / name
        for name in ("dis.py", "typing.py", "dataclasses.py", "argparse.py", "enum.py")
    ]
)


def reference_decode(code: types.CodeType) -> list[tuple[object, ...]]:
    """The straightforward decoding through `dis`, which `decode` must match: `fields` of each
    instruction, in the same order."""
    raw = list(dis.get_instructions(code))
    index_of = {inst.offset: i for i, inst in enumerate(raw)}
    lineno: int | None = None
    decoded = []
    for i, inst in enumerate(raw):
        if inst.positions is not None and inst.positions.lineno is not None:
            lineno = inst.positions.lineno
        target = index_of.get(inst.argval) if inst.opcode in JUMP_OPCODES else None
        decoded.append(
            (inst.opcode, inst.opname, inst.arg, type(inst.argval), repr(inst.argval),
             inst.offset, lineno, target, i)
        )  # fmt: skip
    return decoded


def code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_objects(const)


def fields(inst: Instruction) -> tuple[object, ...]:
    """What the translator reads (opname and lineno worked out on read)."""
    # argval by identity and type too: 1 == 1.0 == True must not hide a wrong constant
    return (inst.opcode, inst.opname, inst.arg, type(inst.argval), repr(inst.argval),
            inst.offset, inst.lineno, inst.target, inst.index)  # fmt: skip


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_decode_matches_dis(path: Path) -> None:
    module = compile(path.read_text(), str(path), "exec")
    for code in code_objects(module):
        assert [fields(i) for i in decode(code)] == reference_decode(code)


def test_decode_matches_dis_on_extended_args_and_format_values() -> None:
    names = [f"v{i}" for i in range(300)]
    body = "\n".join(f"    {name} = {i}.5" for i, name in enumerate(names))
    source = (
        f"def big(x):\n{body}\n"
        "    while x:\n"
        "        x = f'{x!r:>4}{x!s}{x!a}{x}' if x is not None else x\n"
        f"    return [{', '.join(names)}]\n"
    )
    code = compile(source, "<big>", "exec").co_consts[0]
    assert any(inst.opname == "EXTENDED_ARG" for inst in decode(code))
    assert [fields(i) for i in decode(code)] == reference_decode(code)


def test_lines_are_worked_out_on_read_and_instructions_compare_by_fields() -> None:
    def f(x: int) -> int:
        y = x + 1
        if y:
            y = -y
        return y

    first, again = decode(f.__code__), decode(f.__code__)
    assert [i.lineno for i in reversed(first)] == [i.lineno for i in reversed(again)]
    assert first == again  # the line tables differ in what they have worked out, not in code
    assert hash(first[0]) == hash(again[0])
    assert decode(test_decode_matches_dis.__code__)[0] != first[0]
    lines = {i.lineno for i in first}
    start = f.__code__.co_firstlineno
    assert lines == {start, start + 1, start + 2, start + 3, start + 4}
    assert repr(first[1]).startswith("Instruction(2: LOAD_FAST x, line ")
