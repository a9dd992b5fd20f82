"""The symbolic bytecode translator, composed from one mixin per opcode family."""

from tracer.translator.base import TranslatorBase
from tracer.translator.builders import Builders
from tracer.translator.calls import Calls
from tracer.translator.control_flow import ControlFlow
from tracer.translator.exception_ops import ExceptionOps
from tracer.translator.names import Names
from tracer.translator.operators import Operators
from tracer.translator.stack_ops import StackOps


class InstructionTranslator(
    StackOps, Names, Operators, Builders, ControlFlow, Calls, ExceptionOps, TranslatorBase
):
    """Traces the compiled function's own frame."""


class InliningInstructionTranslator(InstructionTranslator):
    """Traces a called function inside its caller's trace (shares the OutputGraph)."""


__all__ = ["InliningInstructionTranslator", "InstructionTranslator", "TranslatorBase"]
