"""The dict subclasses of `collections`: OrderedDict, defaultdict and Counter.

Each is a ConstDictVariable (constant keys, values as trackers) whose `items` is a real object
that behaves as the modeled one where the values play no part, so CPython does the work:

- `OrderedDictVariable.items` is a real `OrderedDict` of key -> tracker: `move_to_end`,
  `popitem(last=)`, iteration (and its "mutated during iteration" error) are CPython's own.
- `DefaultDictVariable` keeps the factory as a tracker: a missing key calls it (traced, like
  `defaultdict.__missing__` calls it) and stores the result; `get` and `in` never call it.
- `CounterVariable`'s values are counts, constants: every Counter method (`most_common`,
  `update`, `subtract`, `elements`, `total`, the operators) runs on a real Counter with the
  same keys in the same order and the same counts, and a changed Counter takes its contents
  back; a count that is not a constant (a graph input) falls back.

An existing one (an input) is guarded like a dict, on its exact type and its keys in order; a
change to it is replayed like a dict's (`clear()`, then `update(final items)`: in all three an
update of an empty one inserts in the given order).
"""

from __future__ import annotations

import collections
import operator
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.arguments import refused_method_call
from variables.base import GetAttrVariable, NotConstantError, VariableTracker
from variables.class_protocols import guard_folded_classes, holds_changeable_class
from variables.constant import ConstantVariable
from variables.dicts import (
    ConstDictVariable,
    each_pair,
    key_of,
    key_tracker,
    mapping_pairs,
    pairs_of,
)
from variables.lists import ListVariable, TupleVariable, folding

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class OrderedDictVariable(ConstDictVariable):
    """`OrderedDictVariable({'a': ...})`: `items` is a real OrderedDict (see the module doc)."""

    __slots__ = ()

    def __init__(self, items: dict[Any, VariableTracker], source: Source | None = None) -> None:
        super().__init__({}, source)
        self.items = collections.OrderedDict(items)

    def python_type(self) -> type:
        return collections.OrderedDict

    def update_pairs(
        self, tx: TranslatorBase, other: VariableTracker
    ) -> Iterator[tuple[Any, VariableTracker]]:
        return ordered_dict_pairs(tx, other)

    def as_python_constant(self) -> Any:
        return folding(
            self,
            lambda: collections.OrderedDict(
                (k, v.as_python_constant()) for k, v in self.items.items()
            ),
        )

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        return OrderedDictVariable(self.items)

    def method_move_to_end(
        self, tx: TranslatorBase, key: VariableTracker, /, last: VariableTracker | None = None
    ) -> VariableTracker:
        self._check_mutable(tx, "move_to_end")
        at_end = True if last is None else last.realize().as_python_constant()
        tx.run_user_operation(self.items.move_to_end, key_of(key, tx), at_end)  # type: ignore[attr-defined]
        return ConstantVariable(None)

    def method_popitem(
        self, tx: TranslatorBase, /, last: VariableTracker | None = None
    ) -> VariableTracker:
        at_end = True if last is None else last.realize().as_python_constant()
        if self.items:
            self._check_mutable(tx, "popitem")
        k, v = tx.run_user_operation(self.items.popitem, at_end)
        return TupleVariable([self.key_vt(k), v])

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        stand_in = collections.OrderedDict.fromkeys(self.items)
        return refused_method_call(tx, stand_in, name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        rebuild_as(cg, self, collections.OrderedDict, ())

    def __repr__(self) -> str:
        return f"OrderedDictVariable({{{self._items_repr()}}}){self._src()}"


class DefaultDictVariable(ConstDictVariable):
    """`DefaultDictVariable(list, {'a': ListVariable([...])})`: a defaultdict; `factory` is the
    tracker of its `default_factory` (a ConstantVariable of None when it has none)."""

    __slots__ = ("factory",)

    def __init__(
        self,
        factory: VariableTracker,
        items: dict[Any, VariableTracker],
        source: Source | None = None,
    ) -> None:
        super().__init__(items, source)
        self.factory = factory

    def python_type(self) -> type:
        return collections.defaultdict

    def as_python_constant(self) -> Any:
        factory = self.factory.realize().as_python_constant()
        return folding(
            self,
            lambda: collections.defaultdict(
                factory, {k: v.as_python_constant() for k, v in self.items.items()}
            ),
        )

    def getitem(self, tx: TranslatorBase, key_vt: VariableTracker) -> VariableTracker:
        key = key_of(key_vt, tx)
        if key in self.items:
            return self.items[key]
        return self.method___missing__(tx, key_vt)

    def method___missing__(self, tx: TranslatorBase, key: VariableTracker, /) -> VariableTracker:
        """CPython's `defaultdict.__missing__`: KeyError(key) without a factory, else
        `self[key] = default_factory()` and that value."""
        k = key_of(key, tx)
        factory = self.factory.realize()
        if factory.is_python_constant() and factory.as_python_constant() is None:
            tx.raise_user_error(KeyError(k))
        value = factory.call_function(tx, [], {})
        self._check_mutable(tx, "item assignment")
        self.items[self.store_key(tx, key)] = value
        self._log(tx, "__setitem__", k, value)
        return value

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "default_factory":
            return self.factory
        return super().var_getattr(tx, name)

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        return DefaultDictVariable(self.factory, self.items)

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        stand_in = collections.defaultdict(None, dict.fromkeys(self.items))
        return refused_method_call(tx, stand_in, name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        rebuild_as(cg, self, collections.defaultdict, (self.factory,))

    def __repr__(self) -> str:
        return f"DefaultDictVariable({self.factory!r}, {{{self._items_repr()}}}){self._src()}"


COUNTER_METHODS: dict[str, bool] = {
    "most_common": False,
    "elements": False,
    "total": False,
    "copy": False,
    "update": True,
    "subtract": True,
    "__init__": True,
    "__missing__": False,
    "__reduce__": False,
    "__repr__": False,
    "__pos__": False,
    "__neg__": False,
    "__add__": False,
    "__sub__": False,
    "__or__": False,
    "__and__": False,
    "__iadd__": True,
    "__isub__": True,
    "__ior__": True,
    "__iand__": True,
    "__eq__": False,
    "__ne__": False,
    "__le__": False,
    "__lt__": False,
    "__ge__": False,
    "__gt__": False,
}
"""The methods of Counter run on a real Counter, and whether they change it."""


class CounterVariable(ConstDictVariable):
    """`CounterVariable({'a': ConstantVariable(int: 2)})`: a Counter (see the module doc)."""

    __slots__ = ()

    def python_type(self) -> type:
        return collections.Counter

    def as_python_constant(self) -> Any:
        return self.real()

    def real(self) -> collections.Counter[Any]:
        """A real Counter with the same keys in the same order and the same counts."""
        counts: collections.Counter[Any] = collections.Counter()
        try:
            for k, v in self.items.items():
                dict.__setitem__(counts, k, v.realize().as_python_constant())
        except NotConstantError:
            raise NotConstantError(self) from None
        return counts

    def real_or_break(self) -> collections.Counter[Any]:
        """The real Counter that an operation runs on; every operation adds, compares, sorts or
        converts the counts, so a count that is a class whose metaclass can change (whose
        special methods those consult, unguarded here) breaks the frame."""
        try:
            counts = self.real()
        except NotConstantError:
            unimplemented("counter", f"a Counter whose counts are not all constants: {self!r}")
        if holds_changeable_class(tuple(counts.values())):
            unimplemented("metaclass", f"a Counter whose count is a class: {self!r}")
        return counts

    def take(self, counts: collections.Counter[Any]) -> None:
        """This Counter now holds what the real `counts` holds (same object, new contents)."""
        self.items.clear()
        self.items.update((k, builder.wrap_constant_result(v)) for k, v in counts.items())

    def getitem(self, tx: TranslatorBase, key_vt: VariableTracker) -> VariableTracker:
        key = key_of(key_vt, tx)
        if key in self.items:
            return self.items[key]
        return ConstantVariable(0)  # Counter.__missing__: 0, and nothing is stored

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in COUNTER_METHODS:
            return GetAttrVariable(self, name)
        return super().var_getattr(tx, name)

    def method___delitem__(self, tx: TranslatorBase, key: VariableTracker, /) -> VariableTracker:
        """Counter's `del c[k]`: like dict's, but a missing key is no error."""
        if key_of(key, tx) in self.items:
            super().method___delitem__(tx, key)
        return ConstantVariable(None)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        changes = COUNTER_METHODS.get(name)
        if changes is None:
            return super().call_method(tx, name, args, kwargs)
        return self.run_real(tx, getattr(collections.Counter, name), args, kwargs, changes)

    def run_real(
        self,
        tx: TranslatorBase,
        method: Callable[..., Any],
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
        changes: bool,
    ) -> VariableTracker:
        """`method(counter, *args)` run by CPython on a real Counter; a change is taken back."""
        counts = self.real_or_break()
        real_args = [counter_operand(tx, a, self, counts) for a in args]
        real_kwargs = {k: counter_operand(tx, v, self, counts) for k, v in kwargs.items()}
        if changes:
            self._check_mutable(tx, method.__name__)
            before = dict(counts)
            try:
                result = method(counts, *real_args, **real_kwargs)
            except Exception as e:  # noqa: BLE001 - CPython's error is the user's
                if dict(counts) != before:
                    unimplemented("counter-change", f"{method.__name__} changed, then raised {e!r}")
                tx.raise_user_error(e)
            self.take(counts)
            return self if result is counts else fresh_result(result)
        result = tx.run_user_operation(partial(method, counts, *real_args, **real_kwargs))
        if method is collections.Counter.elements:
            from variables.iterators import BuiltinIteratorVariable

            return BuiltinIteratorVariable(result, key_tracker)
        return fresh_result(result)

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        stand_in = collections.Counter(dict.fromkeys(self.items, 0))
        return refused_method_call(tx, stand_in, name, args, kwargs)

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        return CounterVariable(self.items)

    def reconstruct(self, cg: PyCodegen) -> None:
        rebuild_as(cg, self, collections.Counter, ())

    def __repr__(self) -> str:
        return f"CounterVariable({{{self._items_repr()}}}){self._src()}"


def counter_operand(
    tx: TranslatorBase, vt: VariableTracker, owner: CounterVariable, counts: Any
) -> Any:
    """The real value a Counter method is given for `vt`: the same real Counter for the Counter
    itself, a constant, a real Counter or dict of constant counts, or the items of any other
    iterable as a tuple of keys (a Counter counts them one by one either way)."""
    vt = vt.realize()
    if vt is owner:
        return counts
    if isinstance(vt, CounterVariable):
        return vt.real_or_break()
    try:
        return vt.as_python_constant()
    except NotConstantError:
        pass
    if isinstance(vt, ConstDictVariable):
        unimplemented("counter", f"counting a mapping whose values are not constants: {vt!r}")
    from variables.iterators import iterate

    return tuple(key_of(item) for item in iterate(tx, vt).unpack(tx))


def rebuild_as(
    cg: PyCodegen, vt: ConstDictVariable, cls: type, leading: tuple[VariableTracker, ...]
) -> None:
    """`cls(*leading, {key: value, ...})` in the compiled code (or the input itself)."""
    if vt.source is not None:
        cg.load_source(vt.source)
        return

    def build() -> None:
        cg.load_function(cls)
        for arg in leading:
            cg(arg)
        for k, v in vt.items.items():
            cg.load_const(k)
            cg(v)
        cg.build_map(len(vt.items))
        cg.call(len(leading) + 1)

    cg.rebuild_once(vt, build)


# -- making one: calling the class ----------------------------------------------------------------
def make_ordered_dict(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`OrderedDict(other=(), /, **kwargs)`: the pairs `dict()` would take, in order."""
    if len(args) > 1:
        tx.run_user_operation(collections.OrderedDict, *[()] * len(args))
    items = dict(ordered_dict_pairs(tx, args[0])) if args else {}
    items.update(kwargs)
    return OrderedDictVariable(items)


def ordered_dict_pairs(
    tx: TranslatorBase, other: VariableTracker
) -> Iterator[tuple[Any, VariableTracker]]:
    """The pairs OrderedDict's constructor and `update` take (CPython's
    `mutablemapping_update`): an exact dict's items, any other mapping's `keys()` and then
    `[key]` for each (a dict subclass's own `keys` and `__missing__` run, where `dict()` would
    read its items directly), else an iterable's pairs."""
    found = other.realize()
    if isinstance(found, ConstDictVariable) and found.python_type() is not dict:
        return mapping_pairs(tx, found, None)
    return each_pair(tx, found)


def make_defaultdict(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`defaultdict(default_factory=None, /, *args, **kwargs)`: the factory is checked as
    CPython checks it, the rest is `dict(*args, **kwargs)`."""
    factory: VariableTracker = ConstantVariable(None)
    if args:
        factory = args[0]
        checked = factory.realize()
        if checked.is_python_constant():
            value = checked.as_python_constant()
            tx.run_user_operation(collections.defaultdict, value)  # "must be callable or None"
        elif not any("__call__" in vars(k) for k in checked.python_type().__mro__):
            # CPython's TypeError, from a stand-in that is not callable either
            tx.run_user_operation(collections.defaultdict, object())
    rest = args[1:]
    if len(rest) > 1:
        tx.run_user_operation(dict, *[()] * len(rest))
    items = pairs_of(tx, rest[0]) if rest else {}
    items.update(kwargs)
    return DefaultDictVariable(factory, items)


def make_counter(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`Counter(iterable=None, /, **kwds)`: made by CPython from the real operands."""
    fresh = CounterVariable({})
    counts: collections.Counter[Any] = collections.Counter()
    real_args = [counter_operand(tx, a, fresh, counts) for a in args]
    real_kwargs = {k: counter_operand(tx, v, fresh, counts) for k, v in kwargs.items()}
    made = tx.run_user_operation(partial(collections.Counter, *real_args, **real_kwargs))
    fresh.take(made)
    return fresh


def counter_binary_op(
    tx: TranslatorBase, fn: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> VariableTracker | None:
    """`a + b`, `a -= b`, `a == b`, ... where `a` or `b` is a Counter: CPython's operator on
    real Counters; an in-place operator changes `a` itself. None where no Counter takes part."""
    a, b = a.realize(), b.realize()
    if not (isinstance(a, CounterVariable) or isinstance(b, CounterVariable)):
        return None
    if isinstance(a, CounterVariable) and fn in _IN_PLACE:
        return a.run_real(tx, fn, [b], {}, changes=True)
    left = a.real_or_break() if isinstance(a, CounterVariable) else constant_or_break(a)
    right = b.real_or_break() if isinstance(b, CounterVariable) else constant_or_break(b)
    guard_folded_classes(tx, fn, [a, b], [left, right])  # (the other operand: `c == {1: C}`)
    return fresh_result(tx.run_user_operation(fn, left, right))


def fresh_result(value: Any) -> VariableTracker:
    """The tracker of a result CPython computed: a list or tuple in it (`most_common`'s pairs)
    is a new object, rebuilt as one in the compiled code, not a shared constant."""
    if type(value) is list:
        return ListVariable([fresh_result(v) for v in value])
    if type(value) is tuple:
        return TupleVariable([fresh_result(v) for v in value])
    return builder.wrap_constant_result(value)


def constant_or_break(vt: VariableTracker) -> Any:
    try:
        return vt.as_python_constant()
    except NotConstantError:
        unimplemented("counter", f"a Counter operation with {vt!r}, which is not a constant")


_IN_PLACE = frozenset({operator.iadd, operator.isub, operator.ior, operator.iand})


def wrap_real_dict(value: Any) -> VariableTracker | None:
    """A tracker for a real OrderedDict, defaultdict or Counter produced while tracing (a folded
    result), its values wrapped as constants; None for any other value."""
    kind = type(value)
    if kind is collections.OrderedDict:
        return OrderedDictVariable({k: builder.wrap_constant_result(v) for k, v in value.items()})
    if kind is collections.Counter:
        made = CounterVariable({})
        made.take(value)
        return made
    if kind is collections.defaultdict:
        items = {k: builder.wrap_constant_result(v) for k, v in value.items()}
        return DefaultDictVariable(builder.wrap_constant_result(value.default_factory), items)
    return None
