"""Changes to a dict from outside are replayed as the trace made them (`popitem`, `del`,
`d[k] = v`, ...), so the dict's hash table is the one eager code leaves: CPython's test_dict
`test_splittable_popitem` checks that `popitem` on an instance's shared-key dict grows it
(`sys.getsizeof`). The replay used to be `clear(); update(final contents)`, right in contents
and order but not in the table; it still is where the log is not known whole."""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import Any

import pytest

import tracer
from tracer.testing import assert_same_behavior


class Point:
    pass


def shared_key_dicts() -> list[dict[str, int]]:
    dicts = []
    for _ in range(2):
        p = Point()
        p.x, p.y, p.z = 1, 2, 3
        dicts.append(p.__dict__)
    return dicts


def popitem(d: dict[Any, Any]) -> Any:
    return d.popitem()


def delete_and_store(d: dict[Any, Any]) -> Any:
    del d["y"]
    d["w"] = 7
    d["x"] = 5
    return d.pop("z")


def clear_then_store(d: dict[Any, Any]) -> Any:
    d.clear()
    d.setdefault("a", 1)


def update_then_pop(d: dict[Any, Any]) -> Any:
    d.update(q=1)
    return d.popitem()


@pytest.mark.parametrize("fn", [popitem, delete_and_store, clear_then_store])
def test_same_table_as_eager(fn: Any) -> None:
    """The same operation on equal dicts, eagerly and compiled: the same size afterwards."""
    eager, compiled = shared_key_dicts()[0], shared_key_dicts()[0]
    assert sys.getsizeof(eager) == sys.getsizeof(compiled)
    assert fn(eager) == tracer.compile(fn)(compiled)
    assert list(eager.items()) == list(compiled.items())
    assert sys.getsizeof(eager) == sys.getsizeof(compiled)


@pytest.mark.parametrize("fn", [popitem, delete_and_store, clear_then_store, update_then_pop])
def test_same_behavior(fn: Any) -> None:
    assert_same_behavior(fn, {"x": 1, "y": 2, "z": 3, "big": list(range(3))})


def test_an_ordered_dict_still_replays_its_contents() -> None:
    def f(d: OrderedDict[str, int]) -> Any:
        d.move_to_end("x")
        return d.popitem(last=False)

    assert_same_behavior(f, OrderedDict(x=1, y=2, z=3))


class Config(dict):  # type: ignore[type-arg]
    def pop(self, *args: Any) -> Any:  # the replay uses dict's own, never this one
        raise AssertionError("Config.pop is not dict's")


def make_config(pairs: dict[Any, int]) -> Any:
    return Config(pairs)


def make_counter(pairs: dict[Any, int]) -> Any:
    import collections

    return collections.Counter(pairs)


def make_defaultdict(pairs: dict[Any, int]) -> Any:
    import collections

    return collections.defaultdict(int, pairs)


def store_one(d: Any) -> Any:
    d["b"] = 0


def pop_nineteen(d: Any) -> Any:
    for k in range(1, 20):
        dict.pop(d, k)
    return len(d)


@pytest.mark.parametrize("make", [make_config, make_counter, make_defaultdict, dict])
def test_an_iterator_made_before_the_call_sees_eagers_table(make: Any) -> None:
    """A dict subclass, a Counter or a defaultdict passed in and changed was replayed as
    `clear(); update()`: an iterator over it made before the call (the dict had a hole) then
    skipped a key, and `sys.getsizeof` differed. They replay their logged changes too, with
    dict's own functions (a Counter's `update` adds; a subclass may define `pop`)."""
    made = []
    for _ in range(2):
        d = make({"a": 1, "b": 2, "c": 3, "d": 4})
        del d["a"]
        made.append(d)
    iterators = [iter(made[0]), iter(made[1])]
    next(iterators[0]), next(iterators[1])
    store_one(made[0])
    tracer.compile(store_one)(made[1])
    assert list(iterators[1]) == list(iterators[0]) == ["c", "d"]
    sized = [make({k: k for k in range(20)}) for _ in range(2)]
    assert pop_nineteen(sized[0]) == tracer.compile(pop_nineteen)(sized[1])
    assert sys.getsizeof(sized[1]) == sys.getsizeof(sized[0])


def test_a_defaultdicts_missing_key_is_replayed_as_made() -> None:
    def fill(d: Any) -> Any:
        return d["new"] + d["other"]

    import collections

    assert_same_behavior(fill, collections.defaultdict(int, {"a": 1}))
