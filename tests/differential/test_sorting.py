"""`sorted` and `list.sort` as CPython runs them (issue 20 case 7): incomparable items and a
key returning None raise CPython's TypeError (the list left in CPython's partial order); user
objects with `__lt__` sort whole in the trace, with every `__lt__` call made in CPython's order
(so a `__lt__` with side effects replays them exactly); `sort(None)` is CPython's TypeError."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior

FULLGRAPH = {"fullgraph": True}


class P:
    def __init__(self, v: int) -> None:
        self.v = v

    def __lt__(self, other: P) -> bool:
        return self.v < other.v


class Logged:
    """A `__lt__` with a side effect: every comparison is appended to a shared log."""

    def __init__(self, v: int, log: list[tuple[int, int]]) -> None:
        self.v = v
        self.log = log

    def __lt__(self, other: Logged) -> bool:
        self.log.append((self.v, other.v))
        return self.v < other.v


class OnlyGt:
    def __init__(self, v: int) -> None:
        self.v = v

    def __gt__(self, other: OnlyGt) -> bool:
        return self.v > other.v


class Declines:
    """`__lt__` returns NotImplemented: CPython calls it, then the whole `<` protocol (which
    calls it again, then the reflected `__gt__`)."""

    def __init__(self, v: int, log: list[str]) -> None:
        self.v = v
        self.log = log

    def __lt__(self, other: Any) -> Any:
        self.log.append("lt")
        return NotImplemented

    def __gt__(self, other: Any) -> Any:
        self.log.append("gt")
        return self.v > other.v


def test_incomparable_items_raise_and_leave_the_partial_order() -> None:
    def f(xs: list[Any]) -> Any:
        xs.sort()
        return xs

    assert_same_behavior(f, [3, 1, "a", 2], compile_options=FULLGRAPH)
    assert_same_behavior(f, [3, 1, 2, "a"], compile_options=FULLGRAPH)


def test_reverse_sort_error_leaves_the_reversed_partial_order() -> None:
    def f(xs: list[Any]) -> Any:
        xs.sort(reverse=True)
        return xs

    assert_same_behavior(f, [3, 1, "a", 2], compile_options=FULLGRAPH)


@pytest.mark.parametrize(
    "call",
    [
        lambda xs: sorted([3, "a"]),
        lambda xs: sorted(xs, key=lambda v: None),
        lambda xs: sorted(xs, None),
        lambda xs: xs.sort(None),
        lambda xs: sorted(xs, key=lambda v: -v, reverse=True),
        lambda xs: sorted(xs, key=str),
        lambda xs: sorted(xs, reverse=2),
    ],
)
def test_sort_calls(call: Any) -> None:
    def f(t: Any, xs: list[int]) -> Any:
        return call(xs), t + 1

    assert_same_behavior(f, torch.ones(2), [3, 1, 2], compile_options=FULLGRAPH)


@pytest.mark.parametrize("reverse", [False, True])
def test_user_objects_sort_whole(reverse: bool) -> None:
    def f(t: Any, vs: list[int]) -> Any:
        ps = [P(v) for v in vs]
        ps.sort(reverse=reverse)
        by_key = sorted(ps, key=lambda p: P(-p.v), reverse=reverse)
        return [p.v for p in ps], [p.v for p in by_key], t + 1

    rng = random.Random(0)
    for n in (0, 1, 2, 5, 17, 40):
        vs = [rng.randrange(10) for _ in range(n)]
        assert_same_behavior(f, torch.ones(2), vs, compile_options=FULLGRAPH)


def test_side_effects_of_lt_replay_in_cpythons_order() -> None:
    def f(t: Any, vs: list[int], log: list[tuple[int, int]]) -> Any:
        items = [Logged(v, log) for v in vs]
        return [x.v for x in sorted(items)], t + 1

    rng = random.Random(1)
    for n in (3, 8, 30):
        vs = [rng.randrange(6) for _ in range(n)]
        assert_same_behavior(f, torch.ones(2), vs, [], compile_options=FULLGRAPH)


def test_reflected_gt_and_not_implemented() -> None:
    def only_gt(t: Any) -> Any:
        return [x.v for x in sorted([OnlyGt(2), OnlyGt(1), OnlyGt(3)])], t + 1

    def declines(t: Any, log: list[str]) -> Any:
        return [x.v for x in sorted([Declines(2, log), Declines(1, log)])], t + 1

    assert_same_behavior(only_gt, torch.ones(2), compile_options=FULLGRAPH)
    # (`return NotImplemented` in user code is not traced yet: the builtin name is not wrapped)
    assert_same_behavior(declines, torch.ones(2), [])


def test_the_list_is_empty_while_it_sorts() -> None:
    seen: list[int] = []
    shared: list[Any] = []

    class Peeks:
        def __init__(self, v: int) -> None:
            self.v = v

        def __lt__(self, other: Peeks) -> bool:
            seen.append(len(shared))
            return self.v < other.v

    def f(t: Any) -> Any:
        shared[:] = [Peeks(2), Peeks(1)]
        shared.sort()
        return [p.v for p in shared], list(seen), t + 1

    assert_same_behavior(f, torch.ones(2))


def test_long_lists_of_user_objects_fall_back() -> None:
    def f(t: Any, vs: list[int]) -> Any:
        return [p.v for p in sorted(P(v) for v in vs)], t + 1

    assert_same_behavior(f, torch.ones(2), list(range(70, 0, -1)))
