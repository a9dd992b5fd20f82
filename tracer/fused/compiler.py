"""The fused backend: a GraphModule -> a `FusedPlan` (data) -> the callable it loads as.

`plan_graph` lowers each node it can (lowering), stores what must be stored and groups the
stores into kernels (scheduler), and writes the kernels' source and a `forward` that calls
them in graph order, wrapping buffers into tensors only where a tensor is needed: a graph
output or the argument of a node that stays a runtime call. Those runtime calls are written
by the graph's own code generator (`python_source`), exactly as the eager backend runs them;
so is a view needed as a tensor (`runtime_views`): it must share its base's storage, as
eager's does, which no kernel's copy would.
"""

from __future__ import annotations

import math
from typing import Any

from tracer.fused.codegen import KernelSource, kernel_source
from tracer.fused.lowering import (
    VIEW_OPS,
    Lowering,
    Pointwise,
    Reduction,
    Value,
    View,
    holds_eager_values,
    lower_node,
    writes_input,
)
from tracer.fused.plan import FusedPlan, KernelPlan, describe
from tracer.fused.scheduler import Kernel, ScheduleStats, Statement, group, make_statement
from tracer.graph import Graph, GraphModule
from tracer.graph.node import Node
from tracer.graph.python_source import _Codegen
from tracer.runtime.tensor import Tensor

MAX_INLINED = 32
"""The most ops one element's expression nests before a value is stored (and read back)."""


def _is_tensor(node: Node) -> bool:
    return isinstance(node.meta.get("val"), Tensor)


def _lower_all(gm: GraphModule) -> dict[Node, Lowering]:
    """Which nodes are lowered (reductions count as stored: readers see their buffer).

    None in a graph with an in-place op: a kernel reads its inputs' data when it runs, which
    the scheduler does not order against a write (a sum of `x` on either side of `x.add_(1)`
    would share one kernel), and a write through a view changes its base's elements.

    A node that stays a runtime call reads eager's values: a float32 chain `(x * 3 + y)`
    rounded once when stored is not what eager's rounding after each op gives, and `==`,
    `.long()` or `argmax` on it would turn that last bit into another answer. So a lowered
    node a runtime call reads whose stored value is not eager's (`_stored_exactly`) stays a
    runtime call too, and so on up its inputs, until every runtime call reads eager's values."""
    if any(writes_input(node) for node in gm.graph.nodes):
        return {}
    kept_out: set[Node] = set()
    while True:
        lowered, values = _lower_except(gm, kept_out)
        inexact = {
            read
            for node in gm.graph.nodes
            if node.op not in ("placeholder", "output") and node not in lowered
            for read in node.all_input_nodes
            if read in lowered and not _stored_exactly(read, lowered[read].value, values)
        }
        if not inexact:
            return lowered
        kept_out |= inexact


def _lower_except(
    gm: GraphModule, kept_out: set[Node]
) -> tuple[dict[Node, Lowering], dict[Node, Value]]:
    """The lowered nodes, leaving out `kept_out`, and every tensor node's value."""
    values: dict[Node, Value] = {}
    lowered: dict[Node, Lowering] = {}
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output") or not _is_tensor(node):
            if node.op == "placeholder" and _is_tensor(node):
                values[node] = _buffer_view(node)
            continue
        lowerable = node.op != "get_attr" and node not in kept_out
        found = lower_node(node, values) if lowerable else None
        if found is None:
            values[node] = _buffer_view(node)
            continue
        lowered[node] = found
        if isinstance(found.value, Reduction):
            values[node] = _buffer_view(node, exact=holds_eager_values(found.value))
        else:
            values[node] = found.value
    return lowered, values


def _stored_exactly(node: Node, value: Value, values: dict[Node, Value]) -> bool:
    """Is the node's value, once stored (a float32 value rounded), the one eager stores? For
    a view or reduction, when the kernel holds it exactly; for a pointwise value, when it is
    one op on eager's values (the op in double, rounded once, is what eager's kernel does)."""
    if not isinstance(value, Pointwise):
        return holds_eager_values(value)
    return all(
        isinstance(values.get(read), View) and holds_eager_values(values[read])
        for read in node.all_input_nodes
    )


def buffer_prefix(graph: Graph) -> str:
    """The prefix of the variables holding data lists in `forward` and the kernels: `b_`, or a
    longer one no node name starts with (forward's locals are node names)."""
    prefix = "b_"
    names = [n.name for n in graph.nodes]
    while any(name.startswith(prefix) for name in names):
        prefix = f"b{prefix}"
    return prefix


