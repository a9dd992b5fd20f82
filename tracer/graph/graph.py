"""The Graph: an ordered collection of Nodes with unique names, ending in one `output`.

Order is execution order, so "defined before use" is a position check. Nodes are only created
and removed through the Graph, which keeps names unique and `users` exact; `lint()` re-checks
every invariant and names the first node that breaks one.
"""

from __future__ import annotations

import contextlib
import keyword
import weakref
from collections.abc import Iterator
from typing import Any

from tracer.exc import InternalError
from tracer.graph.naming import (
    Namespace,
    base_name,
    sanitize,
)
from tracer.graph.node import OPS, Argument, Node, Op, Target, _detached, collect_nodes


class GraphLintError(InternalError):
    """A graph broke one of its invariants; the message names the offending node."""


class Graph:
    """A straight-line program over placeholders, calls and constants.

    >>> import operator
    >>> g = Graph()
    >>> x, y = g.placeholder("x"), g.placeholder("y")
    >>> add = g.call_function(operator.add, (x, y))
    >>> _ = g.output((g.call_method("sin", (add,)),))
    >>> print(g)
    graph(x, y):
        %add = call_function[target=operator.add](args = (%x, %y))
        %sin = call_method[target=sin](args = (%add,))
        return (%sin,)
    """

    def __init__(self) -> None:
        self._ref = weakref.ref(self)
        """The one weak reference every node of this graph holds (NOTE [acyclic graph])."""
        self._users: dict[Node, dict[Node, None]] = {}
        """Each node's users (`Node.users`), kept here so nodes never refer back to users."""
        self._nodes: dict[Node, None] = {}
        """The nodes in execution order (a dict, so that erasing one from a long graph does not
        search the whole graph: passes erase many nodes of a long unrolled loop)."""
        self._namespace = Namespace()
        self._insert_point: tuple[Node, bool] | None = None  # (anchor, insert before anchor?)
        self.constants: dict[str, Any] = {}
        """Values that `get_attr` nodes read, by target; GraphModule binds them at codegen."""

    # -- reading -------------------------------------------------------------------------------

    @property
    def nodes(self) -> tuple[Node, ...]:
        """A snapshot in execution order, so passes may erase while iterating it."""
        return tuple(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    @property
    def placeholders(self) -> list[Node]:
        """The input nodes in order."""
        return [node for node in self._nodes if node.op == "placeholder"]

    @property
    def output_node(self) -> Node:
        last = next(reversed(self._nodes), None)
        if last is None or last.op != "output":
            raise GraphLintError("graph has no output node at the end")
        return last

    # -- building ------------------------------------------------------------------------------

    def create_node(
        self,
        op: Op,
        target: Target,
        args: tuple[Argument, ...] = (),
        kwargs: dict[str, Argument] | None = None,
        name: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Node:
        """Add a node at the insertion point (the end unless inside `inserting_before/after`)."""
        unique = self._unique_name(target) if name is None else self._namespace.create(name)
        node = Node(self, unique, op, target, args, kwargs or {}, meta)
        for used in node._inputs:
            if used._graph is not self._ref:
                node.args, node.kwargs = (), {}
                del self._users[node]
                raise GraphLintError(f"node {unique!r} uses {used.name!r} from another graph")
        if self._insert_point is None:
            self._nodes[node] = None
        else:
            self._insert(node)
        return node

    def _unique_name(self, target: Target) -> str:
        """A fresh name for a node calling `target`, from its target's name hint."""
        return self._namespace.create(base_name(target))

    def _insert(self, node: Node) -> None:
        """Put a new node at the insertion point of `inserting_before/after`."""
        assert self._insert_point is not None
        anchor, before = self._insert_point
        order = list(self._nodes)
        index = order.index(anchor)
        order.insert(index if before else index + 1, node)
        self._nodes = dict.fromkeys(order)
        if not before:
            self._insert_point = (node, False)  # keep consecutive inserts in order

    def placeholder(self, name: str, meta: dict[str, Any] | None = None) -> Node:
        """A graph input; its (uniquified) name is also the target and the parameter name."""
        node = self.create_node("placeholder", "", name=name, meta=meta)
        node.target = node.name
        return node

    def call_function(
        self,
        target: Target,
        args: tuple[Argument, ...] = (),
        kwargs: dict[str, Argument] | None = None,
        name: str | None = None,
    ) -> Node:
        return self.create_node("call_function", target, args, kwargs, name)

    def call_method(
        self,
        method_name: str,
        args: tuple[Argument, ...] = (),
        kwargs: dict[str, Argument] | None = None,
        name: str | None = None,
    ) -> Node:
        """`args[0]` is the receiver: the node computes `args[0].method_name(*args[1:])`."""
        return self.create_node("call_method", method_name, args, kwargs, name)

    def get_attr(self, name: str) -> Node:
        """Read `self.constants[name]` (which `lint` requires to exist)."""
        return self.create_node("get_attr", name, name=name)

    def add_constant(self, value: Any, name_hint: str = "const") -> Node:
        """Store `value` under a fresh key of `constants` and return a get_attr node reading it."""
        key = base = sanitize(name_hint)
        counter = 0
        while key in self.constants:
            counter += 1
            key = f"{base}_{counter}"
        self.constants[key] = value
        return self.get_attr(key)

    def output(self, value: Argument) -> Node:
        """Mark what the graph returns: a node or a nesting of nodes and constants."""
        return self.create_node("output", "output", (value,), name="output")

    def erase_node(self, node: Node) -> None:
        if node.graph is not self or node not in self._nodes:
            raise GraphLintError(f"cannot erase {node!r}: it is not in this graph")
        if node.users:
            users = ", ".join(u.name for u in node.users)
            raise GraphLintError(f"cannot erase node {node.name!r}: still used by {users}")
        if self._insert_point is not None and self._insert_point[0] is node:
            raise GraphLintError(f"cannot erase node {node.name!r}: it is the insertion point")
        node.args, node.kwargs = (), {}  # drop it from its inputs' users
        del self._nodes[node]
        del self._users[node]
        node._graph = _detached

    @contextlib.contextmanager
    def inserting_before(self, node: Node) -> Iterator[None]:
        with self._inserting(node, before=True):
            yield

    @contextlib.contextmanager
    def inserting_after(self, node: Node) -> Iterator[None]:
        with self._inserting(node, before=False):
            yield

    @contextlib.contextmanager
    def _inserting(self, node: Node, before: bool) -> Iterator[None]:
        if node.graph is not self:
            raise GraphLintError(f"cannot insert next to {node!r}: it is not in this graph")
        saved, self._insert_point = self._insert_point, (node, before)
        try:
            yield
        finally:
            self._insert_point = saved

    # -- checking ------------------------------------------------------------------------------

    def lint(self) -> None:
        """Check every invariant the passes and codegen rely on; raise GraphLintError if broken."""
        nodes = list(self._nodes)
        position = {node: i for i, node in enumerate(nodes)}
        names: set[str] = set()
        for i, node in enumerate(nodes):
            where = f"node {node.name!r} ({i})"
            _check(node.graph is self, f"{where} belongs to another graph")
            _check(node.op in OPS, f"{where} has unknown op {node.op!r}")
            _check(node.name not in names, f"{where}: name is not unique")
            _check(
                node.name.isidentifier() and not keyword.iskeyword(node.name),
                f"{where}: name is not a Python identifier",
            )
            names.add(node.name)
            _check_target(node, where, self.constants)
            _check(
                node.op != "placeholder" or i == 0 or nodes[i - 1].op == "placeholder",
                f"{where}: placeholder after a non-placeholder node",
            )
            _check(
                node.op != "output" or i == len(nodes) - 1,
                f"{where}: output is not the last node",
            )
            inputs = collect_nodes((node.args, node.kwargs))
            _check(inputs == node.all_input_nodes, f"{where}: all_input_nodes is stale")
            for arg in inputs:
                _check(
                    position.get(arg, i) < i,
                    f"{where} uses {arg.name!r} before it is defined (or from another graph)",
                )
                _check(node in arg.users, f"{where} uses {arg.name!r} but is not in its users")
            for user in node.users:
                _check(
                    user in position and node in user.all_input_nodes,
                    f"{where} lists user {user.name!r} that does not use it",
                )
        _check(
            bool(nodes) and nodes[-1].op == "output",
            "graph has no output node at the end",
        )

    # -- printing ------------------------------------------------------------------------------

    def __str__(self) -> str:
        params = ", ".join(n.name for n in self.placeholders)
        body = [f"    {n.format_node()}" for n in self._nodes if n.op != "placeholder"]
        return "\n".join([f"graph({params}):", *body])

    def __repr__(self) -> str:
        calls = sum(n.op in ("call_function", "call_method") for n in self._nodes)
        params = ", ".join(n.name for n in self.placeholders)
        return f"Graph(({params}) -> {calls} calls, {len(self._nodes)} nodes)"


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise GraphLintError(message)


def _check_target(node: Node, where: str, constants: dict[str, Any]) -> None:
    if node.op == "call_function":
        _check(callable(node.target), f"{where}: call_function target is not callable")
    elif node.op == "call_method":
        _check(isinstance(node.target, str), f"{where}: call_method target is not a name")
        _check(len(node.args) >= 1, f"{where}: call_method has no receiver (args[0])")
    elif node.op == "get_attr":
        _check(node.target in constants, f"{where}: get_attr target not in graph.constants")
    elif node.op == "output":
        _check(len(node.args) == 1 and not node.kwargs, f"{where}: output takes one value")
