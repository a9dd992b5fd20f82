"""The straight-line assembler (tracer.assembler) against the `bytecode` package it replaced.

`reference_code` is the former codegen path, kept here as the oracle: every code object that
`build_code` produces while the samples, the opcode cases and the benchmark workloads compile
must equal, field by field, the one `bytecode` assembles from the same instructions.
"""

from __future__ import annotations

import contextlib
import dis
import types
from collections.abc import Callable, Iterator
from typing import Any

import bytecode
import pytest

import tracer
import tracer.codegen
import tracer.runtime as torch
from samples import SAMPLES
from tests.tracer.test_opcodes import CASES
from tracer.assembler import Assembly, FreeVar, Instr, build_code, const_key

_FIELDS = (
    "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_stacksize",
    "co_flags", "co_code", "co_names", "co_varnames", "co_filename", "co_name", "co_qualname",
    "co_firstlineno", "co_linetable", "co_exceptiontable", "co_freevars", "co_cellvars",
)  # fmt: skip


def reference_code(
    instructions: list[Instr],
    template: types.CodeType,
    *,
    argnames: tuple[str, ...],
    flags: int,
    stacksize: int,
) -> types.CodeType:
    """What codegen did before tracer.assembler: the same instructions through `bytecode`."""
    converted = []
    for instr in instructions:
        arg = instr.arg
        if isinstance(arg, FreeVar):
            arg = bytecode.FreeVar(arg.name)
        location = (
            bytecode.instr.InstrLocation(instr.lineno, instr.lineno, None, None)
            if instr.lineno is not None
            else None
        )
        if dis.opmap[instr.name] < dis.HAVE_ARGUMENT:
            converted.append(bytecode.Instr(instr.name, location=location))
        else:
            converted.append(bytecode.Instr(instr.name, arg, location=location))
    bc = bytecode.Bytecode(converted)
    bc.argcount = template.co_argcount
    bc.posonlyargcount = template.co_posonlyargcount
    bc.kwonlyargcount = template.co_kwonlyargcount
    bc.argnames = list(argnames)
    bc.name = template.co_name
    bc.qualname = template.co_qualname
    bc.filename = template.co_filename
    bc.first_lineno = template.co_firstlineno
    bc.freevars = list(template.co_freevars)
    bc.cellvars = []
    bc.flags = bytecode.CompilerFlags(flags)
    return bc.to_code(
        stacksize=stacksize, check_pre_and_post=False, compute_exception_stack_depths=False
    )


def assert_same_code(ours: types.CodeType, theirs: types.CodeType) -> None:
    for field in _FIELDS:
        assert getattr(ours, field) == getattr(theirs, field), field
    assert [const_key(c) for c in ours.co_consts] == [const_key(c) for c in theirs.co_consts]


def same_code_both_ways(
    instructions: list[Instr], template: types.CodeType, **kw: Any
) -> types.CodeType:
    """build_code's result, checked against `reference_code`.

    Each is run once before the comparison: creating a code object interns its identifier-like
    string constants, and an interned string marshals differently, so a string equal to an
    earlier constant may share its slot in whichever assembler runs first and not in the other.
    """
    build_code(instructions, template, **kw)
    reference_code(instructions, template, **kw)
    code = build_code(instructions, template, **kw)
    assert_same_code(code, reference_code(instructions, template, **kw))
    return code


@pytest.fixture
def checked_codegen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[types.CodeType]]:
    """Every code object codegen assembles while emitting is compared with `build_code`'s
    (the same instructions in one pass) and with `reference_code`'s."""
    built: list[types.CodeType] = []
    code_object = Assembly.code_object

    def checked(
        self: Assembly, template: types.CodeType, *, flags: int, stacksize: int
    ) -> types.CodeType:
        kw: dict[str, Any] = {"argnames": self.argnames, "flags": flags, "stacksize": stacksize}
        in_one_pass = build_code(self.instructions, template, **kw)
        code = code_object(self, template, flags=flags, stacksize=stacksize)
        assert_same_code(code, in_one_pass)
        assert_same_code(code, reference_code(self.instructions, template, **kw))
        built.append(code)
        return code

    monkeypatch.setattr(Assembly, "code_object", checked)
    yield built


