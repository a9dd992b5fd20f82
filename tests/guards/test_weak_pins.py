"""Identity guards pin their objects weakly (NOTE [weak pins] in guards/guard.py): a cache
entry does not keep a module, function or object alive, and once the object died its guard
fails for every value, None included."""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import weakref
from typing import Any

import tracer
from guards import Guard, GuardKind
from guards.guard import FunctionSpec, PinRef, WeakPin
from guards.manager import CompiledGuards
from guards.sources import AttrSource, BuiltinSource, GlobalSource, LocalSource
from tracer.testing import assert_same_behavior


class Thing:
    pass


def compiled_guards(*guards: Guard) -> CompiledGuards:
    return CompiledGuards(list(guards), f_globals={}, builtins={}, closure=None)


def test_an_id_match_does_not_keep_its_object_alive() -> None:
    obj = Thing()
    guards = compiled_guards(Guard(GuardKind.ID_MATCH, LocalSource("v"), obj))
    assert guards.check({"v": obj})
    assert not guards.check({"v": Thing()})
    assert "L['v'] is <Thing object>" in guards.flat()
    ref = weakref.ref(obj)
    del obj
    gc.collect()
    assert ref() is None
    assert guards.flat() == ["L['v'] is <dead Thing object>"]


def test_a_dead_pin_fails_for_every_value_none_included() -> None:
    """A dead weak reference returns None: `v is ref()` alone would pass a None."""
    obj = Thing()
    guards = compiled_guards(Guard(GuardKind.ID_MATCH, LocalSource("v"), obj))
    del obj
    gc.collect()
    for value in (None, Thing(), 0):
        assert not guards.check({"v": value})
        assert guards.failure_reason({"v": value}) is not None


def test_a_function_match_pins_its_function_weakly() -> None:
    def helper(x: int) -> int:
        return x + 1

    guard = Guard(GuardKind.FUNCTION_MATCH, LocalSource("f"), FunctionSpec.of(helper))
    assert type(guard.expected.fn) is WeakPin
    guards = compiled_guards(guard)
    assert guards.check({"f": helper})
    ref = weakref.ref(helper)
    del helper
    gc.collect()
    assert ref() is None
    assert not guards.check({"f": None})


def test_classes_constants_and_what_a_module_holds_stay_strong() -> None:
    assert Guard(GuardKind.ID_MATCH, LocalSource("c"), Thing).expected is Thing
    assert Guard(GuardKind.ID_MATCH, LocalSource("n"), None).expected is None
    assert type(Guard(GuardKind.ID_MATCH, LocalSource("o"), Thing()).expected) is WeakPin
    # a module's globals, the builtins and sys.modules hold what is found through them
    obj = Thing()
    for source in (GlobalSource("obj"), AttrSource(GlobalSource("mod"), "obj")):
        assert Guard(GuardKind.ID_MATCH, source, obj).expected is obj
    spec = FunctionSpec.of(call_it)
    assert Guard(GuardKind.FUNCTION_MATCH, GlobalSource("call_it"), spec).expected.fn is call_it
    assert Guard(GuardKind.ID_MATCH, BuiltinSource("len"), len).expected is len


def test_a_pin_is_not_the_objects_shared_weak_reference() -> None:
    """CPython hands out one plain `weakref.ref(obj)` per object; a guard's is its own."""
    obj = Thing()
    guard = Guard(GuardKind.ID_MATCH, LocalSource("o"), obj)
    plain = weakref.ref(obj)
    assert guard.expected.ref is not plain
    assert type(guard.expected.ref) is PinRef
    assert weakref.ref(obj) is plain


def call_it(fn: Any, x: int) -> Any:
    return fn(x)


def test_a_compiled_call_does_not_keep_its_argument_function_alive() -> None:
    compiled = tracer.compile(call_it)

    def make(k: int) -> Any:
        return lambda x: x + k

    fn = make(1)
    assert compiled(fn, 10) == 11
    ref = weakref.ref(fn)
    del fn
    gc.collect()
    assert ref() is None
    assert compiled(make(2), 10) == 12


def lru_wrapper_dies() -> Any:
    """CPython's test_functools `test_lru_cache_weakrefable`: the decorator's call is a break,
    and the resume function's guards pinned the wrapper it returned."""

    @functools.lru_cache
    def cached(x: int) -> int:
        return x

    ref = weakref.ref(cached)
    del cached
    gc.collect()
    return ref() is None


def test_a_wrapper_returned_at_a_break_dies_when_deleted() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert lru_wrapper_dies()
        assert_same_behavior(lru_wrapper_dies)
