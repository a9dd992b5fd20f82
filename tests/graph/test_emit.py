"""The emitted forward (tracer.graph.emit) against `compile()` of the generated text.

For every graph the workloads, the sample gallery and a strategy of random graphs produce, the
two functions must return equal results (same types, same float signs) or raise the same
exception with the same message; the emitted code's stack size must cover its real depth, and
each instruction must report the line of its node in the text.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import dis
import math
import operator
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from benchmarks.workloads import make_workloads
from samples import SAMPLES
from tracer import backends
from tracer.graph import Graph, GraphModule, Node, python_code
from tracer.graph.emit import NotEmittable, _Emitter, emit_forward

Pair = collections.namedtuple("Pair", "a b")


class Tagged(tuple[Any, ...]):
    """A tuple subclass without fields: rebuilt from one iterable."""


def text_forward(graph: Graph, name: str = "forward") -> Callable[..., Any]:
    """The forward as it was built before the emitter: the text, compiled."""
    python = python_code(graph, name)
    namespace = dict(python.globals)
    with warnings.catch_warnings():  # `1 is x`, `[1][0,]`: valid, and meant
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(python.source, "<text>", "exec")
    exec(code, namespace)  # noqa: S102 - our own source
    return namespace[name]  # type: ignore[no-any-return]


def emitted_forward(graph: Graph, name: str = "forward") -> Callable[..., Any]:
    code, namespace = emit_forward(graph, name, "<emitted>")
    return type(text_forward)(code, namespace)


def canon(value: Any) -> Any:
    """Comparable form keeping what `==` hides: types, float signs, NaN, tensor contents."""
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.dtype.name, repr(value.tolist()))
    if isinstance(value, tuple | list):
        return (type(value).__name__, [canon(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in value.items()])
    if isinstance(value, float | slice):
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    try:
        return ("value", canon(fn(*args)))
    except Exception as error:  # noqa: BLE001 - the error itself is the compared outcome
        return (type(error).__name__, str(error))


def max_depth(code: Any) -> int:
    """The deepest the value stack gets, walking the straight-line code with dis's effects."""
    depth = deepest = 0
    for inst in dis.get_instructions(code):
        if inst.opname not in ("CACHE", "EXTENDED_ARG"):
            depth += dis.stack_effect(inst.opcode, inst.arg)
            deepest = max(deepest, depth)
    return deepest


def statement_lines(code: Any) -> list[int | None]:
    """The line of each instruction that does work (RESUME and NOP excluded)."""
    return [
        i.positions.lineno
        for i in dis.get_instructions(code)
        if i.opname not in ("CACHE", "EXTENDED_ARG", "RESUME", "NOP")
    ]


class GeneralPathEmitter(_Emitter):
    """Every statement through `statement_bytes` (NOTE [op calls inline] turned off)."""

    fast_calls = False


def assert_inline_calls_match_the_general_path(graph: Graph) -> None:
    code, namespace = emit_forward(graph, "forward", "<emitted>")
    general, general_namespace = GeneralPathEmitter(graph, "forward").code_object("<emitted>")
    assert code.co_code == general.co_code
    assert code.co_consts == general.co_consts
    assert code.co_names == general.co_names and code.co_varnames == general.co_varnames
    assert code.co_stacksize == general.co_stacksize
    assert code.co_linetable == general.co_linetable
    assert list(namespace.items()) == list(general_namespace.items())


def assert_same_forward(graph: Graph, *args: Any) -> None:
    assert_inline_calls_match_the_general_path(graph)
    text, emitted = text_forward(graph), emitted_forward(graph)
    code = emitted.__code__
    assert code.co_stacksize >= max_depth(code), python_code(graph).source
    assert code.co_varnames[: code.co_argcount] == text.__code__.co_varnames[: code.co_argcount]
    assert emitted.__globals__.keys() == text.__globals__.keys() - {"forward"}
    assert emitted.__doc__ is None and emitted.__name__ == text.__name__
    # Both run each statement on its own line; compile() may fold constants away, so compare
    # the lines in order, not instruction by instruction.
    assert dict.fromkeys(statement_lines(code)) == dict.fromkeys(statement_lines(text.__code__))
    assert outcome(emitted, *args) == outcome(text, *args), python_code(graph).source


