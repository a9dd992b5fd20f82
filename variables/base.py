"""The VariableTracker protocol: what every symbolic value answers while tracing.

A tracker stands for one Python value during symbolic execution. The narrow protocol here
(python_type, constants, getattr, calls, iteration, truthiness, reconstruct) is all the translator
uses; families add helpers in their own modules. Trackers are immutable except for containers
created inside the traced frame, whose contents are modeled in place (see notes/side-effects.md).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.arguments import call_handler

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class VariableTracker:
    """Base of every symbolic value. `source` says where a value read from outside came from."""

    __slots__ = ("source",)

    def __init__(self, source: Source | None = None) -> None:
        self.source = source

    # -- what the value is --------------------------------------------------------------------
    def python_type(self) -> type:
        unimplemented("unknown-type", f"the type of {self!r} is not known while tracing")

    def is_python_constant(self) -> bool:
        try:
            self.as_python_constant()
        except NotConstantError:
            return False
        return True

    def as_python_constant(self) -> Any:
        raise NotConstantError(self)

    def realize(self) -> VariableTracker:
        """The tracker itself; a lazy tracker wraps its value (installing guards) first."""
        return self

    # -- operations ---------------------------------------------------------------------------
    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if getattr(self, f"method_{name}", None) is not None:
            return GetAttrVariable(self, name)
        unimplemented(
            "getattr", f"attribute {name!r} of {self.type_name()} is not supported while tracing"
        )

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        unimplemented("call", f"calling {self.type_name()} is not supported while tracing")

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """Dispatch to `method_<name>`; a tracker without one cannot trace that method."""
        handler: Callable[..., VariableTracker] | None = getattr(self, f"method_{name}", None)
        if handler is None:
            unimplemented(
                "call-method",
                f"method {self.type_name()}.{name} is not supported while tracing",
            )
        return call_handler(
            handler, tx, args, kwargs, lambda: self.refused_call(tx, name, args, kwargs)
        )

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`method_<name>` cannot take these arguments (see variables/arguments.py); trackers
        that can ask CPython for its own error override this."""
        unimplemented(
            "call-method",
            f"method {self.type_name()}.{name} with these arguments is not supported",
        )

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        """The items iteration would produce, for unrolled loops and `*args`."""
        unimplemented("iterate", f"iterating over {self.type_name()} is not supported")

    def truthy(self, tx: TranslatorBase) -> bool:
        """`bool(value)` decided while tracing, or a graph break when it depends on data."""
        if self.is_python_constant():
            return bool(self.as_python_constant())
        unimplemented(
            "data-dependent-branch",
            f"branching on {self.type_name()} depends on runtime data",
        )

    def reconstruct(self, cg: PyCodegen) -> None:
        """Emit bytecode that leaves this value on the stack in the compiled function."""
        if self.source is not None:
            cg.load_source(self.source)
            return
        unimplemented("reconstruct", f"cannot rebuild {self!r} in compiled code")

    # -- presentation -------------------------------------------------------------------------
    def type_name(self) -> str:
        try:
            return self.python_type().__name__
        except Exception:  # noqa: BLE001
            return type(self).__name__

    def _src(self) -> str:
        return f" @ {self.source.name}" if self.source is not None else ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.type_name()}{self._src()})"


class KnownObjectVariable(VariableTracker):
    """A tracker for one known Python object whose identity is its meaning (a builtin, a
    runtime op, a modeled function): `fn` is the object itself."""

    __slots__ = ("fn",)

    def __init__(self, fn: Any, source: Source | None = None) -> None:
        super().__init__(source)
        self.fn = fn

    def python_type(self) -> type:
        return type(self.fn)

    def as_python_constant(self) -> Any:
        return self.fn


class GetAttrVariable(VariableTracker):
    """`obj.name` where calling it means `obj.call_method(name, ...)` (e.g. `xs.append`): what
    `var_getattr` above gives for a method, so it lives next to it."""

    __slots__ = ("name", "obj")

    def __init__(self, obj: VariableTracker, name: str, source: Source | None = None) -> None:
        super().__init__(source)
        self.obj = obj
        self.name = name

    def python_type(self) -> type:
        return types.BuiltinMethodType

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.obj.call_method(tx, self.name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        def build() -> None:
            cg(self.obj)
            cg.load_attr(self.name)

        # a new method object on every read in eager code, but one per read: `m = xs.append`
        # held twice is one object
        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"GetAttrVariable({self.obj!r}.{self.name})"


class NotConstantError(Exception):
    """A tracker was asked for a Python constant it does not have (internal control flow)."""

    def __init__(self, vt: VariableTracker) -> None:
        super().__init__(repr(vt))
        self.vt = vt


def realize_all(vts: Sequence[VariableTracker]) -> list[VariableTracker]:
    return [vt.realize() for vt in vts]
