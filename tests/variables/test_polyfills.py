"""The polyfills make the calls their C builtin makes: `sort_small` compares the same pairs,
in the same order, and leaves the same order (and partial order on an error) as `list.sort`."""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar

from variables.polyfills import less, same_type_less, sort_small


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
        assert _run(lambda keys, c=compare: sort_small(keys, None, c), values, fail_at) == real


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
    sort_small(keys, items, less)
    assert (keys, items) == ([1, 1, 2, 3], ["a", "a2", "b", "c"])
