"""GraphModule: exact generated source, running, tracebacks into it, parity with Interpreter."""

from __future__ import annotations

import collections
import gc
import linecache
import math
import operator
import traceback
from typing import Any

import pytest

from tracer.graph import Graph, GraphModule, Interpreter, python_code


def scale(v: float, factor: float = 2.0) -> float:
    return v * factor


def arithmetic_graph() -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(operator.add, (x, y))
    neg = g.call_function(operator.neg, (add,))
    pw = g.call_function(operator.pow, (-2, neg))
    sq = g.call_function(math.sqrt, (pw,))
    scaled = g.call_function(scale, (sq,), {"factor": 3.0})
    ge = g.call_function(operator.ge, (scaled, y))
    real = g.call_method("conjugate", (scaled,))
    g.output((scaled, [ge, real], {"neg": neg}))
    return g


def test_generated_source_reads_like_python() -> None:
    gm = GraphModule(arithmetic_graph())
    assert gm.code == (
        "def forward(x, y):\n"
        "    add = x + y\n"
        "    neg = -add\n"
        "    pow = (-2) ** neg\n"
        "    sqrt = math_sqrt(pow)\n"
        "    scale = scale_1(sqrt, factor=3.0)\n"
        "    ge = scale >= y\n"
        "    conjugate = scale.conjugate()\n"
        "    return (scale, [ge, conjugate], {'neg': neg})\n"
    )
    expected = (0.75, [False, 0.75], {"neg": -4.0})
    assert gm(1.0, 3.0) == Interpreter(gm).run(1.0, 3.0) == expected


def test_forward_is_a_plain_function_without_self() -> None:
    gm = GraphModule(arithmetic_graph(), name="my graph")
    assert gm.forward.__name__ == "my_graph"
    assert gm.forward(1.0, 3.0) == gm(1.0, 3.0)
    assert repr(gm).startswith("GraphModule(my_graph, 10 nodes, <modetrace-graph-")
    with pytest.raises(TypeError, match=r"my_graph\(\) missing 1 required positional argument"):
        gm.forward(1.0)
    with pytest.raises(TypeError, match="graph takes 2 positional arguments but 1 were given"):
        Interpreter(gm).run(1.0)


def test_globals_never_clash_with_node_names() -> None:
    g = Graph()
    x = g.placeholder("x")
    first = g.call_function(scale, (x,), name="scale")
    clash = g.call_function(operator.getitem, ([1, 2, 3], slice(None, x)), name="slice")
    odd = g.call_method("__add__", (first,), {"not-ident": 1}, name="getattr")
    weird = g.call_method("not ident", (x,), name="scale_1")
    g.output((clash, odd, weird))
    code = python_code(g)
    assert code.source == (
        "def forward(x):\n"
        "    scale = scale_2(x)\n"
        "    slice = [1, 2, 3][:x]\n"
        "    getattr = scale.__add__(**{'not-ident': 1})\n"
        "    scale_1 = getattr_1(x, 'not ident')()\n"
        "    return (slice, getattr, scale_1)\n"
    )
    assert code.globals == {"scale_2": scale, "getattr_1": getattr}


def test_index_and_literal_rendering() -> None:
    Pair = collections.namedtuple("Pair", "a b")
    g = Graph()
    x = g.placeholder("x")
    item = g.call_function(operator.getitem, (x, (slice(1, None, 2), 0)))
    one = g.call_function(operator.getitem, (x, (0,)))
    g.output((item, one, Pair(x, math.inf), ..., b"b", None, -0.0, slice(1, 2)))
    gm = GraphModule(g)
    assert gm.code.splitlines()[1:] == [
        "    getitem = x[1::2, 0]",
        "    getitem_1 = x[0,]",
        "    return (getitem, getitem_1, Pair(x, inf), ..., b'b', None, -0.0, slice(1, 2, None))",
    ]

    class Grid:
        def __getitem__(self, key: Any) -> Any:
            return key

    expected = ((slice(1, None, 2), 0), (0,), Pair(Grid, math.inf), ..., b"b", None, -0.0)
    result = gm(Grid())
    assert result[:2] == expected[:2] and result[3:] == (*expected[3:], slice(1, 2))
    assert isinstance(result[2], Pair) and result[2].b == math.inf