def _run(fn: Callable[..., Any], inputs: Callable[[], tuple[Any, ...]], **options: Any) -> None:
    compiled = tracer.compile(fn, **options)
    with contextlib.suppress(Exception):  # a raising sample raises the same when compiled
        compiled(*inputs())


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_samples_assemble_like_bytecode(sample: Any, checked_codegen: list[Any]) -> None:
    tracer.reset()
    mode = sample.active_mode() if sample.active_mode else contextlib.nullcontext()
    with mode:
        _run(sample.fn, sample.inputs)
        if sample.then_call_with is not None:
            _run(sample.fn, sample.then_call_with)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_opcode_cases_assemble_like_bytecode(case: Any, checked_codegen: list[Any]) -> None:
    fn, _opcodes, inputs = case
    tracer.reset()
    _run(fn, inputs)


def test_workloads_assemble_like_bytecode(checked_codegen: list[Any]) -> None:
    from benchmarks.workloads import make_workloads

    for workload in make_workloads(torch):
        tracer.reset()
        with workload.call_context():
            _run(workload.fn, workload.make_args)
    assert len(checked_codegen) >= 10


def _template(freevars: tuple[str, ...] = ()) -> types.CodeType:
    """A code object of `f(x)` whose signature and free variables the assembled code copies."""
    body = "".join(f"    {name} = 0\n" for name in freevars)
    returned = "".join(f"{name}, " for name in freevars) + "x"
    source = f"def outer():\n{body}    def f(x):\n        return ({returned})\n"
    source += "    return f\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<template>", "exec"), namespace)  # noqa: S102
    code: types.CodeType = namespace["outer"]().__code__
    assert code.co_freevars == freevars
    return code


def _both(instructions: list[Instr], template: types.CodeType) -> types.CodeType:
    kw: dict[str, Any] = {
        "argnames": template.co_varnames[: template.co_argcount],
        "flags": template.co_flags,
        "stacksize": len(instructions) + 2,
    }
    return same_code_both_ways(instructions, template, **kw)


def _run_code(code: types.CodeType, *args: Any, closure: tuple[Any, ...] | None = None) -> Any:
    return types.FunctionType(code, {"g": 40}, "f", None, closure)(*args)


def test_extended_args_for_many_constants_and_locals() -> None:
    values = [float(i) + 0.5 for i in range(300)]
    instrs = [Instr("RESUME", 0)]
    for i, value in enumerate(values):
        instrs += [Instr("LOAD_CONST", value), Instr("STORE_FAST", f"v{i}")]
    instrs += [Instr("LOAD_FAST", f"v{i}") for i in range(300)]
    instrs += [Instr("BUILD_LIST", 300), Instr("RETURN_VALUE")]
    code = _both(instrs, _template())
    assert dis.opmap["EXTENDED_ARG"] in code.co_code
    assert _run_code(code, 0) == values


def test_globals_attributes_calls_and_subscripts() -> None:
    instrs = [
        Instr("RESUME", 0),
        Instr("PUSH_NULL"),
        Instr("LOAD_CONST", divmod),
        Instr("LOAD_GLOBAL", (False, "g")),
        Instr("LOAD_FAST", "x"),
        Instr("LOAD_ATTR", "real"),
        Instr("PRECALL", 2),
        Instr("CALL", 2),
        Instr("LOAD_CONST", 1),
        Instr("BINARY_SUBSCR"),
        Instr("RETURN_VALUE"),
    ]
    assert _run_code(_both(instrs, _template()), 7) == 40 % 7


def test_free_variables_follow_the_locals() -> None:
    template = _template(("a", "b"))
    instrs = [
        Instr("COPY_FREE_VARS", 2),
        Instr("RESUME", 0),
        Instr("LOAD_FAST", "x"),
        Instr("STORE_FAST", "tmp"),
        Instr("LOAD_DEREF", FreeVar("b")),
        Instr("LOAD_FAST", "tmp"),
        Instr("STORE_DEREF", FreeVar("a")),
        Instr("RETURN_VALUE"),
    ]
    cells = (types.CellType(1), types.CellType(2))
    assert _run_code(_both(instrs, template), 5, closure=cells) == 2
    assert cells[0].cell_contents == 5


def test_raise_reports_its_line() -> None:
    template = _template()
    instrs = [
        Instr("RESUME", 0),
        Instr("LOAD_CONST", ValueError("boom")),
        Instr("RAISE_VARARGS", 1, lineno=template.co_firstlineno + 40),
    ]
    code = _both(instrs, template)
    lines = [line for _start, _end, line in code.co_lines()]
    assert lines[0] == template.co_firstlineno
    assert lines[-1] == template.co_firstlineno + 40
    with pytest.raises(ValueError, match="boom"):
        _run_code(code, 0)


