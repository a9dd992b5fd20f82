"""Sequence trackers: tuples, lists, ranges and the iterators that unrolled loops walk.

A list created inside the traced frame is modeled completely, mutations included: the tracker
*is* the list, so two references to it see the same items, as in Python. A list read from
outside the frame (it has a source) is read-only here; mutating it needs the side-effect replay.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


_BUILDING: set[VariableTracker] = set()
"""The containers whose constant `as_python_constant` is building right now."""


def folding(container: VariableTracker, build: Callable[[], Any]) -> Any:
    """`build()`: the constant of a list, tuple or dict tracker. A container met again while
    its own constant is being built holds itself and has no constant (NotConstantError: the
    operation that asked falls back), instead of recursing until a RecursionError."""
    if container in _BUILDING:
        raise NotConstantError(container)
    _BUILDING.add(container)
    try:
        return build()
    finally:
        _BUILDING.discard(container)


class BaseListVariable(VariableTracker):
    """Shared behaviour of tuples and lists: items, indexing, iteration, constants."""

    __slots__ = ("items",)
    python_cls: type = list

    def __init__(self, items: Sequence[VariableTracker], source: Source | None = None) -> None:
        super().__init__(source)
        self.items = list(items)

    def python_type(self) -> type:
        return self.python_cls

    def as_python_constant(self) -> Any:
        return folding(self, lambda: self.python_cls(i.as_python_constant() for i in self.items))

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return list(self.items)

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def getitem(self, tx: TranslatorBase, index: VariableTracker) -> VariableTracker:
        key = index.realize().as_python_constant()
        if isinstance(key, slice):
            sliced = TupleVariable if isinstance(self, TupleVariable) else ListVariable
            return sliced(self.items[key])
        if not isinstance(key, int):
            tx.raise_user_error(
                TypeError(
                    f"{self.python_cls.__name__} indices must be integers or slices, "
                    f"not {type(key).__name__}"
                )
            )
        try:
            return self.items[key]
        except IndexError:
            tx.raise_user_error(IndexError(f"{self.python_cls.__name__} index out of range"))

    def method___getitem__(self, tx: TranslatorBase, index: VariableTracker) -> VariableTracker:
        return self.getitem(tx, index)

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        return ConstantVariable(contains(tx, self.items, item))

    def method_index(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        target = search_target(item)
        for i, candidate in enumerate(self.items):
            if constant_equal(candidate, target):
                return ConstantVariable(i)
        tx.raise_user_error(ValueError(f"{target!r} is not in {self.python_cls.__name__}"))

    def method_count(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        target = search_target(item)
        return ConstantVariable(sum(constant_equal(c, target) for c in self.items))

    def reconstruct_items(self, cg: PyCodegen) -> None:
        for item in self.items:
            cg(item)

    @reprlib.recursive_repr("[...]")
    def _items_repr(self) -> str:
        return ", ".join(repr(item) for item in self.items)


class TupleVariable(BaseListVariable):
    """`TupleVariable([ConstantVariable(int: 1), TensorVariable(add: float32[3])])`."""

    __slots__ = ()
    python_cls = tuple

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        self.reconstruct_items(cg)
        cg.build_tuple(len(self.items))

    def __repr__(self) -> str:
        return f"TupleVariable([{self._items_repr()}]){self._src()}"


class ListVariable(BaseListVariable):
    """A list; `mutable` only when it was created inside the traced frame."""

    __slots__ = ()
    python_cls = list

    @property
    def is_new(self) -> bool:
        return self.source is None

    def _check_mutable(self, tx: TranslatorBase, what: str) -> None:
        if not self.is_new:
            tx.output.side_effects.mutate_existing(tx, self, what)

    def method_append(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "append")
        self.items.append(item)
        return ConstantVariable(None)

    def method_extend(self, tx: TranslatorBase, other: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "extend")
        self.items.extend(other.unpack(tx))
        return ConstantVariable(None)

    def method_insert(
        self, tx: TranslatorBase, index: VariableTracker, item: VariableTracker
    ) -> VariableTracker:
        self._check_mutable(tx, "insert")
        self.items.insert(index.as_python_constant(), item)
        return ConstantVariable(None)

    def method_pop(
        self, tx: TranslatorBase, index: VariableTracker | None = None
    ) -> VariableTracker:
        self._check_mutable(tx, "pop")
        if not self.items:
            tx.raise_user_error(IndexError("pop from empty list"))
        position = -1 if index is None else index.as_python_constant()
        try:
            return self.items.pop(position)
        except IndexError:
            tx.raise_user_error(IndexError("pop index out of range"))

    def method_remove(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "remove")
        target = search_target(item)
        for i, candidate in enumerate(self.items):
            if constant_equal(candidate, target):
                del self.items[i]
                return ConstantVariable(None)
        tx.raise_user_error(ValueError("list.remove(x): x not in list"))

    def method_clear(self, tx: TranslatorBase) -> VariableTracker:
        self._check_mutable(tx, "clear")
        self.items.clear()
        return ConstantVariable(None)

    def method_reverse(self, tx: TranslatorBase) -> VariableTracker:
        self._check_mutable(tx, "reverse")
        self.items.reverse()
        return ConstantVariable(None)

    def method_sort(
        self, tx: TranslatorBase, key: VariableTracker | None = None, reverse: Any = None
    ) -> VariableTracker:
        self._check_mutable(tx, "sort")
        no_key = key is None or (key.is_python_constant() and key.as_python_constant() is None)
        descending = bool(reverse.as_python_constant()) if reverse is not None else False
        if no_key:
            values = [item.as_python_constant() for item in self.items]
        else:
            assert key is not None
            values = [key.call_function(tx, [item], {}).as_python_constant() for item in self.items]
        order = sorted(range(len(values)), key=values.__getitem__, reverse=descending)
        self.items[:] = [self.items[i] for i in order]
        return ConstantVariable(None)

    def method_copy(self, tx: TranslatorBase) -> VariableTracker:
        return ListVariable(self.items)

    def method___setitem__(
        self, tx: TranslatorBase, index: VariableTracker, value: VariableTracker
    ) -> VariableTracker:
        self._check_mutable(tx, "item assignment")
        key = index.as_python_constant()
        if isinstance(key, slice):
            self.items[key] = value.unpack(tx)
        else:
            try:
                self.items[key] = value
            except IndexError:
                tx.raise_user_error(IndexError("list assignment index out of range"))
        return ConstantVariable(None)

    def method___delitem__(self, tx: TranslatorBase, index: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "item deletion")
        try:
            del self.items[index.as_python_constant()]
        except IndexError:
            tx.raise_user_error(IndexError("list assignment index out of range"))
        return ConstantVariable(None)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        cg.rebuild_once(self, lambda: cg.build_items_of(self.items))

    def __repr__(self) -> str:
        return f"ListVariable([{self._items_repr()}]){self._src()}"


class RangeVariable(VariableTracker):
    """A `range` with constant bounds; iterating it unrolls the loop."""

    __slots__ = ("value",)

    def __init__(self, value: range, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value

    def python_type(self) -> type:
        return range

    def as_python_constant(self) -> Any:
        return self.value

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return [ConstantVariable(i) for i in self.value]

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        return ConstantVariable(search_target(item) in self.value)

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.value))

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.value)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.value)

    def __repr__(self) -> str:
        return f"RangeVariable({self.value!r})"


class ListIteratorVariable(VariableTracker):
    """An iterator over items known while tracing; `next` advances an index in place."""

    __slots__ = ("index", "items")

    def __init__(self, items: Sequence[VariableTracker]) -> None:
        super().__init__(None)
        self.items = list(items)
        self.index = 0

    def python_type(self) -> type:
        return type(iter([]))

    def next_item(self) -> VariableTracker | None:
        if self.index >= len(self.items):
            return None
        item = self.items[self.index]
        self.index += 1
        return item

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        rest = self.items[self.index :]
        self.index = len(self.items)
        return rest

    def method___next__(self, tx: TranslatorBase) -> VariableTracker:
        item = self.next_item()
        if item is None:
            tx.raise_user_error(StopIteration())
        return item

    def __repr__(self) -> str:
        return f"ListIteratorVariable({self.index}/{len(self.items)})"


def constant_equal(vt: VariableTracker, target: object) -> bool:
    """`vt == target` for a constant tracker as a list's `index`, `count` and `remove` ask it:
    identity first, then `==` (so a NaN finds itself); anything else cannot be compared while
    tracing."""
    try:
        value = vt.realize().as_python_constant()
    except NotConstantError:
        unimplemented("compare", f"comparing {vt!r} with a constant needs its runtime value")
    return value is target or bool(value == target)


def search_target(item: VariableTracker) -> object:
    """The constant that `in`, `index`, `count` and `remove` look for. Any other value (a user
    object with its own `__eq__`, say) is compared by code that runs only at runtime, so the
    frame falls back."""
    try:
        return item.realize().as_python_constant()
    except NotConstantError:
        unimplemented("compare", f"looking for {item!r} in a container needs its runtime value")


def contains(tx: TranslatorBase, items: Sequence[VariableTracker], item: VariableTracker) -> bool:
    """`item in items` where identity or constant equality decides."""
    realized = item.realize()
    for candidate in items:
        if candidate is item or candidate.realize() is realized:
            return True
    target = search_target(realized)
    return any(constant_equal(candidate, target) for candidate in items)
