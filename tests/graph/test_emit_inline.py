"""The emitter's inline op calls (NOTE [op calls inline]) with literal arguments, and the op
global names worked out at import (`codegen.name_ops`).

Op calls whose arguments are stored nodes and literals are written by the emitter's fast loop;
the literals come from `_Loads.__missing__`. Each graph here is emitted both ways (fast loop
and general path) and against `compile()` of its text: same bytes, same names, same results.
"""

from __future__ import annotations

import enum
import math
import operator
from typing import Any

import pytest

import tracer.runtime as torch
from tests.graph.test_emit import assert_inline_calls_match_the_general_path, assert_same_forward
from tracer import backends  # noqa: F401 - names the runtime's ops (codegen.name_ops)
from tracer.graph import Graph, codegen
from tracer.graph.codegen import _impl_hint, python_code
from tracer.graph.emit import _Loads, emit_forward
from tracer.graph.naming import split_name
from tracer.runtime.dispatch import function_op


class Level(enum.IntEnum):
    LOW = 1


_LITERALS: list[Any] = [1, True, 1.0, -0.0, 0.0, 2**70, "s", b"b", None, ..., math.inf, math.nan]
"""Literals (LOAD_CONST), and values that look like them but are bound as globals (non-finite
floats, an int subclass): equal or hash-equal ones (1, True, 1.0) must keep separate slots."""


def literal_calls() -> Graph:
    """Runtime op calls on a node and each literal, then on nestings and a constant node."""
    g = Graph()
    x = g.placeholder("x")
    nodes = [g.call_function(torch.add, (x, value)) for value in (*_LITERALS, Level.LOW)]
    nodes.append(g.call_function(torch.mul, (1.0, True)))  # literals only
    nodes.append(g.call_function(torch.mul, (x, x)))  # one node twice
    nodes.append(g.call_function(torch.cat, ([x, x],)))  # a nesting: the general path
    weight = g.add_constant(torch.tensor([2.0]), "weight")
    nodes.append(g.call_function(torch.mul, (x, weight)))  # a get_attr: the general path
    nodes.append(g.call_function(torch.add, (nodes[0], 1)))  # the same op, bound once
    nodes.append(g.call_function(operator.add, (x, 1)))  # not an op: infix
    g.output(tuple(nodes))
    return g


def test_literal_arguments_inline_match_the_general_path_and_the_text() -> None:
    graph = literal_calls()
    assert_inline_calls_match_the_general_path(graph)
    assert_same_forward(graph, torch.tensor([1.0, -2.0]))
    code, namespace = emit_forward(graph, "forward", "<f>")
    consts = [(type(c), repr(c)) for c in code.co_consts]
    assert len(consts) == len(set(consts))  # 1, True, 1.0, -0.0, 0.0: each its own slot
    for literal in (1, True, 1.0, -0.0, 0.0, "s", b"b", ...):
        assert (type(literal), repr(literal)) in consts
    assert (float, "inf") not in consts and Level not in {kind for kind, _ in consts}  # globals
    assert sorted(n for n in namespace if n.startswith("torch_")) == [
        "torch_add",
        "torch_cat",
        "torch_mul",
    ]


def test_loads_gives_literals_without_keeping_them() -> None:
    consts: dict[Any, int] = {(type(None), None): 0}
    values: list[Any] = [None]
    loads = _Loads(consts, values)
    assert loads[1] == loads[1] == b"d\x01" and values == [None, 1]  # numbered once
    assert loads[2.5] == b"d\x02" and loads[True] == b"d\x03"  # True is not 1
    assert len(loads) == 0 and 1 not in loads and loads.get(1) is None  # nothing kept
    for value in (math.inf, math.nan, Level.LOW, (1,), [1], object()):
        with pytest.raises((KeyError, TypeError)):
            loads[value]
    assert values == [None, 1, 2.5, True]


def test_op_names_worked_out_at_import_match_the_bind_time_names() -> None:
    runtime_ops = [torch.add, torch.matmul, torch.Tensor.__radd__, torch.Tensor.sum]
    for op in runtime_ops:
        info = op.__modetrace_op__
        assert codegen._OP_GLOBALS[id(info)] == (info, *split_name(_impl_hint(info)))

    def scaled_(v: Any) -> Any:  # an op defined after import: named at bind time
        return v * 2

    late = function_op(scaled_)
    assert id(late.__modetrace_op__) not in codegen._OP_GLOBALS
    g = Graph()
    x = g.placeholder("torch_add")  # a parameter named like an impl's global
    g.output((g.call_function(torch.add, (x, 1)), g.call_function(late, (x,))))
    source = python_code(g).source
    assert "torch_add_1(torch_add, 1)" in source and "torch_scaled(torch_add)" in source
    assert_inline_calls_match_the_general_path(g)
    assert_same_forward(g, torch.tensor([1.0]))


@pytest.mark.parametrize(
    "returned",
    ["nodes", "literals", "constant", "nesting", "empty", "bare"],
)
def test_returns_inline_match_the_general_path_and_the_text(returned: str) -> None:
    """The usual return, a tuple of stored nodes and literals, is written by the fast loop;
    a get_attr or a nesting in it, an empty tuple or a bare node take the general path."""
    g = Graph()
    x = g.placeholder("x")
    y = g.call_function(torch.add, (x, 1))
    weight = g.add_constant(torch.tensor([2.0]), "weight")
    outputs: dict[str, Any] = {
        "nodes": (y, x, y),
        "literals": (y, 2, 1.5, None),
        "constant": (y, weight),
        "nesting": (y, [x, y]),
        "empty": (),
        "bare": y,
    }
    g.output(outputs[returned])
    assert_inline_calls_match_the_general_path(g)
    assert_same_forward(g, torch.tensor([1.0, -2.0]))
