"""The reduce polyfill calls `function` on the same pairs, in the same order, and raises the
same errors as `functools.reduce` (an empty iterable with no initial value, a function that
raises half-way), on hypothesis inputs."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from variables.polyfills import functools_functions


def _run(reduce: Any, values: list[int], initial: int | None, fail_at: int) -> Any:
    log: list[tuple[int, int]] = []

    def function(a: int, b: int) -> int:
        log.append((a, b))
        if len(log) == fail_at:
            raise ValueError("stop")
        return a * 3 + b

    args = [function, iter(values)] + ([] if initial is None else [initial])
    try:
        result: Any = reduce(*args)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        result = (type(e), str(e))
    return result, log


def _polyfill(function: Any, iterable: Any, *initial: Any) -> Any:
    if initial:
        return functools_functions.reduce_from(function, iterable, *initial)
    return functools_functions.reduce(function, iterable)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-5, 5), max_size=8),
    st.one_of(st.none(), st.integers(-5, 5)),
    st.integers(-1, 9),
)
def test_same_as_functools_reduce(values: list[int], initial: int | None, fail_at: int) -> None:
    expected = _run(functools.reduce, values, initial, fail_at)
    assert _run(_polyfill, values, initial, fail_at) == expected
