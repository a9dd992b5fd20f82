"""Subclasses of dict made in the frame, with methods of their own and `__missing__`: a dict
whose type is the subclass; its methods are traced with it bound, `super()` reaches dict's own
method, and `d[key]` for a missing key calls `__missing__` (issue 22, subclasses of builtins).
A subclass that overrides another special method falls back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Doubling(dict[Any, Any]):
    def __missing__(self, key: Any) -> Any:
        return key * 2


class Tally(dict[str, int]):
    def __missing__(self, key: str) -> int:
        self[key] = 0
        return 0

    def bump(self, key: str) -> Tally:
        self[key] = self[key] + 1
        return self


class PlusOne(dict[str, int]):
    def put(self, key: str, value: int) -> Any:
        super().__setitem__(key, value + 1)
        return super().get(key)


class Strict(dict[str, int]):
    def __getitem__(self, key: str) -> int:  # another special method: falls back
        return 0


def missing(n: int) -> Any:
    d = Doubling(a=1)
    return d["a"], d[n], len(d), d.get("zz"), "zz" in d, type(d).__name__, isinstance(d, dict)


def counted(n: int) -> Any:
    t = Tally()
    t.bump("x").bump("x")
    unused = t["y"]
    return t, dict(t), sorted(t.items()), unused, n


def through_super(n: int) -> Any:
    p = PlusOne()
    return p.put("a", n), p, list(p)


def missing_raises(n: int) -> Any:
    return Doubling()[[n]]  # unhashable: dict's TypeError before __missing__


@pytest.mark.parametrize("fn", [missing, counted, through_super])
def test_dict_subclass_made_in_the_frame(fn: Any) -> None:
    check(fn, 3)


def other_special_method(n: int) -> Any:
    return Strict(a=1)["a"]


@pytest.mark.parametrize("fn", [missing_raises, other_special_method])
def test_as_eager(fn: Any) -> None:
    assert_same_behavior(fn, 3)