# -- graphs the tracer produces --------------------------------------------------------------------


def captured_graphs(fn: Any, args: tuple[Any, ...], context: Any = None) -> list[tuple[Graph, Any]]:
    """Each graph a compile of `fn(*args)` hands to the backend (after the default passes),
    with the real inputs the compiled code then calls it with."""
    seen: list[tuple[Graph, Any]] = []

    def capture(gm: GraphModule, example_inputs: list[Any]) -> Any:
        backends.run_graph_passes(gm)
        forward = gm.forward
        calls: list[tuple[Any, ...]] = []
        seen.append((gm.graph, calls))

        def recording(*inputs: Any) -> Any:
            calls.append(copy.deepcopy(inputs))
            return forward(*inputs)

        return recording

    tracer.reset()
    compiled = tracer.compile(fn, backend=capture)
    active = context() if context is not None else contextlib.nullcontext()
    saved = dict(fn.__globals__)  # samples mutate globals other tests read (a call counter)
    try:
        with active, contextlib.suppress(Exception):  # samples that raise still made graphs
            compiled(*args)
    finally:
        fn.__globals__.update(saved)
    return [(graph, inputs) for graph, calls in seen for inputs in calls]


@pytest.mark.parametrize("workload", make_workloads(torch), ids=lambda w: w.name)
def test_workload_graphs(workload: Any) -> None:
    graphs = captured_graphs(workload.fn, workload.make_args(), workload.context)
    assert graphs
    for graph, inputs in graphs:
        assert_same_forward(graph, *inputs)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_graphs(sample: Any) -> None:
    for graph, inputs in captured_graphs(sample.fn, sample.inputs(), sample.active_mode):
        assert_same_forward(graph, *inputs)


# -- hand-written graphs for every construct -----------------------------------------------------


def scale(v: Any, factor: Any = 2, *, shift: Any = 0) -> Any:
    return v * factor + shift


class Box:
    def __init__(self, value: Any) -> None:
        self.value = value

    def get(self, extra: Any = 0, *, times: Any = 1) -> Any:
        return (self.value + extra) * times


def every_construct() -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    binary = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
              operator.mod, operator.pow, operator.lshift, operator.rshift, operator.and_,
              operator.or_, operator.xor, operator.eq, operator.ne, operator.lt, operator.le,
              operator.gt, operator.ge, operator.is_, operator.is_not)  # fmt: skip
    unary = (operator.neg, operator.pos, operator.invert, operator.not_)
    nodes: list[Node] = [x, y]
    nodes += [g.call_function(fn, (x, y)) for fn in binary]
    nodes += [g.call_function(fn, (x,)) for fn in unary]
    nodes.append(g.call_function(operator.mul, (-2, x)))
    nodes.append(g.call_function(scale, (x,), {"factor": -0.0, "shift": y}))
    nodes.append(g.call_function(math.copysign, (1.0, -0.0)))
    table = g.add_constant({"k": [1, 2, 3]}, "table")
    row = g.call_function(operator.getitem, (table, "k"))
    nodes.append(g.call_function(operator.getitem, (row, slice(None, x))))
    nodes.append(g.call_function(operator.getitem, ([[1, 2], [3, 4]], 1)))
    nodes.append(g.call_function(operator.getitem, (x, (0,))))
    nodes.append(g.call_function(operator.getitem, (x, ((1, 2), slice(y, None, -1), ...))))
    nodes.append(g.call_function(operator.getitem, ({(1, 2): "t"}, (1, 2))))
    nodes.append(g.call_method("get", (Box(5),), {"times": y}))
    nodes.append(g.call_method("get", (Box(5), y), {"times": 2}))
    nodes.append(g.call_method("__add__", (x, 1), {}, name="getattr"))
    nodes.append(g.call_method("not ident", (x,), name="weird"))
    nodes.append(g.call_method("bit_length", (7,)))
    nodes.append(g.call_function(operator.getitem, (x, slice(None))))
    g.output(
        (
            nodes,
            {"x": x, 1: [y, ...], None: (b"b", True, None, math.inf, -math.inf)},
            Pair(x, slice(1, y, 2)),
            Tagged((x, y)),
            (),
            (x,),
        )
    )
    return g


