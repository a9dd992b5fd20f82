"""Small trackers that are no family of their own: NULL, cells, modules, partials, exceptions."""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from guards.sources import AttrSource, Source
from tracer.debug import on_traced_breakpoint
from tracer.exc import unimplemented
from variables import builder
from variables.base import KnownObjectVariable, NotConstantError, VariableTracker
from variables.constant import ConstantVariable, is_constant_value
from variables.lifetimes import check_drop, check_dropped_value

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
        if self.real_cell is not None:
            # a cell from outside, empty now: it may be filled before the next call, and no
            # guard says it is empty (the frame runs as plain Python, which raises)
            unimplemented("empty-cell", f"free variable {name!r} is not bound yet")
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
        old = self.contents
        if not self.is_new:
            tx.output.side_effects.store_cell(tx, self, value)
        self.contents = value
        if old is not None:
            if old is not value:
                check_drop(tx, old, "a store to a cell")
            return
        if self.real_cell is None or self.source is None:
            return  # a new cell, empty until now
        try:  # contents the trace never loaded
            contents = self.real_cell.cell_contents
        except ValueError:  # an empty cell drops nothing
            return
        check_dropped_value(contents, self.source.name, "a store to a cell")

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
        """The attribute, wrapped at its source (the builder keeps one tracker per source).
        A name the module lacks raises CPython's AttributeError, and stays missing only while
        the module's dict lacks it and a `__getattr__` (PEP 562): both guarded, so
        `hasattr(plugin, "fast_path")` is answered again once the module gets it. A name a
        module's own `__getattr__` would compute is not asked of it while tracing (it runs the
        user's code): the frame falls back."""
        module = self.module
        own = vars(module) if type(module) is types.ModuleType else None
        if (
            own is not None
            and name not in own
            and "__getattr__" in own
            and not hasattr(types.ModuleType, name)
        ):
            unimplemented("module-getattr", f"{name} of a module with its own __getattr__")
        try:
            value = getattr(module, name)
        except AttributeError as e:
            if own is None or self.source is None:
                unimplemented("module-attribute", f"{name} missing from a module not guarded")
            module_dict = AttrSource(self.source, "__dict__")
            tx.output.guard_name_absent(module_dict, name)
            tx.output.guard_name_absent(module_dict, "__getattr__")
            tx.raise_user_error(e)
        builder = tx.output.builder
        if self.source is None:
            return builder.lazy(value, None).realize()
        return builder.wrap(value, AttrSource(self.source, name))

    def __repr__(self) -> str:
        # the name from the module's dict (an uninitialized module, `ModuleType.__new__`, has
        # none, and a module subclass's `__getattr__` is not run for a description)
        own = getattr(self.module, "__dict__", None)
        name = own.get("__name__", "<unnamed>") if type(own) is dict else "<uninitialized>"
        return f"ModuleVariable({name}{self._src()})"


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
    """`object.__init__` reached through `super().__init__()` on a user object `obj`: does
    nothing. Given arguments, CPython refuses them unless the object's class overrides
    `__new__` and not `__init__`; its message (which differs between versions) is got by
    calling `object.__init__` the same way on a stand-in whose class overrides the same two."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        super().__init__(None)
        self.obj = obj

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if args or kwargs:
            overrides: dict[str, Any] = {}
            if self.obj.special_method(tx, "__init__")[0] is not object.__init__:
                overrides["__init__"] = lambda self, *args, **kwargs: None
            if self.obj.special_method(tx, "__new__")[0] is not object.__new__:
                overrides["__new__"] = lambda cls, *args, **kwargs: object.__new__(cls)
            stand_in: Any = object.__new__(type(self.obj.cls.__name__, (), overrides))
            tx.run_user_operation(object.__init__, stand_in, *args, **dict.fromkeys(kwargs))
        return ConstantVariable(None)

    def __repr__(self) -> str:
        return f"ObjectInitVariable({self.obj!r})"


class OuterExceptionVariable(VariableTracker):
    """The exception that callers of the traced frame are handling, if any: unknown while
    tracing (it is `sys.exc_info()` when the compiled code runs). It is what PUSH_EXC_INFO
    saves in a frame that handles nothing yet, and the `__context__` of an exception raised
    where the traced frames handle nothing."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OuterExceptionVariable()"