def test_get_attr_constants_are_bound_as_globals() -> None:
    g = Graph()
    x = g.placeholder("x")
    table = g.add_constant({"k": [1, 2]}, "table")
    lookup = g.call_function(operator.getitem, (table, "k"))
    length = g.call_method("__len__", (lookup,))
    g.output(g.call_function(operator.add, (x, length)))
    gm = GraphModule(g)
    assert "getitem = table['k']" in gm.code
    assert gm(1) == Interpreter(g).run(1) == 3
    g.constants["table"] = {"k": [1]}
    assert gm(1) == 3, "constants are bound at codegen"
    gm.recompile()
    assert gm(1) == 2


def failing_graph() -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    div = g.call_function(operator.truediv, (x, y))
    g.output(g.call_function(math.log, (div,)))
    return g


def test_tracebacks_show_the_generated_line() -> None:
    gm = GraphModule(failing_graph())
    with pytest.raises(ZeroDivisionError) as info:
        gm(1.0, 0.0)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert frame.filename == gm.filename and frame.name == "forward"
    assert frame.lineno == 2 and frame.line == "truediv = x / y"
    assert "truediv = x / y" in "".join(traceback.format_exception(info.value))


def test_linecache_entry_survives_checkcache_and_goes_with_the_function() -> None:
    gm = GraphModule(failing_graph())
    filename = gm.filename
    linecache.checkcache()
    assert linecache.getline(filename, 3) == "    log = math_log(truediv)\n"
    del gm
    gc.collect()
    assert filename not in linecache.cache


def test_interpreter_errors_are_unchanged_with_a_note() -> None:
    with pytest.raises(ValueError) as info:
        Interpreter(failing_graph()).run(-1.0, 1.0)
    assert str(info.value) == "math domain error"
    assert info.value.__notes__ == ["while interpreting Node(log: call_function math.log(truediv))"]


def test_print_readable_adds_user_locations() -> None:
    g = failing_graph()
    div = g.nodes[2]
    div.meta["user_location"] = "user.py:3 in f: return x / y"
    gm = GraphModule(g)
    text = gm.print_readable(print_output=False)
    assert text == (
        "def forward(x, y):\n"
        "    # user.py:3 in f: return x / y\n"
        "    truediv = x / y\n"
        "    log = math_log(truediv)\n"
        "    return log\n"
    )
    assert "#" not in gm.code


def test_print_readable_prints(capsys: pytest.CaptureFixture[str]) -> None:
    gm = GraphModule(failing_graph())
    assert gm.print_readable() == capsys.readouterr().out == gm.code


def test_each_module_gets_its_own_filename() -> None:
    a, b = GraphModule(failing_graph()), GraphModule(failing_graph())
    assert a.filename != b.filename
    assert a.filename.startswith("<modetrace-graph-")


def test_source_is_generated_once_after_passes_change_the_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NOTE [generated on first use]: the eager backend's passes rewrite the graph before
    anything reads `forward`, so the source is generated exactly once, from the rewritten
    graph, and `code` shows the very text `forward` was compiled from."""
    from tracer import backends
    from tracer.graph import graph_module

    generated: list[str] = []

    def counting_python_code(graph: Graph, fn_name: str = "forward", comments: bool = False) -> Any:
        code = python_code(graph, fn_name, comments)
        generated.append(code.source)
        return code

    monkeypatch.setattr(graph_module, "python_code", counting_python_code)
    g = Graph()
    x = g.placeholder("x")
    two = g.call_function(operator.add, (1, 1))
    g.output(g.call_function(operator.mul, (x, two)))
    gm = GraphModule(g)
    assert generated == []
    forward = backends.eager(gm, [3])
    assert backends.run_graph_passes(gm)["fold_constants"] == 0  # the first run folded it
    assert forward is gm.forward
    assert forward(3) == 6
    assert gm.code == gm.code == "def forward(x):\n    mul = x * 2\n    return mul\n"
    assert generated == [gm.code]


def test_recompile_regenerates_on_next_read() -> None:
    g = Graph()
    x = g.placeholder("x")
    out = g.call_function(operator.neg, (x,))
    g.output(out)
    gm = GraphModule(g)
    first, first_file = gm.forward, gm.filename
    assert gm.forward is first  # compiled once, then reused
    with g.inserting_before(g.output_node):
        doubled = g.call_function(operator.mul, (out, 2))
    g.output_node.args = (doubled,)
    assert gm(3) == -3  # not recompiled yet: the function as first generated
    gm.recompile()
    assert gm(3) == -6
    assert gm.forward is not first
    assert gm.filename != first_file
    assert "mul = neg * 2" in gm.code


def test_a_backend_returning_the_module_gets_it_compiled_inside_backend_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NOTE [generated on first use]: the compile of the forward stays in the compile record
    (backend_compile), not on the compiled code's first run, whichever backend ran."""
    import tracer
    import tracer.runtime as torch

    modules: list[GraphModule] = []
    compiled_before_run: list[bool] = []
    call = GraphModule.__call__

    def spying_call(self: GraphModule, *args: Any) -> Any:
        compiled_before_run.append(self._forward is not None)
        return call(self, *args)

    monkeypatch.setattr(GraphModule, "__call__", spying_call)

    def returns_module(gm: GraphModule, example_inputs: list[Any]) -> Any:
        modules.append(gm)
        assert gm._forward is None  # nothing compiled before the backend ran
        return gm

    def double(x: Any) -> Any:
        return x * 2

    compiled = tracer.compile(double, backend=returns_module)
    result = compiled(torch.ones(2))
    assert result.tolist() == [2.0, 2.0]
    assert len(modules) == 1
    assert compiled_before_run == [True]


