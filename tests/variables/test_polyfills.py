"""The polyfills make the calls their C builtin makes: `sort_small` compares the same pairs,
in the same order, and leaves the same order (and partial order on an error) as `list.sort`."""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar

from tracer.bytecode_versions import SORT_DESCENDING_RUNS_HOLD_EQUAL_KEYS
from variables.polyfills import less, same_type_less, sort_small

RUNS = SORT_DESCENDING_RUNS_HOLD_EQUAL_KEYS
"""The running CPython's way of finding the first run: the one `list.sort` is compared with."""


class Key:
    log: ClassVar[list[tuple[int, int]]] = []

    def __init__(self, v: int, fail_at: int = -1) -> None:
        self.v = v
        self.fail_at = fail_at

    def __lt__(self, other: Key) -> bool:
        Key.log.append((self.v, other.v))
        if len(Key.log) == self.fail_at:
            raise ValueError("stop")
        return self.v < other.v


def _run(sort: Any, values: list[int], fail_at: int = -1) -> tuple[Any, ...]:
    Key.log = []
    keys = [Key(v, fail_at) for v in values]
    error = None
    try:
        sort(keys)
    except ValueError as e:
        error = str(e)
    return list(Key.log), [k.v for k in keys], error


def _same_as_list_sort(values: list[int], fail_at: int = -1) -> None:
    real = _run(list.sort, values, fail_at)
    for compare in (same_type_less, less):
        assert (
            _run(lambda keys, c=compare: sort_small(keys, None, c, RUNS), values, fail_at) == real
        )


def test_every_short_list() -> None:
    for n in range(7):
        for values in itertools.product(range(n), repeat=n):
            _same_as_list_sort(list(values))


def test_random_lists_below_64() -> None:
    rng = random.Random(0)
    for _ in range(500):
        n = rng.randrange(64)
        values = [rng.randrange(rng.randrange(1, 70)) for _ in range(n)]
        _same_as_list_sort(values, fail_at=rng.randrange(-1, 3 * n + 2))


def test_values_move_with_their_keys() -> None:
    items = ["c", "a", "b", "a2"]
    keys = [3, 1, 2, 1]
    sort_small(keys, items, less, RUNS)
    assert (keys, items) == ([1, 1, 2, 3], ["a", "a2", "b", "c"])


def test_values_move_like_a_key_functions_items() -> None:
    """Equal keys in descending runs (reversed in groups on 3.13) keep their items in order."""
    rng = random.Random(1)
    for _ in range(300):
        keys = [rng.randrange(4) for _ in range(rng.randrange(12))]
        keys.sort(reverse=rng.random() < 0.5)
        keys = keys[: rng.randrange(len(keys) + 1)] + [rng.randrange(4) for _ in range(3)]
        items = list(range(len(keys)))
        expected = sorted(items, key=keys.__getitem__)
        sort_small(keys, items, less, RUNS)
        assert items == expected
