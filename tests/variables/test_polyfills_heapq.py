"""The heapq polyfills make the comparisons `_heapq` makes: on hypothesis-chosen heaps and
operations, the same `<` calls in the same order, the same results, the same exceptions (type
and message) and the same list afterwards, including a `__lt__` that raises or changes the
list's size half-way."""

from __future__ import annotations

import heapq
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from variables.polyfills import heapq_functions


class Item:
    """Compares by value and logs each `<`; the `fail_at`-th comparison raises, and the
    `grow_at`-th appends to the heap it is in (the RuntimeError path of the C code)."""

    def __init__(self, v: int, state: dict[str, Any]) -> None:
        self.v = v
        self.state = state

    def __lt__(self, other: Item) -> bool:
        log = self.state["log"]
        log.append((self.v, other.v))
        if len(log) == self.state["fail_at"]:
            raise ValueError("stop")
        if len(log) == self.state["grow_at"]:
            self.state["heap"].append(Item(99, self.state))
        return self.v < other.v

    def __repr__(self) -> str:
        return f"Item({self.v})"


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                *["heappush", "heappop", "heapreplace", "heappushpop", "heapify"],
                *["_heapify_max", "_heappop_max", "_heapreplace_max"],
            ]
        ),
        st.integers(0, 9),
    ),
    max_size=8,
)


class MaxPolyfills:
    """The `_max` functions as the registry calls the polyfills: with `siftup_max`."""

    @staticmethod
    def _heapify_max(heap: list[Any]) -> None:
        heapq_functions.heapify(heap, heapq_functions.siftup_max)

    @staticmethod
    def _heappop_max(heap: list[Any]) -> Any:
        return heapq_functions.heappop(heap, heapq_functions.siftup_max)

    @staticmethod
    def _heapreplace_max(heap: list[Any], item: Any) -> Any:
        return heapq_functions.heapreplace(heap, item, heapq_functions.siftup_max)

    def __getattr__(self, name: str) -> Any:
        return getattr(heapq_functions, name)


def _run(
    module: Any, values: list[int], ops: list[tuple[str, int]], fail_at: int, grow_at: int
) -> Any:
    state: dict[str, Any] = {"log": [], "fail_at": fail_at, "grow_at": grow_at}
    heap = state["heap"] = [Item(v, state) for v in values]
    results: list[Any] = []
    for name, x in ops:
        one = name in ("heappop", "heapify", "_heapify_max", "_heappop_max")
        args = [heap] if one else [heap, Item(x, state)]
        try:
            result = getattr(module, name)(*args)
            results.append(result.v if isinstance(result, Item) else result)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            results.append((type(e), str(e)))
    return state["log"], [item.v for item in heap], results


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 9), max_size=20),
    OPERATIONS,
    st.integers(-1, 60),
    st.integers(-1, 60),
)
def test_same_comparisons_results_and_errors_as_heapq(
    values: list[int], ops: list[tuple[str, int]], fail_at: int, grow_at: int
) -> None:
    expected = _run(heapq, values, ops, fail_at, grow_at)
    assert _run(MaxPolyfills(), values, ops, fail_at, grow_at) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(), max_size=60))
def test_heap_sort_of_ints(values: list[int]) -> None:
    for module in (heapq, heapq_functions):
        heap = list(values)
        module.heapify(heap)
        assert [module.heappop(heap) for _ in values] == sorted(values)
