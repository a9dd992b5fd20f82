"""Merging a mapping that is not a dict (`dict(m)`, `{**m}`, `f(**m)`, `d.update(m)`): CPython
takes any object with a `keys` attribute as a mapping, lists `m.keys()` first, then reads
`m[key]` for each key; an object without `keys` is an iterable of pairs for `dict()` and
`update()`, and a TypeError for `{**x}` and `f(**x)`. These used to break the frame for a user
mapping (a `collections.UserDict`, a class with `keys` and `__getitem__`), and `{**pairs}`
returned a dict where CPython raises "'list' object is not a mapping"."""

from __future__ import annotations

from collections import UserDict
from typing import Any

import tracer.runtime as torch
from tests.differential.helpers import check


class Settings(UserDict):  # type: ignore[type-arg]
    pass


class Logged:
    """A mapping by protocol only: `keys` and `__getitem__`, each call logged."""

    def __init__(self, **values: Any) -> None:
        self.values = values
        self.log: list[str] = []

    def keys(self) -> list[str]:
        self.log.append("keys")
        return list(self.values)

    def __getitem__(self, key: str) -> Any:
        self.log.append(f"get {key}")
        return self.values[key]


def _kwargs(**kwargs: Any) -> dict[str, Any]:
    return kwargs


def merged(s: Settings, m: Logged, x: Any) -> Any:
    d = {"z": 0}
    d.update(m)
    return dict(s), {**s, **m}, _kwargs(**m), d, x * s["scale"], m.log


def not_a_mapping(x: Any) -> Any:
    errors = []
    for bad in ([("a", x)], 3, "ab"):
        try:
            errors.append(str({**bad}))  # type: ignore[dict-item]
        except TypeError as e:
            errors.append(str(e))
        try:
            _kwargs(**bad)  # type: ignore[arg-type]
        except TypeError as e:
            errors.append(str(e))
    pairs = [("a", x)]
    return errors, dict(pairs)


def repeated_keyword(m: Logged) -> Any:
    try:
        _kwargs(a=1, **m)
    except TypeError as e:
        return str(e), m.log  # `a` is refused before its value is read
    return None


def test_a_user_mapping_is_merged_as_cpython_merges_it() -> None:
    check(merged, Settings(scale=2, b=3), Logged(a=1, c=2), torch.ones(2))


def test_an_object_that_is_not_a_mapping_is_refused() -> None:
    check(not_a_mapping, 5)


def test_a_repeated_keyword_from_a_mapping_is_refused_before_its_value_is_read() -> None:
    check(repeated_keyword, Logged(c=3, a=2, b=1))
