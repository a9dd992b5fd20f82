"""Named tuples (`_make`, `_replace`, `_asdict`, `_fields`) and the `dataclasses` helpers
(`fields`, `asdict`, `astuple`, `replace`), traced whole and compared with eager Python."""

from __future__ import annotations

import collections
import dataclasses
import typing

import pytest
from hypothesis import given

from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensors

Point = collections.namedtuple("Point", "x y")
Pair = collections.namedtuple("Pair", ["a", "b"], defaults=[0])


class Typed(typing.NamedTuple):
    name: str
    size: int = 1


@dataclasses.dataclass
class Config:
    lr: float
    steps: int = 3
    tags: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Frozen:
    a: int
    b: str = "b"


def namedtuple_make(xs):
    p = Point._make(xs)
    q = Pair._make(iter([p.x, p.y]))
    t = Typed._make(("t", len(xs)))
    return p, q, t, type(p) is Point, Point._fields, Pair._fields, Typed._fields


def namedtuple_make_wrong_length(xs):
    return Point._make(xs)


def namedtuple_helpers(p, x):
    moved = p._replace(x=x)
    as_dict = p._asdict()
    return moved, as_dict, p._fields, Pair(1)._asdict(), moved._replace(y=p.y)


def namedtuple_replace_unknown(p):
    return p._replace(z=1)


def namedtuple_replace_unknowns_among_known(p):
    return p._replace(z=1, x=2, a=3)


class OwnMethods(Point):
    """A namedtuple subclass whose `_replace` and `_asdict` are its own, and one whose
    `_make` is: the generated `_replace` builds its result with `_make`."""

    def _replace(self, **changes):
        return "own _replace", sorted(changes)

    def _asdict(self):
        return "own _asdict"


class OwnMake(Point):
    @classmethod
    def _make(cls, iterable):
        return ("own _make", *iterable)


def namedtuple_own_methods(p):
    return p._replace(x=5), p._asdict()


def dataclass_helpers(cfg, n):
    names = [f.name for f in dataclasses.fields(cfg)]
    other = dataclasses.replace(cfg, steps=n)
    return names, dataclasses.asdict(cfg), dataclasses.astuple(other), other.steps, cfg.steps


def frozen_dataclass_helpers(n):
    f = Frozen(n)
    g = dataclasses.replace(f, b="c")
    return f, g, dataclasses.astuple(g), dataclasses.asdict(f), f == Frozen(n)


@FAST
@given(a=small_ints, b=tensors())
def test_namedtuple_make(a, b):
    check(namedtuple_make, [a, b])


@pytest.mark.parametrize("xs", [[1], [1, 2, 3], 5])
def test_namedtuple_make_wrong_length(xs):
    check(namedtuple_make_wrong_length, xs)


@FAST
@given(x=tensors(), n=small_ints)
def test_namedtuple_helpers(x, n):
    check(namedtuple_helpers, Point(n, x), x)


def test_namedtuple_replace_unknown_field():
    check(namedtuple_replace_unknown, Point(1, 2))


def test_namedtuple_replace_unknown_fields_among_known():
    """CPython's own error, names in the call's order (its type changed in 3.13)."""
    check(namedtuple_replace_unknowns_among_known, Point(1, 2))
    check(namedtuple_replace_unknowns_among_known, Typed("t"))


@pytest.mark.parametrize("p", [OwnMethods(1, 2), OwnMake(1, 2)], ids=["own", "own_make"])
def test_namedtuple_subclass_own_methods_are_called(p):
    check(namedtuple_own_methods, p)


@FAST
@given(n=small_ints)
def test_dataclass_helpers(n):
    check(dataclass_helpers, Config(0.5, tags=("a",)), n)


@pytest.mark.parametrize("n", [0, 7])
def test_frozen_dataclass_helpers(n):
    check(frozen_dataclass_helpers, n)
