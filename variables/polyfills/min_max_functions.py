"""`min` and `max` over values a trace cannot fold (a key function, user objects, an iterator),
written in Python and traced like user code: the same key calls and comparisons (`<` for min,
`>` for max, the new value on the left), in CPython's order, pulling one item at a time. It
reads no global of this module (a trace reads only the traced frame's module's globals)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def min_max(
    iterable: Iterable[Any],
    key: Callable[[Any], Any] | None,
    smallest: bool,
    has_default: bool,
    default: Any,
    empty_message: str,
) -> Any:
    """The first smallest (or largest) item; `default` or ValueError (with CPython's message,
    `empty_message`) when there is none. The items are pulled with `next` (a `for` loop over
    `it` would call a user iterator's `__iter__` again: CPython calls it once)."""
    it = iter(iterable)
    done: Any = object()
    best = next(it, done)

    if best is done:
        if has_default:
            return default
        raise ValueError(empty_message)
    best_key = best if key is None else key(best)
    while (item := next(it, done)) is not done:
        value = item if key is None else key(item)
        if (value < best_key) if smallest else (value > best_key):
            best, best_key = item, value
    return best
