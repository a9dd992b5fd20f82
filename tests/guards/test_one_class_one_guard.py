"""NOTE [one class, one guard] (guards.tree): a guard on `type(x).attr` for an `x` pinned to
class K by a TYPE_MATCH checks `K.attr`; of several such guards on one class, one is kept."""

from __future__ import annotations

import itertools

import pytest

import tracer
from guards import GuardKind
from guards.guard import FunctionSpec
from guards.sources import AttrSource, DefaultsSource, LocalSource, TypeSource
from tests.guards.helpers import compile_guards, guard
from tracer.testing import assert_same_behavior

K = GuardKind


class Lin:
    def __init__(self, w: int = 2) -> None:
        self.w = w

    def forward(self, x: int) -> int:
        return x * self.w


class Other(Lin):
    pass


def _method(name: str) -> AttrSource:
    return AttrSource(TypeSource(LocalSource(name)), "forward")


def _recorded(*pins: tuple[str, type]) -> list[object]:
    """A TYPE_MATCH on each local and a FUNCTION_MATCH on its class's `forward`."""
    guards = [guard(K.TYPE_MATCH, name, cls) for name, cls in pins]
    guards += [
        guard(K.FUNCTION_MATCH, _method(name), FunctionSpec.of(cls.forward)) for name, cls in pins
    ]
    return guards


def _function_guards(compiled: object) -> list[str]:
    return [g.source.name for g in compiled.guards if g.kind is K.FUNCTION_MATCH]  # type: ignore[attr-defined]


def test_objects_of_one_class_share_one_guard_on_its_method() -> None:
    recorded = _recorded(("b", Lin), ("a", Lin), ("c", Lin))
    texts = set()
    for order in itertools.permutations(recorded):
        compiled = compile_guards(order)
        # the shallowest, first-named source keeps it, whatever the record order
        assert _function_guards(compiled) == ["type(L['a']).forward"]
        assert [g.kind for g in compiled.guards].count(K.TYPE_MATCH) == 3
        texts.add(compiled.source.split("\n", 1)[1])
    assert len(texts) == 1
    frame = {"a": Lin(), "b": Lin(3), "c": Lin(4)}
    assert compiled.check(frame)
    assert not compiled.check({**frame, "c": Other()})  # c's own TYPE_MATCH still runs


def test_the_kept_guard_runs_after_its_objects_type_match() -> None:
    compiled = compile_guards(_recorded(("a", Lin), ("b", Lin)))
    names = [(g.kind, g.source.name) for g in compiled.guards]
    assert names.index((K.TYPE_MATCH, "L['a']")) < names.index(
        (K.FUNCTION_MATCH, "type(L['a']).forward")
    )


def test_replacing_the_class_attribute_still_fails_the_check() -> None:
    compiled = compile_guards(_recorded(("a", Lin), ("b", Lin)))
    frame = {"a": Lin(), "b": Lin()}
    assert compiled.check(frame)
    original = Lin.forward
    try:
        Lin.forward = lambda self, x: x  # type: ignore[method-assign,assignment]
        assert not compiled.check(frame)
        reason = compiled.failure_reason(frame)
        assert reason is not None and reason.startswith("type(L['a']).forward is ")
    finally:
        Lin.forward = original  # type: ignore[method-assign]
    assert compiled.check(frame)


def test_objects_of_different_classes_keep_their_guards() -> None:
    """`Other.forward` is `Lin.forward` (inherited), but only an exact class makes the two reads
    one: both guards stay."""
    compiled = compile_guards(_recorded(("a", Lin), ("b", Other)))
    assert _function_guards(compiled) == ["type(L['a']).forward", "type(L['b']).forward"]


def test_without_a_type_match_nothing_is_dropped() -> None:
    recorded = [
        guard(K.FUNCTION_MATCH, _method(name), FunctionSpec.of(Lin.forward)) for name in "ab"
    ]
    assert len(compile_guards(recorded).guards) == 2


def test_a_guard_that_differs_keeps_its_source() -> None:
    """b's source has a guard a's has not: b keeps all its guards (one of them could need
    another on its own source to run first)."""
    recorded = _recorded(("a", Lin), ("b", Lin))
    recorded.append(guard(K.HASATTR, _method("b"), "__code__"))
    assert _function_guards(compile_guards(recorded)) == [
        "type(L['a']).forward",
        "type(L['b']).forward",
    ]


def test_a_source_with_guards_below_keeps_its_guards() -> None:
    """A guard on `type(L['b']).forward.__defaults__[0]` runs after the guards on its
    ancestors: the FUNCTION_MATCH on `type(L['b']).forward` stays to keep that order, while the
    defaults guards themselves, the same read for both, are one."""

    def forward(self: object, x: int, scale: int = 2) -> int:
        return x * scale

    class Scaled:
        pass

    Scaled.forward = forward  # type: ignore[attr-defined]
    recorded = [guard(K.TYPE_MATCH, name, Scaled) for name in "ab"]
    for name in "ab":
        method = _method(name)
        recorded.append(guard(K.FUNCTION_MATCH, method, FunctionSpec.of(forward)))
        recorded.append(guard(K.EQUALS_MATCH, DefaultsSource(method, 0), 2))
    compiled = compile_guards(recorded)
    assert _function_guards(compiled) == ["type(L['a']).forward", "type(L['b']).forward"]
    defaults = [g.source.name for g in compiled.guards if g.kind is K.EQUALS_MATCH]
    assert defaults == ["type(L['a']).forward.__defaults__[0]"]
    assert compiled.check({"a": Scaled(), "b": Scaled()})
    forward.__defaults__ = (3,)
    assert not compiled.check({"a": Scaled(), "b": Scaled()})


def _two_calls(a: Lin, b: Lin, x: int) -> int:
    return a.forward(x) + b.forward(x)


def test_compiled_method_calls_on_two_objects_guard_the_method_once() -> None:
    tracer.reset()
    compiled = tracer.compile(_two_calls, fullgraph=True)
    assert compiled(Lin(2), Lin(3), 5) == 25
    (entry,) = compiled.entries
    names = [g.source.name for g in entry.guard_manager.guards if g.kind is K.FUNCTION_MATCH]
    assert names.count("type(L['a']).forward") == 1
    assert "type(L['b']).forward" not in names


@pytest.mark.parametrize("replace", [False, True])
def test_compiled_calls_after_the_method_is_replaced(replace: bool) -> None:
    """Replacing `Lin.forward` after the first compile must miss the cached entry and give what
    plain Python gives."""
    tracer.reset()
    compiled = tracer.compile(_two_calls)
    assert compiled(Lin(2), Lin(3), 5) == 25
    original = Lin.forward
    try:
        if replace:
            Lin.forward = lambda self, x: x - self.w  # type: ignore[method-assign,assignment]
        assert_same_behavior(_two_calls, Lin(2), Lin(3), 5)
        assert compiled(Lin(2), Lin(3), 5) == (5 if replace else 25)
        assert len(compiled.entries) == (2 if replace else 1)
    finally:
        Lin.forward = original  # type: ignore[method-assign]
