"""Subclasses of dict, made in the frame or passed in, with methods of their own and
`__missing__`: a dict whose type is the subclass; its methods are traced with it bound,
`super()` reaches dict's own method, and `d[key]` for a missing key calls `__missing__`
(issue 22, subclasses of builtins). A subclass that overrides another special method falls
back. One passed in is guarded and read as dict's own C code reads it, so a check runs no
method of the class, even one the class gained after the compile."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
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


class Config(dict[str, Any]):
    def scale(self) -> Any:
        return self["s"] * 2

    def clear(self) -> None:  # dict's own clear replays the changes, never this one
        print("Config.clear")

    def update(self, *args: Any, **kwargs: Any) -> None:
        print("Config.update")


def config_read_and_changed(x: Any, cfg: Config) -> Any:
    cfg["seen"] = cfg.get("seen", 0) + 1
    del cfg["drop"]
    cfg.setdefault("s2", cfg["s"])
    out = x * cfg["s"] + cfg.scale() + len(cfg)
    return out, list(cfg), sorted(cfg.items()), "s" in cfg, cfg, type(cfg).__name__


def tally_passed_in(t: Tally) -> Any:
    t.bump("a")
    unused = t["fresh"]  # __missing__ stores it
    return t, unused, isinstance(t, dict), t.copy(), type(t.copy())


def test_dict_subclass_passed_in() -> None:
    check(config_read_and_changed, torch.ones(2), Config(s=3, drop=1))
    check(tally_passed_in, Tally(a=1))
    check(through_super_passed_in, PlusOne(b=2))


def through_super_passed_in(p: PlusOne) -> Any:
    return p.put("a", 4), p, list(p)


def test_dict_subclass_input_returned_is_the_object() -> None:
    compiled = tracer.compile(lambda cfg: (cfg, cfg["s"]), fullgraph=True)
    cfg = Config(s=1)
    assert compiled(cfg)[0] is cfg
    assert compiled(cfg)[0] is cfg


class Gains(dict[str, int]):
    pass


def test_check_runs_no_method_the_class_gains_after_the_compile() -> None:
    """The check reads the keys and values with dict's own code (`dict.keys(L['g'])`,
    `dict.get(L['g'], 'a')`): before that it ran `__iter__` and `__getitem__` the class
    gained, before the guard on the class's names failed."""
    calls: list[str] = []

    def fn(g: Gains) -> Any:
        return g["a"] + len(g), list(g)

    compiled = tracer.compile(fn)
    assert compiled(Gains(a=1)) == (2, ["a"])

    def getitem(self: Any, key: str) -> int:
        calls.append("getitem")
        return 10

    def iterate(self: Any) -> Any:
        calls.append("iter")
        return iter(["z"])

    Gains.__getitem__ = getitem  # type: ignore[method-assign]
    Gains.__iter__ = iterate  # type: ignore[method-assign]
    try:
        expected = fn(Gains(a=1))
        eager_calls = list(calls)
        calls.clear()
        assert compiled(Gains(a=1)) == expected == (11, ["z"])
        assert calls == eager_calls == ["getitem", "iter"]
    finally:
        del Gains.__getitem__, Gains.__iter__


def test_attribute_on_the_object_misses_and_shadows_the_method() -> None:
    def fn(cfg: Config) -> Any:
        return cfg.scale()

    compiled = tracer.compile(fn)
    assert compiled(Config(s=2)) == 4
    shadowed = Config(s=2)
    shadowed.scale = lambda: "own"  # type: ignore[method-assign]
    assert compiled(shadowed) == "own" == fn(shadowed)
    assert_same_behavior(fn, shadowed)  # an object with attributes falls back


def test_object_keys_fall_back() -> None:
    def fn(g: Gains) -> Any:
        return sorted(g.values())

    g = Gains()
    g[frozenset({1})] = 1  # type: ignore[index]
    assert_same_behavior(fn, g)


def test_no_graph_break_for_an_input() -> None:
    def fn(x: Any, cfg: Config) -> Any:
        return x * cfg["s"] + cfg.scale()

    explained = tracer.explain(fn)(torch.ones(2), Config(s=3))
    assert explained.graph_count == 1
    assert explained.graph_break_count == 0


class OwnKeys(dict[str, Any]):
    def keys(self) -> Any:  # type: ignore[override]
        return ["a", "zz"]

    def __missing__(self, key: str) -> Any:
        return "M"


def ordered_from_subclass(k: OwnKeys) -> Any:
    import collections

    made = collections.OrderedDict(k)
    updated = collections.OrderedDict()
    updated.update(k)
    return list(made.items()), list(updated.items()), dict(k), {**k}


def test_an_ordered_dict_merges_a_subclass_by_its_keys() -> None:
    """OrderedDict's constructor and `update` merge anything but an exact dict through its
    `keys()` and `[key]` (CPython's `mutablemapping_update`): a subclass's own `keys` and
    `__missing__` run, where `dict()` and `{**k}` read its items directly. The trace read the
    items for all four."""
    check(ordered_from_subclass, OwnKeys(a=1, b=2))


def test_a_subclass_whose_slots_were_deleted_falls_back() -> None:
    """`__slots__ = ()` deleted from the class later: the class looks plain, but its objects
    still have no `__dict__` (the tracer's `vars()` raised an InternalError)."""

    class NoDict(dict[str, int]):
        __slots__ = ()

    del NoDict.__slots__

    def fn(d: Any) -> Any:
        return d["a"], len(d)

    assert_same_behavior(fn, NoDict(a=1))
