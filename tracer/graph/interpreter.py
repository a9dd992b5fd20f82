"""Interpreter: runs a graph node by node, one overridable method per op.

It computes exactly what the GraphModule's generated code computes (runtime ops through their
`impl`, tensor methods resolved the same way), so subclasses such as FakeTensorProp can change
one op kind and keep the rest. Errors propagate unchanged; a note names the failing node.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tracer.graph.graph import Graph
from tracer.graph.graph_module import GraphModule
from tracer.graph.naming import target_op
from tracer.graph.node import Argument, Node, Target, map_arg
from tracer.graph.resolve import method_op, resolve_operator


class Interpreter:
    """Evaluate a Graph (or a GraphModule's graph) with `run(*args)`.

    >>> import operator
    >>> g = Graph()
    >>> x = g.placeholder("x")
    >>> _ = g.output(g.call_function(operator.neg, (x,)))
    >>> Interpreter(g).run(5)
    -5
    """

    def __init__(self, module: Graph | GraphModule) -> None:
        self.graph = module.graph if isinstance(module, GraphModule) else module
        self.env: dict[Node, Any] = {}
        self._args: Iterator[Any] = iter(())

    def run(self, *args: Any) -> Any:
        placeholders = self.graph.placeholders
        if len(args) != len(placeholders):
            raise TypeError(
                f"graph takes {len(placeholders)} positional arguments but {len(args)} were given"
            )
        self.env = {}
        self._args = iter(args)
        try:
            for node in self.graph.nodes:
                if node.op == "output":
                    return self.run_node(node)
                self.env[node] = self.run_node(node)
        finally:
            self.env = {}
        raise ValueError(f"{self.graph!r} has no output node")

    def run_node(self, node: Node) -> Any:
        args = map_arg(node.args, self.env.__getitem__)
        kwargs = map_arg(node.kwargs, self.env.__getitem__)
        try:
            return getattr(self, node.op)(node.target, args, kwargs)
        except Exception as error:
            error.add_note(f"while interpreting {node!r}")
            raise

    # -- one method per op, named after it ------------------------------------------------------

    def placeholder(
        self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]
    ) -> Any:
        return next(self._args)

    def get_attr(self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]) -> Any:
        return self.graph.constants[str(target)]

    def call_function(
        self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]
    ) -> Any:
        info = target_op(target)
        if info is not None:
            return info.impl(*args, **kwargs)
        resolved = None if kwargs else resolve_operator(target, [type(a) for a in args])
        if resolved is not None:
            info, reflected = resolved
            return info.impl(*(args[::-1] if reflected else args))
        fn = target
        if not callable(fn):
            raise TypeError(f"call_function target {fn!r} is not callable")
        return fn(*args, **kwargs)

    def call_method(
        self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]
    ) -> Any:
        receiver, *rest = args
        name = str(target)
        info = method_op(type(receiver), name)
        if info is not None:
            return info.impl(receiver, *rest, **kwargs)
        return getattr(receiver, name)(*rest, **kwargs)

    def output(self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]) -> Any:
        return args[0]
