"""A reference the frame drops to an object that sees its own death.

NOTE [a dropped reference its object sees]: `del a`, `a = None` or a store over a cell drops
the frame's reference to an object. If that was the last reference, CPython destroys the
object right there: its weak references go dead and their callbacks run (a
`weakref.finalize`), and so does its class's `__del__`. Compiled code drops the frame's
references only when it returns, after replaying every side effect, and what the trace read
after the drop (`ref()`, `finalizer.alive`, a list a callback appends to) it read while the
object was still alive. So a drop of an object the frame was handed (a parameter, which is
how a resume function gets what the frame held at its break, or a closure cell's contents)
that has weak references or a `__del__` makes the frame run in Python, which drops it where
the code says (CPython's test_weakref `FinalizeTestCase.test_order`):

    def f():
        a = A(); res = []
        f2 = weakref.finalize(a, res.append, 'f2')    # a break: `a` goes to a resume function
        res.append('C'); del a                        # eager: 'f2' appended here
        return res, f2.alive                          # eager (['C', 'f2'], False)

Whether the frame held the last reference is not known while tracing (the tracer's own
references count too), so every such drop counts. A value read from elsewhere (an attribute,
an item, a global) is still held there. Not counted: a class (every class is weakly
referenced by its bases' subclass lists, and a class's own `__mro__` holds it, so a drop
never frees it) and a tensor (torch's fake-tensor conversion holds a weak reference to every
input, and a tensor's death runs torch's code, not the user's). Not covered: an object
reached only through a container the frame drops, an object whose owner the trace changes
(`x = o.child; o.child = None; del x`: the store is replayed when the compiled code returns),
and a parameter of the compiled function itself, which the call's argument tuple holds until
the call returns, compiled or not (CPython's own call moves it into the frame).
Objects the trace made have no source: one whose class has a finalizer already makes the
frame fall back (notes/unsupported.md).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from guards.guard import PinRef
from guards.sources import ClosureSource, LocalSource
from tracer import worlds
from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.class_lookup import lookup_class_attr
from variables.lazy import LazyVariableTracker

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

_NO_VALUE = object()
_HANDED_IN = (LocalSource, ClosureSource)


def check_drop(tx: TranslatorBase, old: VariableTracker | None, what: str, name: str = "") -> None:
    """Fall back when `what` (a template: "del `{}`", "rebinding `{}`" of `name`; "a store to
    a cell"), which already took `old` out of the frame's locals or cell, drops the frame's
    reference to an object it was handed that sees its death (NOTE above). The reason is
    formatted only then: a rebinding is one of the commonest instructions traced."""
    if old is None or not isinstance(old.source, _HANDED_IN):
        return  # made in the frame, or still held where it was read from
    if _still_held(tx, old):  # `b = a; del a`, or a resume prologue moving a slot to the stack
        return
    value = old.value if isinstance(old, LazyVariableTracker) else getattr(old, "value", _NO_VALUE)
    if value is not _NO_VALUE:
        check_dropped_value(value, old.source.name, what.format(name))


def _still_held(tx: TranslatorBase | None, old: VariableTracker) -> bool:
    """Does this frame, or one of the frames it was called from (an inlined frame's callers
    hold what they passed it: `for m in self.modules()` rebinds `m`, and the caller still has
    `self`), hold `old` on its stack, in a local or in a cell?"""
    while tx is not None:
        if (
            any(vt is old for vt in tx.stack)
            or any(vt is old for vt in tx.symbolic_locals.values())
            or any(cell.contents is old for cell in tx.cells.values())
        ):
            return True
        tx = tx.parent
    return False


def check_dropped_value(value: object, name: str, what: str) -> None:
    """`check_drop` for a value read from `name` (a cell whose contents the trace never
    loaded)."""
    seen_by = sees_its_death(value)
    if seen_by is None:
        return
    unimplemented(
        "dropped-reference",
        f"{what} drops {name}, which {seen_by}: if that was its last reference it "
        "dies there, which the compiled code can't place",
    )


def sees_its_death(value: object) -> str | None:
    """How `value`'s death would show (`has weak references`, `has a __del__`), or None: no
    weak reference and no finalizer, or a class or a tensor (NOTE above)."""
    kind = type(value)  # not isinstance: it asks a weak proxy's (maybe dead) object
    if issubclass(kind, type) or issubclass(kind, worlds.current().tensor_type):
        return None
    if weakref.getweakrefcount(value) and not all(
        type(ref) is PinRef for ref in weakref.getweakrefs(value)
    ):  # (a guard's own weak reference sees nothing)
        return "has weak references"
    if lookup_class_attr(kind, "__del__")[1] is not None:
        return "has a __del__"
    return None
