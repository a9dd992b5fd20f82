"""NO_ALIASING pairs are tested once: `a is not b` is the same fact as `b is not a`."""

from __future__ import annotations

import itertools

from guards import GuardKind
from guards.sources import LocalSource
from tests.guards.helpers import compile_guards, guard

K = GuardKind
A, B, C = LocalSource("a"), LocalSource("b"), LocalSource("c")


def _no_aliasing(source: LocalSource, *others: LocalSource) -> object:
    return guard(K.NO_ALIASING, source, tuple(others))


def test_two_mutated_objects_get_one_guard_naming_both() -> None:
    compiled = compile_guards([_no_aliasing(B, A), _no_aliasing(A, B)])
    assert compiled.flat() == ["L['a'] is not L['b']"]
    assert compiled.source.count("is not") == 1
    box, out = object(), object()
    assert compiled.check({"a": box, "b": out})
    assert not compiled.check({"a": box, "b": box})
    assert compiled.failure_reason({"a": box, "b": box}) == (
        "L['a'] is not L['b'] (actual the same object as one of them)"
    )


def test_every_pair_is_still_tested_once() -> None:
    """Three mutated objects: each of the three pairs is checked by exactly one guard, whatever
    the order the guards were recorded in, and the check fails whenever any two are one."""
    recorded = [_no_aliasing(A, B, C), _no_aliasing(B, A, C), _no_aliasing(C, A, B)]
    texts = set()
    for order in itertools.permutations(recorded):
        compiled = compile_guards(order)
        texts.add(compiled.source.split("\n", 1)[1])
        assert compiled.source.count("is not") == 3
        x, y, z = object(), object(), object()
        assert compiled.check({"a": x, "b": y, "c": z})
        for first, second in itertools.combinations("abc", 2):
            values = {"a": x, "b": y, "c": z}
            values[second] = values[first]
            assert not compiled.check(values), (first, second)
            assert compiled.failure_reason(values) is not None
    assert len(texts) == 1


def test_a_pair_named_once_is_kept() -> None:
    compiled = compile_guards([_no_aliasing(A, B), _no_aliasing(C, B)])
    assert sorted(compiled.flat()) == ["L['a'] is not L['b']", "L['c'] is not L['b']"]