OUTER_EXCEPTION = OuterExceptionVariable()


class UnknownTracebackVariable(VariableTracker):
    """The traceback that `__exit__` receives with an exception: tracebacks are not modeled,
    so any use of it (other than `is None`) breaks the graph."""

    __slots__ = ()

    def python_type(self) -> type:
        return types.TracebackType

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        unimplemented("traceback", "tracebacks are not modeled while tracing")

    def __repr__(self) -> str:
        return "UnknownTracebackVariable()"


class ExceptionVariable(VariableTracker):
    """`ExceptionVariable(ValueError('bad'))`: an exception created in the trace with constant
    arguments; raising it makes a fresh instance, as eager code does each call.

    Raising it in the trace (see `tracer/translator/exception_ops.py`) sets what CPython sets:
    `context` (the exception being handled then, a traced one or OUTER_EXCEPTION), and for
    `raise ... from ...` `cause` and `suppress_context`."""

    __slots__ = ("args", "cause", "cls", "context", "raised", "suppress_context")

    def __init__(self, cls: type[BaseException], args: Sequence[Any]) -> None:
        super().__init__(None)
        self.cls = cls
        self.args = tuple(args)
        self.cause: ExceptionVariable | None = None
        self.context: VariableTracker | None = None
        """None, an ExceptionVariable, or OUTER_EXCEPTION."""
        self.suppress_context = False
        self.raised = False
        """Raised in the trace: it has a traceback the compiled code could not rebuild."""

    @classmethod
    def of(cls, error: BaseException) -> ExceptionVariable | None:
        """The tracker of a real exception raised by a modeled operation, when a fresh instance
        made from its arguments is the same (type, args, message)."""
        if not all(is_constant_value(arg) for arg in error.args):
            return None
        vt = cls(type(error), error.args)
        try:
            rebuilt = vt.create()
        except Exception:  # noqa: BLE001 - can't be rebuilt from its arguments
            return None
        if rebuilt.args != error.args or str(rebuilt) != str(error):
            return None
        if vars(error) or error.__cause__ is not None or error.__context__ is not None:
            return None  # attributes set beyond args (AttributeError.name is a slot: None)
        return vt

    def python_type(self) -> type:
        return self.cls

    def create(self) -> BaseException:
        return self.cls(*self.args)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "args":
            return builder.wrap_constant_result(self.args)
        if name == "__cause__":
            return self.cause if self.cause is not None else ConstantVariable(None)
        if name == "__context__":
            if self.context is OUTER_EXCEPTION:
                unimplemented(
                    "exception-context",
                    "the __context__ of this exception is whatever the caller was handling",
                )
            return self.context if self.context is not None else ConstantVariable(None)
        if name == "__suppress_context__":
            return ConstantVariable(self.suppress_context)
        if name == "__traceback__":
            unimplemented("traceback", "tracebacks are not modeled while tracing")
        if name == "__class__":
            return builder.wrap_class(self.cls)
        if name in ("__str__", "__repr__"):
            return ConstantVariable(getattr(self.create(), name)())
        unimplemented("exception-attribute", f"{self.cls.__name__}.{name} is not modeled")

    def truthy(self, tx: TranslatorBase) -> bool:
        return True  # BaseException defines neither __bool__ nor __len__

    def method___str__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(str(self.create()))

    def method___repr__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(repr(self.create()))

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.raised or self.cause is not None or self.context is not None:
            unimplemented(
                "exception-value",
                "an exception raised in the traced frame leaves it as a value "
                "(its traceback and chained exceptions are not rebuilt)",
            )

        def build() -> None:
            cg.load_function(self.cls)
            for arg in self.args:
                cg.load_const(arg)
            cg.call(len(self.args))

        # one object wherever the tracker is (`return u, u`; an operand and a local at a break)
        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"ExceptionVariable({self.cls.__name__}{self.args!r})"


