"""A small FX-like IR: the tracer records tensor ops into a Graph, which prints, lints and runs.

`Graph`/`Node` hold the program, `GraphModule` turns it into a function (its Python source,
`python_source`, compiled with `compile()`), `Interpreter` runs it node by node, `FakeTensorProp`
fills in shapes and dtypes, and `passes` clean it up.
"""

from tracer.graph import passes
from tracer.graph.fake import FakeTensorProp
from tracer.graph.graph import Graph, GraphLintError
from tracer.graph.graph_module import GraphModule
from tracer.graph.interpreter import Interpreter
from tracer.graph.node import Node, map_arg
from tracer.graph.python_source import PythonCode, python_code

__all__ = [
    "FakeTensorProp",
    "Graph",
    "GraphLintError",
    "GraphModule",
    "Interpreter",
    "Node",
    "PythonCode",
    "map_arg",
    "passes",
    "python_code",
]
