"""`operator.itemgetter`, `attrgetter` and `methodcaller` objects made while tracing: calling
one does, traced, what its C `__call__` does (a subscript, a chain of attribute reads, a method
call), so a user `__getitem__` or `__getattr__` runs traced. The constructor's argument errors
are CPython's (the real constructor is called on stand-ins first, by the registry). An object
that escapes the frame is rebuilt by the compiled code from its (rebuildable) arguments.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.builtin import BuiltinVariable, getitem
from variables.constant import ConstantVariable
from variables.lists import TupleVariable
from variables.polyfills.checks import Handler, check_arguments

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def get_attribute(tx: TranslatorBase, obj: VariableTracker, name: str) -> VariableTracker:
    return BuiltinVariable(getattr).call_function(tx, [obj, ConstantVariable(name)], {})


class OperatorObjectVariable(VariableTracker):
    """Base: `kind` is the operator class, `args`/`kwargs` what it was made with."""

    __slots__ = ("args", "kind", "kwargs")

    def __init__(
        self,
        kind: type,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker] | None = None,
    ) -> None:
        super().__init__(None)
        self.kind = kind
        self.args = list(args)
        self.kwargs = dict(kwargs or {})

    def python_type(self) -> type:
        return self.kind

    def reconstruct(self, cg: PyCodegen) -> None:
        def build() -> None:
            cg.load_function(self.kind)
            for arg in self.args:
                cg(arg)
            cg.call(len(self.args))

        if self.kwargs:
            unimplemented("reconstruct", f"{self!r} with keyword arguments escapes the frame")
        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind.__name__}, {len(self.args)} arguments)"


class ItemGetterVariable(OperatorObjectVariable):
    """`itemgetter(*items)(obj)`: `obj[item]`, or a tuple of them for several items."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        obj = _one_argument(tx, operator.itemgetter(0), args, kwargs)
        values = [getitem(tx, obj, item) for item in self.args]
        return values[0] if len(values) == 1 else TupleVariable(values)


class AttrGetterVariable(OperatorObjectVariable):
    """`attrgetter(*names)(obj)`: each dotted name read part by part, or a tuple of them."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        obj = _one_argument(tx, operator.attrgetter("a"), args, kwargs)
        values = []
        for name in self.args:
            value = obj
            for part in name.as_python_constant().split("."):
                value = get_attribute(tx, value, part)
            values.append(value)
        return values[0] if len(values) == 1 else TupleVariable(values)


class MethodCallerVariable(OperatorObjectVariable):
    """`methodcaller(name, *args, **kwargs)(obj)`: `getattr(obj, name)(*args, **kwargs)`."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        obj = _one_argument(tx, operator.methodcaller("a"), args, kwargs)
        name, *rest = self.args
        method = get_attribute(tx, obj, name.as_python_constant())
        return method.realize().call_function(tx, rest, dict(self.kwargs))


def _one_argument(
    tx: TranslatorBase,
    example: Any,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """The one positional argument the objects take; CPython's TypeError otherwise (an
    example object of the same class, called with as many stand-ins, raises it)."""
    if len(args) != 1 or kwargs:
        tx.run_user_operation(example, *[None] * len(args), **dict.fromkeys(kwargs))
    return args[0]


def _maker(kind: type, tracker: type[OperatorObjectVariable]) -> Handler:
    def handler(
        tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        check_arguments(tx, kind, args, kwargs)
        if kind is not operator.itemgetter:
            for name in args[:1] if kind is operator.methodcaller else args:
                if not name.is_python_constant():
                    unimplemented("polyfill-arguments", f"{kind.__name__} of {name!r}")
        return tracker(kind, args, kwargs)

    return handler


CONSTRUCTORS: list[tuple[Any, Handler]] = [
    (operator.itemgetter, _maker(operator.itemgetter, ItemGetterVariable)),
    (operator.attrgetter, _maker(operator.attrgetter, AttrGetterVariable)),
    (operator.methodcaller, _maker(operator.methodcaller, MethodCallerVariable)),
]
"""operator classes -> handlers (the registry's share for operator)."""
