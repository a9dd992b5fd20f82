"""Jumps, loops and return. Branches are decided while tracing (on constants and tensor
metadata); a branch on tensor data breaks the graph. Loops unroll.
"""

from __future__ import annotations

from collections.abc import Callable

from tracer.instructions import Instruction
from tracer.translator.base import TranslatorBase
from variables.base import VariableTracker
from variables.dicts import iterate
from variables.lists import ListIteratorVariable

_PAST_END = 1 << 30
"""An index beyond any code's instructions (a list iterator set past its end is exhausted)."""


def _is_none(vt: VariableTracker) -> bool:
    vt = vt.realize()
    if vt.is_python_constant():
        return vt.as_python_constant() is None
    return vt.python_type() is type(None)


def _pop_jump_if(test: Callable[[TranslatorBase, VariableTracker], bool]) -> Callable[..., None]:
    def handler(self: TranslatorBase, inst: Instruction) -> None:
        if test(self, self.stack.pop()):  # (every loop test and `if`: pop() inline)
            assert inst.target is not None
            self.cursor.__setstate__(inst.target)

    return handler


def _jump_or_pop(when: bool) -> Callable[..., None]:
    def handler(self: TranslatorBase, inst: Instruction) -> None:
        stack = self.stack  # (every `and`/`or`: peek() and pop() inline)
        if stack[-1].realize().truthy(self) == when:
            assert inst.target is not None
            self.cursor.__setstate__(inst.target)
        else:
            stack.pop()

    return handler


class ControlFlow(TranslatorBase):
    def JUMP_FORWARD(self, inst: Instruction) -> None:
        """Jumps move the step loop's cursor (TranslatorBase.jump_to, inlined: loops take one
        at every iteration)."""
        assert inst.target is not None
        self.cursor.__setstate__(inst.target)

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

    JUMP_IF_TRUE_OR_POP = _jump_or_pop(True)
    JUMP_IF_FALSE_OR_POP = _jump_or_pop(False)

    def GET_ITER(self, inst: Instruction) -> None:
        stack = self.stack  # (every loop and comprehension: push() and pop() inline)
        stack.append(iterate(self, stack.pop()))

    def FOR_ITER(self, inst: Instruction) -> None:
        """FOR_ITER(delta): TOS is an iterator; push its next item, or pop it and jump.

        Every iteration of every unrolled loop and comprehension steps this, so it advances
        the iterator itself (ListIteratorVariable.next_item, inline), and takes the iterator's
        type from GET_ITER rather than asserting it at every step: what FOR_ITER reads is
        always what a GET_ITER pushed (in this frame, or in the caller that passed it to a
        comprehension as `.0`), and `iterate` returns a ListIteratorVariable."""
        stack = self.stack
        it: ListIteratorVariable = stack[-1]  # type: ignore[assignment]
        index = it.index
        if index < len(it.items):
            it.index = index + 1
            stack.append(it.items[index])
        else:
            stack.pop()
            assert inst.target is not None
            self.cursor.__setstate__(inst.target)

    def RETURN_VALUE(self, inst: Instruction) -> None:
        """Ends the step loop: the value is the frame's result, and the cursor moves past the
        last instruction."""
        self.return_value = self.stack.pop()
        self.cursor.__setstate__(_PAST_END)
