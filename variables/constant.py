"""Trackers for immutable scalar values known while tracing: ints, floats, strings, None, enums.

Operations on them are folded by running the real operation, so float arithmetic is
bit-identical to CPython's and errors are CPython's own.
"""

from __future__ import annotations

import encodings
import encodings.aliases
import enum
import operator
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource
from tracer import worlds
from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, VariableTracker
from variables.class_lookup import lookup_class_attr
from variables.class_protocols import CONSTANT_METHOD_NAMES, guard_folded_classes

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

CONSTANT_TYPES: frozenset[type] = frozenset(
    {int, float, bool, str, bytes, complex, type(None), type(Ellipsis), type(NotImplemented)}
)
"""Exact types a ConstantVariable may hold (no subclasses: their methods could be user code)."""

IMMUTABLE_METHOD_TYPES: frozenset[type] = frozenset(
    {int, float, bool, str, bytes, complex, tuple, frozenset}
)
"""Types whose methods are pure C code and are folded by calling them (`'a,b'.split(',')`)."""


_FIELD_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType)
"""Attributes a C type defines as fields: reading one runs C code that only reads the object
(a world's constant types, torch.device and torch.dtype, cannot be subclassed, so the class
dict of the value's own type is where the attribute is)."""


def _has_pure_methods(value: object) -> bool:
    """Builtin immutable values (and torch.Size, a tuple of ints) whose methods are C code."""
    kind = type(value)
    return kind in IMMUTABLE_METHOD_TYPES or (kind.__name__ == "Size" and issubclass(kind, tuple))


def is_constant_value(value: object) -> bool:
    """Scalars of CONSTANT_TYPES, and tuples/frozensets (or torch.Size) made only of them."""
    kind = type(value)
    if kind in CONSTANT_TYPES:
        return True
    if kind is tuple or kind is frozenset or kind.__name__ == "Size" and issubclass(kind, tuple):
        return all(map(is_constant_value, value))  # type: ignore[call-overload]
    return False


_IS_CONSTANT = operator.methodcaller("is_python_constant")
_AS_CONSTANT = operator.methodcaller("as_python_constant")
"""`vt.is_python_constant()`, `vt.as_python_constant()` for `map` (no generator frame)."""


class ConstantVariable(VariableTracker):
    """A scalar constant, e.g. `ConstantVariable(int: 3)`."""

    __slots__ = ("value",)

    def __init__(self, value: Any, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value

    @classmethod
    def create(cls, value: Any) -> ConstantVariable:
        return cls(value)

    def python_type(self) -> type:
        return type(self.value)

    def as_python_constant(self) -> Any:
        return self.value

    def is_python_constant(self) -> bool:
        return True

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.value)

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        if isinstance(self.value, (tuple, frozenset, str, bytes)):
            return [ConstantVariable(item) for item in self.value]
        return super().unpack(tx)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        value = self.value
        if not hasattr(value, name):  # CPython's AttributeError (a constant runs no user code)
            tx.run_user_operation(getattr, value, name)
        if _has_pure_methods(value) and not name.startswith("__"):
            attr = getattr(value, name)
            if callable(attr):
                return GetAttrVariable(self, name)
            return builder.wrap_constant_result(attr)
        if name in ("real", "imag", "numerator", "denominator"):
            return builder.wrap_constant_result(getattr(value, name))
        if (
            not name.startswith("_")
            and type(type(value).__dict__.get(name)) in _FIELD_DESCRIPTORS
            and worlds.current().is_constant(value)
        ):  # a field of a world's constant: `x.device.type`, `x.dtype.is_floating_point`
            return builder.wrap_constant_result(getattr(value, name))
        return super().var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        value = self.value
        if (
            name == "join"
            and type(value) is str
            and len(args) == 1
            and not kwargs
            and not args[0].is_python_constant()  # a constant: CPython joins it (or refuses)
        ):
            from variables.length_hint import rest_of  # (it builds on this module)

            it = iterators.iterate_or_refuse(tx, args[0], "can only join an iterable")
            pieces = rest_of(tx, it)  # `list(iter(x))`

            args = [ConstantVariable(tuple(p.realize().as_python_constant() for p in pieces))]
        # (the arguments asked in order, as `all(... for a in (*args, *kwargs.values()))`
        # would, by C-level maps: `"k".startswith("p")` in a loop comes here every time)
        if not (
            _has_pure_methods(value)
            and all(map(_IS_CONSTANT, args))
            and all(map(_IS_CONSTANT, kwargs.values()))
        ):
            return super().call_method(tx, name, args, kwargs)
        method = getattr(value, name, None)
        if method is None:
            unimplemented("call-method", f"{self.type_name()} has no method {name!r}")
        const_args = list(map(_AS_CONSTANT, args))
        const_kwargs = {k: v.as_python_constant() for k, v in kwargs.items()} if kwargs else {}
        guard_folded_classes(  # a class among them: its metaclass may gain a method later
            tx, method, (self, *args, *kwargs.values()),
            (value, *const_args, *const_kwargs.values()), CONSTANT_METHOD_NAMES,
        )  # fmt: skip
        if name in ("encode", "decode") and not _stdlib_codec(const_args, const_kwargs):
            unimplemented(
                "codec",
                f"{name} with a codec or an error handler the standard library does not provide"
                " (it is looked up, and may be registered, when the call runs)",
            )
        if type(value) is str and (name == "format" or name == "format_map"):
            mapped = [v for a in const_args if type(a) is dict for v in a.values()]
            value_objects.check_str_format([*const_args, *const_kwargs.values(), *mapped])
        result = tx.run_user_operation(method, *const_args, **const_kwargs)
        return builder.wrap_constant_result(result)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.value)

    def __repr__(self) -> str:
        return f"ConstantVariable({type(self.value).__name__}: {self.value!r}){self._src()}"


