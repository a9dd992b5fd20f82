"""GraphModule: a Graph compiled to a real Python function whose source tracebacks can show.

NOTE [generated on first use]: nothing is generated in `__init__`. A compile hands the module to
a backend whose graph passes usually change the graph (and call `recompile()`); generating
eagerly meant generating every graph twice. Reading `forward` inside the backend also keeps the
work where the metrics put it (backend_compile_time_us).

NOTE [forward without source]: `forward` is written as bytecode straight from the graph
(tracer.graph.emit), not by rendering source and running `compile()` on it (which cost ~10 µs a
line, on every compile). The source is still the readable form: `code` renders it when read,
and `linecache` holds a lazy entry for the synthetic filename (`<modetrace-graph-N>.py`), so a
traceback through `forward` renders it and shows the generated line; the entry goes when the
function is garbage collected. The filename does not end in `>`, because `linecache` ignores
lazy entries of names in angle brackets. Graphs the emitter cannot write fall back to
`compile()` of the text.
"""

from __future__ import annotations

import functools
import itertools
import linecache
import types
import weakref
from collections.abc import Callable
from typing import Any

from tracer.graph.codegen import PythonCode, python_code
from tracer.graph.emit import NotEmittable, emit_forward
from tracer.graph.graph import Graph
from tracer.graph.naming import sanitize

_file_ids = itertools.count()
_alive: dict[str, weakref.ref[Callable[..., Any]]] = {}
"""The weak reference watching each live forward (its callback drops the linecache entry)."""


def _forget(filename: str, _ref: object) -> None:
    linecache.cache.pop(filename, None)
    _alive.pop(filename, None)


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
        self._source: _Source | None = None
        self._forward: Callable[..., Any] | None = None

    def recompile(self) -> None:
        """The graph (or its constants) changed: `code` and `forward` are generated anew on
        their next read (NOTE [generated on first use])."""
        self._source = None
        self._forward = None

    def _current_source(self) -> _Source:
        if self._source is None:
            self._source = _Source(self.graph, self.name, f"<modetrace-graph-{next(_file_ids)}>.py")
        return self._source

    def _generated(self) -> PythonCode:
        return self._current_source().python()

    @property
    def code(self) -> str:
        """The generated source of `forward` (rendered on first read)."""
        return self._generated().source

    @property
    def filename(self) -> str:
        """The synthetic file name `forward`'s code objects (and tracebacks) carry; `linecache`
        holds the source under it for as long as `forward` lives (so reading it compiles)."""
        self.forward  # noqa: B018 - compiles and registers the source under the name
        return self._current_source().filename

    @property
    def forward(self) -> Callable[..., Any]:
        """The generated function itself: positional graph inputs in, the output value out."""
        if self._forward is None:
            source = self._current_source()
            filename = source.filename
            try:
                code, namespace = emit_forward(self.graph, self.name, filename)
            except NotEmittable:
                python = source.python()
                lines = python.source.splitlines(keepends=True)
                # mtime None marks the entry as not backed by a file: checkcache keeps it.
                linecache.cache[filename] = (len(python.source), None, lines, filename)
                namespace = dict(python.globals)
                exec(compile(python.source, filename, "exec"), namespace)  # noqa: S102 - ours
                forward: Callable[..., Any] = namespace[self.name]
            else:
                # A lazy entry (NOTE [forward without source]): rendered by the first traceback.
                linecache.cache[filename] = (source.text,)
                forward = types.FunctionType(code, namespace)
            # Forget the source with the function (a weakref callback: cheaper than finalize).
            _alive[filename] = weakref.ref(forward, functools.partial(_forget, filename))
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


class _Source:
    """The text of one generation of a GraphModule, rendered on first use and kept.

    It holds the graph, not the module: `linecache` keeps it until `forward` is collected, and
    a reference back to the module (which holds `forward`) would keep both alive for ever.
    """

    __slots__ = ("_python", "filename", "graph", "name")

    def __init__(self, graph: Graph, name: str, filename: str) -> None:
        self.graph = graph
        self.name = name
        self.filename = filename
        self._python: PythonCode | None = None

    def python(self) -> PythonCode:
        if self._python is None:
            self._python = python_code(self.graph, self.name)
        return self._python

    def text(self) -> str:
        """The source, for `linecache`'s lazy entries."""
        return self.python().source

    def __repr__(self) -> str:
        state = "rendered" if self._python is not None else "not rendered"
        return f"_Source({self.filename}, {state})"
