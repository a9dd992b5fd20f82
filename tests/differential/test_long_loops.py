"""Long loops and deep recursion trace whole under the default bounds (issue 22, point 6): the
instruction budget (`config.instruction_budget`, 1,000,000) and the inlining depth
(`config.inline_depth_limit`, 32) stay safety bounds, and a trace that passes one still falls
back with a reason naming it."""

from __future__ import annotations

import tracer
import tracer.runtime as torch
from tracer import config
from tracer.testing import assert_same_behavior


class Item:
    def __init__(self, key, name):
        self.key = key
        self.name = name

    def __lt__(self, other):
        """Order by key, ties by name: the heap's order is then the sorted order."""
        return (self.key, self.name) < (other.key, other.name)


class Heap:
    """A binary min-heap of user objects, written the way heapq's Python version is."""

    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)
        self._sift_up(len(self.items) - 1)

    def pop(self):
        last = self.items.pop()
        if not self.items:
            return last
        top = self.items[0]
        self.items[0] = last
        self._sift_down(0)
        return top

    def _sift_up(self, pos):
        items = self.items
        while pos > 0:
            parent = (pos - 1) >> 1
            if items[pos] < items[parent]:
                items[pos], items[parent] = items[parent], items[pos]
                pos = parent
            else:
                break

    def _sift_down(self, pos):
        items = self.items
        end = len(items)
        while True:
            child = 2 * pos + 1
            if child >= end:
                return
            if child + 1 < end and items[child + 1] < items[child]:
                child += 1
            if not items[child] < items[pos]:
                return
            items[pos], items[child] = items[child], items[pos]
            pos = child


def heap_sort(keys):
    """Heap sort of user objects (about 65,000 traced instructions for 120 keys)."""
    heap = Heap()
    for k in keys:
        heap.push(Item(k, f"item {k}"))
    return [heap.pop().name for _ in range(len(keys))]


def nested_loops(n):
    table = {}
    for i in range(n):
        for j in range(n):
            table[i, j] = (i * j) % 7
    return sum(table.values()), len(table)


class Account:
    def __init__(self, owner, balance):
        self.owner = owner
        self.balance = balance


def settle(accounts, rounds):
    log = []
    for r in range(rounds):
        for name, account in accounts.items():
            if account.balance > 10:
                account.balance -= 3
                log.append((r, name))
            else:
                account.balance += 1
    return len(log), sorted(accounts)


def depth(x, n):
    if n == 0:
        return x
    return depth(x + 1, n - 1)


def count_up(n):
    total = 0
    for i in range(n):
        total += i
    return total


def _traced_whole(fn, *args):
    """Assert that `fn(*args)` traces whole; return how many instructions it traced."""
    tracer.reset()
    explanation = tracer.explain(fn)(*args)
    assert explanation.graph_break_count == 0, explanation.break_reasons
    metrics = tracer.get_compilation_metrics()[-1]
    assert metrics.traced_instruction_count is not None
    return metrics.traced_instruction_count


def test_the_defaults_are_the_documented_bounds() -> None:
    assert config.Config().instruction_budget == 1_000_000
    assert config.Config().inline_depth_limit == 32


def test_heap_sort_of_120_items_traces_whole() -> None:
    items = [(i * 7919) % 251 for i in range(120)]
    _traced_whole(heap_sort, items)
    assert_same_behavior(heap_sort, items, compile_options={"fullgraph": True})


def test_nested_loop_traces_whole() -> None:
    """About 190,000 instructions: past the old default budget of 100,000."""
    assert _traced_whole(nested_loops, 120) > 100_000
    assert_same_behavior(nested_loops, 120, compile_options={"fullgraph": True})


def test_loop_over_a_dict_of_user_objects_traces_whole() -> None:
    """About 158,000 instructions, mutating the objects' attributes (replayed after the call)."""

    def accounts():
        return {f"a{i}": Account(f"o{i}", i * 3) for i in range(40)}

    assert _traced_whole(settle, accounts(), 200) > 100_000
    assert_same_behavior(settle, accounts(), 200, compile_options={"fullgraph": True})


def test_recursion_to_depth_30_traces_whole() -> None:
    _traced_whole(depth, torch.ones(2), 30)
    assert tracer.get_compilation_metrics()[-1].inline_depth_max == 30
    assert_same_behavior(depth, torch.ones(2), 30, compile_options={"fullgraph": True})


def test_recursion_to_the_depth_limit_traces_and_one_more_falls_back() -> None:
    _traced_whole(depth, torch.ones(2), 32)
    explanation = tracer.explain(depth)(torch.ones(2), 33)
    assert [r.kind for r in explanation.break_reasons] == ["inline-depth"]
    assert "depth limit of 32" in str(explanation.break_reasons[0])
    assert_same_behavior(depth, torch.ones(2), 33)


def test_the_budget_is_still_a_bound() -> None:
    """A loop of about 2,000,000 instructions passes the default budget and falls back."""
    explanation = tracer.explain(count_up)(300_000)
    [reason] = explanation.break_reasons
    assert reason.kind == "instruction-budget"
    assert "budget of 1000000 instructions" in str(reason)
    assert explanation.result == count_up(300_000)


def repeated_ops(x, n):
    acc = x
    for _ in range(n):
        acc = acc + x.sin()  # the same `x.sin()` every time: the graph passes merge them
        unused = x * 2  # dead: the graph passes erase it
    return acc, unused


def test_a_long_loop_of_recorded_ops_traces_whole() -> None:
    """6,000 nodes, of which the passes erase about 4,000 (merged or dead): erasing a node from
    the graph takes constant time (it searched the whole graph before)."""
    explanation = tracer.explain(repeated_ops)(torch.ones(3), 3_000)
    assert explanation.graph_break_count == 0
    [graph] = explanation.graphs
    assert len(graph.graph) < 3_010
    assert_same_behavior(repeated_ops, torch.ones(3), 3_000, calls=1)
