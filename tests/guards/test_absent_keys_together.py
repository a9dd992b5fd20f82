"""DICT_NOT_CONTAINS: the names a trace found missing from one dict are one guard."""

from __future__ import annotations

import pytest

import tracer
from guards import GlobalsDictSource, Guard, GuardKind
from tests.guards.helpers import compile_guards, guard

K = GuardKind
G = GlobalsDictSource()


def test_one_guard_tests_every_key_and_a_failure_names_the_key_found() -> None:
    f_globals: dict[str, object] = {}
    compiled = compile_guards(
        [guard(K.DICT_NOT_CONTAINS, G, ("abs", "len", "max"))], f_globals=f_globals
    )
    assert compiled.flat() == ["'abs' not in G and 'len' not in G and 'max' not in G"]
    assert compiled.check({})
    for name in ("abs", "len", "max"):
        f_globals[name] = 0
        assert not compiled.check({})
        assert compiled.failure_reason({}) == f"{name!r} not in G (actual G[{name!r}] is present)"
        del f_globals[name]
    assert compiled.check({})


def test_a_key_that_is_not_a_tuple_of_constants_is_refused() -> None:
    with pytest.raises(TypeError, match="non-empty tuple of constant keys"):
        Guard(K.DICT_NOT_CONTAINS, G, "len")
    with pytest.raises(TypeError, match="non-empty tuple of constant keys"):
        Guard(K.DICT_NOT_CONTAINS, G, ())


class _Point:
    def __init__(self) -> None:
        self.x = 1


def _defaults(p: _Point) -> int:
    first = getattr(p, "z", 100)
    return first + getattr(p, "y", 10) + getattr(p, "z", 1000) + p.x


def test_a_trace_guards_each_dict_once_and_a_later_attribute_misses() -> None:
    compiled = tracer.compile(_defaults)
    p = _Point()
    assert compiled(p) == _defaults(p) == 1111
    [entry] = compiled.entries
    absent = [g for g in entry.guard_manager.guards if g.kind is K.DICT_NOT_CONTAINS]
    by_source = {g.source.name: g for g in absent}
    assert len(by_source) == len(absent)  # one guard per dict
    class_dict = by_source["type(L['p']).__dict__"]
    assert class_dict.expected == ("__getattr__", "y", "z")  # sorted, each name once
    assert class_dict.user_location is not None
    assert class_dict.user_location.source_line == 'first = getattr(p, "z", 100)'  # the first
    try:
        _Point.y = 5  # type: ignore[attr-defined]
        assert compiled(p) == _defaults(p) == 1106
    finally:
        del _Point.y  # type: ignore[attr-defined]
    reasons = compiled.last_miss_reasons or []
    assert any("'y' not in type(L['p']).__dict__" in r for r in reasons), reasons
