"""The bisect polyfills read the same items, call `key` and `<` in the same order and give
the same index (or insertion, or exception) as `_bisect`, on hypothesis inputs with `lo`,
`hi` (None, -1, in or out of range, negative) and `key`."""

from __future__ import annotations

import bisect
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from variables.polyfills import bisect_functions

NAMES = ["bisect_left", "bisect_right", "insort_left", "insort_right"]


class Logged:
    def __init__(self, v: int, log: list[Any]) -> None:
        self.v = v
        self.log = log

    def __lt__(self, other: Any) -> bool:
        self.log.append(("lt", self.v, getattr(other, "v", other)))
        return self.v < getattr(other, "v", other)


def _run(module: Any, name: str, values: list[int], x: int, bounds: dict[str, Any], keyed: bool):
    log: list[Any] = []
    items = [Logged(v, log) for v in sorted(values)]
    kwargs = dict(bounds)
    if keyed:

        def key(item: Logged) -> Logged:
            log.append(("key", item.v))
            return item

        kwargs["key"] = key
    try:
        result = getattr(module, name)(items, Logged(x, log), **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        result = (type(e), str(e))
    return result, log, [item.v for item in items]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(NAMES),
    st.lists(st.integers(0, 9), max_size=12),
    st.integers(0, 9),
    st.fixed_dictionaries(
        {},
        optional={"lo": st.integers(-2, 14), "hi": st.one_of(st.none(), st.integers(-2, 14))},
    ),
    st.booleans(),
)
def test_same_as_bisect(
    name: str, values: list[int], x: int, bounds: dict[str, Any], keyed: bool
) -> None:
    expected = _run(bisect, name, values, x, bounds, keyed)
    assert _run(bisect_functions, name, values, x, bounds, keyed) == expected
