"""GraphModule: a Graph compiled to a real Python function whose source tracebacks can show.

NOTE [generated on first use]: nothing is generated in `__init__`. A compile hands the module to
a backend whose graph passes usually change the graph (and call `recompile()`), so `forward` is
generated from the graph they leave, when first read. The compiler reads it inside the backend,
so the work is counted where the metrics put it (backend_compile_time_us).

NOTE [forward from source]: `forward` is the generated source (`code`) compiled with
`compile()`, as torch.fx does, so the code a reader sees is the code that runs. The source is
registered in `linecache` under a synthetic filename (`<modetrace-graph-N>.py`), so a traceback
through `forward` shows the generated line; the entry goes when the function is garbage
collected.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections.abc import Callable
from typing import Any

from tracer.graph.graph import Graph
from tracer.graph.naming import sanitize
from tracer.graph.python_source import PythonCode, python_code
from tracer.warning_filters import NO_SYNTAX_WARNINGS, filters_swapped

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
            self._filename = f"<modetrace-graph-{next(_file_ids)}>.py"
        return self._python

    @property
    def code(self) -> str:
        """The generated source of `forward` (rendered on first read)."""
        return self._generated().source

    @property
    def filename(self) -> str:
        """The synthetic file name `forward`'s code object (and tracebacks) carry; `linecache`
        holds the source under it for as long as `forward` lives."""
        self.forward  # noqa: B018 - compiles and registers the source under the name
        return self._filename

    @property
    def forward(self) -> Callable[..., Any]:
        """The generated function itself: positional graph inputs in, the output value out."""
        if self._forward is None:
            python = self._generated()
            filename = self._filename
            # `1 is x`, `[1][0,]`: valid, and meant (not `catch_warnings()`:
            # see tracer.warning_filters)
            with filters_swapped(NO_SYNTAX_WARNINGS, keep_user=True):
                code = compile(python.source, filename, "exec")
            namespace = dict(python.globals)
            exec(code, namespace)  # noqa: S102 - our own generated source
            # Taken out of its globals: left there, the function and its globals would be a
            # reference cycle, freed only by a garbage collection.
            forward: Callable[..., Any] = namespace.pop(self.name)
            lines = python.source.splitlines(keepends=True)
            # mtime None marks the entry as not backed by a file: checkcache keeps it.
            linecache.cache[filename] = (len(python.source), None, lines, filename)
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
