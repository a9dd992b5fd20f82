"""Graph building, printing (exact text), erasing, insertion points and lint."""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable

import pytest

from tracer.exc import InternalError
from tracer.graph import Graph, GraphLintError, Node


def small_graph() -> tuple[Graph, dict[str, Node]]:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(operator.add, (x, y))
    sin = g.call_method("sin", (add,))
    out = g.output((sin,))
    return g, {"x": x, "y": y, "add": add, "sin": sin, "output": out}


def test_print_is_stable_and_readable() -> None:
    g, _ = small_graph()
    assert str(g) == (
        "graph(x, y):\n"
        "    %add = call_function[target=operator.add](args = (%x, %y))\n"
        "    %sin = call_method[target=sin](args = (%add,))\n"
        "    return (%sin,)"
    )
    assert repr(g) == "Graph((x, y) -> 2 calls, 5 nodes)"


@dataclasses.dataclass
class FakeVal:
    shape: tuple[int, ...]
    dtype: str


def test_print_shows_kwargs_constants_nesting_and_meta_types() -> None:
    g = Graph()
    x = g.placeholder("x")
    x.meta["val"] = FakeVal((2, 3), "torch.float32")
    scale = g.add_constant([1.0, 2.0], "scale")
    clamp = g.call_function(min, (x, scale), {"key": None})
    clamp.meta["val"] = 7
    idx = g.call_function(operator.getitem, (x, (slice(None, 2), 0)))
    g.output({"a": clamp, "b": [idx, 1.5]})
    assert str(g) == (
        "graph(x):\n"
        "    %scale = get_attr[target=scale]\n"
        "    %min : int = call_function[target=min](args = (%x, %scale), kwargs = {'key': None})\n"
        "    %getitem = call_function[target=operator.getitem]"
        "(args = (%x, (slice(None, 2, None), 0)))\n"
        "    return {'a': %min, 'b': [%getitem, 1.5]}"
    )
    assert "x : f32[2, 3]" not in str(g)  # placeholders print in the header only


def test_meta_types_in_print() -> None:
    g = Graph()
    x = g.placeholder("x")
    neg = g.call_function(operator.neg, (x,))
    neg.meta["val"] = FakeVal((4,), "torch.int64")
    g.output(neg)
    assert "%neg : i64[4] = call_function[target=operator.neg](args = (%x,))" in str(g)


def test_erase_refuses_nodes_with_users() -> None:
    g, n = small_graph()
    with pytest.raises(GraphLintError, match="cannot erase node 'add': still used by sin"):
        g.erase_node(n["add"])
    unused = g.call_function(operator.neg, (n["x"],))
    g.erase_node(unused)
    assert unused not in g.nodes and list(n["x"].users) == [n["add"]]
    with pytest.raises(GraphLintError, match="not in this graph"):
        g.erase_node(unused)


def test_inserting_before_and_after_keep_order() -> None:
    g, n = small_graph()
    with g.inserting_after(n["add"]):
        first = g.call_function(operator.neg, (n["add"],), name="first")
        second = g.call_function(operator.neg, (first,), name="second")
    with g.inserting_before(n["sin"]):
        third = g.call_function(operator.pos, (second,), name="third")
    with g.inserting_before(n["x"]):
        y0 = g.placeholder("w")
    assert [node.name for node in g.nodes] == [
        "w", "x", "y", "add", "first", "second", "third", "sin", "output",
    ]  # fmt: skip
    assert third in second.users
    g.lint()
    other = Graph()
    with pytest.raises(GraphLintError, match="not in this graph"), other.inserting_before(y0):
        pass


def test_lint_accepts_well_formed_graphs() -> None:
    g, _ = small_graph()
    g.lint()
    empty = Graph()
    empty.output(None)
    empty.lint()


def test_lint_error_is_an_internal_error() -> None:
    assert issubclass(GraphLintError, InternalError)


def test_nodes_from_another_graph_are_refused_on_creation() -> None:
    _, n = small_graph()
    other = Graph()
    with pytest.raises(GraphLintError, match="node 'neg' uses 'x' from another graph"):
        other.call_function(operator.neg, (n["x"],))
    assert not [u for u in n["x"].users if u.graph is other]


def _duplicate_name(g: Graph, n: dict[str, Node]) -> None:
    n["sin"].name = "add"


def _bad_identifier(g: Graph, n: dict[str, Node]) -> None:
    n["sin"].name = "s-in"


def _foreign_arg(g: Graph, n: dict[str, Node]) -> None:
    n["sin"].args = (Graph().placeholder("z"),)


def _use_before_definition(g: Graph, n: dict[str, Node]) -> None:
    order = [node for node in g._nodes if node is not n["add"]]
    order.insert(order.index(n["sin"]) + 1, n["add"])
    g._nodes = dict.fromkeys(order)


def _placeholder_late(g: Graph, n: dict[str, Node]) -> None:
    with g.inserting_before(n["sin"]):
        g.placeholder("late")


def _no_output(g: Graph, n: dict[str, Node]) -> None:
    g.erase_node(n["output"])


