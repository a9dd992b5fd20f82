"""User functions, methods and functions defined inside the traced frame. Calling any of them
inlines its bytecode into the current trace (see tracer/translator/inlining.py).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind
from guards.sources import AttrSource, ClosureSource, ItemSource, Source
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
    qualname_source: Source | None = None,
) -> dict[str, VariableTracker]:
    """Bind trackers to parameters as CPython does, by CPython (variables/binding.py): a
    binding error is the user's TypeError, with CPython's message, which names the function by
    its `__qualname__` (writable: guarded at `qualname_source` when the error is raised).
    Returns the callee's locals by name, `*args` as a tuple tracker and `**kwargs` as a dict
    tracker."""
    try:
        bound = binding.bind(code, qualname, defaults, kwdefaults, args, kwargs)
    except TypeError as e:
        if qualname_source is not None:
            tx.output.add_guard(GuardKind.EQUALS_MATCH, qualname_source, qualname)
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
        if self.source is not None:
            self._guard_default_names(tx, self.source, args, kwargs)
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
        qualname_source = AttrSource(self.source, "__qualname__") if self.source else None
        return bind_with_signature(
            tx,
            self.fn.__code__,
            self.fn.__qualname__,
            defaults,
            kwdefaults,
            args,
            kwargs,
            qualname_source,
        )

    def _guard_default_names(
        self,
        tx: TranslatorBase,
        source: Source,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> None:
        """A call that leaves a parameter to its default binds by which parameters have one:
        the length of `__defaults__` (the last ones) and the names in `__kwdefaults__`, both
        writable. Guarded then (a missing argument's TypeError depends on it as much as a
        default's value, read at its own source, does); a call passing every parameter does
        not look."""
        fn = self.fn
        code = fn.__code__
        positional = code.co_varnames[len(args) : code.co_argcount]
        kw_only = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
        if any(name not in kwargs for name in positional):
            where = AttrSource(source, "__defaults__")
            _guard_defaults_shape(tx, where, fn.__defaults__, GuardKind.LENGTH_CHECK, len)
        if any(name not in kwargs for name in kw_only):
            where = AttrSource(source, "__kwdefaults__")
            _guard_defaults_shape(tx, where, fn.__kwdefaults__, GuardKind.DICT_KEYS_MATCH, tuple)

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


def _guard_defaults_shape(
    tx: TranslatorBase,
    where: Source,
    value: Any,
    kind: GuardKind,
    shape: Callable[[Any], Any],
) -> None:
    """`__defaults__` (or `__kwdefaults__`) as the binding read it: None, or its exact type and
    `shape` (its length; its keys), guarded by `kind`."""
    if value is None:
        tx.output.add_guard(GuardKind.EQUALS_MATCH, where, None)
    else:
        tx.output.add_guard(GuardKind.TYPE_MATCH, where, type(value))
        tx.output.add_guard(kind, where, shape(value))


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
    """A function created by MAKE_FUNCTION inside the trace (closures, lambdas, comprehensions).
    Where it outlives the trace (returned, stored, called at a break) it is made again: a new
    function of the same code, globals, defaults and annotations, over the same cells
    (`load_cell`); one object wherever the tracker is held. Not for a resume function, though
    (`PyCodegen.resume_inputs`)."""

    __slots__ = (
        "annotations",
        "closure",
        "code",
        "defaults",
        "f_globals",
        "kwdefaults",
        "qualname",
    )

    def __init__(
        self,
        code: types.CodeType,
        f_globals: dict[str, Any],
        qualname: str,
        defaults: Sequence[VariableTracker] = (),
        kwdefaults: dict[str, VariableTracker] | None = None,
        closure: Sequence[CellVariable] = (),
        annotations: VariableTracker | None = None,
    ) -> None:
        super().__init__()
        self.code = code
        self.f_globals = f_globals
        self.qualname = qualname
        self.defaults = list(defaults)
        self.kwdefaults = dict(kwdefaults) if kwdefaults else {}
        self.closure = list(closure)
        self.annotations = annotations
        """MAKE_FUNCTION's flat tuple of names and values, or None."""

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
        if id(self) in cg.made_by_resume:
            unimplemented(
                "reconstruct",
                f"the function {self.qualname} defined inside the traced frame is live after "
                "the break, in a local and held by another value",
            )
        if cg.resume_inputs:
            # made again on every call, it would be a new object each time for the resume
            # function, whose guards pin a function by identity (FUNCTION_MATCH): every call
            # would compile it again (Dynamo pins a function by its code, CLOSURE_MATCH)
            unimplemented(
                "reconstruct",
                f"the function {self.qualname} defined inside the traced frame is live after "
                "the break",
            )
        fill: list[CellVariable] = []
        owner = f"the function {self.qualname}"
        cg.rebuild_once(self, lambda: self.build(cg, lambda c: load_cell(cg, c, owner, fill)))
        fill_cells(cg, fill)

    def build(self, cg: PyCodegen, load_cell: Callable[[CellVariable], None]) -> None:
        """`make_function(code, globals, qualname, defaults, kwdefaults, closure, annotations)`,
        each cell of the closure pushed by `load_cell`."""
        cg.load_function(make_function)
        cg.load_const(self.code)
        cg.load_const(self.f_globals)
        cg.load_const(self.qualname)
        if self.defaults:
            for value in self.defaults:
                cg(value)
            cg.build_tuple(len(self.defaults))
        else:
            cg.load_const(None)
        if self.kwdefaults:
            for key, value in self.kwdefaults.items():
                cg.load_const(key)
                cg(value)
            cg.build_map(len(self.kwdefaults))
        else:
            cg.load_const(None)
        if self.closure:
            for cell in self.closure:
                load_cell(cell)
            cg.build_tuple(len(self.closure))
        else:
            cg.load_const(None)
        if self.annotations is not None:
            cg(self.annotations)
        else:
            cg.load_const(None)
        cg.call(7)

    def __repr__(self) -> str:
        return f"NestedUserFunctionVariable({self.qualname})"


def make_function(
    code: types.CodeType,
    f_globals: dict[str, Any],
    qualname: str,
    defaults: tuple[Any, ...] | None,
    kwdefaults: dict[str, Any] | None,
    closure: tuple[types.CellType, ...] | None,
    annotations: tuple[Any, ...] | None = None,
) -> types.FunctionType:
    """What MAKE_FUNCTION makes: a function of `code` with these defaults, cells and
    annotations (MAKE_FUNCTION's flat tuple of names and values)."""
    fn = types.FunctionType(code, f_globals, code.co_name, defaults, closure)
    fn.__qualname__ = qualname
    fn.__kwdefaults__ = kwdefaults
    if annotations:
        fn.__annotations__ = dict(zip(annotations[::2], annotations[1::2], strict=True))
    return fn


def load_cell(cg: PyCodegen, cell: CellVariable, owner: str, fill: list[CellVariable]) -> None:
    """Push the real cell that a function made again by the compiled code (`owner` says which)
    closes over:

    - a cell of the compiled function's own closure (LOAD_CLOSURE), or one reached through a
      function's `__closure__`: the same cell, shared with everything else that holds it;
    - a cell the trace made (a frame's own cell, or an inlined function's): one new cell
      wherever the tracker is held, made empty and put on `fill`, which gives it the value
      the trace left in it once the function exists (`fill_cells`; it may hold the function
      itself). At a break, a cell of the frame that its resume function may write is refused
      (`PyCodegen.unshared_cells`): the resume function has a cell of its own by then, and the
      function made here would not see the writes."""
    if not cell.is_new:
        source = cell.source
        if isinstance(source, ClosureSource):
            cg.load_closure(source.freevar_name)
            return
        if isinstance(source, AttrSource) and source.member == "cell_contents":
            cg.load_source(source.base)
            return
        unimplemented("reconstruct", f"{owner} closes over {cell!r}")
    name = cg.unshared_cells.get(id(cell))
    if name is not None:
        unimplemented(
            "reconstruct",
            f"{owner} defined inside the traced frame closes over `{name}`, which the frame "
            "writes after the break",
        )

    def build() -> None:
        cg.load_function(types.CellType)
        cg.call(0)

    made = id(cell) in cg.tempvars
    cg.rebuild_once(cell, build)
    if not made and cell.contents is not None:
        fill.append(cell)


def fill_cells(cg: PyCodegen, fill: list[CellVariable]) -> None:
    """`cell.cell_contents = value` for each cell `load_cell` made."""
    for cell in fill:
        assert cell.contents is not None
        cg(cell.contents)
        cg.load_fast(cg.tempvars[id(cell)])
        cg.store_attr("cell_contents")
