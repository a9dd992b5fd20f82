"""NOTE [acyclic graph]: nodes hold their graph weakly and their users live in the graph, so a
graph nobody holds is freed by reference counting, with everything its nodes carry."""

from __future__ import annotations

import gc
import operator
import weakref

import pytest

from tracer.graph import Graph, GraphLintError


class _Payload:
    """Something a node's metadata carries, that takes weak references."""


def _graph_with_payload() -> tuple[Graph, weakref.ref[_Payload]]:
    g = Graph()
    x = g.placeholder("x")
    add = g.call_function(operator.add, (x, x))
    mul = g.call_function(operator.mul, (add, x))
    payload = _Payload()
    mul.meta["val"] = payload
    g.output((mul,))
    return g, weakref.ref(payload)


def test_a_dropped_graph_is_freed_by_reference_counting() -> None:
    gc.disable()
    try:
        g, payload = _graph_with_payload()
        graph = weakref.ref(g)
        del g
        assert graph() is None
        assert payload() is None
    finally:
        gc.enable()


def test_a_node_outliving_its_graph_has_no_graph_and_no_users() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output((g.call_function(operator.neg, (x,)),))
    assert x.graph is g and len(x.users) == 1
    del g
    gc.collect()
    assert x.graph is None
    assert x.users == {}


def test_users_are_shared_with_the_graph_and_stay_exact() -> None:
    g = Graph()
    x = g.placeholder("x")
    neg = g.call_function(operator.neg, (x,))
    add = g.call_function(operator.add, (neg, x))
    assert list(x.users) == [neg, add] and list(neg.users) == [add]
    add.args = (x, 1)
    assert list(x.users) == [neg, add] and not neg.users
    g.erase_node(neg)
    assert list(x.users) == [add]
    g.output((add,))
    g.lint()


def test_an_erased_node_belongs_to_no_graph_and_cannot_be_used_again() -> None:
    g = Graph()
    x = g.placeholder("x")
    neg = g.call_function(operator.neg, (x,))
    g.erase_node(neg)
    assert neg.graph is None and neg.users == {}
    with pytest.raises(GraphLintError, match="another graph"):
        g.call_function(operator.abs, (neg,))
    assert not x.users
    g.output((x,))
    g.lint()