def _output_not_last(g: Graph, n: dict[str, Node]) -> None:
    g.call_function(operator.neg, (n["x"],))


def _two_outputs(g: Graph, n: dict[str, Node]) -> None:
    g.output(n["x"])


def _stale_user(g: Graph, n: dict[str, Node]) -> None:
    n["x"].users[n["sin"]] = None


def _missing_user(g: Graph, n: dict[str, Node]) -> None:
    del n["add"].users[n["sin"]]


def _stale_inputs(g: Graph, n: dict[str, Node]) -> None:
    n["sin"]._args = (n["y"],)


def _missing_constant(g: Graph, n: dict[str, Node]) -> None:
    with g.inserting_before(n["sin"]):
        g.get_attr("nowhere")


def _receiverless_method(g: Graph, n: dict[str, Node]) -> None:
    with g.inserting_before(n["sin"]):
        g.call_method("cos", ())


def _uncallable_target(g: Graph, n: dict[str, Node]) -> None:
    n["add"].target = "add"


def _node_of_other_graph(g: Graph, n: dict[str, Node]) -> None:
    order = list(g._nodes)
    order.insert(2, Graph().placeholder("stray"))
    g._nodes = dict.fromkeys(order)


BREAKAGES: dict[str, tuple[Callable[[Graph, dict[str, Node]], None], str]] = {
    "duplicate name": (_duplicate_name, r"node 'add' \(3\): name is not unique"),
    "bad identifier": (_bad_identifier, r"node 's-in' \(3\): name is not a Python identifier"),
    "foreign arg": (_foreign_arg, r"node 'sin' \(3\) uses 'z' before it is defined"),
    "use before def": (_use_before_definition, r"node 'sin' \(2\) uses 'add' before it is defined"),
    "late placeholder": (_placeholder_late, r"node 'late' \(3\): placeholder after a non-placeh"),
    "no output": (_no_output, "graph has no output node at the end"),
    "output not last": (_output_not_last, r"node 'output' \(4\): output is not the last node"),
    "two outputs": (_two_outputs, r"node 'output' \(4\): output is not the last node"),
    "stale user": (_stale_user, r"node 'x' \(0\) lists user 'sin' that does not use it"),
    "missing user": (_missing_user, r"node 'sin' \(3\) uses 'add' but is not in its users"),
    "stale inputs": (_stale_inputs, r"node 'sin' \(3\): all_input_nodes is stale"),
    "missing constant": (_missing_constant, r"'nowhere' \(3\): get_attr target not in graph.con"),
    "no receiver": (_receiverless_method, r"node 'cos' \(3\): call_method has no receiver"),
    "uncallable": (_uncallable_target, r"node 'add' \(2\): call_function target is not callable"),
    "stray node": (_node_of_other_graph, r"node 'stray' \(2\) belongs to another graph"),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_lint_names_the_node_that_breaks_each_invariant(breakage: str) -> None:
    g, n = small_graph()
    g.lint()
    corrupt, message = BREAKAGES[breakage]
    corrupt(g, n)
    with pytest.raises(GraphLintError, match=message):
        g.lint()


def test_output_node_and_placeholders() -> None:
    g, n = small_graph()
    assert g.output_node is n["output"]
    assert g.placeholders == [n["x"], n["y"]]
    assert len(g) == 5
    with pytest.raises(GraphLintError, match="no output"):
        _ = Graph().output_node


def test_add_constant_picks_fresh_keys() -> None:
    g = Graph()
    a = g.add_constant(math.pi, "pi")
    b = g.add_constant(math.e, "pi")
    assert (a.target, b.target) == ("pi", "pi_1")
    assert g.constants == {"pi": math.pi, "pi_1": math.e}


def test_node_names_from_the_same_target_count_up() -> None:
    """Graph remembers each target's base name; names stay unique and readable."""
    g = Graph()
    x = g.placeholder("x")
    adds = [g.call_function(operator.add, (x, x)) for _ in range(3)]
    sins = [g.call_method("sin", (x,)) for _ in range(2)]
    lam = g.call_function(lambda v: v, (x,))
    assert [n.name for n in adds] == ["add", "add_1", "add_2"]
    assert [n.name for n in sins] == ["sin", "sin_1"]
    assert lam.name == "lambda_"


def test_an_erased_node_is_refused_on_creation() -> None:
    """An erased node is no longer the graph's: using it is refused, and nothing is left behind."""
    graph = Graph()
    x = graph.placeholder("x")
    gone = graph.call_function(operator.neg, (x,))
    graph.erase_node(gone)
    with pytest.raises(GraphLintError, match="uses 'neg' from another graph"):
        graph.create_node("call_function", operator.add, (x, gone))
    assert [n.name for n in graph.nodes] == ["x"]
    assert not x.users


def test_replace_input_rewires_args_users_and_inputs() -> None:
    graph = Graph()
    x, y = graph.placeholder("x"), graph.placeholder("y")
    add = graph.call_function(operator.add, (x, x))
    add.replace_input_with(x, y)
    assert add.args == (y, y) and add.all_input_nodes == [y]
    assert not x.users and list(y.users) == [add]
