"""Random DAGs of unary/binary ops: GraphModule == Interpreter == direct evaluation, before and
after every pass (errors included: the same exception type and message everywhere).

Dead code elimination may drop the error of a dead call (`0 // 0` whose result nobody reads),
so after it the reference is the program restricted to the steps the outputs depend on.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tracer.graph import Graph, GraphModule, Interpreter, Node, passes

UNARY: list[Callable[..., Any]] = [operator.neg, operator.abs, operator.invert]
BINARY: list[Callable[..., Any]] = [
    operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod, max, min,
]  # fmt: skip
METHODS = ["__add__", "__mul__", "__sub__"]


@dataclasses.dataclass(frozen=True)
class Ref:
    """An operand that is the value of an earlier input or step."""

    index: int


@dataclasses.dataclass(frozen=True)
class Step:
    fn: Callable[..., Any] | str  # a str is a method called on operands[0]
    operands: tuple[Ref | int, ...]


@dataclasses.dataclass(frozen=True)
class Program:
    n_inputs: int
    steps: tuple[Step, ...]
    outputs: tuple[int, ...]


@st.composite
def programs(draw: st.DrawFn) -> Program:
    n_inputs = draw(st.integers(1, 3))
    steps: list[Step] = []
    for i in range(draw(st.integers(1, 10))):
        # Constants are frequent enough to give fold_constants placeholder-free subgraphs.
        operand = st.one_of(st.builds(Ref, st.integers(0, n_inputs + i - 1)), st.integers(-3, 3))
        fn = draw(st.sampled_from([*UNARY, *BINARY, *METHODS]))
        arity = 1 if fn in UNARY else 2
        steps.append(Step(fn, tuple(draw(operand) for _ in range(arity))))
    values = st.integers(0, n_inputs + len(steps) - 1)
    outputs = draw(st.lists(values, min_size=1, max_size=3))
    return Program(n_inputs, tuple(steps), tuple(outputs))


def live_steps(program: Program) -> set[int]:
    """Indices (into inputs + steps) of the values the outputs or impure method calls need."""
    first = program.n_inputs
    impure = {first + i for i, step in enumerate(program.steps) if isinstance(step.fn, str)}
    live = set(program.outputs) | impure
    for index in reversed(range(first, first + len(program.steps))):
        if index in live:
            step = program.steps[index - program.n_inputs]
            live |= {o.index for o in step.operands if isinstance(o, Ref)}
    return live


def evaluate(program: Program, inputs: tuple[int, ...], live_only: bool) -> tuple[Any, ...]:
    values: list[Any] = list(inputs)
    live = live_steps(program) if live_only else range(program.n_inputs + len(program.steps))

    def get(operand: Ref | int) -> Any:
        return values[operand.index] if isinstance(operand, Ref) else operand

    for index, step in enumerate(program.steps, start=program.n_inputs):
        if index not in live:
            values.append(None)
            continue
        args = [get(o) for o in step.operands]
        if isinstance(step.fn, str):
            values.append(getattr(args[0], step.fn)(*args[1:]))
        else:
            values.append(step.fn(*args))
    return tuple(values[i] for i in program.outputs)


def build(program: Program) -> Graph:
    g = Graph()
    values: list[Node] = [g.placeholder("x") for _ in range(program.n_inputs)]

    def get(operand: Ref | int) -> Any:
        return values[operand.index] if isinstance(operand, Ref) else operand

    for step in program.steps:
        args = tuple(get(o) for o in step.operands)
        if isinstance(step.fn, str):
            values.append(g.call_method(step.fn, args))
        else:
            values.append(g.call_function(step.fn, args))
    g.output(tuple(values[i] for i in program.outputs))
    return g


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", fn())
    except Exception as error:  # noqa: BLE001 - the error itself is the compared outcome
        return (type(error).__name__, str(error))


def assert_all_agree(
    program: Program, g: Graph, inputs: tuple[int, ...], live_only: bool = False
) -> None:
    g.lint()
    expected = outcome(lambda: evaluate(program, inputs, live_only))
    gm = GraphModule(g)
    assert outcome(lambda: gm.forward(*inputs)) == expected, gm.code
    assert outcome(lambda: Interpreter(g).run(*inputs)) == expected, str(g)


@given(programs(), st.lists(st.integers(-5, 5), min_size=3, max_size=3))
def test_random_dags_agree_before_and_after_passes(program: Program, raw: list[int]) -> None:
    inputs = tuple(raw[: program.n_inputs])
    g = build(program)
    assert_all_agree(program, g, inputs)
    nodes_before = len(g)
    counts = passes.run_passes(g)
    assert len(g) <= nodes_before
    assert_all_agree(program, g, inputs, live_only=True)
    assert passes.eliminate_dead_code(g) == 0, f"dead code left after {counts}"


@given(programs(), st.lists(st.integers(-5, 5), min_size=3, max_size=3))
def test_each_pass_alone_keeps_results(program: Program, raw: list[int]) -> None:
    inputs = tuple(raw[: program.n_inputs])
    for single in passes.DEFAULT_PASSES:
        g = build(program)
        single(g)
        assert_all_agree(program, g, inputs, live_only=single is passes.eliminate_dead_code)
