"""Graph.create_flat_call is create_node for flat arguments whose nodes the caller already
knows: the graph it builds must be the one create_node builds, node for node (names, args,
users, inputs, meta, position), and it must refuse a node of another graph the same way."""

import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracer.graph import Graph, Node
from tracer.graph.graph import GraphLintError
from tracer.graph.node import collect_nodes, flat_inputs

TARGETS = [operator.add, operator.mul, "sin", "add"]

# one op: (call_function?, target index, args as ("node", index) or ("const", value)), and
# whether to build it inside `inserting_before`/`inserting_after` the node at some index
ARG = st.one_of(
    st.tuples(st.just("node"), st.integers(0, 40)),
    st.tuples(st.just("const"), st.one_of(st.integers(-3, 3), st.floats(allow_nan=False))),
)
OP = st.tuples(
    st.integers(0, len(TARGETS) - 1),
    st.lists(ARG, min_size=1, max_size=4),
    st.sampled_from([None, "before", "after"]),
    st.integers(0, 40),
)


def build(ops: list[Any], flat: bool) -> Graph:
    graph = Graph()
    nodes = [graph.placeholder("x"), graph.placeholder("y")]
    for target_index, raw_args, where, anchor_index in ops:
        target = TARGETS[target_index]
        op = "call_method" if isinstance(target, str) else "call_function"
        args = tuple(nodes[i % len(nodes)] if kind == "node" else i for kind, i in raw_args)
        if op == "call_method" and not isinstance(args[0], Node):
            args = (nodes[-1], *args)
        meta = {"val": len(nodes)}
        anchor = nodes[anchor_index % len(nodes)]
        if where is not None and anchor.op == "placeholder":
            where = None
        inputs = list(dict.fromkeys(a for a in args if isinstance(a, Node)))
        if where is None:
            nodes.append(make(graph, flat, op, target, args, inputs, meta))
        else:
            inserting = graph.inserting_before if where == "before" else graph.inserting_after
            with inserting(anchor):
                nodes.append(make(graph, flat, op, target, args, inputs, meta))
    graph.output(tuple(nodes))
    return graph


def make(graph: Graph, flat: bool, op: Any, target: Any, args: Any, inputs: Any, meta: Any) -> Node:
    if flat:
        return graph.create_flat_call(op, target, args, inputs, dict(meta))
    return graph.create_node(op, target, args, meta=dict(meta))


def snapshot(graph: Graph) -> list[Any]:
    return [
        (
            n.name, n.op, n.target, tuple(getattr(a, "name", a) for a in n.args), n.kwargs,
            [u.name for u in n.users], [i.name for i in n.all_input_nodes], n.meta,
        )
        for n in graph.nodes[:-1]
    ]  # fmt: skip


def lint_error(graph: Graph) -> str | None:
    try:
        graph.lint()
    except GraphLintError as e:
        return str(e)
    return None


@given(st.lists(OP, max_size=25))
def test_flat_call_builds_what_create_node_builds(ops: list[Any]) -> None:
    by_node, by_flat = build(ops, flat=False), build(ops, flat=True)
    assert lint_error(by_flat) == lint_error(by_node)  # inserts may use later nodes: both fail
    assert snapshot(by_flat) == snapshot(by_node)
    assert str(by_flat) == str(by_node)


def test_flat_call_refuses_a_node_of_another_graph() -> None:
    other = Graph().placeholder("z")
    graph = Graph()
    x = graph.placeholder("x")
    with pytest.raises(GraphLintError, match="uses 'z' from another graph"):
        graph.create_flat_call("call_function", operator.add, (x, other), [x, other], {})
    assert [n.name for n in graph.nodes] == ["x"]
    assert not x.users and not other.users


def test_flat_call_refuses_an_erased_node() -> None:
    """An erased node is no longer among the graph's nodes (nor its `_users` keys): refused
    as create_node refuses it, and nothing is left behind."""
    graph = Graph()
    x = graph.placeholder("x")
    gone = graph.call_function(operator.neg, (x,))
    graph.erase_node(gone)
    with pytest.raises(GraphLintError, match="uses 'neg' from another graph"):
        graph.create_flat_call("call_function", operator.add, (x, gone), [x, gone], {})
    with pytest.raises(GraphLintError, match="uses 'neg' from another graph"):
        graph.create_node("call_function", operator.add, (x, gone))
    assert [n.name for n in graph.nodes] == ["x"]
    assert not x.users


def test_flat_node_can_be_rewired_like_any_node() -> None:
    graph = Graph()
    x, y = graph.placeholder("x"), graph.placeholder("y")
    add = graph.create_flat_call("call_function", operator.add, (x, x), [x], {})
    add.replace_input_with(x, y)
    assert add.args == (y, y) and add.all_input_nodes == [y]
    assert not x.users and list(y.users) == [add]


LEAVES = st.one_of(st.integers(-3, 3), st.none(), st.text(max_size=2))
NESTED = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=2), st.lists(inner, max_size=2).map(tuple)),
    max_leaves=4,
)


@given(st.lists(st.one_of(st.integers(0, 2), NESTED), max_size=5))
def test_flat_inputs_are_the_nodes_create_node_finds(raw: list[Any]) -> None:
    """`flat_inputs(args)` is `collect_nodes(args)` for flat arguments and None otherwise."""
    graph = Graph()
    nodes = [graph.placeholder(name) for name in ("x", "y", "z")]
    args = tuple(nodes[a] if type(a) is int and a in (0, 1, 2) else a for a in raw)
    nested = any(isinstance(a, tuple | list | dict | slice) for a in args)
    assert flat_inputs(args) == (None if nested else collect_nodes(args))
