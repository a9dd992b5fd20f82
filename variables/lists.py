"""Sequence trackers: tuples, lists and ranges (their iterators are in variables/iterators.py).

A list created inside the traced frame is modeled completely, mutations included: the tracker
*is* the list, so two references to it see the same items, as in Python. A list read from
outside the frame (it has a source) is read-only here; mutating it needs the side-effect replay.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.arguments import refused_method_call
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import guard_class_value, guard_index_operands
from variables.constant import CONSTANT_TYPES, ConstantVariable

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
        if isinstance(key, type):  # converted by its metaclass's `__index__` (tested first:
            guard_index_operands(tx, [index], [key], "an index")  # most indexes are ints)
        try:
            found = self.items[key]
        except Exception:  # noqa: BLE001 - raised below by the stand-in, in its type's words
            found = None
        if found is None:  # (no item is None: items are trackers)
            tx.run_user_operation(operator.getitem, self.stand_in(), key)
        if isinstance(key, slice):
            start, _stop, step = key.indices(len(self.items))
            whole = start == 0 and step == 1 and len(found) == len(self.items)
            if whole and type(self) is TupleVariable:  # CPython: an exact tuple's `t[:]` is t
                return self
            sliced = TupleVariable if isinstance(self, TupleVariable) else ListVariable
            return sliced(found)
        result: VariableTracker = found
        return result

    def stand_in(self) -> Any:
        """The items in a real sequence of this tracker's type: a real method (`insert`,
        `__getitem__`, `pop`) run on it checks the arguments, raises and moves items exactly as
        on the value itself, because the items' values play no part in it."""
        return self.python_cls(self.items)

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return refused_method_call(tx, self.stand_in(), name, args, kwargs)

    def method___getitem__(self, tx: TranslatorBase, index: VariableTracker, /) -> VariableTracker:
        return self.getitem(tx, index)

    def method___len__(self, tx: TranslatorBase, /) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker, /) -> VariableTracker:
        return ConstantVariable(contains(tx, self.items, item))

    def method_index(
        self, tx: TranslatorBase, item: VariableTracker, /, *bounds: VariableTracker
    ) -> VariableTracker:
        """`seq.index(item[, start[, stop]])`: the first position in the window that holds
        `item`; CPython checks the bounds and says what is missing."""
        if len(bounds) > 2:
            return self.refused_call(tx, "index", [item, *bounds], {})
        window = search_window(tx, self.python_cls, len(self.items), bounds)
        target = search_key(tx, item)
        for i in window:
            if matches(tx, self.items[i], target):
                return ConstantVariable(i)
        if isinstance(target, _ByIdentity):  # CPython's message shows the object's repr
            unimplemented("compare", f"{self.type_name()}.index of {item!r}, not found")
        empty = self.python_cls()
        tx.run_user_operation(empty.index, target)  # CPython's own "not in" ValueError
        raise AssertionError("unreachable: an empty sequence holds nothing")

    def method_count(self, tx: TranslatorBase, item: VariableTracker, /) -> VariableTracker:
        target = search_key(tx, item)
        return ConstantVariable(sum(matches(tx, c, target) for c in self.items))

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

        def build() -> None:
            self.reconstruct_items(cg)
            cg.build_tuple(len(self.items))

        cg.rebuild_once(self, build)  # one tuple, however many places hold it

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

    def method_append(self, tx: TranslatorBase, item: VariableTracker, /) -> VariableTracker:
        self._check_mutable(tx, "append")
        self.items.append(item)
        return ConstantVariable(None)

    def method_extend(self, tx: TranslatorBase, other: VariableTracker, /) -> VariableTracker:
        self._check_mutable(tx, "extend")
        if other.realize() is self:
            self.items.extend(list(self.items))
        else:
            from variables.length_hint import sized_iterate  # (it builds on this module)

            it = sized_iterate(tx, other)
            while (item := it.next_item(tx)) is not None:  # what came before an error stays
                self.items.append(item)
        return ConstantVariable(None)

    def method_insert(
        self, tx: TranslatorBase, index: VariableTracker, item: VariableTracker, /
    ) -> VariableTracker:
        self._check_mutable(tx, "insert")
        position = index.realize().as_python_constant()
        guard_index_operands(tx, [index], [position], "a position")
        tx.run_user_operation(self.items.insert, position, item)
        return ConstantVariable(None)

    def method_pop(
        self, tx: TranslatorBase, index: VariableTracker | None = None, /
    ) -> VariableTracker:
        self._check_mutable(tx, "pop")
        position = -1 if index is None else index.realize().as_python_constant()
        if index is not None:
            guard_index_operands(tx, [index], [position], "a position")
        popped: VariableTracker = tx.run_user_operation(self.items.pop, position)
        return popped

    def method_remove(self, tx: TranslatorBase, item: VariableTracker, /) -> VariableTracker:
        self._check_mutable(tx, "remove")
        target = search_key(tx, item)
        for i, candidate in enumerate(self.items):
            if matches(tx, candidate, target):
                del self.items[i]
                return ConstantVariable(None)
        tx.raise_user_error(ValueError("list.remove(x): x not in list"))

    def method_clear(self, tx: TranslatorBase, /) -> VariableTracker:
        self._check_mutable(tx, "clear")
        self.items.clear()
        return ConstantVariable(None)

    def method_reverse(self, tx: TranslatorBase, /) -> VariableTracker:
        self._check_mutable(tx, "reverse")
        self.items.reverse()
        return ConstantVariable(None)

    def method_sort(
        self,
        tx: TranslatorBase,
        *,
        key: VariableTracker | None = None,
        reverse: VariableTracker | None = None,
    ) -> VariableTracker:
        # (imported here: variables.sorting builds on this module's trackers)
        from variables.sorting import sort_list

        self._check_mutable(tx, "sort")
        sort_list(tx, self, key, reverse)
        return ConstantVariable(None)

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        return ListVariable(self.items)

    def method___setitem__(
        self, tx: TranslatorBase, index: VariableTracker, value: VariableTracker, /
    ) -> VariableTracker:
        self._check_mutable(tx, "item assignment")
        key = index.realize().as_python_constant()
        guard_index_operands(tx, [index], [key], "an index")
        new = value.unpack(tx) if isinstance(key, slice) else value
        tx.run_user_operation(operator.setitem, self.items, key, new)
        return ConstantVariable(None)

    def method___delitem__(self, tx: TranslatorBase, index: VariableTracker, /) -> VariableTracker:
        self._check_mutable(tx, "item deletion")
        key = index.realize().as_python_constant()
        guard_index_operands(tx, [index], [key], "an index")
        tx.run_user_operation(operator.delitem, self.items, key)
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
        return ConstantVariable(search_target(tx, item) in self.value)

    def method___len__(self, tx: TranslatorBase, /) -> VariableTracker:
        # CPython's OverflowError for a range longer than sys.maxsize
        return ConstantVariable(tx.run_user_operation(len, self.value))

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.value)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in ("start", "stop", "step"):
            return ConstantVariable(getattr(self.value, name))
        return super().var_getattr(tx, name)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:  # the input itself, not an equal range
            cg.load_source(self.source)
            return
        cg.load_const(self.value)

    def __repr__(self) -> str:
        return f"RangeVariable({self.value!r}){self._src()}"


