"""Node naming, users bookkeeping, map_arg and repr, on graphs of plain Python callables."""

from __future__ import annotations

import collections
import keyword
import math
import operator
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracer.graph import Graph, Node, map_arg
from tracer.graph.naming import Namespace, base_name, sanitize, target_name
from tracer.graph.node import _inputs_of, collect_nodes


def test_names_are_readable_and_unique() -> None:
    g = Graph()
    x = g.placeholder("x")
    x2 = g.placeholder("x")
    adds = [g.call_function(operator.add, (x, x2)) for _ in range(3)]
    sin = g.call_function(math.sin, (adds[0],))
    method = g.call_method("bit_length", (x,))
    lam = g.call_function(lambda v: v, (x,))
    keyword_named = g.placeholder("if")
    assert [x.name, x2.name] == ["x", "x_1"]
    assert [a.name for a in adds] == ["add", "add_1", "add_2"]
    assert (sin.name, method.name, lam.name, keyword_named.name) == (
        "sin",
        "bit_length",
        "lambda_",
        "if_",
    )


def test_namespace_skips_taken_counters() -> None:
    ns = Namespace({"add_1"})
    assert [ns.create("add"), ns.create("add"), ns.create("add")] == ["add", "add_2", "add_3"]
    assert "add_3" in ns and "add_4" not in ns


@pytest.mark.parametrize(
    ("raw", "clean"),
    [("x", "x"), ("a.b-c", "a_b_c"), ("0x", "_0x"), ("", "v"), ("class", "class_"), ("é", "é")],
)
def test_sanitize(raw: str, clean: str) -> None:
    assert sanitize(raw) == clean


@given(st.text(alphabet=st.sampled_from("ab_19.-<> éif"), max_size=8) | st.text(max_size=6))
def test_sanitize_fast_path_agrees_with_the_regex(raw: str) -> None:
    name = re.sub(r"\W+", "_", raw).strip("_") or "v"
    name = f"_{name}" if name[0].isdigit() else name
    assert sanitize(raw) == (f"{name}_" if keyword.iskeyword(name) else name)


def test_target_and_base_names() -> None:
    assert target_name(operator.add) == "operator.add"
    assert target_name(math.sqrt) == "math.sqrt"
    assert target_name(len) == "len"
    assert target_name("sin") == "sin"
    assert base_name(operator.__add__) == "add"

    def op() -> None: ...

    op.__modetrace_op__ = type("Info", (), {"name": "mul"})()  # type: ignore[attr-defined]
    assert target_name(op) == "mul" and base_name(op) == "mul"


def test_users_follow_creation_and_replacement() -> None:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(operator.add, (x, y))
    mul = g.call_function(operator.mul, (add, add), {"unused": x})
    out = g.output((mul, [add]))
    assert list(x.users) == [add, mul]
    assert list(add.users) == [mul, out]
    assert mul.all_input_nodes == [add, x]  # distinct, in argument order

    sub = g.call_function(operator.sub, (x, y))
    changed = add.replace_all_uses_with(sub)
    assert changed == [mul, out]
    assert not add.users
    assert list(sub.users) == [mul, out]
    assert mul.args == (sub, sub) and out.args == ((mul, [sub]),)


_Pair = collections.namedtuple("_Pair", ["left", "right"])


@given(st.data())
def test_collect_nodes_walks_like_map_arg(data: st.DataObject) -> None:
    g = Graph()
    nodes = [g.placeholder(f"n{i}") for i in range(4)]
    leaves = st.sampled_from(nodes) | st.integers(-2, 2) | st.none() | st.just("s")
    nested = st.recursive(
        leaves,
        lambda inner: (
            st.tuples(inner, inner)
            | st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from("abc"), inner, max_size=2)
            | st.builds(slice, inner, inner, inner)
            | st.builds(_Pair, inner, inner)
        ),
        max_leaves=10,
    )
    arg = data.draw(nested)
    by_map_arg: dict[Node, None] = {}
    map_arg(arg, lambda n: by_map_arg.setdefault(n) or n)
    assert collect_nodes(arg) == list(by_map_arg)
    # a node's inputs are collected from (args, kwargs) without walking the pair
    args = tuple(data.draw(st.lists(nested, max_size=3)))
    kwargs = data.draw(st.dictionaries(st.sampled_from("xyz"), nested, max_size=2))
    assert _inputs_of(args, kwargs) == collect_nodes((args, kwargs))
    assert g.call_function(print, args, kwargs).all_input_nodes == collect_nodes((args, kwargs))


def test_reassigning_args_updates_users() -> None:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    neg = g.call_function(operator.neg, (x,))
    neg.args = (y,)
    assert not x.users and list(y.users) == [neg]
    neg.kwargs = {"k": x}
    assert list(x.users) == [neg] and neg.all_input_nodes == [y, x]


def test_replace_with_constant() -> None:
    g = Graph()
    x = g.placeholder("x")
    two = g.call_function(operator.add, (1, 1))
    mul = g.call_function(operator.mul, (x, two))
    two.replace_all_uses_with(2)
    assert mul.args == (x, 2) and not two.users and list(x.users) == [mul]


Point = collections.namedtuple("Point", "a b")


class Shape(tuple[int, ...]):
    """A tuple subclass whose constructor takes one iterable, like torch.Size."""


def test_map_arg_walks_every_container() -> None:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    nested = (x, [y, {"k": x, "s": slice(x, None, y)}], Point(x, 3), Shape((1, 2)), "s")
    names = map_arg(nested, lambda n: n.name)
    assert names == ("x", ["y", {"k": "x", "s": slice("x", None, "y")}], Point("x", 3), (1, 2), "s")
    assert type(names[2]) is Point and type(names[3]) is Shape
    assert map_arg(x, lambda n: 1) == 1


def test_repr_shows_the_node_at_a_glance() -> None:
    g = Graph()
    x = g.placeholder("x")
    add = g.call_function(operator.add, (x, 1), {"alpha": x})
    sin = g.call_method("sin", (add,))
    const = g.add_constant(3.5, "c")
    assert repr(x) == "Node(x: placeholder x)"
    assert repr(add) == "Node(add: call_function operator.add(x, 1, alpha=x))"
    assert repr(sin) == "Node(sin: call_method sin(add))"
    assert repr(const) == "Node(c: get_attr c)"


def test_unknown_op_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown node op 'call'"):
        Node(Graph(), "n", "call", len, (), {})  # type: ignore[arg-type]
