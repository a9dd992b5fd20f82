"""Calls and function creation: PRECALL, KW_NAMES, CALL, CALL_FUNCTION_EX, MAKE_FUNCTION, and
BEFORE_WITH (whose `__exit__` is later called by the normal-path CALL that 3.11 emits).
"""

from __future__ import annotations

import types
from typing import Any, NoReturn

from guards.guard import IMMUTABLE_TYPE
from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.base import GetAttrVariable, VariableTracker
from variables.builtin import BuiltinVariable
from variables.dicts import ConstDictVariable
from variables.functions import (
    BaseUserFunctionVariable,
    NestedUserFunctionVariable,
    UserFunctionVariable,
    UserMethodVariable,
)
from variables.length_hint import sized_iterate
from variables.lists import TupleVariable
from variables.misc import CellVariable, NullVariable
from variables.user_defined import UserDefinedObjectVariable


def function_str(fn: VariableTracker) -> str | None:
    """How CPython names a callee in a call's errors ("mod.f()", "dict()", "dict.update()"):
    its `__qualname__` with "()", after its `__module__` unless that is None or "builtins".
    None where the tracker doesn't tell them (the caller falls back)."""
    fn = fn.realize()
    qualname: Any
    module: Any
    if isinstance(fn, UserMethodVariable):
        return function_str(fn.func)  # a bound method passes both on from its function
    if isinstance(fn, NestedUserFunctionVariable):
        qualname, module = fn.qualname, fn.f_globals.get("__name__")
    elif isinstance(fn, (UserFunctionVariable, BuiltinVariable)):
        qualname = getattr(fn.fn, "__qualname__", None)
        module = getattr(fn.fn, "__module__", None)
    elif isinstance(fn, GetAttrVariable):  # a method of a builtin type, bound: no module
        kind = fn.obj.realize().python_type()
        if kind.__module__ != "builtins":
            return None
        qualname, module = getattr(getattr(kind, fn.name, None), "__qualname__", None), None
    else:
        return None
    if not isinstance(qualname, str):
        return None
    if module is None or module == "builtins":
        return f"{qualname}()"
    return f"{module}.{qualname}()"


