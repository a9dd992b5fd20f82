"""Raising and handling exceptions inside the traced frames.

CPython 3.11 finds handlers through the code object's exception table (zero-cost `try`):
when an instruction raises, `TranslatorBase.handle_exception` unwinds to the covering entry's
handler, as the interpreter does, and tracing goes on there. The handler's own opcodes are
here: PUSH_EXC_INFO and POP_EXCEPT save and restore the exception being handled,
CHECK_EXC_MATCH decides an `except E:` clause (on the real classes), RERAISE and a bare `raise`
raise the same exception again, and WITH_EXCEPT_START calls a `with` block's `__exit__`.
An exception no entry covers leaves the traced frame: the compiled code raises it when it can
be rebuilt exactly (see `_compilable_raise` in tracer/convert_frame.py), else the frame falls
back. Tracebacks are not modeled.
"""

from __future__ import annotations

from typing import Any

from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables import builder
from variables.base import NotConstantError, VariableTracker
from variables.builtin import BuiltinVariable
from variables.constant import ConstantVariable
from variables.misc import ExceptionVariable, UnknownTracebackVariable
from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable


class ExceptionOps(TranslatorBase):
    def LOAD_ASSERTION_ERROR(self, inst: Instruction) -> None:
        self.push(BuiltinVariable(AssertionError))

    def RAISE_VARARGS(self, inst: Instruction) -> None:
        """RAISE_VARARGS(argc): 0 re-raises, 1 raises TOS, 2 raises TOS1 from TOS."""
        if inst.arg == 0:
            handled = self.exc_state.handled
            if not isinstance(handled, ExceptionVariable):
                unimplemented("reraise", "bare `raise` of an exception the caller is handling")
            self.raise_exception(handled, reraise=True)
        cause = self.pop().realize() if inst.arg == 2 else None
        exc = self.exception_to_raise(self.pop().realize())
        if cause is not None:
            if cause.is_python_constant() and cause.as_python_constant() is None:
                exc.cause = None
            else:
                exc.cause = self.exception_to_raise(cause, "exception causes")
            exc.suppress_context = True
        self.raise_exception(exc)

    def exception_to_raise(
        self, exc: VariableTracker, what: str = "exceptions"
    ) -> ExceptionVariable:
        """What `raise exc` raises: the exception itself, or a new instance of a class."""
        if isinstance(exc, ExceptionVariable):
            return exc
        cls: Any = exc.fn if isinstance(exc, BuiltinVariable) else getattr(exc, "value", None)
        if issubclass(type(cls), type) and issubclass(cls, BaseException):
            made = exc.call_function(self, [], {}).realize()
            if isinstance(made, ExceptionVariable):
                return made
        elif exc.is_python_constant():
            self.raise_user_error(TypeError(f"{what} must derive from BaseException"))
        unimplemented("user-exception", f"traced code raises {describe_exception(exc)}")

    def PUSH_EXC_INFO(self, inst: Instruction) -> None:
        """PUSH_EXC_INFO: the exception on top becomes the one being handled; the one handled
        before is saved below it (POP_EXCEPT restores it)."""
        exc = self.pop()
        self.push(self.exc_state.handled)
        self.exc_state.handled = exc
        self.push(exc)

    def POP_EXCEPT(self, inst: Instruction) -> None:
        """POP_EXCEPT: restore the exception handled before this handler."""
        self.exc_state.handled = self.pop()

    def CHECK_EXC_MATCH(self, inst: Instruction) -> None:
        """CHECK_EXC_MATCH: does the exception (TOS1, kept) match the class(es) on TOS?"""
        spec_vt = self.pop().realize()
        exc = self.peek()
        assert isinstance(exc, ExceptionVariable)
        try:
            spec = spec_vt.as_python_constant()
        except NotConstantError:
            unimplemented("except", f"`except` on {spec_vt!r}")
        classes = spec if isinstance(spec, tuple) else (spec,)
        if not all(isinstance(c, type) and issubclass(c, BaseException) for c in classes):
            self.raise_user_error(
                TypeError("catching classes that do not inherit from BaseException is not allowed")
            )
        self.push(ConstantVariable(issubclass(exc.cls, spec)))

    def RERAISE(self, inst: Instruction) -> None:
        """RERAISE(oparg): raise TOS again, unchanged (the lasti below it only sets where the
        traceback points)."""
        exc = self.pop()
        assert isinstance(exc, ExceptionVariable)
        self.raise_exception(exc, reraise=True)

    def WITH_EXCEPT_START(self, inst: Instruction) -> None:
        """WITH_EXCEPT_START: stack is [exit, lasti, previous exception, exception]; push
        `exit(type(exc), exc, traceback)`."""
        exc = self.peek()
        exit_fn = self.peek(4)
        assert isinstance(exc, ExceptionVariable)
        exc_type = builder.wrap_class(exc.cls)
        self.push(exit_fn.realize().call_function(self, [exc_type, exc, TRACEBACK], {}))


TRACEBACK = UnknownTracebackVariable()
"""The traceback `__exit__` receives (tracebacks are not modeled)."""


def describe_exception(exc: object) -> str:
    if isinstance(exc, BuiltinVariable) and isinstance(exc.fn, type):
        return exc.fn.__name__
    if isinstance(exc, UserDefinedClassVariable):
        return exc.value.__name__
    if isinstance(exc, UserDefinedObjectVariable):
        return exc.cls.__name__
    return repr(exc)
