"""Methods read from a builtin immutable type (`str.capitalize`, `str.maketrans`,
`int.from_bytes`, `tuple.count`): C code with no user hooks when every argument is a constant
of the builtin immutable types, so CPython computes the call (`map(str.capitalize, words)`,
`str.maketrans("ab", "cd")`). Any other argument (a list, a user object) breaks the graph: the
method may then call user code (`__index__`, `__eq__`) or read a container the trace owns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import IMMUTABLE_METHOD_TYPES, is_constant_value

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def type_method(cls: Any, name: str) -> VariableTracker | None:
    """The tracker of `cls.name` for a builtin immutable type and a callable attribute (not a
    class, which has its own trackers), else None."""
    if cls not in IMMUTABLE_METHOD_TYPES:
        return None
    attribute = getattr(cls, name, None)
    if attribute is None or not callable(attribute) or isinstance(attribute, type):
        return None
    return TypeMethodVariable(attribute)


class TypeMethodVariable(KnownObjectVariable):
    """`TypeMethodVariable(str.capitalize)`: called on constants, computed by CPython."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        values = [*args, *kwargs.values()]
        real = [v.realize() for v in values]
        if not all(
            v.is_python_constant() and is_constant_value(v.as_python_constant()) for v in real
        ):
            unimplemented(
                "type-method", f"{self.fn.__qualname__}() with an argument that is not a constant"
            )
        consts = [v.as_python_constant() for v in real[: len(args)]]
        named = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
        return builder.wrap_constant_result(tx.run_user_operation(self.fn, *consts, **named))

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"TypeMethodVariable({self.fn.__qualname__})"
