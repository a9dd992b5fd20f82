"""A dict key the frame made is the very object the frame made: `d[pos] = node` with
`node.pos = pos` keeps one tuple in both places, as CPython does (pyperformance's hexiom reads
`nodes_by_pos` keys and `node.pos` as the same objects). The compiled code used to rebuild
the key as an equal copy."""

from __future__ import annotations

import tracer
from tracer.testing import assert_same_behavior


class Node:
    def __init__(self, pos: tuple[int, int]) -> None:
        self.pos = pos


def index_nodes(n: int) -> tuple[dict[tuple[int, int], Node], list[Node]]:
    by_pos: dict[tuple[int, int], Node] = {}
    nodes = []
    for i in range(n):
        pos = (i, i + 1)
        node = Node(pos)
        by_pos[pos] = node
        nodes.append(node)
    return by_pos, nodes


def test_a_tuple_key_is_the_object_the_frame_made() -> None:
    by_pos, nodes = tracer.compile(index_nodes, fullgraph=True)(3)
    assert list(by_pos) == [n.pos for n in nodes]
    assert all(k is n.pos for k, n in zip(by_pos, nodes, strict=True))
    assert all(by_pos[n.pos] is n for n in nodes)


def test_same_behavior() -> None:
    assert_same_behavior(index_nodes, 3)


def test_an_equal_key_stored_again_keeps_the_first_key_object() -> None:
    def f(a: int) -> tuple[dict[tuple[int, int], int], tuple[int, int]]:
        first = (a, a)
        d = {first: 1}
        d[(a, a)] = 2  # CPython keeps `first` as the key
        return d, first

    d, first = tracer.compile(f, fullgraph=True)(4)
    assert d == {(4, 4): 2}
    assert next(iter(d)) is first