def _buffer_view(node: Node, prefix: str = "b_", *, exact: bool = True) -> View:
    """The node's buffer, row-major; `exact`: it holds eager's values (`View.exact`)."""
    shape = tuple(node.meta["val"]._shape)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return View(prefix + node.name, shape, strides, exact=exact)


def plan_graph(gm: GraphModule, *, reorder_loops: bool = True) -> FusedPlan:
    """The plan of `gm`'s kernels; `reorder_loops` lets the scheduler try other loop orders
    for a pair of statements that would fuse with them (NOTE [loop order])."""
    graph = gm.graph
    lowered = _lower_all(gm)
    output = graph.nodes[-1]
    # Nodes whose value is needed as a tensor: graph outputs and runtime calls' arguments.
    as_tensor: set[Node] = set()
    for node in graph.nodes:
        if node.op == "output" or (node.op != "placeholder" and node not in lowered):
            as_tensor.update(n for n in node.all_input_nodes if n in lowered)
    views = runtime_views(graph, lowered, as_tensor)
    stored: set[Node] = set(as_tensor)
    for node, found in lowered.items():
        readers = [u for u in node.users if u in lowered]
        if isinstance(found.value, Reduction):
            stored.add(node)  # reductions are always stored
        elif not isinstance(found.value, View) and len(readers) > 1 and node not in views:
            stored.add(node)  # computed once, not once per reader (a view's base is stored)
    # A long chain of inlined ops (a loop of thousands of adds) is stored every
    # MAX_INLINED ops: an element's expression nests each op inside the next.
    inlined: dict[Node, int] = {}
    for node, found in lowered.items():
        if node in stored or isinstance(found.value, View):
            inlined[node] = 0
            continue
        depth = 1 + max((inlined.get(n, 0) for n in node.all_input_nodes), default=0)
        if depth > MAX_INLINED:
            stored.add(node)
            depth = 0
        inlined[node] = depth

    # The values again, with stored nodes read from their buffers.
    prefix = buffer_prefix(graph)
    values: dict[Node, Value] = {}
    items: list[Statement | Node] = []
    helpers: dict[str, Any] = {}
    for node in graph.nodes:
        if node in lowered:
            again = lower_node(node, values)
            assert again is not None, node
            helpers.update(again.helpers)
            if node in stored:
                items.append(make_statement(node, prefix + node.name, again.value))
                exact = holds_eager_values(again.value)
                values[node] = _buffer_view(node, prefix, exact=exact)
            else:
                values[node] = again.value
        elif _is_tensor(node):
            values[node] = _buffer_view(node, prefix)
            if node.op not in ("placeholder", "get_attr"):
                items.append(node)
        elif node.op not in ("placeholder", "output", "get_attr"):
            items.append(node)  # get_attr nodes are globals where they are read

    stats = ScheduleStats(reorder_loops)
    grouped = group(items, stats)
    return _write(gm, grouped, lowered, as_tensor, views, helpers, stats, output, prefix)


def runtime_views(graph: Graph, lowered: dict[Node, Lowering], as_tensor: set[Node]) -> list[Node]:
    """The lowered views (`VIEW_OPS`) whose tensor is needed, in graph order; they leave
    `as_tensor`, and the lowered values they view join it.

    A graph output or a runtime call's argument that is a view must be eager's tensor: one
    sharing its base's storage and version counter, so that writing either writes both
    (`x.T` of an input, two views of one result), with eager's layout (a reshape of a
    transposed result copies, of a contiguous one views). A kernel storing the view's
    elements would give a copy, so `forward` runs the runtime's own view op on its base
    instead, a tensor itself: a graph input, a runtime call's result, a stored lowered value
    (added to `as_tensor`) or another such view. Kernels that read the view still read it
    as index arithmetic over its base."""
    found: set[Node] = set()
    pending = list(as_tensor)
    while pending:
        node = pending.pop()
        if node in found or lowered[node].name not in VIEW_OPS:
            continue
        found.add(node)
        as_tensor.discard(node)
        for base in node.all_input_nodes:
            if base in lowered and base not in found:
                as_tensor.add(base)
                pending.append(base)
    return [node for node in graph.nodes if node in found]


