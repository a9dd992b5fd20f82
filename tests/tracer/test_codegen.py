"""Code objects built by PyCodegen (tracer.codegen) through the `bytecode` package: what the
generated frames do when arguments outgrow one byte, with free variables, constants that must
not be merged, and the line a raise reports."""

from __future__ import annotations

import dis
import types
from typing import Any

import pytest
from bytecode import Instr, Label
from bytecode.instr import FreeVar

import tracer
import tracer.runtime as torch
from guards.sources import AttrSource, ItemSource, LocalSource
from tracer.bytecode_versions import pop_jump_if_instrs
from tracer.codegen import PyCodegen


def _template(freevars: tuple[str, ...] = ()) -> types.CodeType:
    """A code object of `f(x)` whose signature and free variables the built code copies."""
    body = "".join(f"    {name} = 0\n" for name in freevars)
    returned = "".join(f"{name}, " for name in freevars) + "x"
    source = f"def outer():\n{body}    def f(x):\n        return ({returned})\n"
    source += "    return f\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<template>", "exec"), namespace)  # noqa: S102
    code: types.CodeType = namespace["outer"]().__code__
    assert code.co_freevars == freevars
    return code


def _codegen(freevars: tuple[str, ...] = ()) -> PyCodegen:
    cg = PyCodegen()
    if freevars:
        cg.emit(Instr("COPY_FREE_VARS", len(freevars)))
    cg.emit(Instr("RESUME", 0))
    return cg


def _run(
    cg: PyCodegen, template: types.CodeType, *args: Any, closure: tuple[Any, ...] | None = None
) -> Any:
    code = cg.code_object(template, flags=template.co_flags)
    return types.FunctionType(code, {"g": 40}, "f", None, closure)(*args)


def test_past_255_constants_locals_and_names() -> None:
    """Arguments past one byte get EXTENDED_ARG prefixes; equal floats keep one slot each."""
    cg = _codegen()
    for i in range(300):
        cg.load_const(float(i) + 0.5)
        cg.store_fast(f"v{i}")
        cg.load_fast("x")
        cg.load_attr(f"a{i}")
        cg.pop_top()
    for i in range(300):
        cg.load_fast(f"v{i}")
    cg.build_list(300)
    cg.load_function(len)
    cg.load_fast("x")
    cg.call(1)
    cg.build_tuple(2)
    cg.emit(Instr("RETURN_VALUE"))
    template = _template()
    code = cg.code_object(template, flags=template.co_flags)
    assert dis.opmap["EXTENDED_ARG"] in code.co_code

    class Attrs(str):
        def __getattr__(self, name: str) -> str:
            return name

    values, size = _run(cg, template, Attrs("abc"))
    assert values == [float(i) + 0.5 for i in range(300)]
    assert size == 3


def test_call_with_300_arguments() -> None:
    cg = _codegen()
    cg.load_function(max)
    for _ in range(300):
        cg.load_fast("x")
    cg.call(300)
    cg.emit(Instr("RETURN_VALUE"))
    assert _run(cg, _template(), 7) == 7


def test_globals_attributes_calls_and_subscripts() -> None:
    cg = _codegen()
    cg.load_function(divmod)
    cg.load_global("g")
    cg.load_fast("x")
    cg.load_attr("real")
    cg.call(2)
    cg.load_const(1)
    cg.binary_subscr()
    cg.emit(Instr("RETURN_VALUE"))
    assert _run(cg, _template(), 7) == 40 % 7


def test_free_variables_past_255_locals() -> None:
    """Free variables are numbered after every local, however many there are."""
    cg = _codegen(("a", "b"))
    for i in range(300):
        cg.load_const(i)
        cg.store_fast(f"v{i}")
    cg.load_fast("x")
    cg.emit(Instr("STORE_DEREF", FreeVar("a")))
    cg.emit(Instr("LOAD_DEREF", FreeVar("b")))
    cg.load_fast("v299")
    cg.build_tuple(2)
    cg.emit(Instr("RETURN_VALUE"))
    cells = (types.CellType(1), types.CellType("B"))
    assert _run(cg, _template(("a", "b")), 5, closure=cells) == ("B", 299)
    assert cells[0].cell_contents == 5


def test_raise_reports_its_line() -> None:
    template = _template()
    cg = _codegen()
    cg.load_const(ValueError("boom"))
    cg.emit(Instr("RAISE_VARARGS", 1, lineno=template.co_firstlineno + 40))
    code = cg.code_object(template, flags=template.co_flags)
    lines = [line for _start, _end, line in code.co_lines()]
    assert lines[0] == template.co_firstlineno
    assert lines[-1] == template.co_firstlineno + 40
    with pytest.raises(ValueError, match="boom"):
        _run(cg, template, 0)


