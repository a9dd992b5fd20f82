"""GraphModule: a Graph compiled to a real Python function whose source tracebacks can show.

The source is registered in `linecache` under a synthetic filename (`<modetrace-graph-N>`), so
a failure inside compiled code prints the generated line, and it is forgotten when the function
is garbage collected. `gm.forward` is the plain generated function (no `self`): callers on the
hot path call it directly and skip `GraphModule.__call__`.

NOTE [generated on first use]: the source is generated when `code` is first read, and compiled
when `forward` (or `filename`) is, not in `__init__`. A compile hands the module to a backend
whose graph passes usually change the graph (and call `recompile()`); generating eagerly meant
compiling every graph twice. Reading `forward` inside the backend also keeps the compile where
the metrics put it (backend_compile_time_us).
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections.abc import Callable
from typing import Any

from tracer.graph.codegen import PythonCode, python_code
from tracer.graph.graph import Graph
from tracer.graph.naming import sanitize

_file_ids = itertools.count()


class GraphModule:
    """A Graph plus the function generated from it.

    `code` and `forward` show the graph as it is when they are first read after construction
    or `recompile()`; change the graph after that and call `recompile()`, as with torch.fx.

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

    def __init__(self, graph: Graph, name: str = "forward") -> None:
        self.graph = graph
        self.name = sanitize(name)
        self._python: PythonCode | None = None
        self._filename = ""
        self._forward: Callable[..., Any] | None = None

    def recompile(self) -> None:
        """The graph (or its constants) changed: `code` and `forward` are generated anew on
        their next read (NOTE [generated on first use])."""
        self._python = None
        self._forward = None

    def _generated(self) -> PythonCode:
        if self._python is None:
            self._python = python_code(self.graph, self.name)
            self._filename = f"<modetrace-graph-{next(_file_ids)}>"
        return self._python

    @property
    def code(self) -> str:
        """The generated source of `forward`."""
        return self._generated().source

    @property
    def filename(self) -> str:
        """The synthetic file name `forward`'s code objects (and tracebacks) carry; `linecache`
        holds the source under it for as long as `forward` lives (so reading it compiles)."""
        self.forward  # noqa: B018 - compiles and registers the source under the name
        return self._filename

    @property
    def forward(self) -> Callable[..., Any]:
        """The generated function itself: positional graph inputs in, the output value out."""
        if self._forward is None:
            python = self._generated()
            filename = self._filename
            lines = python.source.splitlines(keepends=True)
            # mtime None marks the entry as not backed by a file: linecache.checkcache keeps it.
            linecache.cache[filename] = (len(python.source), None, lines, filename)
            namespace = dict(python.globals)
            exec(compile(python.source, filename, "exec"), namespace)  # noqa: S102 - our source
            forward: Callable[..., Any] = namespace[self.name]
            weakref.finalize(forward, linecache.cache.pop, filename, None)
            self._forward = forward
        return self._forward

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