def test_long_runs_split_into_eight_unit_entries() -> None:
    instrs = [Instr("RESUME", 0)] + [Instr("NOP")] * 20
    instrs += [Instr("LOAD_CONST", None), Instr("RETURN_VALUE", lineno=3)]
    code = _both(instrs, _template())
    assert {line for _s, _e, line in code.co_lines()} == {code.co_firstlineno, 3}


def test_constants_share_a_slot_only_when_interchangeable() -> None:
    obj = object()
    instrs = [Instr("RESUME", 0)]
    instrs += [Instr("LOAD_CONST", v) for v in (1, 1.0, True, 0.0, -0.0, 1, obj, obj, object())]
    instrs += [Instr("BUILD_TUPLE", 9), Instr("RETURN_VALUE")]
    code = _both(instrs, _template())
    assert len(code.co_consts) == 7
    assert code.co_consts[5] is obj


def test_unknown_opcodes_and_jumps_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown opcode"):
        _both([Instr("NO_SUCH_OP")], _template())
    with pytest.raises(ValueError, match="no jumps"):
        _both([Instr("JUMP_FORWARD", 1)], _template())


def test_free_variables_past_255_locals() -> None:
    template = _template(("a",))
    instrs = [Instr("COPY_FREE_VARS", 1), Instr("RESUME", 0)]
    for i in range(300):
        instrs += [Instr("LOAD_CONST", i), Instr("STORE_FAST", f"v{i}")]
    instrs += [Instr("LOAD_DEREF", FreeVar("a")), Instr("LOAD_FAST", "v299")]
    instrs += [Instr("BUILD_TUPLE", 2), Instr("RETURN_VALUE")]
    assert _run_code(_both(instrs, template), 0, closure=(types.CellType("A"),)) == ("A", 299)


def test_codegen_verbs_past_255_slots_assemble_like_build_code() -> None:
    """PyCodegen's verbs number and encode their arguments themselves: past 255 constants,
    locals and names they need EXTENDED_ARG exactly as `build_code` and `bytecode` write it."""
    from tracer.codegen import PyCodegen

    template = _template()
    cg = PyCodegen({}, ("x",))
    cg.counted("RESUME", 0)
    for i in range(300):
        cg.load_const(float(i) + 0.5)
        cg.store_fast(f"v{i}")
        cg.load_fast("x")
        cg.load_attr(f"a{i}")
        cg.pop_top()
    for i in range(300):
        cg.load_fast(f"v{i}")
    cg.build_list(300)
    cg.push_null()
    cg.load_const(len)
    cg.load_fast("x")
    cg.call(1)
    cg.build_tuple(2)
    cg.counted("RETURN_VALUE")
    kw: dict[str, Any] = {"argnames": ("x",), "flags": template.co_flags, "stacksize": 700}
    code = cg.code_object(template, flags=kw["flags"], stacksize=kw["stacksize"])
    assert_same_code(code, build_code(cg.instructions, template, **kw))
    assert_same_code(code, reference_code(cg.instructions, template, **kw))
    assert dis.opmap["EXTENDED_ARG"] in code.co_code

    class Attrs(str):
        def __getattr__(self, name: str) -> str:
            return name

    values, size = _run_code(code, Attrs("abc"))
    assert values == [float(i) + 0.5 for i in range(300)]
    assert size == 3


def test_calls_and_output_stores_past_255() -> None:
    """`call` and `store_fasts` write rows below 256 and fall back to `counted` and new names
    above; a compiled function with 300 graph outputs unpacks each into its own local."""
    from tracer.codegen import PyCodegen

    template = _template()
    cg = PyCodegen({}, ("x",))
    cg.counted("RESUME", 0)
    cg.push_null()
    cg.load_const(max)
    for _ in range(300):
        cg.load_fast("x")
    cg.call(300)
    cg.counted("RETURN_VALUE")
    kw: dict[str, Any] = {"argnames": ("x",), "flags": template.co_flags, "stacksize": 400}
    code = cg.code_object(template, flags=kw["flags"], stacksize=kw["stacksize"])
    assert_same_code(code, build_code(cg.instructions, template, **kw))
    assert _run_code(code, 7) == 7

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
