"""A dict input whose keys are frozensets (CPython's test_set graphs: vertex -> frozenset of
neighbours, vertices being frozensets) is read by position, like a dict with object keys:
no item source can name a frozenset key, and making one was an InternalError. Each frozenset
in a key is guarded on its iteration order as well as by value."""

from __future__ import annotations

from typing import Any

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def vertices_and_edges(g: dict[frozenset[int], frozenset[int]]) -> Any:
    vertices = set(g)
    out = [(list(k), sorted(v)) for k, v in g.items()]
    return len(vertices), out, g[frozenset()]


def graph() -> dict[frozenset[int], Any]:
    return {
        frozenset(): frozenset({1}),
        frozenset({1}): frozenset(),
        frozenset({2, 3}): frozenset({5}),
    }


def test_same_behavior() -> None:
    g = graph()
    assert_same_behavior(vertices_and_edges, g)


def test_traced_whole() -> None:
    g = graph()
    with CompileCounter() as counter:
        tracer.compile(vertices_and_edges)(g)
    assert [r.graph_break_count for r in counter.records] == [0]
    assert all(r.has_guarded_code for r in counter.records)


def test_a_key_iterating_in_another_order_recompiles() -> None:
    def first_members(d: dict[frozenset[int], int]) -> list[list[int]]:
        return [list(k) for k in d]

    small, collided = frozenset({8, 16}), frozenset({16, 8, 24}) - {24}
    assert small == collided
    compiled = tracer.compile(first_members)
    assert compiled({small: 1}) == [list(small)]
    assert compiled({collided: 1}) == [list(collided)]
