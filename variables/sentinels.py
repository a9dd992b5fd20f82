"""Identity: `object()` made inside the traced code (a sentinel, which only identity tells
apart), and `id()` of an object whose identity is stable across calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind
from tracer.exc import unimplemented
from variables import builder
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.functions import UserFunctionVariable
from variables.misc import ModuleVariable
from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class SentinelVariable(VariableTracker):
    """`SentinelVariable(new)`: a plain `object()` created in the frame, or one read from
    outside (`MISSING = object()` as a default or a global), pinned by identity. `is` compares
    a new one by tracker (`identical` knows a new object is no other) and one from outside as
    the constant it is; a new one is rebuilt with `object()` if it leaves the frame. It has no
    attributes to set, and its methods are not modeled."""

    __slots__ = ("value",)

    def __init__(self, value: object = None, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value
        """The real object, for one read from outside (pinned by ID_MATCH at its source)."""

    @property
    def is_new(self) -> bool:
        return self.source is None

    def python_type(self) -> type:
        return object

    def as_python_constant(self) -> Any:
        """A sentinel from outside is its own constant: identity is all it means."""
        if self.source is None:
            return super().as_python_constant()
        return self.value

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "__class__":
            return builder.wrap_class(object)
        unimplemented("getattr", f"attribute {name!r} of an object() sentinel")

    def truthy(self, tx: TranslatorBase) -> bool:
        return True

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.new_object(self, object, {})

    def __repr__(self) -> str:
        return "SentinelVariable(new)" if self.is_new else f"SentinelVariable({self._src()})"


def _outside_object(vt: VariableTracker) -> Any:
    """The real object behind a tracker for something read from outside the frame (a user
    object, class, function or module), else None."""
    if vt.source is None:
        return None
    if isinstance(vt, UserDefinedObjectVariable | UserDefinedClassVariable):
        return vt.value
    if isinstance(vt, UserFunctionVariable):
        return vt.fn
    if isinstance(vt, ModuleVariable):
        return vt.module
    return None


def id_of(tx: TranslatorBase, vt: VariableTracker) -> VariableTracker:
    """`id(x)` of an object from outside: its real id, the object pinned at its source by
    identity (as Dynamo does), so another object there is a miss. An object made in the frame
    gets its id only when it exists, at run time: not modeled."""
    vt = vt.realize()
    value = _outside_object(vt)
    if value is None or vt.source is None:
        unimplemented("builtin-nondeterministic", f"id() of {vt!r}, whose identity is not known")
    tx.output.add_guard(GuardKind.ID_MATCH, vt.source, value)
    return ConstantVariable(id(value))
