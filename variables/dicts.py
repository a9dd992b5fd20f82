"""Dict and set trackers. Keys are constants known while tracing, held in a real dict or set so
that insertion order (dicts) and hash order (sets) are exactly CPython's.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import BreakReason, Unsupported, unimplemented
from variables import builder
from variables.base import NotConstantError, VariableTracker
from variables.constant import ConstantVariable
from variables.lists import ListIteratorVariable, TupleVariable, contains, folding

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_MISSING: Any = object()


def key_of(vt: VariableTracker) -> Any:
    """The Python key a tracker stands for; keys must be hashable constants while tracing."""
    try:
        key = vt.realize().as_python_constant()
    except NotConstantError:
        unimplemented("dict-key", f"{vt!r} used as a dict key or set item is not a constant")
    try:
        hash(key)
    except TypeError as e:
        raise Unsupported(BreakReason("user-exception", f"TypeError: {e}"), e) from None
    return key


def key_tracker(key: Any) -> VariableTracker:
    return builder.wrap_constant_result(key)


class ConstDictVariable(VariableTracker):
    """`ConstDictVariable({'a': TensorVariable(...)})`: a dict whose keys are constants."""

    __slots__ = ("items",)

    def __init__(self, items: dict[Any, VariableTracker], source: Source | None = None) -> None:
        super().__init__(source)
        self.items: dict[Any, VariableTracker] = dict(items)

    @property
    def is_new(self) -> bool:
        return self.source is None

    def python_type(self) -> type:
        return dict

    def as_python_constant(self) -> Any:
        return folding(self, lambda: {k: v.as_python_constant() for k, v in self.items.items()})

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return [key_tracker(k) for k in self.items]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def _check_mutable(self, tx: TranslatorBase, what: str) -> None:
        if not self.is_new:
            tx.output.side_effects.mutate_existing(tx, self, what)

    def getitem(self, tx: TranslatorBase, key_vt: VariableTracker) -> VariableTracker:
        key = key_of(key_vt)
        try:
            return self.items[key]
        except KeyError:
            tx.raise_user_error(KeyError(key))

    def method___getitem__(self, tx: TranslatorBase, key: VariableTracker) -> VariableTracker:
        return self.getitem(tx, key)

    def method_get(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None
    ) -> VariableTracker:
        found = self.items.get(key_of(key))
        if found is not None:
            return found
        return default if default is not None else ConstantVariable(None)

    def method___contains__(self, tx: TranslatorBase, key: VariableTracker) -> VariableTracker:
        return ConstantVariable(key_of(key) in self.items)

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def method_keys(self, tx: TranslatorBase) -> VariableTracker:
        return DictViewVariable(self, "keys")

    def method_values(self, tx: TranslatorBase) -> VariableTracker:
        return DictViewVariable(self, "values")

    def method_items(self, tx: TranslatorBase) -> VariableTracker:
        return DictViewVariable(self, "items")

    def method_copy(self, tx: TranslatorBase) -> VariableTracker:
        return ConstDictVariable(self.items)

    def method___setitem__(
        self, tx: TranslatorBase, key: VariableTracker, value: VariableTracker
    ) -> VariableTracker:
        self._check_mutable(tx, "item assignment")
        self.items[key_of(key)] = value
        return ConstantVariable(None)

    def method___delitem__(self, tx: TranslatorBase, key: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "item deletion")
        k = key_of(key)
        if k not in self.items:
            tx.raise_user_error(KeyError(k))
        del self.items[k]
        return ConstantVariable(None)

    def method_pop(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None
    ) -> VariableTracker:
        self._check_mutable(tx, "pop")
        k = key_of(key)
        if k in self.items:
            return self.items.pop(k)
        if default is None:
            tx.raise_user_error(KeyError(k))
        return default

    def method_popitem(self, tx: TranslatorBase) -> VariableTracker:
        self._check_mutable(tx, "popitem")
        if not self.items:
            tx.raise_user_error(KeyError("popitem(): dictionary is empty"))
        k, v = self.items.popitem()
        return TupleVariable([key_tracker(k), v])

    def method_setdefault(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None
    ) -> VariableTracker:
        k = key_of(key)
        if k in self.items:
            return self.items[k]
        self._check_mutable(tx, "setdefault")
        value = default if default is not None else ConstantVariable(None)
        self.items[k] = value
        return value

    def method_update(
        self, tx: TranslatorBase, *args: VariableTracker, **kwargs: VariableTracker
    ) -> VariableTracker:
        self._check_mutable(tx, "update")
        for other in args:
            self.items.update(pairs_of(tx, other))
        self.items.update(kwargs)
        return ConstantVariable(None)

    def method_clear(self, tx: TranslatorBase) -> VariableTracker:
        self._check_mutable(tx, "clear")
        self.items.clear()
        return ConstantVariable(None)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            for k, v in self.items.items():
                cg.load_const(k)
                cg(v)
            cg.build_map(len(self.items))

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"ConstDictVariable({{{self._items_repr()}}}){self._src()}"

    @reprlib.recursive_repr("{...}")
    def _items_repr(self) -> str:
        """The items, with a dict that holds itself shown as `{...}` (as `repr(dict)` does)."""
        return ", ".join(f"{k!r}: {v!r}" for k, v in self.items.items())


def pairs_of(tx: TranslatorBase, other: VariableTracker) -> dict[Any, VariableTracker]:
    """The (key, value) pairs `dict.update(other)` would take, in order."""
    other = other.realize()
    if isinstance(other, ConstDictVariable):
        return dict(other.items)
    pairs: dict[Any, VariableTracker] = {}
    for pair in other.unpack(tx):
        key_vt, value = pair.unpack(tx)
        pairs[key_of(key_vt)] = value
    return pairs


class DictViewVariable(VariableTracker):
    """`d.keys()`, `d.values()` or `d.items()`: a live view of a ConstDictVariable."""

    __slots__ = ("dict_vt", "kind")

    def __init__(self, dict_vt: ConstDictVariable, kind: str) -> None:
        super().__init__(None)
        self.dict_vt = dict_vt
        self.kind = kind

    def python_type(self) -> type:
        return type(getattr({}, self.kind)())

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        items = self.dict_vt.items
        if self.kind == "keys":
            return [key_tracker(k) for k in items]
        if self.kind == "values":
            return list(items.values())
        return [TupleVariable([key_tracker(k), v]) for k, v in items.items()]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.dict_vt.items)

    def as_python_constant(self) -> Any:
        return getattr(self.dict_vt.as_python_constant(), self.kind)()

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.dict_vt.items))

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        if self.kind == "keys":
            return ConstantVariable(key_of(item) in self.dict_vt.items)

        return ConstantVariable(contains(tx, self.unpack(tx), item))

    def __repr__(self) -> str:
        return f"DictViewVariable({self.kind} of {self.dict_vt!r})"


class SetVariable(VariableTracker):
    """A set of constants, kept in a real set so iteration follows CPython's hash order.

    Where two keys collide in the hash table, iteration order depends on the order they were
    inserted, so `history` keeps the insertion order of the current members: the model set and
    the rebuilt one are both made by inserting in that order, as eager code did.
    """

    __slots__ = ("frozen", "history", "items")

    def __init__(
        self, keys: Iterable[Any], frozen: bool = False, source: Source | None = None
    ) -> None:
        super().__init__(source)
        self.history: list[Any] = list(dict.fromkeys(keys))
        self.items: set[Any] = set()
        for key in self.history:
            self.items.add(key)
        self.frozen = frozen

    def _add(self, key: Any) -> None:
        if key not in self.items:
            self.items.add(key)
            self.history.append(key)

    def _discard(self, key: Any) -> None:
        if key in self.items:
            self.items.discard(key)
            self.history.remove(key)

    def python_type(self) -> type:
        return frozenset if self.frozen else set

    def as_python_constant(self) -> Any:
        return frozenset(self.items) if self.frozen else set(self.items)

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return [key_tracker(k) for k in self.items]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def _check_mutable(self, tx: TranslatorBase, what: str) -> None:
        if self.frozen:
            unimplemented("call-method", f"frozenset has no {what}")
        if self.source is not None:
            tx.output.side_effects.mutate_existing(tx, self, what)

    def method_add(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "add")
        self._add(key_of(item))
        return ConstantVariable(None)

    def method_discard(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "discard")
        self._discard(key_of(item))
        return ConstantVariable(None)

    def method_remove(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "remove")
        key = key_of(item)
        if key not in self.items:
            tx.raise_user_error(KeyError(key))
        self._discard(key)
        return ConstantVariable(None)

    def method_update(self, tx: TranslatorBase, *others: VariableTracker) -> VariableTracker:
        self._check_mutable(tx, "update")
        for other in others:
            for vt in other.unpack(tx):
                self._add(key_of(vt))
        return ConstantVariable(None)

    def method_clear(self, tx: TranslatorBase) -> VariableTracker:
        self._check_mutable(tx, "clear")
        self.items.clear()
        self.history.clear()
        return ConstantVariable(None)

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        return ConstantVariable(key_of(item) in self.items)

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if getattr(self, f"method_{name}", None) is None and not kwargs:
            # Non-mutating set algebra (union, issubset, ...): fold on the real values.
            others = [{key_of(v) for v in a.unpack(tx)} for a in args]
            real = self.as_python_constant()
            method = getattr(real, name, None)
            if method is None:
                unimplemented("call-method", f"set has no method {name!r}")
            return builder.wrap_constant_result(tx.run_user_operation(method, *others))
        return super().call_method(tx, name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        if self.frozen:
            cg.push_null()
            cg.load_const(frozenset)
            cg.load_const(tuple(self.history))
            cg.call(1)
            return

        def build() -> None:
            cg.push_null()
            cg.load_const(set)
            cg.load_const(tuple(self.history))
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"SetVariable({sorted(self.items, key=repr)!r}){self._src()}"


def iterate(tx: TranslatorBase, vt: VariableTracker) -> ListIteratorVariable:
    """GET_ITER: iterators are materialized as the list of their items (loops unroll)."""
    vt = vt.realize()
    if isinstance(vt, ListIteratorVariable):
        return vt
    return ListIteratorVariable(vt.unpack(tx))
