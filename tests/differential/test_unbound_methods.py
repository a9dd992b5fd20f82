"""Methods read from a builtin mutable type: `set.add(s, x)` is `s.add(x)` for a set `s`,
`dict.fromkeys(iterable, value)` makes a new dict (CPython's test_set runs
`for C in set, frozenset, dict.fromkeys, str, list, tuple: ...`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


def fromkeys(word: str) -> Any:
    made = [C(word) for C in (set, frozenset, dict.fromkeys, str, list, tuple)]
    return dict.fromkeys(word), dict.fromkeys(word, 1), dict.fromkeys({"b": 1, "a": 2}), made


def fromkeys_of_an_iterator(word: str) -> Any:
    return dict.fromkeys(c.upper() for c in word)


def fromkeys_three_arguments(word: str) -> Any:
    return dict.fromkeys(word, 1, 2)


def fromkeys_no_argument(word: str) -> Any:
    return dict.fromkeys()


def fromkeys_keyword(word: str) -> Any:
    return dict.fromkeys(word, value=1)


def unbound_set_methods(s: set[str]) -> Any:
    set.add(s, "x")
    set.discard(s, "a")
    inside = set.__contains__(s, "x")
    return inside, set.issubset(s, "abcdx"), len(s), frozenset.union(frozenset("ab"), "z")


def unbound_list_and_dict_methods(xs: list[int]) -> Any:
    d: dict[str, int] = {}
    list.append(xs, 4)
    dict.update(d, a=1)
    return xs, d, list.count(xs, 4), dict.get(d, "a")


@pytest.mark.parametrize(
    "fn",
    [
        fromkeys,
        fromkeys_of_an_iterator,
        fromkeys_three_arguments,
        fromkeys_no_argument,
        fromkeys_keyword,
    ],
)
def test_dict_fromkeys(fn: Any) -> None:
    check(fn, "abca")


def test_unbound_methods_of_mutable_types() -> None:
    check(unbound_set_methods, set("abd"))
    check(unbound_list_and_dict_methods, [1])


def wrong_receiver(xs: list[int]) -> Any:
    return set.add(xs, 1)  # type: ignore[arg-type]


def unhashable_key(xs: list[int]) -> Any:
    return dict.fromkeys([xs])


@pytest.mark.parametrize("fn", [wrong_receiver, unhashable_key])
def test_refused_as_cpython_refuses(fn: Any) -> None:
    assert_same_behavior(fn, [1])
