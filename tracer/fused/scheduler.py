"""Which values are stored, in which loop order, and which stores share a kernel.

A lowered value is stored in a buffer (it becomes a `Statement`) when something needs all of
it: the graph's output, a runtime call, a reduction (always stored), or more than one reader
(a pointwise value with one reader is inlined into it: no intermediate at all). Statements in
graph order are grouped greedily into kernels: one runs inside the current kernel's loops when
its first loops have the same sizes (the kernel's `depth` shared loops) and every element it
reads from the kernel's own statements is the one that statement computed in the same
iteration (a consumer's load and its producer's store have the same index text).

NOTE [loop order]: a pointwise statement's loops follow its accesses' strides: each dim scores
the sum of the strides its loop variable moves in every read and in the (row-major) store, and
loops go from the highest score outside to the lowest inside, ties in dim order. A reduction
loops over its kept dims, then its reduced ones. When a statement cannot join the kernel that
produced what it reads, and one side of that pair is a pointwise statement, the scheduler tries
the other orders of that statement's loops (at most 4 dims) and keeps the first that fuses:
orders are considered only for such a pair, when it is met, as Inductor's loop ordering after
fusion does.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

from tracer.fused.index import Ix, contiguous_strides, linear
from tracer.fused.lowering import Reduction, Value
from tracer.graph.node import Node

Shape = tuple[int, ...]
MAX_REORDER_RANK = 4


@dataclasses.dataclass
class Statement:
    """One stored value: computes `value` into `buffer` (row-major, `shape`)."""

    node: Node
    buffer: str
    value: Value
    shape: Shape
    order: list[int]
    """Loop position -> dim it iterates (of the output; of the input for a reduction)."""
    depth_hint: int = 0
    """For a reduction: its kept dims, the loops it shares with the kernel it is in."""

    @property
    def is_reduction(self) -> bool:
        return isinstance(self.value, Reduction)

    def loop_shape(self) -> Shape:
        return self.value.source.shape if isinstance(self.value, Reduction) else self.shape

    def loop_sizes(self) -> list[int]:
        shape = self.loop_shape()
        return [shape[d] for d in self.order]

    def dim_index(self) -> list[Ix]:
        """Each dim's index as a loop variable (size-1 dims read index 0)."""
        shape = self.loop_shape()
        index = [Ix()] * len(shape)
        for position, dim in enumerate(self.order):
            if shape[dim] != 1:
                index[dim] = Ix.var(position)
        return index

    def render(self, load: Callable[[str, Ix], str]) -> str:
        """The expression of one element (of the reduced input, for a reduction)."""
        index = self.dim_index()
        value = self.value
        if isinstance(value, Reduction):
            return value.source.expr(index, load)
        return value.expr(index, load)

    def store_ix(self) -> Ix:
        index = self.dim_index()
        value = self.value
        if isinstance(value, Reduction):
            if value.keepdim:
                out = [Ix() if d in value.dims else ix for d, ix in enumerate(index)]
            else:
                out = [ix for d, ix in enumerate(index) if d not in value.dims]
            return linear(out, contiguous_strides(self.shape))
        return linear(index, contiguous_strides(self.shape))

    def loads(self) -> list[tuple[str, Ix]]:
        found: list[tuple[str, Ix]] = []

        def record(buffer: str, ix: Ix) -> str:
            found.append((buffer, ix))
            return ""

        self.render(record)
        return found


def make_statement(node: Node, buffer: str, value: Value) -> Statement:
    shape: Shape = value.shape
    if isinstance(value, Reduction):
        source_rank = len(value.source.shape)
        kept = [d for d in range(source_rank) if d not in value.dims]
        return Statement(node, buffer, value, shape, kept + list(value.dims), len(kept))
    statement = Statement(node, buffer, value, shape, list(range(len(shape))))
    statement.order = stride_order(statement)
    return statement


def stride_order(statement: Statement) -> list[int]:
    """NOTE [loop order]: dims by the strides their loops move, largest outside."""
    rank = len(statement.shape)
    statement.order = list(range(rank))
    score = [0] * rank
    for _buffer, ix in statement.loads():
        for dim in range(rank):
            score[dim] += abs(ix.coefficient(dim))
    for dim, stride in enumerate(contiguous_strides(statement.shape)):
        score[dim] += stride if statement.shape[dim] != 1 else 0
    return sorted(range(rank), key=lambda d: (-score[d], d))


