"""`_bisect`'s C functions written in Python, traced like user code: the same items read, the
same `key` calls and `<` comparisons, in CPython's order (`insort_*` calls `key(x)` once,
before searching; `hi=None`, or -1, means `len(a)`). The dispatch has checked the argument
types with the real function first.
"""

from __future__ import annotations

from typing import Any


def bisect_right(a: Any, x: Any, lo: int = 0, hi: Any = None, *, key: Any = None) -> int:
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi is None or hi == -1:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        item = a[mid] if key is None else key(a[mid])
        if x < item:
            hi = mid
        else:
            lo = mid + 1
    return lo


def bisect_left(a: Any, x: Any, lo: int = 0, hi: Any = None, *, key: Any = None) -> int:
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi is None or hi == -1:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        item = a[mid] if key is None else key(a[mid])
        if item < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def insort_right(
    a: Any, x: Any, lo: int = 0, hi: Any = None, *, key: Any = None, search: Any = bisect_right
) -> None:
    index = search(a, x if key is None else key(x), lo, hi, key=key)
    a.insert(index, x)


def insort_left(
    a: Any, x: Any, lo: int = 0, hi: Any = None, *, key: Any = None, search: Any = bisect_left
) -> None:
    index = search(a, x if key is None else key(x), lo, hi, key=key)
    a.insert(index, x)
