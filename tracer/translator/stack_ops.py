"""Stack shuffling and no-ops. See https://docs.python.org/3.11/library/dis.html."""

from __future__ import annotations

from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.misc import NULL


class StackOps(TranslatorBase):
    def NOP(self, inst: Instruction) -> None:
        pass

    RESUME = NOP
    CACHE = NOP
    EXTENDED_ARG = NOP  # dis already folds the extended argument into the next instruction

    def POP_TOP(self, inst: Instruction) -> None:
        self.stack.pop()

    def PUSH_NULL(self, inst: Instruction) -> None:
        self.stack.append(NULL)

    def COPY(self, inst: Instruction) -> None:
        """COPY(i): push the i-th item from the top (1 is TOS) again."""
        assert inst.arg is not None
        self.push(self.peek(inst.arg))

    def SWAP(self, inst: Instruction) -> None:
        """SWAP(i): exchange TOS with the i-th item from the top."""
        assert inst.arg is not None
        i = inst.arg
        self.stack[-1], self.stack[-i] = self.stack[-i], self.stack[-1]
