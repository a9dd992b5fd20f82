"""`functools.reduce` written in Python, traced like user code: one `next` of the iterator,
then one call of `function`, in turn, as the C code does. The dispatch has checked the
arguments with the real function and picks the form (with or without `initial`)."""

from __future__ import annotations

from typing import Any


def reduce(function: Any, iterable: Any) -> Any:
    """The items pulled with `next` (a `for` loop over `it` would call a user iterator's
    `__iter__` again: CPython calls it once)."""
    it = iter(iterable)
    done = object()
    value = next(it, done)
    if value is done:
        raise TypeError("reduce() of empty iterable with no initial value")
    while (element := next(it, done)) is not done:
        value = function(value, element)
    return value


def reduce_from(function: Any, iterable: Any, initial: Any) -> Any:
    value = initial
    for element in iterable:
        value = function(value, element)
    return value
