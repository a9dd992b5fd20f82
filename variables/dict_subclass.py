"""User subclasses of dict, with methods of their own and `__missing__`:
`class Tally(dict): def __missing__(self, key): return 0`, made in the frame or passed in.

A subclass that defines no special name but `__missing__` behaves as a dict in every builtin
operation (its items, `len`, iteration, `in`, `get`, `update`, ...), so an object of one is a
ConstDictVariable whose `python_type` is the subclass. The names the subclass defines are
traced with the object bound; `super().name` in them reaches dict's own method on the same
items; `d[key]` for a key the dict lacks calls `__missing__` (traced), as dict's `__getitem__`
does for a subclass. Made in the frame and returned or stored, it is rebuilt as
`cls({...})`; one passed in is the object itself, its changes replayed with dict's own
`clear` and `update` (a method of the class's by those names is not run).

A subclass that overrides another special method (`__getitem__`, `__setitem__`, `__init__`,
`__new__`, ...) or has a metaclass falls back, as does an attribute set on an object of one.
What the trace relied on is guarded: each class's names as traced (a special method, or a
method shadowing dict's, set on the class later misses: `guard_class_names`) and the values it
read from a class.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource, ItemSource
from tracer.exc import unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.class_lookup import class_member_source, guard_class_names
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable, key_of
from variables.lists import folding
from variables.value_subclass import CLASS_STATEMENT_NAMES, has_plain_members

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def is_dict_subclass(cls: type) -> bool:
    """A proper subclass of dict, through plain classes whose only special name is
    `__missing__` (besides functions and constants)."""
    if type(cls) is not type or cls is dict or cls.__mro__[-2:] != (dict, object):
        return False
    return has_plain_members(cls, CLASS_STATEMENT_NAMES | {"__missing__"})


def make_dict_subclass(
    tx: TranslatorBase,
    cls: type,
    cls_source: Source | None,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`cls(...)`: dict's construction (dict's `__init__`), with the subclass as the type."""
    from variables.builtin import BuiltinVariable

    guard_class_names(tx, cls, cls_source)  # it stays a plain subclass of dict
    made = BuiltinVariable(dict).call_function(tx, args, kwargs)
    assert isinstance(made, ConstDictVariable)
    result = DictSubclassVariable(made.items, cls, cls_source)
    result.key_vts.update(made.key_vts)
    return result


class DictSubclassVariable(ConstDictVariable):
    """`DictSubclassVariable(Tally, {...})`: made in the frame, or an input with a source
    (`VariableBuilder.wrap_dict_subclass`; see the module docstring)."""

    __slots__ = ("cls", "cls_source")

    def __init__(
        self,
        items: dict[Any, VariableTracker],
        cls: type,
        cls_source: Source | None,
        source: Source | None = None,
    ) -> None:
        super().__init__(items, source)
        self.cls = cls
        self.cls_source = cls_source

    def python_type(self) -> type:
        return self.cls

    def as_python_constant(self) -> Any:
        if self._find(0, "__missing__") is not None:  # a real copy would run it untraced
            raise NotConstantError(self)
        return folding(
            self, lambda: self.cls(super(DictSubclassVariable, self).as_python_constant())
        )

    def _find(self, start: int, name: str) -> tuple[Any, int] | None:
        """The subclass's member `name` found from `mro[start]` on (before dict), and where."""
        mro = self.cls.__mro__
        for index in range(start, len(mro) - 2):
            if name in mro[index].__dict__:
                return mro[index].__dict__[name], index
        return None

    def _method(self, tx: TranslatorBase, found: tuple[Any, int], name: str) -> VariableTracker:
        """The subclass's member: a constant, or its function read where it sits (guarded)
        and bound to this dict."""
        from variables.functions import UserFunctionVariable, UserMethodVariable

        member, index = found
        if type(member) is not types.FunctionType:  # a constant class attribute
            where = class_member_source(tx, self.cls, self.cls_source, index, name)
            if where is None:  # (a class made in the frame: made anew on every call)
                return ConstantVariable(member)
            return tx.output.builder.lazy(member, where).realize()  # guarded
        if self.cls_source is None:
            unimplemented("dict-subclass", f"method {name} of a class with no known origin")
        holder = self.cls_source
        if index:
            holder = ItemSource(AttrSource(self.cls_source, "__mro__"), index)
        fn = tx.output.builder.lazy(member, AttrSource(holder, name)).realize()
        if not isinstance(fn, UserFunctionVariable):
            unimplemented("dict-subclass", f"method {name} wrapped as {fn!r}")
        return UserMethodVariable(fn, self)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        found = self._find(0, name)
        if found is not None:
            return self._method(tx, found, name)
        return super().var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        found = self._find(0, name) if name != "__missing__" else None
        if found is not None:
            return self._method(tx, found, name).call_function(tx, args, kwargs)
        return super().call_method(tx, name, args, kwargs)

    def super_getattr(self, tx: TranslatorBase, after: type, name: str) -> VariableTracker:
        """`super().name` in a method of `after`: a subclass's further up, else dict's own
        method on these items."""
        mro = self.cls.__mro__
        found = self._find(mro.index(after) + 1 if after in mro else len(mro), name)
        if found is not None:
            return self._method(tx, found, name)
        if not hasattr(dict, name):
            tx.raise_user_error(AttributeError(f"'super' object has no attribute '{name}'"))
        return DictMethodVariable(self, name)

    def getitem(self, tx: TranslatorBase, key_vt: VariableTracker) -> VariableTracker:
        """dict's `__getitem__`: a key it lacks goes to the subclass's `__missing__`."""
        found = self._find(0, "__missing__")
        if found is None or key_of(key_vt, tx) in self.items:
            return super().getitem(tx, key_vt)
        return self._method(tx, found, "__missing__").call_function(tx, [key_vt], {})

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:  # an input: the object itself
            cg.load_source(self.source)
            return

        def build() -> None:
            cg.load_function(self.cls)
            for k, v in self.items.items():
                cg(self.key_vt(k))
                cg(v)
            cg.build_map(len(self.items))
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"DictSubclassVariable({self.cls.__qualname__}, {{{self._items_repr()}}})"


class DictMethodVariable(VariableTracker):
    """dict's own method on a subclass's dict (`super().__setitem__`): the subclass's
    override is skipped."""

    __slots__ = ("name", "obj")

    def __init__(self, obj: DictSubclassVariable, name: str) -> None:
        super().__init__(None)
        self.obj = obj
        self.name = name

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return ConstDictVariable.call_method(self.obj, tx, self.name, args, kwargs)

    def __repr__(self) -> str:
        return f"DictMethodVariable(dict.{self.name})"
