"""The symbolic bytecode translator, composed from one mixin per opcode family."""

from tracer.translator.base import TranslatorBase
from tracer.translator.builders import Builders
from tracer.translator.calls import Calls
from tracer.translator.class_bodies import ClassBodies
from tracer.translator.control_flow import ControlFlow
from tracer.translator.exception_ops import ExceptionOps
from tracer.translator.exec_source import ExecSource
from tracer.translator.generators import GeneratorOps, InliningGeneratorTranslator
from tracer.translator.imports import Imports
from tracer.translator.match_ops import MatchOps
from tracer.translator.names import Names
from tracer.translator.newer_opcodes import NewerOpcodes
from tracer.translator.operators import Operators
from tracer.translator.stack_ops import StackOps


class InstructionTranslator(
    NewerOpcodes,
    StackOps,
    ExecSource,
    Imports,
    ClassBodies,
    Names,
    Operators,
    Builders,
    ControlFlow,
    Calls,
    ExceptionOps,
    GeneratorOps,
    MatchOps,
    TranslatorBase,
):
    """Traces the compiled function's own frame."""


class InliningInstructionTranslator(InstructionTranslator):
    """Traces a called function inside its caller's trace (shares the OutputGraph)."""


class InliningGeneratorInstructionTranslator(
    InliningGeneratorTranslator, InliningInstructionTranslator
):
    """Traces the frame of a generator made inside the trace, one `next` at a time."""


__all__ = [
    "InliningGeneratorInstructionTranslator",
    "InliningInstructionTranslator",
    "InstructionTranslator",
    "TranslatorBase",
]