def search_window(
    tx: TranslatorBase, python_cls: type, length: int, bounds: Sequence[VariableTracker]
) -> range:
    """The positions `seq.index(x, *bounds)` looks at, in order. CPython checks the bounds'
    types first, on a stand-in of the same length (where its ValueError only means the probe
    is absent); then the window is the slice the bounds make, clamped as `index` clamps it."""
    values = [b.realize().as_python_constant() for b in bounds]
    guard_index_operands(tx, bounds, values, "a bound of index()")
    stand_in = python_cls(range(length))
    tx.run_user_operation(_probe_index, stand_in, values)
    start, stop = [*values, None, None][:2]
    return range(length)[start:stop]


def _probe_index(stand_in: Sequence[int], bounds: list[Any]) -> None:
    try:
        stand_in.index(-1, *bounds)
    except ValueError:
        pass


_EQ = ("__eq__",)


def constant_equal(tx: TranslatorBase, vt: VariableTracker, target: object) -> bool:
    """`vt == target` for a constant tracker as a list's `index`, `count` and `remove` ask it:
    identity first, then `==` (so a NaN finds itself); anything else cannot be compared while
    tracing. A class compares by its metaclass's `__eq__` (guarded: class_protocols), as do
    those inside a tuple (the frame breaks)."""
    try:
        value = vt.realize().as_python_constant()
    except NotConstantError:
        unimplemented("compare", f"comparing {vt!r} with a constant needs its runtime value")
    guard_class_value(tx, vt, value, _EQ, "a search")
    return value is target or bool(value == target)


