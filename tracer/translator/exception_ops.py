"""Raising. A `raise` reached while tracing means this frame raises for these inputs: the frame
falls back to Python, which raises the same exception with the same state (see
notes/graph-breaks.md). Exception handlers themselves are not traced.
"""

from __future__ import annotations

from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.builtin import BuiltinVariable
from variables.misc import ExceptionVariable
from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable


class ExceptionOps(TranslatorBase):
    def LOAD_ASSERTION_ERROR(self, inst: Instruction) -> None:
        self.push(BuiltinVariable(AssertionError))

    def RAISE_VARARGS(self, inst: Instruction) -> None:
        """RAISE_VARARGS(argc): 0 re-raises, 1 raises TOS, 2 raises TOS1 from TOS."""
        if inst.arg == 0:
            unimplemented("reraise", "bare `raise` outside an exception handler")
        if inst.arg == 2:
            self.pop()
        exc = self.pop().realize()
        error = exception_instance(exc)
        if error is None:
            unimplemented("user-exception", f"traced code raises {describe_exception(exc)}")
        self.raise_user_error(error)


def exception_instance(exc: object) -> BaseException | None:
    """A fresh instance of what `raise exc` raises, when it is known while tracing."""
    if isinstance(exc, ExceptionVariable):
        return exc.create()
    cls = exc.fn if isinstance(exc, BuiltinVariable) else getattr(exc, "value", None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        try:
            return cls()
        except Exception:  # noqa: BLE001 - the class needs arguments: leave it to Python
            return None
    return None


def describe_exception(exc: object) -> str:
    if isinstance(exc, BuiltinVariable) and isinstance(exc.fn, type):
        return exc.fn.__name__
    if isinstance(exc, UserDefinedClassVariable):
        return exc.value.__name__
    if isinstance(exc, UserDefinedObjectVariable):
        return exc.cls.__name__
    return repr(exc)
