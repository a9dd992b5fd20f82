"""A tuple made in the frame, used as a dict key and held elsewhere too, comes back as ONE
object, as in eager code (found by the corpus: pyperformance's hexiom keys its nodes by
`pos = (x, y)` and keeps `node.pos`; compiled code rebuilt the key as a second tuple)."""

from __future__ import annotations

import pytest

from tests.differential.helpers import check


class Node:
    def __init__(self, pos):
        self.pos = pos


def keyed_by_position(size):
    by_pos, nodes = {}, []
    for y in range(size):
        pos = (y, -y)
        node = Node(pos)
        by_pos[pos] = node
        nodes.append(node)
    return by_pos, nodes


def first_key_stays(x):
    first, second = (x, 1), (x, 1)
    d = {first: "a"}
    d[second] = "b"
    return d, first, second


@pytest.mark.parametrize(("fn", "arg"), [(keyed_by_position, 3), (first_key_stays, 2)])
def test_tuple_keys_keep_their_identity(fn, arg) -> None:
    check(fn, arg)
