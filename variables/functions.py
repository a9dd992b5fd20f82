"""User functions, methods and functions defined inside the traced frame. Calling any of them
inlines its bytecode into the current trace (see tracer/translator/inlining.py).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource, ItemSource, Source
from tracer.exc import unimplemented
from variables import binding
from variables.base import VariableTracker
from variables.dicts import ConstDictVariable
from variables.lists import TupleVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase
    from variables.misc import CellVariable

FrameInputs = tuple[
    types.CodeType, dict[str, Any], dict[str, VariableTracker], Sequence["CellVariable"]
]
"""An inlined frame's code, globals, bound locals and closure cells."""

UNSUPPORTED_CODE_FLAGS = {
    inspect.CO_COROUTINE: "coroutine function",
    inspect.CO_ASYNC_GENERATOR: "async generator function",
    inspect.CO_ITERABLE_COROUTINE: "iterable coroutine",
}


def check_code_supported(code: types.CodeType, fn: BaseUserFunctionVariable) -> None:
    for flag, what in UNSUPPORTED_CODE_FLAGS.items():
        if code.co_flags & flag:
            unimplemented(
                "unsupported-function", f"call to {what} {fn.get_name()} is not supported"
            )


_FUNCTION_NAME_ATTRS = frozenset({"__name__", "__qualname__", "__module__", "__doc__"})