# -- every construct the source writes, against the Interpreter ----------------------------------


class Tagged(tuple[Any, ...]):
    """A tuple subclass without fields: rebuilt from one iterable."""


Span = collections.namedtuple("Span", "start stop")


def shift_scale(v: Any, factor: Any = 2, *, shift: Any = 0) -> Any:
    return v * factor + shift


class Box:
    def __init__(self, value: Any) -> None:
        self.value = value

    def get(self, extra: Any = 0, *, times: Any = 1) -> Any:
        return (self.value + extra) * times


class Sliceable(int):
    """An int whose subscripts and odd-named attribute make every construct valid."""

    def __getitem__(self, key: Any) -> Any:
        return ("item", key)

    def __getattr__(self, name: str) -> Any:
        return lambda: ("attr", name)


def every_construct() -> Graph:
    """Infix and prefix operators, keyword calls, subscripts and slices in index syntax,
    constants, method calls (also by a name that is not an identifier), and displays."""
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    binary = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
              operator.mod, operator.pow, operator.lshift, operator.rshift, operator.and_,
              operator.or_, operator.xor, operator.eq, operator.ne, operator.lt, operator.le,
              operator.gt, operator.ge, operator.is_, operator.is_not)  # fmt: skip
    unary = (operator.neg, operator.pos, operator.invert, operator.not_)
    nodes: list[Any] = [x, y]
    nodes += [g.call_function(fn, (x, y)) for fn in binary]
    nodes += [g.call_function(fn, (x,)) for fn in unary]
    nodes.append(g.call_function(operator.mul, (-2, x)))
    nodes.append(g.call_function(shift_scale, (x,), {"factor": -0.0, "shift": y}))
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
            Span(x, slice(1, y, 2)),
            Tagged((x, y)),
            (),
            (x,),
        )
    )
    return g


def canon(value: Any) -> Any:
    """Comparable form keeping what `==` hides: types, float signs, NaN."""
    if isinstance(value, tuple | list):
        return (type(value).__name__, [canon(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in value.items()])
    if isinstance(value, float | slice):
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


def outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return ("value", canon(fn(*args)))
    except Exception as error:  # noqa: BLE001 - the error itself is the compared outcome
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("y", [3, 0], ids=["value", "raises"])
def test_every_construct_runs_as_the_interpreter_does(y: int) -> None:
    graph = every_construct()
    compiled = outcome(GraphModule(graph), Sliceable(6), y)
    assert compiled == outcome(Interpreter(graph).run, Sliceable(6), y)
    assert compiled[0] == ("value" if y else "ZeroDivisionError")


def test_keyword_names_that_are_not_identifiers_are_passed_as_a_dict() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output(g.call_method("__add__", (x,), {"not-ident": 1}))
    gm = GraphModule(g)
    assert "**{'not-ident': 1}" in gm.code
    with pytest.raises(TypeError):
        gm(1)
    assert gm.forward.__code__.co_filename == gm.filename


def test_300_nodes_and_constants() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output(tuple(g.call_function(operator.add, (x, float(i) + 0.5)) for i in range(300)))
    assert GraphModule(g)(1.0) == Interpreter(g).run(1.0)