class ChainedRaiseVariable(VariableTracker):
    """What the compiled code raises for an exception chained to others of the trace (raised
    while handling them, or `raise ... from` one): `raise_chained` raises the chain again,
    innermost first, so that CPython sets each `__context__` as the traced code had it (the
    innermost one to whatever the caller is handling when the compiled code runs)."""

    __slots__ = ("causes", "chain_length", "exceptions", "suppress")

    def __init__(
        self,
        exceptions: Sequence[ExceptionVariable],
        causes: Sequence[int | None],
        suppress: Sequence[bool],
        chain_length: int,
    ) -> None:
        super().__init__(None)
        self.exceptions = [ExceptionVariable(e.cls, e.args) for e in exceptions]  # fresh ones
        self.causes = tuple(causes)
        self.suppress = tuple(suppress)
        self.chain_length = chain_length

    @classmethod
    def of(cls, raised: ExceptionVariable) -> ChainedRaiseVariable | None:
        """The chain of `raised` (its `__context__` links, then causes outside them), when
        every exception in it can be rebuilt from its arguments."""
        chain = [raised]
        while isinstance(chain[-1].context, ExceptionVariable):
            chain.append(chain[-1].context)
        if chain[-1].context is not OUTER_EXCEPTION:
            return None
        exceptions = list(chain)
        for exc in chain:
            cause = exc.cause
            fresh = cause is not None and not cause.raised and cause.context is None
            if cause is not None and cause not in exceptions:
                if not fresh or cause.cause is not None:
                    return None
                exceptions.append(cause)
        causes = [None if e.cause is None else exceptions.index(e.cause) for e in exceptions]
        suppress = [e.suppress_context for e in exceptions]
        return cls(exceptions, causes, suppress, len(chain))

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_function(raise_chained)
        for exc in self.exceptions:
            cg(exc)
        cg.build_tuple(len(self.exceptions))
        cg.load_const(self.causes)
        cg.load_const(self.suppress)
        cg.load_const(self.chain_length)
        cg.call(4)

    def __repr__(self) -> str:
        return f"ChainedRaiseVariable({self.exceptions!r}, causes={self.causes!r})"


def raise_chained(
    exceptions: tuple[BaseException, ...],
    causes: tuple[int | None, ...],
    suppress: tuple[bool, ...],
    chain_length: int,
) -> NoReturn:
    """Raise `exceptions[0]` while handling `exceptions[1]`, itself raised while handling
    `exceptions[2]`, ... up to `chain_length`; `causes[i]` is the index of the `__cause__` of
    `exceptions[i]` (or None), `suppress[i]` its `__suppress_context__`. Called by compiled code
    (see ChainedRaiseVariable)."""
    for exc, cause, quiet in zip(exceptions, causes, suppress, strict=True):
        if cause is not None:
            exc.__cause__ = exceptions[cause]
        exc.__suppress_context__ = quiet
    _raise_nested(exceptions[:chain_length])


def _raise_nested(chain: tuple[BaseException, ...]) -> NoReturn:
    if len(chain) > 1:
        try:
            _raise_nested(chain[1:])
        except BaseException:  # noqa: BLE001 - it is chain[1], raised just above
            raise chain[0]  # noqa: B904 - CPython sets its __context__ to chain[1] here
    raise chain[0]


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


def make_exception(
    tx: TranslatorBase,
    cls: type[BaseException],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    if kwargs:
        unimplemented("exception", f"{cls.__name__}() with keyword arguments")
    try:
        values = [a.realize().as_python_constant() for a in args]
    except NotConstantError:
        unimplemented("exception", f"{cls.__name__}() with non-constant arguments")
    from variables.operator_functions import holds_copy  # (it builds on the trackers here)

    if any(map(holds_copy, values)):
        # the exception would hold a copy of the frame's list: a change made later is not in
        # it, and `e.args[0] is lst` is False
        unimplemented("exception", f"{cls.__name__}() of a list, dict or set")

    # CPython checks the arguments of some exceptions (SyntaxError's details tuple,
    # UnicodeError's five): make one now, so a call CPython rejects raises its error here.
    made = tx.run_user_operation(cls, *values)
    if type(made) is not cls or made.args != tuple(values):
        # OSError(2, 'msg') is a FileNotFoundError; OSError(2, 'msg', 'f').args is (2, 'msg')
        unimplemented("exception", f"{cls.__name__}() makes {type(made).__name__}{made.args!r}")
    return ExceptionVariable(cls, values)
