"""Dicts whose keys are objects: hashable user objects (by identity) and frozen dataclasses (by
value), passed in or used as keys in the frame. Traced whole, compared with eager Python, and
guarded so that another key object (or another field value) is another entry."""

from __future__ import annotations

import dataclasses

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import CompileCounter


class Node:
    """Hashed and compared by identity, as `object` does."""


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: str = "p"


@dataclasses.dataclass(frozen=True)
class Loose:
    x: int

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


A, B = Node(), Node()


def read_identity_keys(d, k):
    out = [d[k], k in d, d.get(B), len(d), d.get("s")]
    out.extend((value, value) for key, value in d.items())
    return out, list(d)


def change_identity_keyed_input(d, k):
    d[k] = d.get(k, 0) + 1
    d["new"] = 0
    del d["s"]
    return len(d)


def build_identity_keyed(k, n):
    d = {k: n, "n": n}
    d[k] += 1
    return d, list(d.values()), [d[key] for key in d]


def read_dataclass_keys(d, p):
    found = [(key.x, key.y, value) for key, value in d.items()]
    return d[p], d.get(Point(2, "q")), Point(1) in d, found


def build_dataclass_keyed(n):
    d = {Point(n): "a"}
    d[Point(n)] = "b"
    d[Point(n + 1)] = "c"
    return d, d[Point(n + 1)], len(d)


def test_read_identity_keys():
    check(read_identity_keys, {A: 1, "s": 2, B: 3}, A)


def test_change_identity_keyed_input():
    check(change_identity_keyed_input, {A: 1, "s": 2}, A)
    check(change_identity_keyed_input, {A: 1, "s": 2}, B)


@pytest.mark.parametrize("n", [0, 3])
def test_build_identity_keyed(n):
    check(build_identity_keyed, A, n)


def test_read_dataclass_keys():
    check(read_dataclass_keys, {Point(1): "one", Point(2, "q"): "two"}, Point(1))
    check(read_dataclass_keys, {Point(1): "one", Point(3): "three"}, Point(3))


@pytest.mark.parametrize("n", [0, 5])
def test_build_dataclass_keyed(n):
    check(build_dataclass_keyed, n)


def test_another_key_object_is_another_entry():
    """The key at each position is guarded by identity: a dict holding another Node, or
    looking up another Node, recompiles, and each answer is eager's."""
    fn = tracer.compile(read_identity_keys, fullgraph=True)
    with CompileCounter() as counter:
        for d, k in [({A: 1, "s": 2}, A), ({B: 1, "s": 2}, B), ({A: 1, "s": 2}, A)]:
            assert fn(d, k) == read_identity_keys(d, k)
    assert counter.compiles == 2


def test_another_field_value_is_another_key():
    fn = tracer.compile(read_dataclass_keys, fullgraph=True)
    d = {Point(1): "one", Point(2, "q"): "two"}
    for p in (Point(1), Point(2, "q"), Point(1)):
        assert fn(d, p) == read_dataclass_keys(d, p)


def loose_key(d):
    return d[Loose(1)]


def test_dataclass_with_its_own_eq_falls_back():
    explanation = tracer.explain(loose_key)({Loose(2): 1})
    assert explanation.graph_break_count == 1
    assert "Loose" in str(explanation.break_reasons[0])


def lookup_in_frame_dict(k):
    return {Point(1): "one", Point(2): "two"}.get(k), repr(k)


def test_input_dataclass_key_is_guarded_by_value():
    """An input frozen dataclass used as a key (or folded, as `repr` folds it) is guarded on
    its fields: another instance with other values recompiles instead of finding the first
    one's entry (it did, with only its type guarded)."""
    fn = tracer.compile(lookup_in_frame_dict, fullgraph=True)
    for k in (Point(1), Point(2), Point(3), Point(1, "q")):
        assert fn(k) == lookup_in_frame_dict(k)
