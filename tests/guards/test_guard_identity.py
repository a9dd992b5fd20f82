"""A guard's key and hash are worked out once, at creation; they must be what they would be
if computed on demand, and a `dataclasses.replace` copy gets its own."""

from __future__ import annotations

import dataclasses

from guards import Guard, GuardKind, LocalSource
from guards.guard import TensorSpec


def test_key_and_hash_match_the_fields() -> None:
    class Config:
        pass

    source = LocalSource("x")
    for kind, expected, expected_key in [
        (GuardKind.TYPE_MATCH, Config, id(Config)),
        (GuardKind.ID_MATCH, Config, id(Config)),
        (GuardKind.LENGTH_CHECK, 3, 3),
        (GuardKind.HASATTR, "a", "a"),
    ]:
        guard = Guard(kind, source, expected)
        assert guard.key == (kind, source, expected_key) == (kind, source, guard.expected_key)
        assert hash(guard) == hash(guard.key)
        assert guard == Guard(kind, source, expected, user_location=None)


def test_equal_guards_ignore_the_user_line_and_differ_on_any_field() -> None:
    a = Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 1)
    assert a == dataclasses.replace(a, user_location=None)
    assert a != Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 1.0)  # 1 == 1.0, not the same
    assert a != Guard(GuardKind.EQUALS_MATCH, LocalSource("m"), 1)
    assert len({a, Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 1)}) == 1


def test_replace_recomputes_the_key() -> None:
    spec = TensorSpec("float32", (2, 3), False)
    guard = Guard(GuardKind.TENSOR_MATCH, LocalSource("t"), spec)
    other = dataclasses.replace(guard, expected=dataclasses.replace(spec, shape=(3,)))
    assert other.key == (GuardKind.TENSOR_MATCH, LocalSource("t"), other.expected.key())
    assert other != guard and hash(other) == hash(other.key)
