"""`functools.reduce` written in Python, traced like user code: one `next` of the iterator,
then one call of `function`, in turn, as the C code does. The dispatch has checked the
arguments with the real function and picks the form (with or without `initial`)."""

from __future__ import annotations

from typing import Any


def reduce(function: Any, iterable: Any) -> Any:
    it = iter(iterable)
    for value in it:  # noqa: B007 - the first item is the start value
        break
    else:
        raise TypeError("reduce() of empty iterable with no initial value")
    for element in it:
        value = function(value, element)
    return value


def reduce_from(function: Any, iterable: Any, initial: Any) -> Any:
    value = initial
    for element in iterable:
        value = function(value, element)
    return value
