"""GraphModule: a Graph compiled to a real Python function whose source tracebacks can show.

The source is registered in `linecache` under a synthetic filename (`<modetrace-graph-N>`), so
a failure inside compiled code prints the generated line, and it is forgotten when the function
is garbage collected. `gm.forward` is the plain generated function (no `self`): callers on the
hot path call it directly and skip `GraphModule.__call__`.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections.abc import Callable
from typing import Any

from tracer.graph.codegen import python_code
from tracer.graph.graph import Graph
from tracer.graph.naming import sanitize

_file_ids = itertools.count()


class GraphModule:
    """A Graph plus the function generated from it.

    >>> import operator
    >>> g = Graph()
    >>> x = g.placeholder("x")
    >>> _ = g.output((g.call_function(operator.mul, (x, 2)),))
    >>> gm = GraphModule(g)
    >>> print(gm.code, end="")
    def forward(x):
        mul = x * 2
        return (mul,)
    >>> gm(21)
    (42,)
    """

    forward: Callable[..., Any]
    """The generated function itself: positional graph inputs in, the output value out."""

    def __init__(self, graph: Graph, name: str = "forward") -> None:
        self.graph = graph
        self.name = sanitize(name)
        self.recompile()

    def recompile(self) -> None:
        """Regenerate `code` and `forward` after the graph (or its constants) changed."""
        code = python_code(self.graph, self.name)
        self.filename = f"<modetrace-graph-{next(_file_ids)}>"
        self.code = code.source
        lines = self.code.splitlines(keepends=True)
        # mtime None marks the entry as not backed by a file: linecache.checkcache keeps it.
        linecache.cache[self.filename] = (len(self.code), None, lines, self.filename)
        namespace = dict(code.globals)
        exec(compile(self.code, self.filename, "exec"), namespace)  # noqa: S102 - our own source
        self.forward = namespace[self.name]
        weakref.finalize(self.forward, linecache.cache.pop, self.filename, None)

    def __call__(self, *args: Any) -> Any:
        return self.forward(*args)

    def print_readable(self, print_output: bool = True) -> str:
        """The source with each node's user location as a comment above its line."""
        text = python_code(self.graph, self.name, comments=True).source
        if print_output:
            print(text, end="")
        return text

    def __repr__(self) -> str:
        return f"GraphModule({self.name}, {len(self.graph)} nodes, {self.filename})"
