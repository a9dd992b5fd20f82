"""`NNModuleVariable`: an instance of the runtime's `nn.Module`, traced like any user object.

This is Dynamo's way with modules it inlines (`UnspecializedNNModuleVariable`, the default since
`inline_inbuilt_nn_modules`): a module is a user-defined object, guarded on its exact type, and
every attribute `forward` reads is guarded where it was found, as for any object. So:

- a parameter or buffer is a graph input (`L['self']._modules['up']._parameters['weight']`),
  guarded on its metadata only: new values in the same tensors do not recompile;
- a plain attribute (`self.eps`, `self.training`) is a guarded constant: changing it does
  recompile, and the miss says which attribute changed;
- the tables `_parameters`, `_buffers` and `_modules` are guarded on their keys in order, as
  Dynamo guards their key order.

Two parts of `nn.Module` are modeled instead of traced, as Dynamo models them:
`Module.__getattr__` (the lookup in the three tables, `missing_attr` below) and
`Module.__call__` (which only calls `self.forward`, so a call goes straight to `forward`, read
from the object as Python would: an instance attribute `forward` wins, and its absence is
guarded). A subclass that overrides either is traced like any user class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tracer.runtime.nn.module import Module
from variables.base import VariableTracker
from variables.class_lookup import lookup_class_attr
from variables.dicts import ConstDictVariable
from variables.user_defined import UserDefinedObjectVariable, wrap_class_member

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

MODULE_TABLES = ("_parameters", "_buffers", "_modules")
"""Where `Module.__getattr__` looks, in its order."""


def is_module(value: object) -> bool:
    return issubclass(type(value), Module)


class NNModuleVariable(UserDefinedObjectVariable):
    """`NNModuleVariable(Linear @ L['self']._modules['up'])`: a runtime nn.Module instance."""

    __slots__ = ()

    def missing_attr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """`Module.__getattr__`: the parameter, buffer or submodule registered as `name`,
        looked up in the tables of the instance dict (each guarded on its keys), else the
        runtime's AttributeError. A class with its own `__getattr__` is not modeled."""
        getattr_fn = self.special_method(tx, "__getattr__", pin=True)[0]
        if getattr_fn is not Module.__dict__["__getattr__"]:
            return super().missing_attr(tx, name)
        for table in MODULE_TABLES:
            found = self._instance_attr(tx, table)
            if found is None:  # `self.__dict__.get(table, {})`
                continue
            table_vt = found.realize()
            if not isinstance(table_vt, ConstDictVariable):
                return super().missing_attr(tx, name)
            if name in table_vt.items:
                return table_vt.items[name]
        tx.raise_user_error(
            AttributeError(f"'{self.cls.__name__}' object has no attribute '{name}'")
        )

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`module(*args)`: `Module.__call__` is `self.forward(*args, **kwargs)` (no hooks in
        the runtime), so the call reads `forward` from the object and calls it."""
        call, _owner = lookup_class_attr(self.cls, "__call__")
        if call is not Module.__dict__["__call__"]:
            return super().call_function(tx, args, kwargs)
        # read (and so guarded) where Python finds it: `type(module).__call__`
        wrap_class_member(tx, call, self._class_source(tx, "__call__"), None, None)
        return self.call_method(tx, "forward", args, kwargs)

    def __repr__(self) -> str:
        return f"NNModuleVariable({self.cls.__qualname__}{self._src()})"
