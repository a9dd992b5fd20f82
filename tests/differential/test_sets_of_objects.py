"""Sets holding objects hashed by identity, as `nn.Module.named_modules` keeps the modules it
met (`memo.add(self)`, `if m not in memo`): each member is guarded by identity, so the set
answers membership, size and set algebra while tracing, with the order CPython's table has
(the same objects hash the same on every call the guards let through). Such a set is no
constant: iterating it or handing it out of the frame breaks, and the frame runs as Python
does. Compared with plain Python, compiled twice (the second call hits the cache)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
from tests.differential.helpers import FAST, check
from tracer.testing import assert_same_behavior


class Node:
    """Hashed and compared by identity, as `object` does (its repr, in a KeyError's message,
    is the same for the copies each run gets)."""

    def __repr__(self):
        return "Node"


A, B, C = Node(), Node(), Node()


def first_visits(nodes):
    memo = set()
    visited = []
    for node in nodes:
        if node not in memo:
            memo.add(node)
            visited.append(node)
    return visited, len(memo)


def displays_and_algebra(a, b):
    s = {a, "k"}
    t = {b, a}
    s.discard("k")
    u = s | t
    return a in s, b in s, len(u), len(t - s), s <= t, s.isdisjoint({b}), b in u


def comprehension_and_constructor(nodes):
    s = {node for node in nodes}  # noqa: C416 - the comprehension (SET_ADD) is the point
    t = set(nodes)
    t.remove(nodes[0])
    return len(s), nodes[0] in s, nodes[0] in t, len(t), s == set(nodes), frozenset(s) == s


def missing_member(nodes, other):
    s = set(nodes)
    s.remove(other)  # KeyError, whose message is the object's repr
    return len(s)


def hands_the_set_out(nodes):
    memo = set()
    memo.add(nodes[0])
    memo.add(nodes[1])
    return memo


def iterates_the_set(nodes):
    memo = set(nodes)
    return len([node for node in memo])  # noqa: C416 - iterating is the point


def pops_a_member(nodes):
    memo = set(nodes)
    return memo.pop() in nodes


def member_made_in_the_frame():
    return len({Node()})


def adds_a_generator():
    """A generator is one member (hashed by identity), not its items."""
    s = set()
    s.add(x for x in (1, 2))
    return len(s), (1, 2) in s, 1 in s


def adds_an_unhashable_list():
    s = set()
    s.add([1])


@pytest.mark.parametrize("nodes", [[A, B, A], [B, B], [], [A, B, C, A, C]])
def test_first_visits(nodes):
    check(first_visits, nodes)


@pytest.mark.parametrize(("a", "b"), [(A, B), (A, A)])
def test_displays_and_algebra(a, b):
    check(displays_and_algebra, a, b)


def test_comprehension_and_constructor():
    check(comprehension_and_constructor, [A, B, C])


def test_missing_member_raises_as_python_does():
    assert_same_behavior(missing_member, [A], B)


@pytest.mark.parametrize("fn", [iterates_the_set, pops_a_member], ids=lambda fn: fn.__name__)
def test_what_needs_the_set_itself_runs_as_python(fn):
    assert_same_behavior(fn, [A, B])
    assert tracer.explain(fn)([A, B]).graph_break_count == 1


def test_a_set_handed_out_is_the_one_python_makes():
    """(Not through assert_same_behavior: each of its runs gets its own copies of the
    arguments, and sets of other objects are not equal.)"""
    eager = hands_the_set_out([A, B])
    compiled = tracer.compile(hands_the_set_out)
    for _ in range(2):
        made = compiled([A, B])
        assert made == eager and list(made) == list(eager)
    assert "holds objects" in str(tracer.explain(hands_the_set_out)([A, B]).break_reasons[0])


def test_a_member_made_in_the_frame_runs_as_python():
    assert_same_behavior(member_made_in_the_frame)


def test_a_generator_is_one_member():
    assert_same_behavior(adds_a_generator)
    assert tracer.compile(adds_a_generator)() == (1, False, False)


def test_an_unhashable_member_raises_as_python_does():
    assert_same_behavior(adds_an_unhashable_list)


def test_other_objects_miss_the_identity_guards():
    compiled = tracer.compile(first_visits)
    assert compiled([A, B, A]) == ([A, B], 2)
    assert compiled([B, A, B]) == ([B, A], 2)
    assert compiled([A, A, A]) == ([A], 1)
    assert compiled.compile_count == 3
    assert compiled([A, B, A]) == ([A, B], 2)
    assert compiled.compile_count == 3


_MEMBERS = ("a", "b", "c", "1", "'k'")
_STATEMENTS = (
    "s.add({m})",
    "t.add({m})",
    "s.discard({m})",
    "t |= {{{m}}}",
    "out.append({m} in s)",
    "out.append(len(s))",
    "out.append(s == t)",
    "out.append(s <= t)",
    "out.append(s < t)",
    "out.append(len(s | t))",
    "out.append(len(s - t))",
    "out.append(len(s & t))",
    "out.append(len(s ^ t))",
    "out.append(s.isdisjoint(t))",
    "out.append({m} in (s | t))",
    "s = s - {{{m}}}",
)


@FAST
@given(
    st.lists(
        st.tuples(st.sampled_from(_STATEMENTS), st.sampled_from(_MEMBERS)),
        min_size=1,
        max_size=12,
    )
)
def test_random_programs_on_sets_of_objects(statements):
    """Random sequences of what a set of objects answers while tracing, traced whole and
    compared with plain Python (members: three objects passed in, and two constants)."""
    body = "\n".join(f"    {text.format(m=m)}" for text, m in statements)
    head = "def program(a, b, c):\n    s = set()\n    t = {1}\n    out = []\n"
    source = f"{head}{body}\n    return out\n"
    namespace: dict = {}
    exec(compile(source, "<sets-program>", "exec"), namespace)  # noqa: S102 - the program under test
    check(namespace["program"], A, B, C)
