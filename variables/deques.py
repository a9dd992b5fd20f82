"""`collections.deque`: a real deque of trackers does the work.

`DequeVariable.items` is a real `deque` (with the modeled deque's `maxlen`) whose elements are
the trackers of the modeled deque's elements. Whatever a deque does without looking at its
elements' values (append/appendleft with `maxlen` dropping from the other end, pop/popleft,
extend/extendleft, rotate, insert, reverse, clear, indexing and item assignment, `len`,
iteration and its "deque mutated during iteration" error) is CPython's own, on that object, with
CPython's exceptions and messages. What compares elements (`count`, `index`, `remove`, `in`,
`==`) runs on a real deque of the elements' constant values, and falls back where one is not a
constant.

An input deque is guarded on its exact type, its length and its `maxlen`; its elements are
wrapped lazily (`L['d'][i]`). A change to it is replayed as `d.clear(); d.extend(final)`.
"""

from __future__ import annotations

import collections
import operator
import reprlib
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.arguments import refused_method_call
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import CONSULTED, guard_class_value, guard_index_operands
from variables.constant import ConstantVariable
from variables.lists import each_item, folding, search_target

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


STRUCTURAL = frozenset(
    {
        "append", "appendleft", "pop", "popleft", "rotate", "insert", "reverse", "clear",
        "__getitem__", "__setitem__", "__delitem__", "__len__",
    }
)  # fmt: skip
"""Methods that move elements without looking at their values: run on `items` itself."""

CHANGING = frozenset(
    {
        "append", "appendleft", "pop", "popleft", "rotate", "insert", "reverse", "clear",
        "__setitem__", "__delitem__", "extend", "extendleft", "remove", "__iadd__",
    }
)  # fmt: skip

COMPARING = frozenset({"count", "index", "__contains__"})
"""Methods that compare elements with an argument: run on a deque of the constant values."""