def _write(
    gm: GraphModule,
    grouped: list[Kernel | Node],
    lowered: dict[Node, Lowering],
    as_tensor: set[Node],
    views: list[Node],
    helpers: dict[str, Any],
    stats: ScheduleStats,
    output: Node,
    prefix: str,
) -> FusedPlan:
    graph = gm.graph

    def buffer_name(node: Node) -> str:
        return prefix + node.name

    by_buffer = {buffer_name(n): n for n in graph.nodes}
    kernels = [k for k in grouped if isinstance(k, Kernel)]
    home = {s.buffer: i for i, k in enumerate(kernels) for s in k.statements}
    needed: set[str] = {buffer_name(n) for n in as_tensor}
    for i, kernel in enumerate(kernels):
        for statement in kernel.statements:
            for buffer, _ in statement.loads():
                if home.get(buffer, i) != i:
                    needed.add(buffer)
    sizes = {buffer_name(n): math.prod(n.meta["val"]._shape) for n in graph.nodes if _is_tensor(n)}
    rounded = {buffer_name(n) for n in as_tensor if n.meta["val"]._dtype.name == "float32"}

    codegen = _Codegen(graph, gm.name)
    lines = [f"def {gm.name}({', '.join(n.name for n in graph.placeholders)}):"]
    sources: list[KernelSource] = []
    has_data: set[str] = set()
    make = codegen.bind(Tensor._make, "make")
    # The nodes `forward` has a local (or a global) for; a runtime view is written as soon
    # as its base is one of them.
    defined = {n for n in graph.nodes if n.op in ("placeholder", "get_attr")}
    waiting = list(views)

    def write_ready_views() -> None:
        while ready := [v for v in waiting if all(n in defined for n in v.all_input_nodes)]:
            for view in ready:
                lines.append(f"    {codegen.statement(view)}")
                defined.add(view)
                waiting.remove(view)

    write_ready_views()
    for item in grouped:
        if isinstance(item, Node):
            if item.op == "output":
                continue
            lines.append(f"    {codegen.statement(item)}")
            defined.add(item)
            write_ready_views()
            continue
        pending = _Pending("")
        name = pending.name = codegen.bind(pending, f"kernel_{len(sources)}")
        source = kernel_source(item, name, needed, helpers, sizes, rounded)
        sources.append(source)
        for param in source.params:
            if param not in has_data:
                lines.append(f"    {param} = {codegen.render(by_buffer[param])}._data")
                has_data.add(param)
        targets = ", ".join(source.returns)
        call = f"{name}({', '.join(source.params)})"
        lines.append(f"    {targets}{',' if len(source.returns) == 1 else ''} = {call}")
        has_data.update(source.returns)
        for statement in item.statements:
            node = statement.node
            if node in as_tensor:
                wrapped = _wrap(codegen, node, make, buffer_name(node))
                lines.append(f"    {node.name} = {wrapped}")
                defined.add(node)
        write_ready_views()
    assert not waiting, waiting
    lines.append(f"    {codegen.statement(output)}")
    forward_source = "\n".join(lines) + "\n"
    kernel_plans = [
        KernelPlan(
            s.name, s.source, {k: describe(v) for k, v in s.helpers.items()}, s.nodes, s.depth
        )
        for s in sources
    ]
    forward_globals = {
        k: ({"kind": "kernel", "name": v.name} if isinstance(v, _Pending) else describe(v))
        for k, v in codegen.globals.items()
    }
    live = {k: v for k, v in codegen.globals.items() if not isinstance(v, _Pending)}
    return FusedPlan(
        fn_name=gm.name,
        forward=forward_source,
        forward_globals=forward_globals,
        kernels=kernel_plans,
        stats={
            "fusion_attempts": stats.fusion_attempts,
            "reorder_trials": stats.reorder_trials,
            "reordered": stats.reordered,
            "lowered_nodes": len(lowered),
            "reorder_loops": int(stats.reorder_loops),
        },
        live_globals=live,
    )


class _Pending:
    """A kernel named in `forward` before the plan is loaded (bound at load time)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _wrap(codegen: _Codegen, node: Node, make: str, data: str) -> str:
    """`make(data, shape, dtype, requires_grad)` for a stored lowered node. Whether it
    requires grad is its fake value's flag: that depends only on whether its inputs require
    grad (their TENSOR_MATCH guards pin it) and on grad mode where it is computed (the mode at
    the call is guarded when any tensor of the trace requires grad, and the graph's own
    `_set_grad_enabled` nodes set the rest), so it is the same on every call the entry serves.
    A float32 buffer comes rounded from its kernel (`kernel_source`'s `rounded`)."""
    val = node.meta["val"]
    dtype = codegen.bind(val._dtype, val._dtype.name)
    return f"{make}({data}, {tuple(val._shape)!r}, {dtype}, {bool(val.requires_grad)!r})"
