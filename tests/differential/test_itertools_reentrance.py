"""itertools objects over a user iterator whose `__next__` calls `next()` on the very
itertools object again (found by test_itertools' test_pairwise_reenter): the results and the
state left are CPython's, as its C `__next__` reads and stores its state in a given order."""

from __future__ import annotations

import itertools
from itertools import pairwise
from typing import Any

import pytest

from tests.differential.helpers import check


def pairwise_reentered(reenter_at: frozenset[int], pulls: int) -> Any:
    class Reentering:
        count = 0

        def __iter__(self) -> Any:
            return self

        def __next__(self) -> Any:
            self.count += 1
            if self.count in reenter_at:
                return next(it)
            return [self.count]  # a new object each time

    it = pairwise(Reentering())
    return [next(it, "end") for _ in range(pulls)]


def pairwise_exhausted_inside(maxcount: int) -> Any:
    class Ending:
        count = 0

        def __iter__(self) -> Any:
            return self

        def __next__(self) -> Any:
            if self.count >= maxcount:
                raise StopIteration
            self.count += 1
            if self.count == 1:
                return next(it, None)
            return [self.count]

    it = pairwise(Ending())
    return list(it)


def pairwise_after_an_error(n: int) -> Any:
    class Failing:
        count = 0

        def __iter__(self) -> Any:
            return self

        def __next__(self) -> Any:
            self.count += 1
            if self.count == n:
                raise ValueError(self.count)
            return self.count

    it = pairwise(Failing())
    out = []
    for _ in range(n + 2):
        try:
            out.append(next(it, "end"))
        except ValueError as e:
            out.append(("error", e.args))
    return out


REENTER_AT = [{1}, {2}, {3}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {1, 2, 3}]


@pytest.mark.parametrize("reenter_at", REENTER_AT, ids=str)
def test_pairwise_reentered(reenter_at: set[int]) -> None:
    check(pairwise_reentered, frozenset(reenter_at), 4)


@pytest.mark.parametrize("maxcount", range(6))
def test_pairwise_exhausted_inside(maxcount: int) -> None:
    check(pairwise_exhausted_inside, maxcount)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pairwise_after_an_error(n: int) -> None:
    check(pairwise_after_an_error, n)


def other_reentered(kind: str, reenter_at: frozenset[int], maxcount: int) -> Any:
    """The other itertools objects that pull from a user iterator read and store their state
    in CPython's order too (these held before pairwise was fixed; kept as checks)."""

    class Reentering:
        count = 0

        def __iter__(self) -> Any:
            return self

        def __next__(self) -> Any:
            if self.count >= maxcount:
                raise StopIteration
            self.count += 1
            if self.count in reenter_at:
                inner = next(it, "inner end")
                return inner[0] if kind == "groupby" and isinstance(inner, tuple) else inner
            return self.count

    source = Reentering()
    if kind == "chain":
        it = itertools.chain(source, [100, 101])
    elif kind == "accumulate":
        it = itertools.accumulate(source, lambda a, b: (a, b))
    elif kind == "zip_longest":
        it = itertools.zip_longest([100, 101, 102], source)
    elif kind == "groupby":
        it = itertools.groupby(source, lambda x: x // 2 if isinstance(x, int) else x)
    else:
        it = itertools.tee(source)[0]
    out = []
    for _ in range(6):
        try:
            item = next(it, "end")
        except RuntimeError as e:  # tee: "cannot re-enter the tee iterator"
            item = str(e)
        out.append((item[0], list(item[1])) if kind == "groupby" and item != "end" else item)
    return out


@pytest.mark.parametrize("kind", ["chain", "accumulate", "zip_longest", "groupby", "tee"])
@pytest.mark.parametrize(("reenter_at", "maxcount"), [({2}, 3), ({1, 3}, 10)], ids=str)
def test_other_itertools_reentered(kind: str, reenter_at: set[int], maxcount: int) -> None:
    check(other_reentered, kind, frozenset(reenter_at), maxcount)