@dataclasses.dataclass
class Kernel:
    statements: list[Statement]
    depth: int | None = None
    """Loops shared by every statement; None while it holds one pointwise statement."""

    @property
    def buffers(self) -> dict[str, Statement]:
        return {s.buffer: s for s in self.statements}


@dataclasses.dataclass
class ScheduleStats:
    reorder_loops: bool = True
    fusion_attempts: int = 0
    reorder_trials: int = 0
    reordered: int = 0


def matches(producer: Statement, consumer: Statement, ix: Ix) -> bool:
    """Does `consumer` read, at `ix`, the element `producer` computes in the same iteration?"""
    if ix.text() != producer.store_ix().text():
        return False
    return producer.is_reduction or producer.loop_sizes() == consumer.loop_sizes()


def _depth_for(kernel: Kernel, statement: Statement) -> int | None:
    if kernel.depth is not None:
        return kernel.depth
    if statement.is_reduction:
        return statement.depth_hint
    return max(len(statement.loop_sizes()) - 1, 0)  # rows of the last dim, or the whole


def can_fuse(kernel: Kernel, statement: Statement) -> int | None:
    """The kernel depth with which `statement` joins `kernel`, or None if it cannot."""
    depth = _depth_for(kernel, statement)
    if depth is None:
        return None
    prefix = statement.loop_sizes()[:depth]
    if len(prefix) != depth or (statement.is_reduction and statement.depth_hint != depth):
        return None
    for member in kernel.statements:
        sizes = member.loop_sizes()
        if sizes[:depth] != prefix or (member.is_reduction and member.depth_hint != depth):
            return None
    own = kernel.buffers
    for buffer, ix in statement.loads():
        producer = own.get(buffer)
        if producer is not None and not matches(producer, statement, ix):
            return None
    return depth


def reads_from(kernel: Kernel, statement: Statement) -> bool:
    own = kernel.buffers
    return any(buffer in own for buffer, _ in statement.loads())


def try_fuse(kernel: Kernel, statement: Statement, stats: ScheduleStats) -> bool:
    """Add `statement` to `kernel` if it fuses, reordering one pointwise side on demand."""
    stats.fusion_attempts += 1
    depth = can_fuse(kernel, statement)
    if depth is None and stats.reorder_loops:
        depth = _reorder_to_fuse(kernel, statement, stats)
    if depth is None:
        return False
    kernel.depth = depth
    kernel.statements.append(statement)
    return True


def _reorder_to_fuse(kernel: Kernel, statement: Statement, stats: ScheduleStats) -> int | None:
    """NOTE [loop order]: other loop orders of the pointwise side of this one pair."""
    candidates: list[Statement] = []
    if not statement.is_reduction:
        candidates.append(statement)
    if len(kernel.statements) == 1 and not kernel.statements[0].is_reduction:
        candidates.append(kernel.statements[0])
    for movable in candidates:
        rank = len(movable.order)
        if rank < 2 or rank > MAX_REORDER_RANK:
            continue
        kept = movable.order
        saved_depth = kernel.depth
        for order in itertools.permutations(range(rank)):
            if list(order) == kept:
                continue
            stats.reorder_trials += 1
            movable.order = list(order)
            if movable is not statement:
                kernel.depth = None
            depth = can_fuse(kernel, statement)
            if depth is not None:
                stats.reordered += 1
                return depth
        movable.order = kept
        kernel.depth = saved_depth
    return None


def group(items: list[Statement | Node], stats: ScheduleStats) -> list[Kernel | Node]:
    """Statements in order, grouped into kernels; a runtime call (a Node) ends a kernel."""
    out: list[Kernel | Node] = []
    current: Kernel | None = None
    for item in items:
        if isinstance(item, Node):
            current = None
            out.append(item)
            continue
        if current is not None and reads_from(current, item) and try_fuse(current, item, stats):
            continue
        current = Kernel([item], item.depth_hint if item.is_reduction else None)
        out.append(current)
    return out