class Calls(TranslatorBase):
    def PRECALL(self, inst: Instruction) -> None:
        """PRECALL(argc): a 3.11 specialization hint; CALL does the work."""

    def KW_NAMES(self, inst: Instruction) -> None:
        """KW_NAMES(i): the next CALL's last len(co_consts[i]) arguments are keywords."""
        assert inst.arg is not None
        self.kw_names = tuple(self.code.co_consts[inst.arg])

    def CALL(self, inst: Instruction) -> None:
        """CALL(argc): stack is [NULL, callable, *args] (3.13: [callable, NULL, *args]) or
        [callable, self, *args]; the last len(kw_names) arguments are keywords (KW_NAMES)."""
        assert inst.arg is not None
        args = self.popn(inst.arg)
        fn = self.pop()
        first = self.pop()
        if isinstance(fn, NullVariable):  # [callable, NULL, *args] (3.13)
            fn = first
        elif not isinstance(first, NullVariable):  # [callable, self, *args]: a method call
            fn, args = first, [fn, *args]
        kwargs: dict[str, VariableTracker] = {}
        if self.kw_names:
            count = len(self.kw_names)
            kwargs = dict(zip(self.kw_names, args[-count:], strict=True))
            args = args[:-count]
            self.kw_names = ()
        self.push(self.call_function(fn, args, kwargs))

    def CALL_FUNCTION_EX(self, inst: Instruction) -> None:
        """CALL_FUNCTION_EX(flags): [NULL, callable, args tuple, kwargs dict if flags & 1]
        (3.13: [callable, NULL, ...])."""
        kwargs_vt = self.pop().realize() if inst.arg and inst.arg & 1 else None
        args_vt = self.pop().realize()
        fn = self.pop()
        null = self.pop()
        bound: list[VariableTracker] = []
        if isinstance(fn, NullVariable):  # [callable, NULL, ...] (3.13)
            fn = null
        elif not isinstance(null, NullVariable):
            fn, bound = null, [fn]
        if (kind := not_iterable(args_vt)) is not None:  # `f(*1)`: CPython names the callee
            name = function_str(fn)
            if name is None:
                unimplemented("call", f"the name CPython's error gives {fn!r}")
            message = f"{name} argument after * must be an iterable, not {kind}"
            self.raise_user_error(TypeError(message))
        args = [*bound, *sized_iterate(self, args_vt).unpack(self)]
        kwargs: dict[str, VariableTracker] = {}
        if kwargs_vt is not None:
            if not isinstance(kwargs_vt, ConstDictVariable):
                unimplemented("call", f"**kwargs from {kwargs_vt!r}")
            for key in kwargs_vt.items:
                if not issubclass(kwargs_vt.key_vt(key).python_type(), str):
                    self.reject_keyword(fn, args, key)
            kwargs = dict(kwargs_vt.items)
        self.push(self.call_function(fn, args, kwargs))

    def reject_keyword(
        self, fn: VariableTracker, args: list[VariableTracker], key: object
    ) -> NoReturn:
        """`f(**mapping)` with a key that is not a str. CPython raises "keywords must be
        strings" where it turns the dict into keywords: before the call for a Python function
        or method (and for `dict`, both vectorcall), at the start of `{}.update()` without
        positional arguments. Other callees check arguments in their own order (`max` counts
        them first, `d.update(x)` merges `x` first): the frame falls back for them."""
        fn = fn.realize()
        checked_first = (
            isinstance(fn, BaseUserFunctionVariable)
            or (isinstance(fn, BuiltinVariable) and fn.fn is dict)
            or (
                isinstance(fn, GetAttrVariable)
                and fn.name == "update"
                and fn.obj.realize().python_type() is dict
                and not args
            )
        )
        if checked_first:
            self.raise_user_error(TypeError("keywords must be strings"))
        unimplemented(
            "call",
            f"**kwargs with the key {key!r}, not a str, passed to {fn!r}: where CPython "
            "rejects it depends on the callee",
        )

    def call_function(
        self, fn: VariableTracker, args: list[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        return fn.realize().call_function(self, args, kwargs)

    def MAKE_FUNCTION(self, inst: Instruction) -> None:
        """MAKE_FUNCTION(flags): code on top; below it, by flag, closure (8), annotations (4),
        keyword defaults (2) and positional defaults (1)."""
        flags = inst.arg or 0  # 3.13: no flags; SET_FUNCTION_ATTRIBUTE sets each part
        code = self.pop().as_python_constant()
        assert isinstance(code, types.CodeType)
        cells: list[CellVariable] = []
        defaults: list[VariableTracker] = []
        kwdefaults: dict[str, VariableTracker] | None = None
        if flags & 0x08:
            closure = self.pop()
            assert isinstance(closure, TupleVariable)
            cells = [c for c in closure.items if isinstance(c, CellVariable)]
        annotations = self.pop() if flags & 0x04 else None
        if flags & 0x02:
            kwdefaults_vt = self.pop().realize()
            if not isinstance(kwdefaults_vt, ConstDictVariable):
                unimplemented("function", f"keyword defaults from {kwdefaults_vt!r}")
            kwdefaults = {str(k): v for k, v in kwdefaults_vt.items.items()}
        if flags & 0x01:
            defaults = self.pop().unpack(self)
        fn = NestedUserFunctionVariable(
            code, self.f_globals, code.co_qualname, defaults, kwdefaults, cells
        )
        self.push(fn if annotations is None else self.annotated_function(fn, annotations))

    def annotated_function(
        self, fn: NestedUserFunctionVariable, annotations: VariableTracker
    ) -> NestedUserFunctionVariable:
        """`fn` with its annotations, given by MAKE_FUNCTION's flag 4 (3.11, 3.12) or 3.13's
        SET_FUNCTION_ATTRIBUTE(4): a function made again by the compiled code has them."""
        fn.annotations = annotations
        return fn

    def BEFORE_WITH(self, inst: Instruction) -> None:
        """BEFORE_WITH: pops the context manager, pushes its bound __exit__ and __enter__()."""
        ctx = self.pop().realize()
        enter = getattr(ctx, "enter_context", None) or getattr(ctx.realize(), "enter_context", None)
        if enter is not None:
            exit_fn, entered = enter(self)
            self.push(exit_fn)
            self.push(entered)
            return
        if not isinstance(ctx, UserDefinedObjectVariable):
            unimplemented("with", f"`with` on {ctx!r} is not supported")
        # CPython looks both up on the type (never the instance dict), `__enter__` first
        refused = f"'{ctx.cls.__name__}' object does not support the context manager protocol"
        if ctx.special_method(self, "__enter__")[1] is None:
            self.raise_user_error(TypeError(refused))
        if ctx.special_method(self, "__exit__")[1] is None:
            self.raise_user_error(TypeError(f"{refused} (missed __exit__ method)"))
        exit_fn = ctx.bound_special(self, "__exit__")
        if exit_fn is None:
            unimplemented("with", f"{ctx.cls.__name__}.__exit__ is not a function")
        entered = ctx.call_method(self, "__enter__", [], {})
        self.push(exit_fn)

        self.push(entered)


def not_iterable(vt: VariableTracker) -> str | None:
    """The type name of `vt` when CPython refuses it as the operand of a star before trying
    to iterate it (its type has no `__iter__` and is no sequence: `*1`, `*None`), for a
    constant of a type that cannot change; else None."""
    if not vt.is_python_constant():
        return None
    kind = vt.python_type()
    if not kind.__flags__ & IMMUTABLE_TYPE or hasattr(kind, "__iter__"):
        return None
    if hasattr(kind, "__getitem__") and not issubclass(kind, dict):
        return None  # (a sequence, iterated by index)
    return kind.__name__
