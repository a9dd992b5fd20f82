"""The classes `collections.deque`, `defaultdict`, `OrderedDict` and `Counter` as values, and
the builder's hooks for their instances.

Calling one of these classes (their `__new__` is C, or `dict.__new__`) makes the tracker of
variables/deques.py or variables/collection_dicts.py, built the way the class's `__init__`
builds the object; a subclass of one of them is an ordinary user class (not modeled here).
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from variables.base import GetAttrVariable, VariableTracker
from variables.collection_dicts import (
    make_counter,
    make_defaultdict,
    make_ordered_dict,
    wrap_real_dict,
)
from variables.constant import ConstantVariable
from variables.deques import make_deque, wrap_real_deque
from variables.dicts import ConstDictVariable
from variables.user_defined import UserDefinedClassVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

Maker = Callable[["TranslatorBase", Sequence[VariableTracker], dict[str, VariableTracker]], Any]

MAKERS: dict[type, Maker] = {
    collections.deque: make_deque,
    collections.defaultdict: make_defaultdict,
    collections.OrderedDict: make_ordered_dict,
    collections.Counter: make_counter,
}


class CollectionClassVariable(UserDefinedClassVariable):
    """`CollectionClassVariable(deque)`: one of the classes of MAKERS; calling it makes one."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        made: VariableTracker = MAKERS[self.value](tx, args, kwargs)
        return made

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "fromkeys" and self.value is not collections.deque:
            return GetAttrVariable(self, name)
        return super().var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name != "fromkeys":
            return super().call_method(tx, name, args, kwargs)
        return self.fromkeys(tx, args, kwargs)

    def fromkeys(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`cls.fromkeys(iterable, value=None)`: CPython checks the call on a stand-in (and
        Counter's refuses it), then each key maps to the one value."""
        from variables.iterators import iterate

        stand_in = (() if i == 0 else None for i in range(len(args)))
        real: Any = self.value
        named_stand_in = {k: () if k == "iterable" else None for k in kwargs}
        tx.run_user_operation(functools.partial(real.fromkeys, *stand_in, **named_stand_in))
        # the call passed CPython's check: its keywords are these names (OrderedDict's)
        named = dict(zip(("iterable", "value"), args, strict=False)) | kwargs
        value = named.get("value", ConstantVariable(None))
        made = MAKERS[self.value](tx, [], {})
        assert isinstance(made, ConstDictVariable)
        for key in iterate(tx, named["iterable"]).unpack(tx):
            made.items[made.store_key(tx, key)] = value
        return made

    def __repr__(self) -> str:
        return f"CollectionClassVariable({self.value.__qualname__}{self._src()})"


def wrap_collection_result(value: Any) -> VariableTracker | None:
    """The tracker of a real deque, defaultdict, OrderedDict or Counter made while tracing (a
    folded result); None for any other value."""
    if type(value) is collections.deque:
        return wrap_real_deque(value)
    return wrap_real_dict(value)