class Sliceable(int):
    """An int whose subscripts and odd-named attribute make every construct valid."""

    def __getitem__(self, key: Any) -> Any:
        return ("item", key)

    def __getattr__(self, name: str) -> Any:
        return lambda: ("attr", name)


def test_every_construct() -> None:
    assert outcome(emitted_forward(every_construct()), Sliceable(6), 3)[0] == "value"
    assert_same_forward(every_construct(), Sliceable(6), 3)
    assert_same_forward(every_construct(), Sliceable(6), 0)  # 6 / 0 raises in both


def test_keyword_names_that_are_not_identifiers_fall_back_to_compile() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output(g.call_method("__add__", (x,), {"not-ident": 1}))
    with pytest.raises(NotEmittable):
        emit_forward(g, "forward", "<f>")
    gm = GraphModule(g)
    with pytest.raises(TypeError):
        gm(1)  # the text's `**{'not-ident': 1}` call, compiled
    assert gm.forward.__code__.co_filename == gm.filename


def test_large_opargs_use_extended_arg() -> None:
    g = Graph()
    x = g.placeholder("x")
    values = [g.call_function(operator.add, (x, float(i))) for i in range(300)]
    g.output(tuple(values))
    assert_same_forward(g, 1.0)


def test_traceback_shows_the_generated_line_and_column_free_positions() -> None:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(operator.add, (x, y))
    g.output(g.call_function(operator.truediv, (add, y)))
    gm = GraphModule(g)
    with pytest.raises(ZeroDivisionError) as info:
        gm(1, 0)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.line) == (gm.filename, 3, "truediv = add / y")


# -- random graphs -------------------------------------------------------------------------------

_BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
           operator.mod, operator.pow, operator.eq, operator.lt, operator.ge, operator.is_,
           operator.and_, operator.xor, max, min]  # fmt: skip
_UNARY = [operator.neg, operator.pos, operator.invert, operator.not_, abs]
_CONSTANTS = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, 0.5, -1.5, math.inf, math.nan, True, None, "s", b"b"]),
)


@st.composite
def random_graphs(draw: st.DrawFn) -> tuple[Graph, tuple[Any, ...]]:
    g = Graph()
    n_inputs = draw(st.integers(1, 3))
    values: list[Node] = [g.placeholder("x") for _ in range(n_inputs)]

    def operand() -> Any:
        if draw(st.booleans()):
            return values[draw(st.integers(0, len(values) - 1))]
        return draw(_CONSTANTS)

    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            values.append(g.call_function(draw(st.sampled_from(_BINARY)), (operand(), operand())))
        elif kind == 1:
            values.append(g.call_function(draw(st.sampled_from(_UNARY)), (operand(),)))
        elif kind == 2:
            values.append(g.call_function(scale, (operand(),), {"shift": operand()}))
        elif kind == 3:
            container = draw(st.sampled_from(["list", "tuple", "dict"]))
            items = [operand(), operand()]
            built = {"list": list, "tuple": tuple, "dict": lambda i: dict(enumerate(i))}[container]
            index = (
                draw(st.sampled_from([0, 1, slice(None, 1), (0,)])) if container != "dict" else 1
            )
            values.append(g.call_function(operator.getitem, (built(items), index)))
        elif kind == 4:
            values.append(g.call_method("__mul__", (operand(), operand())))
        else:
            values.append(g.call_method("conjugate", (operand(),)))
    outputs = [
        values[draw(st.integers(0, len(values) - 1))] for _ in range(draw(st.integers(1, 3)))
    ]
    g.output((outputs, {"last": values[-1]}))
    inputs = tuple(
        draw(st.one_of(st.integers(-4, 4), st.sampled_from([0.5, -0.0]))) for _ in range(n_inputs)
    )
    return g, inputs


@given(random_graphs())
def test_random_graphs(case: tuple[Graph, tuple[Any, ...]]) -> None:
    graph, inputs = case
    assert_same_forward(graph, *inputs)
