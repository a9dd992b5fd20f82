"""`decode` gives `dis.get_instructions` with jump targets as indices and lines carried forward.
`instructions_of` decodes each code object once for its lifetime, and never serves another's."""

import dis
import gc
import types
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

import tracer
from tracer.bytecode_versions import cell_names, vocabulary
from tracer.translator import instructions
from tracer.translator.instructions import JUMP_OPCODES, Instruction, decode, instructions_of

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
    """The straightforward decoding through `dis`, which `decode` must match (with each
    version's instructions in the translator's vocabulary: tracer/bytecode_versions.py)."""
    raw = list(dis.get_instructions(code))
    index_of = {inst.offset: i for i, inst in enumerate(raw)}
    lineno: int | None = None
    decoded = []
    for i, inst in enumerate(raw):
        if inst.positions is not None and inst.positions.lineno is not None:
            lineno = inst.positions.lineno
        target = index_of.get(inst.argval) if inst.opcode in JUMP_OPCODES else None
        opcode, opname = vocabulary(inst, cell_names(code))
        decoded.append(
            Instruction(opcode, opname, inst.arg, inst.argval, inst.offset, lineno, target, i)
        )
    return decoded


def test_a_method_load_decodes_as_load_method_on_every_version() -> None:
    """3.11's LOAD_METHOD, 3.12's LOAD_ATTR with the method bit: one handler, LOAD_METHOD."""
    code = compile("def f(x):\n    return x.strip()\n", "<m>", "exec").co_consts[0]
    names = [inst.opname for inst in decode(code)]
    assert "LOAD_METHOD" in names and "LOAD_ATTR" not in names


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


def _fresh_code(value: int) -> types.CodeType:
    code = compile(f"def f(x):\n    return x + {value}\n", "<fresh>", "exec").co_consts[0]
    assert isinstance(code, types.CodeType)
    return code


def test_instructions_of_decodes_once_per_code_object() -> None:
    code = _fresh_code(1)
    first = instructions_of(code)
    assert first == tuple(decode(code))
    assert instructions_of(code) is first
    tracer.reset()  # drops assumptions; a decoded code object holds none
    assert instructions_of(code) is first


def test_instructions_of_forgets_a_dead_code_object() -> None:
    code = _fresh_code(2)
    instructions_of(code)
    key = id(code)
    assert key in instructions._DECODED
    del code
    gc.collect()
    assert key not in instructions._DECODED


def test_instructions_of_never_serves_another_code_objects_instructions() -> None:
    """An entry whose code object is gone (or is another one under a reused id) is decoded
    afresh, not served."""
    code, other = _fresh_code(3), _fresh_code(4)
    stale = tuple(decode(other))
    instructions._DECODED[id(code)] = (weakref.ref(other), stale)
    try:
        got = instructions_of(code)
        assert got is not stale
        assert [inst.argval for inst in got] == [inst.argval for inst in decode(code)]
    finally:
        instructions._DECODED.pop(id(code), None)
