"""A frame that drops its reference to an object that sees its death (weak references, a
`__del__`) runs in Python, so the object dies where the code says (NOTE [a dropped
reference its object sees] in variables/lifetimes.py; CPython's test_weakref
`FinalizeTestCase.test_order`)."""

from __future__ import annotations

import weakref
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


class Thing:
    pass


DELETED: list[str] = []


class Noisy:
    def __del__(self) -> None:
        DELETED.append("noisy")


def made_eagerly(cls: type) -> Any:
    """Makes an object in a frame of its own: a break inside (print), so the caller's
    resume function gets the only reference to what it returns."""
    print("making", cls.__name__)
    return cls()


def finalizer_runs_at_del() -> Any:
    a = Thing()
    res: list[Any] = []
    f2 = weakref.finalize(a, res.append, "f2")  # a break: `a` goes to a resume function
    res.append("C")
    del a  # eager: the finalizer appends "f2" here
    res.append(f2.alive)
    return res


def weak_reference_dies_at_rebinding() -> Any:
    a = Thing()
    ref = weakref.ref(a)  # a break
    before = ref() is a
    a = None
    return before, ref() is None, a


def del_runs_at_del() -> Any:
    DELETED.clear()
    n = made_eagerly(Noisy)
    seen = list(DELETED)
    del n
    return seen, list(DELETED)


def cell_store_drops_it() -> Any:
    a = made_eagerly(Thing)
    ref = weakref.ref(a)

    def peek() -> Any:
        return a

    before = peek() is ref()
    a = None
    return before, ref() is None, peek()


def test_a_finalizer_runs_where_the_object_is_deleted() -> None:
    assert finalizer_runs_at_del() == ["C", "f2", False]
    assert_same_behavior(finalizer_runs_at_del)
    reasons = [str(r) for r in tracer.explain(finalizer_runs_at_del)().break_reasons]
    assert any("`del a` drops L['a'], which has weak references" in r for r in reasons), reasons


def test_a_weak_reference_dies_where_the_local_is_rebound() -> None:
    assert weak_reference_dies_at_rebinding() == (True, True, None)
    assert_same_behavior(weak_reference_dies_at_rebinding)


def test_del_of_an_object_with_a_finalizer_runs_it_there() -> None:
    assert del_runs_at_del() == ([], ["noisy"])
    assert_same_behavior(del_runs_at_del)


def test_a_store_to_a_cell_drops_its_old_value_there() -> None:
    assert cell_store_drops_it() == (True, True, None)
    assert_same_behavior(cell_store_drops_it)


def rebinds_plain_values(x: Any, obj: Thing) -> Any:
    x = x + 1  # a tensor input: its death runs none of the user's code
    obj = Thing()  # an object without weak references or __del__
    del obj
    return x * 2


def test_plain_drops_still_compile_whole() -> None:
    explanation = tracer.explain(rebinds_plain_values)(torch.ones(3), Thing())
    assert explanation.graph_count == 1
    assert explanation.graph_break_count == 0
    assert_same_behavior(rebinds_plain_values, torch.ones(3), Thing())


def weak_reference_outlives_the_break() -> Any:
    obj = Thing()
    ref = weakref.ref(obj)  # a break; `obj` is dead after it (only rebound)
    first = ref() is None
    obj = None
    return first, ref() is None


def weak_references_counted_after_the_break() -> Any:
    o = Thing()
    proxy = weakref.proxy(o)
    ref1 = weakref.ref(o)  # dead after the next line's break, but it counts
    ref2 = weakref.ref(o)
    same = ref1 is ref2
    n = weakref.getweakrefcount(o)
    del proxy
    return same, n, weakref.getweakrefcount(o)


def test_a_dead_local_the_break_may_watch_lives_until_rebound() -> None:
    """CPython's test_weakref `test_ref_repr` and `test_proxy_repr`: `obj` was dropped at the
    break, so `ref` was dead before `obj = None` (kept_though_dead, tracer/cache/resume.py)."""
    assert weak_reference_outlives_the_break() == (False, True)
    assert_same_behavior(weak_reference_outlives_the_break)


def test_a_dead_weak_reference_still_counts() -> None:
    """CPython's test_weakref `test_ref_reuse`."""
    assert weak_references_counted_after_the_break() == (True, 2, 1)
    assert_same_behavior(weak_references_counted_after_the_break)


class ClassTrap:
    """An object whose `__class__` is user code: telling its kind must not ask it."""

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise RuntimeError("user __class__")


def del_twice() -> Any:
    x = made_eagerly(Thing)
    del x
    del x  # noqa: F821 - UnboundLocalError, as in Python


def trap_dropped() -> Any:
    t = made_eagerly(ClassTrap)
    ref = weakref.ref(t)
    t = None
    return ref() is None, t


def rebound_in_a_loop() -> Any:
    refs = []
    for _ in range(3):
        o = made_eagerly(Thing)
        refs.append(weakref.ref(o))
    return [ref() is None for ref in refs]


def test_odd_drops_behave_as_in_python() -> None:
    for fn in (del_twice, trap_dropped, rebound_in_a_loop):
        assert_same_behavior(fn)
    assert trap_dropped() == (True, None)
    assert rebound_in_a_loop() == [True, True, False]


def alias_then_del(x: Any) -> Any:
    y = x
    del x
    tracer.graph_break()
    return y


def test_a_value_read_from_a_deleted_argument_reaches_the_resume_function() -> None:
    """`y = x; del x`, then a break: the compiled frame passed `y` to the resume function from
    the argument's local `x`, which it had deleted (as the original frame had) before the
    eager part: UnboundLocalError. `y` is read into a temporary first now."""
    assert_same_behavior(alias_then_del, [1])
