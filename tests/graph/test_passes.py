"""Dead code, common subexpressions and constant folding on hand-built graphs of plain callables."""

from __future__ import annotations

import math
import operator
from typing import Any

import pytest

from tracer.graph import Graph, GraphModule, Interpreter, passes

calls: list[Any] = []


def record(v: Any) -> Any:
    """An impure function: the passes must neither drop, merge nor precompute it."""
    calls.append(v)
    return v


def run_both(g: Graph, *args: Any) -> Any:
    compiled, interpreted = GraphModule(g)(*args), Interpreter(g).run(*args)
    assert compiled == interpreted
    return compiled


def test_dead_code_goes_chains_included() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.placeholder("unused")  # an unused input is never dead code
    dead = g.call_function(operator.neg, (x,))
    g.call_function(operator.abs, (dead,))
    g.call_method("bit_length", (x,))  # unknown method on unknown receiver: kept
    g.call_function(record, (x,))  # unknown function: kept
    g.add_constant(5, "dead_const")
    live = g.call_function(operator.mul, (x, 2))
    g.output(live)
    before = run_both(g, 3, 0)
    assert passes.eliminate_dead_code(g) == 3
    g.lint()
    assert [n.name for n in g.nodes] == ["x", "unused", "bit_length", "record", "mul", "output"]
    assert g.constants == {}
    assert run_both(g, 3, 0) == before == 6
    assert passes.eliminate_dead_code(g) == 0


def test_dead_code_keeps_constants_still_read() -> None:
    g = Graph()
    g.add_constant(7, "k")
    g.output(g.get_attr("k"))
    assert passes.eliminate_dead_code(g) == 1
    assert g.constants == {"k": 7}


def test_dead_code_without_a_dead_node_changes_nothing() -> None:
    """Only the output unused: the pass answers from the users it counts, erasing nothing."""
    g = Graph()
    x = g.placeholder("x")
    g.output(g.call_function(operator.neg, (g.call_function(operator.abs, (x,)),)))
    before = str(g)
    assert passes.eliminate_dead_code(g) == 0
    assert str(g) == before


def test_dead_code_when_the_output_is_not_the_only_unused_node() -> None:
    """No output at all, or an output that is not last: the sweep still finds the dead node."""
    g = Graph()
    x = g.placeholder("x")
    g.call_function(operator.neg, (x,))
    assert passes.eliminate_dead_code(g) == 1
    assert [n.op for n in g.nodes] == ["placeholder"]
    g = Graph()
    x = g.placeholder("x")
    out = g.output(x)
    with g.inserting_after(out):
        g.call_function(operator.neg, (x,))
    assert passes.eliminate_dead_code(g) == 1
    assert [n.op for n in g.nodes] == ["placeholder", "output"]


def test_common_subexpressions_are_merged() -> None:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    a1 = g.call_function(operator.add, (x, y))
    a2 = g.call_function(operator.add, (x, y))
    swapped = g.call_function(operator.add, (y, x))  # different arguments: kept
    m1 = g.call_function(operator.mul, (a1, 2))
    m2 = g.call_function(operator.mul, (a2, 2))  # equal once a2 is a1
    m_float = g.call_function(operator.mul, (a1, 2.0))  # 2 and 2.0 differ in type: kept
    m_bool = g.call_function(operator.mul, (a1, True))
    z1 = g.call_function(operator.add, (x, 0.0))
    z2 = g.call_function(operator.add, (x, -0.0))  # different float: kept
    r1, r2 = g.call_function(record, (x,)), g.call_function(record, (x,))  # impure: kept
    s1 = g.call_function(max, ([x, y],), {"default": 0})
    s2 = g.call_function(max, ([x, y],), {"default": 0})
    m_sum = g.call_function(operator.add, (m1, m2))
    s_sum = g.call_function(operator.add, (s1, s2))
    g.output((m_sum, swapped, m_float, m_bool, z1, z2, r1, r2, s_sum))
    before = run_both(g, -0.0, 2.5)
    assert passes.eliminate_common_subexpressions(g) == 3
    g.lint()
    names = [n.name for n in g.nodes if n.op == "call_function"]
    assert names == [
        "add", "add_2", "mul", "mul_2", "mul_3", "add_3", "add_4", "record", "record_1", "max",
        "add_5", "add_6",
    ]  # fmt: skip
    after = run_both(g, -0.0, 2.5)
    assert after == before and math.copysign(1, after[5]) == math.copysign(1, before[5])


