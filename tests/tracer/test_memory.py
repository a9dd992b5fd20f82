"""What a compile leaves behind: nothing for the garbage collector, and nothing forever.

A compiled function must be freed once the user drops it (its entries, graphs and their
linecache texts with it), and a finished trace must be freed by reference counting alone: a
trace's objects left to the collector made the collections running in later compiles cost as
much as the tracing.
"""

from __future__ import annotations

import gc
import linecache
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.output_graph import OutputGraph
from tracer.translator.base import TranslatorBase


def _helper(t: Any) -> Any:
    return t.sin() * 2


def _sample(x: Any, ys: list[Any]) -> Any:
    total = x
    for y in ys:
        total = total + _helper(y)
    ys.append(total)
    return [v.cos() for v in ys[:2]], {"t": total}


def _args() -> tuple[Any, list[Any]]:
    return torch.ones(2, 3), [torch.ones(2, 3), torch.ones(2, 3) * 2]


@contextmanager
def _garbage_kept() -> Iterator[list[Any]]:
    """Everything the collector finds unreachable while the block runs, kept for inspection."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[Any] = []
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_a_dropped_compiled_function_is_freed_with_its_check_texts() -> None:
    compiled = tracer.compile(_sample)
    compiled(*_args())
    compiled(torch.ones(3), [torch.ones(3)])  # a miss (the first check compiles), a recompile
    filenames = [entry.guard_manager.filename for entry in compiled.entries]
    assert filenames[1] in linecache.cache
    ref = weakref.ref(compiled)
    del compiled
    gc.collect()
    assert ref() is None
    assert not any(filename in linecache.cache for filename in filenames)


def test_reset_does_not_keep_dropped_functions_alive() -> None:
    refs = []
    for _ in range(3):
        compiled = tracer.compile(_sample)
        compiled(*_args())
        refs.append(weakref.ref(compiled))
        del compiled
        tracer.reset()
    gc.collect()
    assert [r() for r in refs] == [None, None, None]


def test_a_finished_trace_is_freed_without_the_collector() -> None:
    compiled = tracer.compile(_sample)
    compiled(*_args())  # warm-up: first-use tables and caches
    tracer.reset()
    with _garbage_kept() as garbage:
        compiled(*_args())
    kinds = {type(o) for o in garbage}
    assert not any(issubclass(k, OutputGraph | TranslatorBase) for k in kinds), kinds


def test_a_trace_that_falls_back_is_freed_without_the_collector() -> None:
    def breaks(x: Any) -> Any:
        y = x.sin()
        if y.sum() > 0:  # data-dependent: the frame falls back
            return y
        return x

    compiled = tracer.compile(breaks)
    compiled(torch.ones(2))
    tracer.reset()
    with _garbage_kept() as garbage:
        compiled(torch.ones(2))
    kinds = {type(o) for o in garbage}
    assert not any(issubclass(k, OutputGraph | TranslatorBase) for k in kinds), kinds


def test_a_reset_entry_and_its_graph_are_freed_without_the_collector() -> None:
    """NOTE [acyclic graph]: an entry's graph (nodes, users, metadata, fake tensors) goes by
    reference counting when the entry does, not at some later collection."""
    compiled = tracer.compile(_sample)
    compiled(*_args())
    tracer.reset()
    with _garbage_kept() as garbage:
        compiled(*_args())
        graph = compiled.entries[0].graph
        assert graph is not None
        graph_ref = weakref.ref(graph.graph)
        # nodes take no weak references; the fake tensors in their metadata do
        fakes = [weakref.ref(n.meta["val"]) for n in graph.graph.nodes if "val" in n.meta]
        assert fakes
        del graph
        tracer.reset()  # drops the entry
        assert graph_ref() is None
        assert [r() for r in fakes] == [None] * len(fakes)
    kinds = {type(o).__name__ for o in garbage}
    assert not kinds & {"Graph", "Node", "FakeTensor", "CacheEntry", "GraphModule"}, kinds


def test_dropping_a_compiled_function_frees_its_entries_without_the_collector() -> None:
    compiled = tracer.compile(_sample)
    compiled(*_args())
    del compiled
    with _garbage_kept() as garbage:
        compiled = tracer.compile(_sample)
        compiled(*_args())
        compiled(torch.ones(3), [torch.ones(3)])  # a miss (explained), then a second entry
        del compiled
    kinds = {type(o).__name__ for o in garbage}
    # What is left to the collector is small: closures of the miss path's explanation.
    heavy = {
        "Graph",
        "Node",
        "FakeTensor",
        "GraphModule",
        "CacheEntry",
        "CompiledGuards",
        "Guard",
        "OutputGraph",
        "CompiledFunction",
    }
    assert not kinds & heavy, kinds & heavy
