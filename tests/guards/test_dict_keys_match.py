"""DICT_KEYS_MATCH: keys of str, int, bytes, None and bool are checked by exact type each, then
compared as one tuple against the constant; other keys one by one. No user code runs either way,
and a miss names the keys found."""

from __future__ import annotations

import pytest

from guards import Guard, GuardKind, LocalSource
from tests.guards.helpers import Hostile, compile_guards, guard

K = GuardKind


def _keys_guards(keys: tuple[object, ...]) -> list[object]:
    return [guard(K.TYPE_MATCH, "d", dict), guard(K.DICT_KEYS_MATCH, "d", keys)]


class CountingStr(str):
    """A str key equal to its text whose `__eq__`/`__hash__` are user code."""

    calls = 0

    def __eq__(self, other: object) -> bool:
        CountingStr.calls += 1
        return True

    def __hash__(self) -> int:
        return str.__hash__(self)


class EqualsAnything:
    calls = 0

    def __eq__(self, other: object) -> bool:
        EqualsAnything.calls += 1
        return True

    def __hash__(self) -> int:
        return hash("b")


def test_simple_keys_are_one_tuple_comparison_after_their_types() -> None:
    compiled = compile_guards(_keys_guards(("a", 2, b"c", None, True)))
    line = next(x for x in compiled.source.splitlines() if "DICT_KEYS_MATCH" in x)
    assert "len(___v0_keys := tuple(___v0)) == 5" in line
    assert "type(___v0_keys[0]) is str and type(___v0_keys[1]) is int" in line
    assert (
        "type(___v0_keys[2]) is bytes and ___v0_keys[3] is None and ___v0_keys[4] is True" in line
    )
    assert line.split("  #")[0].endswith("___v0_keys == ('a', 2, b'c', None, True)")
    assert compiled.check({"d": {"a": 0, 2: 0, b"c": 0, None: 0, True: 0}})


@pytest.mark.parametrize(
    ("d", "found"),
    [
        ({"a": 0, "c": 0}, "['a', 'c']"),  # a value
        ({"b": 0, "a": 0}, "['b', 'a']"),  # the order
        ({"a": 0}, "['a']"),  # fewer
        ({"a": 0, "b": 0, "c": 0}, "['a', 'b', 'c']"),  # more
        ({"a": 0, b"b": 0}, "['a', b'b']"),  # a type
        (
            {"a": 0, CountingStr("b"): 0},
            "['a', <CountingStr object>]",
        ),  # a str subclass, equal text
        ({"a": 0, EqualsAnything(): 0}, "['a', <EqualsAnything object>]"),
    ],
)
def test_a_changed_key_misses_without_user_code(d: dict[object, int], found: str) -> None:
    compiled = compile_guards(_keys_guards(("a", "b")))
    CountingStr.calls = EqualsAnything.calls = 0
    assert compiled.check({"d": {"a": 1, "b": 2}})
    assert not compiled.check({"d": d})
    assert compiled.failure_reason({"d": d}) == (f"list(L['d']) == ['a', 'b'] (actual {found})")
    assert CountingStr.calls == EqualsAnything.calls == 0


def test_int_and_bool_keys_stay_apart() -> None:
    compiled = compile_guards(_keys_guards((1, 0)))
    assert compiled.check({"d": {1: "x", 0: "y"}})
    assert not compiled.check({"d": {True: "x", 0: "y"}})
    assert not compiled.check({"d": {1: "x", False: "y"}})
    compiled = compile_guards(_keys_guards((True,)))
    assert not compiled.check({"d": {1: "x"}})


def test_float_keys_are_still_compared_one_by_one() -> None:
    compiled = compile_guards(_keys_guards(("a", -0.0)))
    assert "___copysign" in compiled.source
    assert compiled.check({"d": {"a": 0, -0.0: 0}})
    assert not compiled.check({"d": {"a": 0, 0.0: 0}})


def test_a_key_that_is_no_constant_is_refused_without_its_repr() -> None:
    Hostile.calls = 0
    with pytest.raises(TypeError, match="DICT_KEYS_MATCH expects a tuple of constant keys"):
        Guard(GuardKind.DICT_KEYS_MATCH, LocalSource("d"), ("a", Hostile()))
    assert Hostile.calls == 0
