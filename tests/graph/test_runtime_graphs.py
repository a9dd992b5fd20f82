"""Graphs of runtime ops: impl-calling codegen, no mode dispatch, passes, random tensor DAGs."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.graph.runtime_helpers import RecordingMode, canon, meta_of
from tracer.graph import FakeTensorProp, Graph, GraphModule, Interpreter, Node, passes


def tensor_graph() -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(torch.add, (x, y), {"alpha": 2})
    sin = g.call_method("sin", (add,))
    mul = g.call_function(torch.Tensor.__mul__, (sin, x))
    total = g.call_method("sum", (mul,), {"dim": 1})
    weight = g.add_constant(torch.tensor([1.0, 2.0, 3.0]), "w")
    shifted = g.call_function(operator.add, (mul, weight))
    flipped = g.call_function(operator.sub, (1, shifted))
    ones = g.call_function(torch.ones, (2, 3), {"dtype": torch.float64})
    g.output((total, flipped, ones))
    return g


def args() -> tuple[torch.Tensor, torch.Tensor]:
    return torch.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]), torch.tensor([1.0, -1.0, 0.0])


def eager(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, ...]:
    mul = torch.add(x, y, alpha=2).sin() * x
    w = torch.tensor([1.0, 2.0, 3.0])
    return mul.sum(dim=1), 1 - (mul + w), torch.ones(2, 3, dtype=torch.float64)


def test_codegen_calls_impls_once_types_are_known() -> None:
    g = tensor_graph()
    untyped = GraphModule(g).code
    assert "sin = add.sin()" in untyped and "add_1 = mul + w" in untyped
    FakeTensorProp(g).propagate(*args())
    gm = GraphModule(g)
    assert gm.code == (
        "def forward(x, y):\n"
        "    add = torch_add(x, y, alpha=2)\n"
        "    sin = tensor_sin(add)\n"
        "    mul = tensor_mul(sin, x)\n"
        "    sum = tensor_sum(mul, dim=1)\n"
        "    add_1 = tensor_add(mul, w)\n"
        "    sub = tensor_rsub(add_1, 1)\n"
        "    ones = torch_ones(2, 3, dtype=float64)\n"
        "    return (sum, sub, ones)\n"
    )
    assert gm.forward.__globals__["tensor_sin"] is torch.Tensor.sin.__modetrace_op__.impl
    assert canon(gm(*args())) == canon(Interpreter(g).run(*args())) == canon(eager(*args()))


def test_compiled_graphs_do_not_dispatch_to_modes() -> None:
    g = tensor_graph()
    FakeTensorProp(g).propagate(*args())
    gm, x, y = GraphModule(g), *args()
    with RecordingMode() as mode:
        compiled = gm(x, y)
        interpreted = Interpreter(g).run(x, y)
        assert mode.calls == []
        eager_result = eager(x, y)
    assert "sin" in mode.calls and "__rsub__" in mode.calls  # the check can see dispatch
    assert canon(compiled) == canon(interpreted) == canon(eager_result)


def test_interpreter_resolves_methods_without_meta() -> None:
    g = tensor_graph()  # no FakeTensorProp: the Interpreter resolves from the values
    x, y = args()
    with RecordingMode() as mode:
        result = Interpreter(g).run(x, y)
    assert mode.calls == []
    assert canon(result) == canon(eager(x, y))


def test_factories_fold_and_random_ops_do_not() -> None:
    g = Graph()
    x = g.placeholder("x")
    ones = g.call_function(torch.ones, (3,))
    twos = g.call_function(torch.mul, (ones, 2.0))
    noise_a = g.call_function(torch.randn, (3,))
    noise_b = g.call_function(torch.randn, (3,))  # same call, different values: not merged
    g.call_function(torch.rand, (3,))  # dead, but random: kept (it advances the RNG)
    scaled = g.call_function(torch.mul, (x, twos))
    g.output((g.call_function(torch.add, (scaled, noise_a)), noise_b))
    FakeTensorProp(g).propagate(torch.ones(3))
    counts = passes.run_passes(g)
    assert counts == {
        "fold_constants": 2,
        "eliminate_common_subexpressions": 0,
        "eliminate_dead_code": 0,
    }
    g.lint()
    assert [n.name for n in g.nodes] == [
        "x", "mul_folded", "randn", "randn_1", "rand", "mul_1", "add", "output",
    ]  # fmt: skip
    assert g.nodes[1].meta["val"].shape == (3,)  # meta moves to the folded constant
    torch.manual_seed(0)
    expected = (torch.ones(3) * 2.0 * 3.0 + torch.randn(3), torch.randn(3))
    torch.manual_seed(0)
    assert canon(GraphModule(g)(torch.full((3,), 3.0))) == canon(expected)


UNARY_FNS: list[Callable[..., Any]] = [torch.sin, torch.neg, torch.tanh, torch.abs, operator.neg]
BINARY_FNS: list[Callable[..., Any]] = [
    torch.add, torch.sub, torch.mul, torch.maximum, operator.add, operator.mul, operator.sub,
]  # fmt: skip
UNARY_METHODS = ["cos", "sigmoid", "__neg__"]
BINARY_METHODS = ["add", "mul", "__rsub__", "__truediv__"]


@st.composite
def tensor_programs(draw: st.DrawFn) -> tuple[int, list[tuple[Any, bool, list[Any]]], list[int]]:
    """(number of inputs, steps as (fn or method name, is method, operands), output indices).

    Operands are ints (an earlier value), floats (a constant) or "w"/"ones" (a constant tensor
    read through get_attr / made by a factory, so constant folding has material).
    """
    n_inputs = draw(st.integers(1, 3))
    steps: list[tuple[Any, bool, list[Any]]] = []
    tensors = list(range(n_inputs))  # the values known to be tensors (a function of constants
    # alone makes a float, `neg(0.5)`, whose dunder method would return NotImplemented)
    for i in range(draw(st.integers(1, 8))):
        ref = st.integers(0, n_inputs + i - 1)
        operand = st.one_of(ref, st.sampled_from([0.5, -2.0, "w", "ones"]))
        is_method = draw(st.booleans())
        fn = draw(st.sampled_from([*UNARY_METHODS, *BINARY_METHODS] if is_method else UNARY_FNS))
        if not is_method and draw(st.booleans()):
            fn = draw(st.sampled_from(BINARY_FNS))
        arity = 1 if fn in UNARY_FNS or fn in UNARY_METHODS else 2
        # a method needs a tensor receiver
        first = draw(st.sampled_from(tensors) if is_method else operand)
        operands = [first, *(draw(operand) for _ in range(arity - 1))]
        if any(o in ("w", "ones") or (type(o) is int and o in tensors) for o in operands):
            tensors.append(n_inputs + i)
        steps.append((fn, is_method, operands))
    outputs = draw(st.lists(st.integers(0, n_inputs + len(steps) - 1), min_size=1, max_size=2))
    return n_inputs, steps, outputs


W = torch.tensor([[1.0, -1.0], [0.5, 2.0]])


def run_direct(program: Any, inputs: list[torch.Tensor]) -> Any:
    _, steps, outputs = program
    values: list[Any] = list(inputs)
    for fn, is_method, operands in steps:
        ops = [values[o] if isinstance(o, int) else o for o in operands]
        ops = [W if o == "w" else torch.ones(2, 2) if o == "ones" else o for o in ops]
        values.append(getattr(ops[0], fn)(*ops[1:]) if is_method else fn(*ops))
    return tuple(values[i] for i in outputs)


def build_graph(program: Any) -> Graph:
    n_inputs, steps, outputs = program
    g = Graph()
    values: list[Node] = [g.placeholder("x") for _ in range(n_inputs)]
    w = g.add_constant(W, "w")

    def operand(o: Any) -> Any:
        if o == "ones":
            return g.call_function(torch.ones, (2, 2))
        return values[o] if isinstance(o, int) else w if o == "w" else o

    for fn, is_method, operands in steps:
        node_args = tuple(operand(o) for o in operands)
        call = g.call_method if is_method else g.call_function
        values.append(call(fn, node_args))
    g.output(tuple(values[i] for i in outputs))
    return g


def outcome(fn: Callable[[], Any], view: Callable[[Any], Any] = canon) -> tuple[str, Any]:
    try:
        return ("value", view(fn()))
    except Exception as error:  # noqa: BLE001 - the error is the compared outcome
        return (type(error).__name__, str(error))


@given(tensor_programs(), st.lists(st.floats(-3, 3, width=32), min_size=12, max_size=12))
def test_random_tensor_dags_agree_before_and_after_passes(program: Any, raw: list[float]) -> None:
    inputs = [torch.tensor([raw[4 * i : 4 * i + 2], raw[4 * i + 2 : 4 * i + 4]]) for i in range(3)]
    inputs = inputs[: program[0]]
    expected = outcome(lambda: run_direct(program, inputs))
    g = build_graph(program)
    g.lint()
    fake = outcome(lambda: FakeTensorProp(g).propagate(*inputs), meta_of)
    assert outcome(lambda: GraphModule(g)(*inputs)) == expected, g
    assert outcome(lambda: Interpreter(g).run(*inputs)) == expected, g
    if expected[0] != "value":
        assert fake == expected  # the same error, found without computing anything
        return  # the backend only optimizes graphs that propagated cleanly
    assert fake == ("value", meta_of(run_direct(program, inputs)))
    counts = passes.run_passes(g)
    g.lint()
    assert outcome(lambda: GraphModule(g)(*inputs)) == expected, (counts, g)
    assert outcome(lambda: Interpreter(g).run(*inputs)) == expected, (counts, g)
