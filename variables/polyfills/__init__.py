"""Python implementations of C builtins, traced like user code where the builtin calls user code.

`list.sort` on user objects calls their `__lt__`, and a `__lt__` may do anything: so the trace
must make the same calls, in the same order, as CPython's C code. The functions here are that
C code's algorithm written in Python; the translator inlines them like any user function, so
each `__lt__` runs traced, at the point CPython would call it. They read no module globals
(an inlined function from another module could only read them unguarded): everything they
need comes in as an argument, builtins aside.

Each one is checked against the C builtin it models (tests/variables/test_polyfills.py): the
same comparisons, in the same order, with the same result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def sort_small(
    keys: list[Any],
    values: list[Any] | None,
    less: Callable[[Any, Any], Any],
    descending_runs_hold_equal_keys: bool,
) -> None:
    """CPython's `list.sort` for fewer than 64 items, in place: `keys` sorted by `less`
    (stable), `values` (the items, when a key function made `keys`) moved along with them.

    Timsort's "minimum run" is the whole list below 64 items, so the C code finds the run at the
    start, turns it ascending, and extends it by binary insertion of each following item; no
    merges happen. An exception from `less` leaves the lists as far as the sort got, as the C
    code does.

    Finding that first run changed in CPython 3.13 (`descending_runs_hold_equal_keys`, from
    `tracer.bytecode_versions`). Before, a run is strictly descending (then reversed) when its
    second key is less than its first, else non-descending. From 3.13 a descending run may hold
    equal neighbours: the run first grows while non-descending; when a key less than its
    predecessor ends it, a run whose first key is less than its last stays ascending, and one
    of equal keys goes on as a descending run. Each group of equal keys in a descending run is
    reversed when it ends, so that reversing the whole run keeps equal keys in their order; the
    reversed run then grows while non-descending.
    """
    n = len(keys)
    if n < 2:
        return
    if not descending_runs_hold_equal_keys:
        run = 2
        if less(keys[1], keys[0]):
            while run < n and less(keys[run], keys[run - 1]):
                run += 1
            keys[:run] = keys[run - 1 :: -1]
            if values is not None:
                values[:run] = values[run - 1 :: -1]
        else:
            while run < n and not less(keys[run], keys[run - 1]):
                run += 1
    else:
        run = 1
        while run < n and not less(keys[run], keys[run - 1]):
            run += 1
        if run == n:
            return
        if run == 1 or not less(keys[0], keys[run - 1]):
            # a descending run: keys[:run] are equal, reversed now and back in their order
            # when the whole run is reversed
            keys[:run] = keys[:run][::-1]
            if values is not None:
                values[:run] = values[:run][::-1]
            run += 1  # keys[run] was less than its predecessor
            equal = 0  # how many keys just before keys[run] equal the one before them
            while run < n:
                if less(keys[run], keys[run - 1]):
                    if equal:
                        keys[run - equal - 1 : run] = keys[run - equal - 1 : run][::-1]
                        if values is not None:
                            values[run - equal - 1 : run] = values[run - equal - 1 : run][::-1]
                        equal = 0
                elif less(keys[run - 1], keys[run]):
                    break
                else:
                    equal += 1
                run += 1
            if equal:
                keys[run - equal - 1 : run] = keys[run - equal - 1 : run][::-1]
                if values is not None:
                    values[run - equal - 1 : run] = values[run - equal - 1 : run][::-1]
            keys[:run] = keys[:run][::-1]
            if values is not None:
                values[:run] = values[:run][::-1]
            while run < n and not less(keys[run], keys[run - 1]):
                run += 1
    for start in range(run, n):
        pivot = keys[start]
        lo = 0
        hi = start
        while lo < hi:
            middle = lo + ((hi - lo) >> 1)
            if less(pivot, keys[middle]):
                hi = middle
            else:
                lo = middle + 1
        keys.insert(lo, keys.pop(start))
        if values is not None:
            values.insert(lo, values.pop(start))


def same_type_less(v: Any, w: Any, not_implemented: Any = NotImplemented) -> Any:
    """How `list.sort` compares keys that all have one type: the type's own `__lt__` first,
    and only when that returns NotImplemented the whole `<` protocol (reflected `__gt__`).
    (NotImplemented comes in as a default: the builtin name is not read while tracing.)"""
    result = type(v).__lt__(v, w)
    if result is not_implemented:
        return v < w
    return result


def less(v: Any, w: Any) -> Any:
    """How `list.sort` compares keys of mixed types: `v < w`."""
    return v < w
