"""Raising. A `raise` reached while tracing means this frame raises for these inputs: the frame
falls back to Python, which raises the same exception with the same state (see
notes/graph-breaks.md). Exception handlers themselves are not traced.
"""

from __future__ import annotations

from tracer.exc import unimplemented
from tracer.instructions import Instruction
from tracer.translator.base import TranslatorBase
from variables.builtin import BuiltinVariable
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
        name = describe_exception(exc)
        unimplemented("user-exception", f"traced code raises {name}")


def describe_exception(exc: object) -> str:
    if isinstance(exc, BuiltinVariable) and isinstance(exc.fn, type):
        return exc.fn.__name__
    if isinstance(exc, UserDefinedClassVariable):
        return exc.value.__name__
    if isinstance(exc, UserDefinedObjectVariable):
        return exc.cls.__name__
    return repr(exc)
