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


def reference_decode(code: types.CodeType) -> list[Instruction]:
    """The straightforward decoding through `dis`, which `decode` must match."""
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


def code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_objects(const)


def fields(inst: Instruction) -> tuple[object, ...]:
    # argval by identity and type too: 1 == 1.0 == True must not hide a wrong constant
    return (inst.opcode, inst.opname, inst.arg, type(inst.argval), repr(inst.argval),
            inst.offset, inst.lineno, inst.target, inst.index)  # fmt: skip


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_decode_matches_dis(path: Path) -> None:
    module = compile(path.read_text(), str(path), "exec")
    for code in code_objects(module):
        assert [fields(i) for i in decode(code)] == [fields(i) for i in reference_decode(code)]


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
    assert [fields(i) for i in decode(code)] == [fields(i) for i in reference_decode(code)]