def search_target(tx: TranslatorBase, item: VariableTracker) -> object:
    """The constant that `in`, `index`, `count` and `remove` look for. Any other value (a user
    object with its own `__eq__`, say) is compared by code that runs only at runtime, so the
    frame falls back. A class is compared by its metaclass's `__eq__` (guarded)."""
    try:
        value = item.realize().as_python_constant()
    except NotConstantError:
        unimplemented("compare", f"looking for {item!r} in a container needs its runtime value")
    guard_class_value(tx, item, value, _EQ, "a search")
    return value


def contains(tx: TranslatorBase, items: Sequence[VariableTracker], item: VariableTracker) -> bool:
    """`item in items` as CPython's list, tuple and dict-values searches ask it: item by item
    in order, identity first, then `==` (where identity or constant equality decides): the
    comparisons with the items before an identical one run (a user `__eq__` that raises
    raises), so the search stops where CPython's does."""
    realized = item.realize()
    target: object = _UNSET
    for candidate in items:
        if candidate is item or candidate.realize() is realized:
            return True
        if target is _UNSET:
            target = search_key(tx, realized)
        if matches(tx, candidate, target):
            return True
    return False


_UNSET = object()


class _ByIdentity:
    """What `in`, `index`, `count` and `remove` look for when it is a user object whose class
    keeps `object.__eq__`: CPython's `==` then decides by identity alone (a constant's `__eq__`
    and the object's both answer NotImplemented), which the trackers know."""

    __slots__ = ("vt",)

    def __init__(self, vt: VariableTracker) -> None:
        self.vt = vt


def _compared_by_identity(tx: TranslatorBase, vt: VariableTracker) -> bool:
    from variables.user_defined import UserDefinedObjectVariable

    return (
        isinstance(vt, UserDefinedObjectVariable)
        and vt.special_method(tx, "__eq__")[0] is object.__eq__
    )


def search_key(tx: TranslatorBase, item: VariableTracker) -> object:
    """`search_target`, or, for a user object compared by identity, a key that finds it."""
    realized = item.realize()
    if _compared_by_identity(tx, realized):
        return _ByIdentity(realized)
    return search_target(tx, realized)


def matches(tx: TranslatorBase, vt: VariableTracker, key: object) -> bool:
    """`vt == key` as a list's search asks it, for a key from `search_key`."""
    if not isinstance(key, _ByIdentity):
        return constant_equal(tx, vt, key)
    candidate = vt.realize()
    if candidate is key.vt:
        return True
    if type(candidate) is ConstantVariable and type(candidate.value) in CONSTANT_TYPES:
        return False  # an int's, a str's `__eq__` answer NotImplemented too
    if _compared_by_identity(tx, candidate):
        from variables.operators import identical

        return identical(candidate, key.vt, tx)
    unimplemented("compare", f"comparing {candidate!r} with {key.vt!r} needs its runtime value")


def each_item(tx: TranslatorBase, vt: VariableTracker) -> Iterator[VariableTracker]:
    """The items iterating `vt` gives, one at a time: an iterator's are pulled as the consumer
    takes them, so a consumer that stores each as it comes (CPython's `deque.extend`,
    `dict.update`) keeps what came before an exception raised part-way."""
    vt = vt.realize()
    from variables.iterators import iterate, user_iterator_class  # (it builds on this module)

    if user_iterator_class(vt) is not None:  # its `__iter__`, traced
        vt = iterate(tx, vt)
    next_item = getattr(vt, "next_item", None)
    if next_item is None:
        yield from vt.unpack(tx)
        return
    while (item := next_item(tx)) is not None:
        yield item
