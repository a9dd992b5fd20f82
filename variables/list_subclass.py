"""Plain user subclasses of list, made in the frame: `class OrderedCollection(list): pass`.

A subclass that adds nothing to list (no methods, no class attributes: only what a class
statement always puts there) behaves as a list in every way but its type, so an object of it
made in the frame is traced as a ListVariable whose `python_type` is the subclass: `append`,
iteration, indexing, `isinstance` and `type()` all follow list's own rules (`x + y` and `x[1:]`
give plain lists, as in CPython). Returned or stored, it is rebuilt as `cls(items)`, which for
such a class is exactly list's construction. A subclass that defines anything (`__lt__`,
`__init__`, a helper method) falls back, as does an attribute set on an object of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.lists import ListVariable, folding

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_CLASS_STATEMENT_NAMES = frozenset(
    {
        "__module__",
        "__qualname__",
        "__doc__",
        "__dict__",
        "__weakref__",
        "__annotations__",
        "__firstlineno__",
        "__static_attributes__",  # 3.13 adds them to every class
    }
)
"""What every class statement puts in a class's namespace (and its instance dict slots)."""


def is_plain_list_subclass(cls: type) -> bool:
    """A proper subclass of list, through plain classes only, that defines nothing itself."""
    if type(cls) is not type or cls is list or not issubclass(cls, list):
        return False
    mro = cls.__mro__
    if mro[-2:] != (list, object):
        return False
    return all(set(k.__dict__) <= _CLASS_STATEMENT_NAMES for k in mro[:-2])


def make_list_subclass(
    tx: TranslatorBase,
    cls: type,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`cls()` or `cls(iterable)`: list's construction, with the subclass as the type."""
    from variables.builtin import BuiltinVariable

    if kwargs or len(args) > 1:
        unimplemented("list-subclass", f"creating {cls.__name__} with these arguments")
    items = BuiltinVariable(list).call_function(tx, args, {})
    assert isinstance(items, ListVariable)
    return ListSubclassVariable(items.items, cls)


class ListSubclassVariable(ListVariable):
    """`ListSubclassVariable(OrderedCollection, [...])`: made in the frame, mutable."""

    __slots__ = ("cls",)

    def __init__(self, items: Sequence[VariableTracker], cls: type) -> None:
        super().__init__(items, None)
        self.cls = cls

    def python_type(self) -> type:
        return self.cls

    def as_python_constant(self) -> Any:
        return folding(self, lambda: self.cls(i.as_python_constant() for i in self.items))

    def reconstruct(self, cg: PyCodegen) -> None:
        def build() -> None:
            cg.load_function(self.cls)
            cg.build_items_of(self.items)
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"ListSubclassVariable({self.cls.__qualname__}, [{self._items_repr()}])"
