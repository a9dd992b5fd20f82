"""User functions, methods and functions defined inside the traced frame. Calling any of them
inlines its bytecode into the current trace (see tracer/translator/inlining.py).
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource, ItemSource, Source
from tracer.exc import unimplemented
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
    inspect.CO_GENERATOR: "generator function",
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
    name: str,
    defaults: Sequence[VariableTracker],
    kwdefaults: dict[str, VariableTracker],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> dict[str, VariableTracker]:
    """Bind trackers to parameters exactly as Python would, with inspect's binder (`_signature`).
    A binding error is the user's TypeError. Returns the callee's locals by name, `*args` as a
    tuple tracker and `**kwargs` as a dict tracker."""
    signature = _signature(code, len(defaults), tuple(kwdefaults))
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        tx.raise_user_error(TypeError(f"{name}() {e}"))
    bound.apply_defaults()
    result: dict[str, VariableTracker] = {}
    for param_name, value in bound.arguments.items():
        if isinstance(value, _Default):
            value = defaults[value.key] if isinstance(value.key, int) else kwdefaults[value.key]
        kind = signature.parameters[param_name].kind
        # inspect renames a comprehension's implicit `.0` parameter to `implicit0`
        local_name = param_name
        if param_name not in code.co_varnames and param_name.startswith("implicit"):
            local_name = "." + param_name.removeprefix("implicit")
        if kind is inspect.Parameter.VAR_POSITIONAL:
            result[local_name] = TupleVariable(list(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            result[local_name] = ConstDictVariable(dict(value))
        else:
            result[local_name] = value
    return result


class _Default:
    """A default value in a signature from `_signature`: which of the function's defaults it
    stands for (an index into `__defaults__`, or a key of `__kwdefaults__`)."""

    __slots__ = ("key",)

    def __init__(self, key: int | str) -> None:
        self.key = key


@functools.lru_cache(maxsize=1024)
def _signature(
    code: types.CodeType, default_count: int, kwdefault_names: tuple[str, ...]
) -> inspect.Signature:
    """The signature of a function with this code, `default_count` positional defaults and
    these keyword-only defaults, each default a `_Default`: a function of its (immutable)
    arguments alone, so one signature serves every call of every function with that code,
    whatever its default values are."""
    stand_in = types.FunctionType(
        code,
        {},
        code.co_name,
        tuple(_Default(i) for i in range(default_count)) or None,
        tuple(types.CellType() for _ in code.co_freevars) or None,
    )
    stand_in.__kwdefaults__ = {key: _Default(key) for key in kwdefault_names} or None
    return inspect.signature(stand_in)


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
            tx, self.fn.__code__, self.fn.__name__, defaults, kwdefaults, args, kwargs
        )

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
        cg.push_null()
        cg.load_const(types.MethodType)
        cg(self.func)
        cg(self.obj)
        cg.call(2)

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
            tx, self.code, self.code.co_name, self.defaults, self.kwdefaults, args, kwargs
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