_STDLIB_ERROR_HANDLERS = frozenset(
    {
        "strict", "ignore", "replace", "backslashreplace", "namereplace", "xmlcharrefreplace",
        "surrogateescape", "surrogatepass",
    }
)  # fmt: skip
"""The error handlers CPython provides (`codecs.register_error` adds others, run as user
code)."""

_STDLIB_ENCODINGS = frozenset(
    {*encodings.aliases.aliases, *encodings.aliases.aliases.values()}
    | {"utf_8", "ascii", "latin_1", "utf_16", "utf_32", "utf_8_sig", "unicode_escape"}
)
"""Normalized names of the codecs the standard library provides (`encodings.aliases`): found
by its search function, registered first, whatever is registered later."""


def _stdlib_codec(args: list[Any], kwargs: dict[str, Any]) -> bool:
    """Do `str.encode(*args, **kwargs)` / `bytes.decode(...)` use a standard codec and error
    handler? (Anything else is looked up in the registries when the call runs: a codec or
    handler registered after the trace would be missed, and a user's runs as user code.)"""
    encoding = kwargs.get("encoding", args[0] if args else "utf-8")
    errors = kwargs.get("errors", args[1] if len(args) > 1 else "strict")
    if type(encoding) is not str or type(errors) is not str:
        return True  # (CPython's TypeError, as plain Python raises it)
    name = encodings.normalize_encoding(encoding).lower()
    return name in _STDLIB_ENCODINGS and errors in _STDLIB_ERROR_HANDLERS


_ENUM_STATE = {"name": "_name_", "value": "_value_", "_name_": "_name_", "_value_": "_value_"}
"""Attribute read from an enum member -> the instance attribute it reads."""


def _reads_state(cls: type, name: str) -> bool:
    """Does `member.name` (`name` or `value`) run Enum's own property on `cls`'s members? A
    class may define its own; 3.11 puts a redirect (an `enum.property` with Enum's getter) in
    the class dict for a member named `value` or `name`."""
    found = lookup_class_attr(cls, name)[0]
    return isinstance(found, enum.property) and found.fget is vars(enum.Enum)[name].fget


class EnumVariable(VariableTracker):
    """A member of an `enum.Enum`, compared by identity like Python does."""

    __slots__ = ("value",)

    def __init__(self, value: enum.Enum, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value

    def python_type(self) -> type:
        return type(self.value)

    def as_python_constant(self) -> Any:
        return self.value

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """`name` and `value` (Enum's properties, unless the class has its own) read the
        member's `_name_` and `_value_`: plain instance attributes, so read at the member's
        source (guarded by value, as Dynamo reads them)."""
        state = _ENUM_STATE.get(name)
        if state is None or (name != state and not _reads_state(type(self.value), name)):
            return super().var_getattr(tx, name)
        source = AttrSource(self.source, state) if self.source is not None else None
        return tx.output.builder.lazy(getattr(self.value, state), source)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.value)

    def __repr__(self) -> str:
        return f"EnumVariable({type(self.value).__name__}.{self.value.name}){self._src()}"


# At the bottom, as a module: variables.iterators imports this module's names at its top, and
# this module reads it only while tracing (`str.join` folding iterates its argument with
# `iterators.iterate`); so either of the two can load first. The same for value_objects
# (`str.format` of a date checks its spec there).
from variables import iterators, value_objects  # noqa: E402
