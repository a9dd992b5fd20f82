"""Small trackers that are no family of their own: NULL, cells, modules, partials, exceptions."""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource, Source
from tracer.debug import on_traced_breakpoint
from tracer.exc import unimplemented
from variables import builder
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class NullVariable(VariableTracker):
    """The NULL that PUSH_NULL and LOAD_GLOBAL/LOAD_METHOD put below a callable in 3.11."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NullVariable()"

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.push_null()


NULL = NullVariable()
"""The NULL every LOAD_GLOBAL, LOAD_METHOD and PUSH_NULL pushes: a NullVariable has no state,
so one instance serves them all."""


class CellVariable(VariableTracker):
    """A closure cell: a new one made by MAKE_CELL in a traced frame, or an existing real cell
    whose contents are read lazily; `source` names the cell's *contents*."""

    __slots__ = ("contents", "is_new", "real_cell")

    def __init__(
        self,
        contents: VariableTracker | None = None,
        real_cell: types.CellType | None = None,
        source: Source | None = None,
    ) -> None:
        super().__init__(source)
        self.contents = contents
        self.real_cell = real_cell
        self.is_new = real_cell is None

    @classmethod
    def existing(cls, cell: types.CellType, source: Source | None) -> CellVariable:
        return cls(None, cell, source)

    def load(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if self.contents is not None:
            return self.contents
        if self.real_cell is not None:
            try:
                value = self.real_cell.cell_contents
            except ValueError:
                pass
            else:
                self.contents = tx.output.builder.lazy(value, self.source)
                return self.contents
        # CPython's error for an empty cell: the frame's own cell variable is a local
        # (UnboundLocalError), a free variable is a NameError.
        if name in tx.code.co_cellvars:
            tx.raise_user_error(
                UnboundLocalError(
                    f"cannot access local variable '{name}' where it is not associated with a value"
                )
            )
        tx.raise_user_error(
            NameError(
                f"cannot access free variable '{name}' where it is not associated "
                "with a value in enclosing scope"
            )
        )

    def store(self, tx: TranslatorBase, value: VariableTracker) -> None:
        if not self.is_new:
            tx.output.side_effects.store_cell(tx, self, value)
        self.contents = value

    def __repr__(self) -> str:
        state = "new" if self.is_new else "existing"
        return f"CellVariable({state}: {self.contents!r}){self._src()}"


class ModuleVariable(VariableTracker):
    """`ModuleVariable(math @ G['math'])`: attribute reads wrap the module's values lazily."""

    __slots__ = ("module",)

    def __init__(self, module: types.ModuleType, source: Source | None = None) -> None:
        super().__init__(source)
        self.module = module

    def python_type(self) -> type:
        return types.ModuleType

    def as_python_constant(self) -> Any:
        return self.module

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """The attribute, wrapped at its source (the builder keeps one tracker per source)."""
        try:
            value = getattr(self.module, name)
        except AttributeError as e:
            tx.raise_user_error(e)
        builder = tx.output.builder
        if self.source is None:
            return builder.lazy(value, None).realize()
        return builder.wrap(value, AttrSource(self.source, name))

    def __repr__(self) -> str:
        return f"ModuleVariable({self.module.__name__}{self._src()})"


class PartialVariable(VariableTracker):
    """A callable tracker with leading arguments bound (a modeled function used as a method)."""

    __slots__ = ("args", "func")

    def __init__(self, func: VariableTracker, args: Sequence[VariableTracker]) -> None:
        super().__init__(None)
        self.func = func
        self.args = list(args)

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.func.call_function(tx, [*self.args, *args], kwargs)

    def __repr__(self) -> str:
        return f"PartialVariable({self.func!r}, {self.args!r})"


class ObjectInitVariable(VariableTracker):
    """`object.__init__` reached through `super().__init__()`: does nothing, takes nothing."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if args or kwargs:
            tx.raise_user_error(TypeError("object.__init__() takes exactly one argument"))
        return ConstantVariable(None)

    def __repr__(self) -> str:
        return "ObjectInitVariable()"


class ExceptionVariable(VariableTracker):
    """`ExceptionVariable(ValueError('bad'))`: an exception created in the trace with constant
    arguments; raising it makes a fresh instance, as eager code does each call."""

    __slots__ = ("args", "cls")

    def __init__(self, cls: type[BaseException], args: Sequence[Any]) -> None:
        super().__init__(None)
        self.cls = cls
        self.args = tuple(args)

    def python_type(self) -> type:
        return self.cls

    def create(self) -> BaseException:
        return self.cls(*self.args)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "args":
            return builder.wrap_constant_result(self.args)
        return super().var_getattr(tx, name)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.push_null()
        cg.load_const(self.cls)
        for arg in self.args:
            cg.load_const(arg)
        cg.call(len(self.args))

    def __repr__(self) -> str:
        return f"ExceptionVariable({self.cls.__name__}{self.args!r})"


class BreakpointVariable(KnownObjectVariable):
    """`tracer.breakpoint()` met while tracing: stops the translator (pdb or the hook set by
    `tracer.set_breakpoint_hook`) with the instruction, stack, locals and guards at hand."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if args or kwargs:
            unimplemented("breakpoint", "tracer.breakpoint() takes no arguments")
        on_traced_breakpoint(tx)
        return ConstantVariable(None)

    def __repr__(self) -> str:
        return "BreakpointVariable()"


class GraphBreakVariable(KnownObjectVariable):
    """`tracer.graph_break()`: a graph break asked for by the user."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        unimplemented("graph-break", "call to tracer.graph_break()")

    def __repr__(self) -> str:
        return "GraphBreakVariable()"
