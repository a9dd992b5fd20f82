"""Jumps, loops and return. Branches are decided while tracing (on constants and tensor
metadata); a branch on tensor data breaks the graph. Loops unroll.
"""

from __future__ import annotations

from collections.abc import Callable

from tracer.bytecode_versions import FOR_ITER_LEAVES_ITERATOR
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.base import VariableTracker
from variables.iterators import IteratorVariable, iterate
from variables.misc import NULL


def _is_none(vt: VariableTracker) -> bool:
    vt = vt.realize()
    if vt.is_python_constant():
        return vt.as_python_constant() is None
    return vt.python_type() is type(None)


def _pop_jump_if(test: Callable[[TranslatorBase, VariableTracker], bool]) -> Callable[..., None]:
    def handler(self: TranslatorBase, inst: Instruction) -> None:
        if test(self, self.pop()):
            self.jump_to(inst.target)

    return handler


def _jump_or_pop(when: bool) -> Callable[..., None]:
    def handler(self: TranslatorBase, inst: Instruction) -> None:
        if self.peek().realize().truthy(self) == when:
            self.jump_to(inst.target)
        else:
            self.pop()

    return handler


class ControlFlow(TranslatorBase):
    def JUMP_FORWARD(self, inst: Instruction) -> None:
        self.jump_to(inst.target)

    JUMP_BACKWARD = JUMP_FORWARD
    JUMP_BACKWARD_NO_INTERRUPT = JUMP_FORWARD

    POP_JUMP_FORWARD_IF_TRUE = _pop_jump_if(lambda tx, vt: vt.realize().truthy(tx))
    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_FORWARD_IF_TRUE
    POP_JUMP_FORWARD_IF_FALSE = _pop_jump_if(lambda tx, vt: not vt.realize().truthy(tx))
    POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_FORWARD_IF_FALSE
    POP_JUMP_FORWARD_IF_NONE = _pop_jump_if(lambda tx, vt: _is_none(vt))
    POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_FORWARD_IF_NONE
    POP_JUMP_FORWARD_IF_NOT_NONE = _pop_jump_if(lambda tx, vt: not _is_none(vt))
    POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_FORWARD_IF_NOT_NONE

    # 3.12 and later: one opcode of each, whichever the direction
    POP_JUMP_IF_TRUE = POP_JUMP_FORWARD_IF_TRUE
    POP_JUMP_IF_FALSE = POP_JUMP_FORWARD_IF_FALSE
    POP_JUMP_IF_NONE = POP_JUMP_FORWARD_IF_NONE
    POP_JUMP_IF_NOT_NONE = POP_JUMP_FORWARD_IF_NOT_NONE

    JUMP_IF_TRUE_OR_POP = _jump_or_pop(True)
    JUMP_IF_FALSE_OR_POP = _jump_or_pop(False)

    def GET_ITER(self, inst: Instruction) -> None:
        self.push(iterate(self, self.pop()))

    def FOR_ITER(self, inst: Instruction) -> None:
        """FOR_ITER(delta): TOS is an iterator; push its next item, or (3.11) pop it and jump,
        or (3.12 and later) jump to END_FOR, which pops it (see FOR_ITER_LEAVES_ITERATOR)."""
        it = self.peek()
        assert isinstance(it, IteratorVariable)
        item = it.next_item(self)
        if item is not None:
            self.push(item)
        else:
            if FOR_ITER_LEAVES_ITERATOR:  # 3.12+: END_FOR pops this and the iterator
                self.push(NULL)
            else:
                self.pop()
            self.jump_to(inst.target)

    def RETURN_VALUE(self, inst: Instruction) -> None:
        """Ends the step loop: the value is the frame's result."""
        self.return_value = self.pop()
        self.returned = True
