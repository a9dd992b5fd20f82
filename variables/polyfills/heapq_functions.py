"""`_heapq`'s C functions written in Python, traced like user code: each `<` between two items
is made where CPython's C code makes it, so a user `__lt__` runs traced, in the same order.

Like the C code, the sift loops read the list again after each comparison (a `__lt__` may have
replaced items) and raise CPython's RuntimeError when a comparison changed the list's size.
The helpers come in as defaults: an inlined function of another module reads no globals.
The max-heap functions are the same ones given `siftup_max` (the registry passes it).
The dispatch (variables/polyfills/registry.py) has checked the arguments with the real function
first, so these run only with a list as the heap and the right number of arguments.
"""

from __future__ import annotations

from typing import Any


def siftdown(heap: list[Any], startpos: int, pos: int) -> None:
    """Move `heap[pos]` up towards `startpos` while it is less than its parent."""
    size = len(heap)
    if pos >= size:
        raise IndexError("index out of range")
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        less = True if newitem < parent else False  # noqa: SIM210 - truth taken now, as in C
        if size != len(heap):
            raise RuntimeError("list changed size during iteration")
        if not less:
            break
        parent = heap[parentpos]
        newitem = heap[pos]
        heap[parentpos] = newitem
        heap[pos] = parent
        pos = parentpos


def siftup(heap: list[Any], pos: int, siftdown: Any = siftdown) -> None:
    """Move the smaller child up until a leaf, then sift the item there back down (the
    C code's bottom-up variant: fewer comparisons than stopping early)."""
    endpos = len(heap)
    startpos = pos
    if pos >= endpos:
        raise IndexError("index out of range")
    limit = endpos >> 1
    while pos < limit:
        childpos = 2 * pos + 1
        if childpos + 1 < endpos:
            if not heap[childpos] < heap[childpos + 1]:
                childpos += 1
            if endpos != len(heap):
                raise RuntimeError("list changed size during iteration")
        child = heap[childpos]
        heap[childpos] = heap[pos]
        heap[pos] = child
        pos = childpos
    siftdown(heap, startpos, pos)


def siftdown_max(heap: list[Any], startpos: int, pos: int) -> None:
    """`siftdown` of a max-heap: moves `heap[pos]` up while its parent is less than it."""
    size = len(heap)
    if pos >= size:
        raise IndexError("index out of range")
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        less = True if parent < newitem else False  # noqa: SIM210 - truth taken now, as in C
        if size != len(heap):
            raise RuntimeError("list changed size during iteration")
        if not less:
            break
        parent = heap[parentpos]
        newitem = heap[pos]
        heap[parentpos] = newitem
        heap[pos] = parent
        pos = parentpos


def siftup_max(heap: list[Any], pos: int, siftdown: Any = siftdown_max) -> None:
    """`siftup` of a max-heap (for `_heapify_max`, `_heappop_max`, `_heapreplace_max`, which
    the pure-Python `heapq.nsmallest` and `heapq.merge` call)."""
    endpos = len(heap)
    startpos = pos
    if pos >= endpos:
        raise IndexError("index out of range")
    limit = endpos >> 1
    while pos < limit:
        childpos = 2 * pos + 1
        if childpos + 1 < endpos:
            if not heap[childpos + 1] < heap[childpos]:
                childpos += 1
            if endpos != len(heap):
                raise RuntimeError("list changed size during iteration")
        child = heap[childpos]
        heap[childpos] = heap[pos]
        heap[pos] = child
        pos = childpos
    siftdown(heap, startpos, pos)


def heappush(heap: list[Any], item: Any, /, siftdown: Any = siftdown) -> None:
    heap.append(item)
    siftdown(heap, 0, len(heap) - 1)


def heappop(heap: list[Any], /, siftup: Any = siftup) -> Any:
    if not heap:
        raise IndexError("index out of range")
    last = heap.pop()
    if not heap:
        return last
    result = heap[0]
    heap[0] = last
    siftup(heap, 0)
    return result


def heapreplace(heap: list[Any], item: Any, /, siftup: Any = siftup) -> Any:
    if not heap:
        raise IndexError("index out of range")
    result = heap[0]
    heap[0] = item
    siftup(heap, 0)
    return result


def heappushpop(heap: list[Any], item: Any, /, siftup: Any = siftup) -> Any:
    if not heap:
        return item
    if not heap[0] < item:
        return item
    if not heap:
        raise IndexError("index out of range")
    result = heap[0]
    heap[0] = item
    siftup(heap, 0)
    return result


def heapify(heap: list[Any], /, siftup: Any = siftup) -> None:
    """Sift each parent, last first. (CPython uses another order above 2,500 items: the
    dispatch falls back there.)"""
    for i in range(len(heap) // 2 - 1, -1, -1):
        siftup(heap, i)