class DequeVariable(VariableTracker):
    """`DequeVariable([ConstantVariable(int: 1), ...], maxlen=3)` (see the module doc)."""

    __slots__ = ("items",)

    def __init__(self, items: collections.deque[VariableTracker], source: Source | None = None):
        super().__init__(source)
        self.items = items

    @property
    def is_new(self) -> bool:
        return self.source is None

    @property
    def maxlen(self) -> int | None:
        return self.items.maxlen

    def python_type(self) -> type:
        return collections.deque

    def as_python_constant(self) -> Any:
        return folding(
            self,
            lambda: collections.deque((v.as_python_constant() for v in self.items), self.maxlen),
        )

    def constant_values(
        self, tx: TranslatorBase, what: str, names: tuple[str, ...] | None = ("__eq__",)
    ) -> collections.deque[Any]:
        """The elements' values, for a real deque method that compares them in C (`in`,
        `count`, `index`, `remove`, `==`, `<`): a class among them has the special methods
        `names` guarded on its metaclass (class_protocols.guard_class_value)."""
        try:
            values: collections.deque[Any] = self.as_python_constant()
        except NotConstantError:
            unimplemented("deque", f"{what} on {self!r}: an element is not a constant")
        for vt, value in zip(self.items, values, strict=True):
            guard_class_value(tx, vt, value, names, f"deque.{what}")
        return values

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return list(self.items)

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def _check_mutable(self, tx: TranslatorBase, what: str) -> None:
        if not self.is_new:
            tx.output.side_effects.mutate_existing(tx, self, what)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "maxlen":
            return ConstantVariable(self.maxlen)
        if name in STRUCTURAL or name in COMPARING or hasattr(self, f"method_{name}"):
            from variables.base import GetAttrVariable

            return GetAttrVariable(self, name)
        tx.run_user_operation(getattr, self.items, name)  # CPython's AttributeError, if any
        return super().var_getattr(tx, name)

    def getitem(self, tx: TranslatorBase, index: VariableTracker) -> VariableTracker:
        return self.call_method(tx, "__getitem__", [index], {})

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name in STRUCTURAL:
            return self.structural(tx, name, args, kwargs)
        if name in COMPARING:
            values = self.constant_values(tx, name)
            real_args = [search_target(tx, a) for a in args]
            if name == "index":  # (its start and stop bounds)
                guard_index_operands(tx, args[1:], real_args[1:], "a bound of index()")
            real_kwargs = {k: search_target(tx, v) for k, v in kwargs.items()}
            result = tx.run_user_operation(
                partial(getattr(values, name), *real_args, **real_kwargs)
            )
            return ConstantVariable(result)
        return super().call_method(tx, name, args, kwargs)

    def structural(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`d.<name>(*args)` on the real deque of trackers: positions, counts and indices are
        constants; an element argument is passed as its tracker, which the deque only holds."""
        takes_element = {"append": 0, "appendleft": 0, "insert": 1, "__setitem__": 1}
        position = takes_element.get(name)
        real_args = [a if i == position else _constant(a, name) for i, a in enumerate(args)]
        # every other argument is a position or a count
        guard_index_operands(tx, args, real_args, "a position")
        real_kwargs = {k: _constant(v, name) for k, v in kwargs.items()}
        if name in CHANGING:
            self._check_mutable(tx, name)
        result = tx.run_user_operation(
            partial(getattr(self.items, name), *real_args, **real_kwargs)
        )
        if isinstance(result, VariableTracker):
            return result
        return ConstantVariable(result)

    def method_extend(self, tx: TranslatorBase, other: VariableTracker, /) -> VariableTracker:
        return self._extend(tx, other, self.items.append, "extend")

    def method_extendleft(self, tx: TranslatorBase, other: VariableTracker, /) -> VariableTracker:
        return self._extend(tx, other, self.items.appendleft, "extendleft")

    def _extend(
        self, tx: TranslatorBase, other: VariableTracker, add: Any, name: str
    ) -> VariableTracker:
        """Each item as it comes (those before an exception stay added); `d.extend(d)` takes
        a copy first, as CPython does."""
        self._check_mutable(tx, name)
        if other.realize() is self:
            for item in list(self.items):
                add(item)
        else:
            for item in each_item(tx, other):
                add(item)
        return ConstantVariable(None)

    def method_remove(self, tx: TranslatorBase, value: VariableTracker, /) -> VariableTracker:
        values = self.constant_values(tx, "remove")
        target = search_target(tx, value)
        position = tx.run_user_operation(_remove_position, values, target)
        self._check_mutable(tx, "remove")
        del self.items[position]
        return ConstantVariable(None)

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        return DequeVariable(self.items.copy())

    def method___copy__(self, tx: TranslatorBase, /) -> VariableTracker:
        return DequeVariable(self.items.copy())

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        stand_in = collections.deque(range(len(self.items)), self.maxlen)
        return refused_method_call(tx, stand_in, name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            cg.load_function(collections.deque)
            cg.build_items_of(list(self.items))
            cg.load_const(self.maxlen)
            cg.call(2)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"DequeVariable([{self._items_repr()}], maxlen={self.maxlen}){self._src()}"

    @reprlib.recursive_repr("[...]")
    def _items_repr(self) -> str:
        return ", ".join(repr(v) for v in self.items)


def _constant(vt: VariableTracker, method: str) -> Any:
    try:
        return vt.realize().as_python_constant()
    except NotConstantError:
        unimplemented("deque", f"deque.{method} with {vt!r}, which is not a constant")


def _remove_position(values: collections.deque[Any], target: Any) -> int:
    """Where `values.remove(target)` removes from, found by CPython's own remove on a deque of
    positions' values (its ValueError when absent)."""
    probe = collections.deque(values)
    probe.remove(target)
    for i, value in enumerate(values):
        if value is target or value == target:
            return i
    raise AssertionError("unreachable: remove found it")


def make_deque(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`deque(iterable=(), maxlen=None)`: CPython checks the arguments (on an empty iterable),
    then takes the items one by one, keeping the last `maxlen`."""
    from variables.iterators import iterate

    stand_args = [() if i == 0 else _constant(a, "__init__") for i, a in enumerate(args)]
    stand_kwargs = {
        k: () if k == "iterable" else _constant(v, "__init__") for k, v in kwargs.items()
    }
    # CPython checks the arguments (how many, which keywords, maxlen) before it iterates
    made: collections.deque[Any] = tx.run_user_operation(
        partial(collections.deque, *stand_args, **stand_kwargs)
    )
    iterable = args[0] if args else kwargs.get("iterable")
    if iterable is not None:
        made.extend(iterate(tx, iterable).unpack(tx))
    return DequeVariable(made)


def deque_binary_op(
    tx: TranslatorBase, fn: Any, a: VariableTracker, b: VariableTracker
) -> VariableTracker | None:
    """`a + b`, `a += b`, `a * n`, `a == b`, ... where `a` or `b` is a deque; None otherwise."""
    a, b = a.realize(), b.realize()
    if not (isinstance(a, DequeVariable) or isinstance(b, DequeVariable)):
        return None
    if isinstance(a, DequeVariable) and fn is operator.iadd:
        a.method_extend(tx, b)
        return a
    if fn in (operator.add, operator.mul, operator.imul) and isinstance(a, DequeVariable):
        # the result holds the same trackers: CPython moves them without reading them
        other = b.items if isinstance(b, DequeVariable) else _constant(b, fn.__name__)
        result = tx.run_user_operation(fn, a.items.copy(), other)
        if fn is operator.imul:
            a._check_mutable(tx, "*=")
            a.items.clear()
            a.items.extend(result)
            return a
        return DequeVariable(result)
    # a comparison: a deque compares items with `==` until two differ, then those with `fn`;
    # a deque compared with anything else answers NotImplemented, the other side decides
    names = CONSULTED.get(fn)
    names = None if names is None else (*names, "__eq__")
    values = []
    for side in (a, b):
        if isinstance(side, DequeVariable):
            values.append(side.constant_values(tx, "compare", names))
        else:
            values.append(_constant(side, "op"))
            guard_class_value(tx, side, values[-1], names, "a deque's comparison")
    left, right = values
    return builder.wrap_constant_result(tx.run_user_operation(fn, left, right))


def wrap_real_deque(value: collections.deque[Any]) -> DequeVariable:
    """A real deque produced while tracing (a folded result), its elements wrapped."""
    return DequeVariable(
        collections.deque((builder.wrap_constant_result(v) for v in value), value.maxlen)
    )
