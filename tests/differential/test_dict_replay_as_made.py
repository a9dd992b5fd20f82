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