class BaseUserFunctionVariable(VariableTracker):
    """What inlining needs from any Python-level function: code, globals, defaults, cells."""

    __slots__ = ()

    def get_code(self) -> types.CodeType:
        raise NotImplementedError

    def get_globals(self) -> dict[str, Any]:
        raise NotImplementedError

    def get_name(self) -> str:
        return self.get_code().co_name

    def bind_args(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> dict[str, VariableTracker]:
        raise NotImplementedError

    def closure_cells(self, tx: TranslatorBase) -> list[CellVariable]:
        raise NotImplementedError

    def frame_inputs(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> FrameInputs:
        """What inlining a call needs, in one call: code, globals, bound locals, cells. A
        function inlining does not support is refused before its arguments are bound."""
        code = self.get_code()
        check_code_supported(code, self)
        return (
            code,
            self.get_globals(),
            self.bind_args(tx, args, kwargs),
            self.closure_cells(tx),
        )

    def python_type(self) -> type:
        return types.FunctionType

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return tx.inline_user_function(self, args, kwargs)


def bind_with_signature(
    tx: TranslatorBase,
    code: types.CodeType,
    qualname: str,
    defaults: Sequence[VariableTracker],
    kwdefaults: dict[str, VariableTracker],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> dict[str, VariableTracker]:
    """Bind trackers to parameters as CPython does, by CPython (variables/binding.py): a
    binding error is the user's TypeError, with CPython's message. Returns the callee's locals
    by name, `*args` as a tuple tracker and `**kwargs` as a dict tracker."""
    try:
        bound = binding.bind(code, qualname, defaults, kwdefaults, args, kwargs)
    except TypeError as e:
        tx.raise_user_error(e)
    flags = code.co_flags
    star_at = code.co_argcount + code.co_kwonlyargcount
    if flags & inspect.CO_VARARGS:
        star = code.co_varnames[star_at]
        bound[star] = TupleVariable(list(bound[star]))
        star_at += 1
    if flags & inspect.CO_VARKEYWORDS:
        starstar = code.co_varnames[star_at]
        bound[starstar] = ConstDictVariable(dict(bound[starstar]))
    return bound


class UserFunctionVariable(BaseUserFunctionVariable):
    """`UserFunctionVariable(helper @ G['helper'])`: a Python function that exists already."""

    __slots__ = ("fn",)

    def __init__(self, fn: types.FunctionType, source: Source | None = None) -> None:
        super().__init__(source)
        self.fn = fn

    def as_python_constant(self) -> Any:
        return self.fn

    def get_code(self) -> types.CodeType:
        return self.fn.__code__

    def get_globals(self) -> dict[str, Any]:
        return self.fn.__globals__

    def get_name(self) -> str:
        return self.fn.__qualname__

    def bind_args(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> dict[str, VariableTracker]:
        fn = self.fn
        fn_defaults = fn.__defaults__
        fn_kwdefaults = fn.__kwdefaults__
        builder = tx.output.builder
        defaults: list[VariableTracker] = []
        if fn_defaults:
            defaults_src = AttrSource(self.source, "__defaults__") if self.source else None
            defaults = [
                builder.lazy(value, ItemSource(defaults_src, i) if defaults_src else None)
                for i, value in enumerate(fn_defaults)
            ]
        kwdefaults: dict[str, VariableTracker] = {}
        if fn_kwdefaults:
            kwdefaults_src = AttrSource(self.source, "__kwdefaults__") if self.source else None
            kwdefaults = {
                key: builder.lazy(
                    value, ItemSource(kwdefaults_src, key) if kwdefaults_src else None
                )
                for key, value in fn_kwdefaults.items()
            }
        return bind_with_signature(
            tx, self.fn.__code__, self.fn.__qualname__, defaults, kwdefaults, args, kwargs
        )

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """Its name attributes and what its `__dict__` holds (`__wrapped__` after
        `functools.wraps`), read at their source: all are writable, so guarded by value."""
        if name not in _FUNCTION_NAME_ATTRS and name not in self.fn.__dict__:
            return super().var_getattr(tx, name)
        source = AttrSource(self.source, name) if self.source is not None else None
        return tx.output.builder.lazy(getattr(self.fn, name), source)

    def closure_cells(self, tx: TranslatorBase) -> list[CellVariable]:
        closure = self.fn.__closure__
        if closure is None:
            return []
        cells: list[CellVariable] = []
        for i, cell in enumerate(closure):
            source = None
            if self.source:
                closure_src = AttrSource(self.source, "__closure__")
                source = AttrSource(ItemSource(closure_src, i), "cell_contents")
            cells.append(tx.output.side_effects.existing_cell(cell, source))
        return cells

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is None:  # found on a class with no source of its own: the function
            cg.load_const(self.fn)
            return
        super().reconstruct(cg)

    def __repr__(self) -> str:
        return f"UserFunctionVariable({self.fn.__qualname__}{self._src()})"


class UserMethodVariable(BaseUserFunctionVariable):
    """`UserMethodVariable(Counter.bump, self=UserDefinedObjectVariable(Counter @ L['c']))`."""

    __slots__ = ("func", "obj")

    def __init__(
        self, func: BaseUserFunctionVariable, obj: VariableTracker, source: Source | None = None
    ) -> None:
        super().__init__(source)
        self.func = func
        self.obj = obj

    def python_type(self) -> type:
        return types.MethodType

    def get_code(self) -> types.CodeType:
        return self.func.get_code()

    def get_globals(self) -> dict[str, Any]:
        return self.func.get_globals()

    def get_name(self) -> str:
        return self.func.get_name()

    def bind_args(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> dict[str, VariableTracker]:
        return self.func.bind_args(tx, [self.obj, *args], kwargs)

    def closure_cells(self, tx: TranslatorBase) -> list[CellVariable]:
        return self.func.closure_cells(tx)

    def reconstruct(self, cg: PyCodegen) -> None:
        def build() -> None:
            cg.load_function(types.MethodType)
            cg(self.func)
            cg(self.obj)
            cg.call(2)

        # one bound method object wherever the tracker is held (`o = c.m; ref(o)`), as eagerly
        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"UserMethodVariable({self.func.get_name()}, self={self.obj!r})"


class NestedUserFunctionVariable(BaseUserFunctionVariable):
    """A function created by MAKE_FUNCTION inside the trace (closures, lambdas, comprehensions)."""

    __slots__ = ("closure", "code", "defaults", "f_globals", "kwdefaults", "qualname")

    def __init__(
        self,
        code: types.CodeType,
        f_globals: dict[str, Any],
        qualname: str,
        defaults: Sequence[VariableTracker] = (),
        kwdefaults: dict[str, VariableTracker] | None = None,
        closure: Sequence[CellVariable] = (),
    ) -> None:
        super().__init__()
        self.code = code
        self.f_globals = f_globals
        self.qualname = qualname
        self.defaults = list(defaults)
        self.kwdefaults = dict(kwdefaults) if kwdefaults else {}
        self.closure = list(closure)

    def get_code(self) -> types.CodeType:
        return self.code

    def get_globals(self) -> dict[str, Any]:
        return self.f_globals

    def get_name(self) -> str:
        return self.qualname

    def bind_args(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> dict[str, VariableTracker]:
        return bind_with_signature(
            tx, self.code, self.qualname, self.defaults, self.kwdefaults, args, kwargs
        )

    def closure_cells(self, tx: TranslatorBase) -> list[CellVariable]:
        return self.closure

    def reconstruct(self, cg: PyCodegen) -> None:
        unimplemented(
            "reconstruct",
            f"returning the function {self.qualname} defined inside the traced frame",
        )

    def __repr__(self) -> str:
        return f"NestedUserFunctionVariable({self.qualname})"
