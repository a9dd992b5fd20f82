"""`eliminate_common_subexpressions` against the plain one-dict version it replaced.

Both run on copies of the same graphs (random DAGs, graphs with repeated constants and
calls, the workloads' graphs); the resulting graphs must print the same and the counts match.
"""

from __future__ import annotations

import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from benchmarks.workloads import make_workloads
from tests.graph.test_random_dags import build, programs
from tracer.graph import Graph, GraphModule, Node, passes


def reference_cse(graph: Graph) -> int:
    """The pass as it was before bucketing (one dict over every node's full key).

    Two nodes that are both graph outputs are never merged: each call of an op returns a new
    object, and returning one object twice would be visible (`a is b`) to the caller.
    One sweep, asking `is_pure` once per distinct key: purity depends only on what the key holds
    (op, target, and for methods the receiver, whose type the key pins down).
    """
    first: dict[Any, Node | None] = {}  # key -> the node to keep, None if the call is impure
    merged = 0
    outputs: set[Node] | None = None  # found on the first duplicate: most graphs have none
    pure = passes._purity_by_target()
    for node in graph.nodes:
        op = node.op
        if op not in passes._MERGEABLE:
            continue
        target = node.target if isinstance(node.target, str) else id(node.target)
        kwargs = node.kwargs
        # _key of the arguments, with node arguments (the usual case) inline.
        args = tuple([a if type(a) is Node else passes._key(a) for a in node.args])
        key = (op, target, args, passes._key(kwargs) if kwargs else None)
        if key not in first:
            first[key] = node if pure(node) else None
            continue
        kept = first[key]
        if kept is None:
            continue
        if outputs is None:
            outputs = passes._output_nodes(graph)
        if node in outputs and kept in outputs:
            continue
        if node in outputs:
            outputs.add(kept)  # the kept node is returned now
        node.replace_all_uses_with(kept)
        graph.erase_node(node)
        merged += 1
    return merged


def assert_same_merges(make: Any) -> None:
    new_graph, old_graph = make(), make()
    assert passes.eliminate_common_subexpressions(new_graph) == reference_cse(old_graph)
    assert str(new_graph) == str(old_graph)


@given(programs())
def test_random_dags(program: Any) -> None:
    assert_same_merges(lambda: build(program))


def record(v: Any) -> Any:
    return v


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 5)), max_size=25))
def test_repeated_calls_on_shared_inputs(steps: list[tuple[int, int, int]]) -> None:
    """Many nodes per (op, target, first input): the buckets where keys must be compared."""
    fns = [operator.add, operator.mul, record, max, "__add__"]

    def make() -> Graph:
        g = Graph()
        values: list[Node] = [g.placeholder("x"), g.placeholder("y")]
        for fn_index, which, constant in steps:
            fn = fns[fn_index]
            args = (values[which % len(values)], [constant, 1.0, -0.0, True][constant % 4])
            if isinstance(fn, str):
                values.append(g.call_method(fn, args))
            else:
                values.append(g.call_function(fn, args))
        g.output(tuple(values[-3:]))
        return g

    assert_same_merges(make)


@pytest.mark.parametrize("workload", make_workloads(torch), ids=lambda w: w.name)
def test_workload_graphs(workload: Any) -> None:
    graphs: list[Graph] = []

    def capture(gm: GraphModule, example_inputs: list[Any]) -> Any:
        graphs.append(gm.graph)
        return gm.forward

    tracer.reset()
    with workload.call_context():
        tracer.compile(workload.fn, backend=capture)(*workload.make_args())
    for graph in graphs:
        # Graphs hold FakeTensors in meta, so copy by re-tracing rather than deepcopy.
        passes.fold_constants(graph)
        assert_same_merges(lambda graph=graph: _copy(graph))


def _copy(graph: Graph) -> Graph:
    """A node-for-node copy (same names, targets, constants and meta)."""
    g = Graph()
    g.constants.update(graph.constants)
    mapping: dict[Node, Node] = {}
    for node in graph.nodes:
        args = passes.map_arg(node.args, mapping.__getitem__)
        kwargs = passes.map_arg(node.kwargs, mapping.__getitem__)
        mapping[node] = g.create_node(
            node.op, node.target, args, kwargs, node.name, dict(node.meta)
        )
    return g


def test_a_constant_and_a_method_of_the_same_name_on_a_constant() -> None:
    """Buckets leave the op out: a get_attr `upper` and `"ab".upper()` (no input node either)
    share one, and only their full keys tell them apart; the get_attr's duplicate still merges."""

    def make() -> Graph:
        g = Graph()
        g.constants["upper"] = "AB"
        first = g.get_attr("upper")
        method = g.call_method("upper", ("ab",))
        again = g.get_attr("upper")
        g.output((g.call_function(operator.add, (first, again)), method))
        return g

    assert_same_merges(make)
    g = make()
    assert passes.eliminate_common_subexpressions(g) == 1
    assert [n.op for n in g.nodes] == ["get_attr", "call_method", "call_function", "output"]