def test_constants_share_a_slot_only_when_interchangeable() -> None:
    """1, 1.0, True, 0.0 and -0.0 keep their own slots; objects marshal cannot write are
    loaded by identity."""
    obj = object()
    values = (1, 1.0, True, 0.0, -0.0, 1, obj, obj, object())
    cg = _codegen()
    for value in values:
        cg.load_const(value)
    cg.build_tuple(len(values))
    cg.emit(Instr("RETURN_VALUE"))
    template = _template()
    code = cg.code_object(template, flags=template.co_flags)
    assert len(code.co_consts) == 7
    result = _run(cg, template, 0)
    assert [(type(v), repr(v)) for v in result[:6]] == [(type(v), repr(v)) for v in values[:6]]
    assert result[6] is obj and result[7] is obj and result[8] is not obj


def test_300_graph_outputs_unpack_into_their_own_locals() -> None:
    def many(x: Any) -> Any:
        out = []
        for i in range(300):
            out.append(x + i)  # noqa: PERF401 - a loop the tracer unrolls
        return tuple(out)

    tracer.reset()
    compiled = tracer.compile(many)
    x = torch.ones(2)
    assert [t.tolist() for t in compiled(x)] == [t.tolist() for t in many(x)]
    (entry,) = compiled.entries
    assert entry.bytecode is not None
    stored = [i.arg for i in entry.bytecode if i.name == "STORE_FAST"]
    assert stored[:300] == [f"___out_{i}" for i in range(300)]
    assert "LOAD_FAST        '___out_0'" in entry.bytecode_listing()


def test_code_with_a_jump_gets_its_stack_size_from_the_package() -> None:
    """`x if x else g`: a conditional jump, for which the package walks the control flow."""
    skip = Label()
    cg = _codegen()
    cg.load_fast("x")
    cg.emit(Instr("COPY", 1))
    cg.instructions += pop_jump_if_instrs("TRUE", skip)
    cg.pop_top()
    cg.load_global("g")
    cg.instructions.append(skip)  # type: ignore[arg-type]  # a Label is not an Instr
    cg.emit(Instr("RETURN_VALUE"))
    template = _template()
    assert cg.straight_line_depth() is None
    assert cg.code_object(template, flags=template.co_flags).co_stacksize == 2
    assert _run(cg, template, 0) == 40
    assert _run(cg, template, 7) == 7


def test_straight_line_depth_is_the_deepest_running_sum() -> None:
    cg = _codegen()
    cg.load_function(max)
    cg.load_fast("x")
    cg.load_const(1)
    cg.call(2)  # NULL, max, x, 1: four deep, then the result alone
    cg.emit(Instr("RETURN_VALUE"))
    assert cg.straight_line_depth() == 4
    assert _run(cg, _template(), 0) == 1


def test_load_sources_reads_a_shared_prefix_once() -> None:
    """`x.a['k']`, `x.a['j']` and `x.b`: `x.a` is read once and kept in a local until the last
    is pushed; `x` is a local (read as itself each time) and `x.b` shares nothing else."""
    x = LocalSource("x")
    sources = [ItemSource(AttrSource(x, "a"), "k"), ItemSource(AttrSource(x, "a"), "j")]
    sources.append(AttrSource(x, "b"))
    cg = _codegen()
    cg.load_sources(sources)
    cg.build_tuple(3)
    cg.emit(Instr("RETURN_VALUE"))
    listing = [i.name for i in cg.instructions[1:]]
    assert listing == [
        "LOAD_FAST", "LOAD_ATTR", "COPY", "STORE_FAST", "LOAD_CONST", "BINARY_SUBSCR",  # x.a['k']
        "LOAD_FAST", "LOAD_CONST", "BINARY_SUBSCR",  # x.a['j'], x.a from the temporary
        "LOAD_FAST", "LOAD_ATTR",  # x.b
        "DELETE_FAST",  # the kept x.a: the frame holds nothing eager code would not
        "BUILD_TUPLE", "RETURN_VALUE",
    ]  # fmt: skip
    fast = [i.arg for i in cg.instructions if i.name.endswith("_FAST")]
    assert fast == ["x", "___read_1", "___read_1", "x", "___read_1"]
    value = types.SimpleNamespace(a={"k": 1, "j": 2}, b=3)
    assert _run(cg, _template(), value) == (1, 2, 3)


def test_load_sources_keeps_an_input_that_is_also_a_prefix() -> None:
    """`x.a` is a graph input and the start of `x.a.b`: read once, pushed, and kept."""
    x = LocalSource("x")
    cg = _codegen()
    cg.load_sources([AttrSource(x, "a"), AttrSource(AttrSource(x, "a"), "b"), AttrSource(x, "a")])
    cg.build_tuple(3)
    cg.emit(Instr("RETURN_VALUE"))
    assert len([i for i in cg.instructions if i.name == "LOAD_ATTR"]) == 2  # `.a` once, `.b`
    inner = types.SimpleNamespace(b=5)
    assert _run(cg, _template(), types.SimpleNamespace(a=inner)) == (inner, 5, inner)
    assert cg._kept_reads == {}  # only while loading these sources