def test_duplicates_that_are_both_outputs_keep_their_identity() -> None:
    """Each call returns a new object; merging two returned results would alias them."""
    g = Graph()
    x = g.placeholder("x")
    first = g.call_function(operator.neg, (x,))
    second = g.call_function(operator.neg, (x,))
    g.output((first, second))
    assert passes.eliminate_common_subexpressions(g) == 0
    assert len([n for n in g.nodes if n.op == "call_function"]) == 2


def test_fold_constants_precomputes_placeholder_free_subgraphs() -> None:
    g = Graph()
    x = g.placeholder("x")
    table = g.add_constant([3.0, 4.0], "table")
    first = g.call_function(operator.getitem, (table, 0))
    second = g.call_function(operator.getitem, (table, 1))
    hyp = g.call_function(math.hypot, (first, second))  # 5.0, a scalar: inlined
    pair = g.call_function(operator.add, ((hyp,), (hyp,)))  # a tuple: becomes a get_attr
    length = g.call_method("__len__", (pair,))  # unknown method: not folded
    scaled = g.call_function(operator.mul, (x, hyp))
    g.output((scaled, length))
    before = run_both(g, 2.0)
    assert passes.fold_constants(g) == 4
    g.lint()
    assert str(g) == (
        "graph(x):\n"
        "    %table = get_attr[target=table]\n"  # unused now: dead code removes it
        "    %add_folded = get_attr[target=add_folded]\n"
        "    %len = call_method[target=__len__](args = (%add_folded,))\n"
        "    %mul = call_function[target=operator.mul](args = (%x, 5.0))\n"
        "    return (%mul, %len)"
    )
    assert g.constants == {"table": [3.0, 4.0], "add_folded": (5.0, 5.0)}
    assert run_both(g, 2.0) == before == (10.0, 2)
    assert passes.eliminate_dead_code(g) == 1
    assert g.constants == {"add_folded": (5.0, 5.0)}


def test_fold_constants_leaves_errors_for_run_time() -> None:
    g = Graph()
    x = g.placeholder("x")
    bad = g.call_function(math.log, (-1.0,))
    g.output(g.call_function(operator.add, (x, bad)))
    assert passes.fold_constants(g) == 0
    with pytest.raises(ValueError, match="math domain error"):
        GraphModule(g)(1.0)


def test_fold_constants_keeps_fresh_outputs_fresh() -> None:
    g = Graph()
    x = g.placeholder("x")
    pair = g.call_function(list, ((1, 2),))
    g.output((pair, x))
    assert passes.fold_constants(g) == 0
    gm = GraphModule(g)
    assert gm(0)[0] is not gm(0)[0]


def test_fold_constants_skips_impure_and_placeholder_dependent() -> None:
    g = Graph()
    x = g.placeholder("x")
    logged = g.call_function(record, (2,))
    g.output(g.call_function(operator.add, (x, logged)))
    assert passes.fold_constants(g) == 0
    calls.clear()
    GraphModule(g)(1)
    assert calls == [2]


def test_run_passes_reports_each_pass() -> None:
    g = Graph()
    x = g.placeholder("x")
    two = g.call_function(operator.add, (1, 1))
    a = g.call_function(operator.mul, (x, two))
    b = g.call_function(operator.mul, (x, 2))
    g.call_function(operator.neg, (a,))
    g.output(g.call_function(operator.add, (a, b)))
    counts = passes.run_passes(g)
    assert counts == {
        "fold_constants": 1,
        "eliminate_common_subexpressions": 1,
        "eliminate_dead_code": 1,
    }
    assert run_both(g, 3) == 12
    assert str(g).splitlines()[1:] == [
        "    %mul = call_function[target=operator.mul](args = (%x, 2))",
        "    %add_1 = call_function[target=operator.add](args = (%mul, %mul))",
        "    return %add_1",
    ]


def test_constant_evaluation_starts_only_at_input_free_nodes() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output(g.call_function(operator.mul, (g.call_function(operator.add, (x, 1)), 2)))
    assert passes._evaluate_constant_nodes(g) == {}  # nothing without inputs but x and output
    h = Graph()
    y = h.placeholder("y")
    three = h.call_function(operator.add, (1, 2))  # no node inputs: a constant subgraph root
    six = h.call_function(operator.mul, (three, 2))
    h.output(h.call_function(operator.add, (y, six)))
    assert list(passes._evaluate_constant_nodes(h).values()) == [3, 6]
