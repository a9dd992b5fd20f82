"""Operators: BINARY_OP (every NB_ kind), unary ops, comparisons, identity, membership and
subscripts. Each maps to an `operator` function and goes through BuiltinVariable's semantics.
"""

from __future__ import annotations

import dis
import operator
from collections.abc import Callable
from typing import Any

from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.builtin import binary_op, getitem, in_op, unary_op
from variables.constant import ConstantVariable
from variables.operators import identical, lacks_special_method, raise_on_stand_ins

_NB_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "NB_ADD": operator.add, "NB_AND": operator.and_, "NB_FLOOR_DIVIDE": operator.floordiv,
    "NB_LSHIFT": operator.lshift, "NB_MATRIX_MULTIPLY": operator.matmul,
    "NB_MULTIPLY": operator.mul, "NB_REMAINDER": operator.mod, "NB_OR": operator.or_,
    "NB_POWER": operator.pow, "NB_RSHIFT": operator.rshift, "NB_SUBTRACT": operator.sub,
    "NB_TRUE_DIVIDE": operator.truediv, "NB_XOR": operator.xor,
    "NB_INPLACE_ADD": operator.iadd, "NB_INPLACE_AND": operator.iand,
    "NB_INPLACE_FLOOR_DIVIDE": operator.ifloordiv, "NB_INPLACE_LSHIFT": operator.ilshift,
    "NB_INPLACE_MATRIX_MULTIPLY": operator.imatmul, "NB_INPLACE_MULTIPLY": operator.imul,
    "NB_INPLACE_REMAINDER": operator.imod, "NB_INPLACE_OR": operator.ior,
    "NB_INPLACE_POWER": operator.ipow, "NB_INPLACE_RSHIFT": operator.irshift,
    "NB_INPLACE_SUBTRACT": operator.isub, "NB_INPLACE_TRUE_DIVIDE": operator.itruediv,
    "NB_INPLACE_XOR": operator.ixor,
}  # fmt: skip
BINARY_OP_TABLE: list[Callable[..., Any]] = [
    _NB_FUNCTIONS[name]
    for name, _symbol in dis._nb_ops  # type: ignore[attr-defined]
]
"""BINARY_OP's argument indexes this table (the order of dis._nb_ops)."""
COMPARE_TABLE: dict[str, Callable[..., Any]] = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq,
    "!=": operator.ne, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip


def _unary(fn: Callable[..., Any]) -> Callable[[Any, Instruction], None]:
    def handler(self: TranslatorBase, inst: Instruction) -> None:
        self.push(unary_op(self, fn, self.pop()))

    handler.__name__ = fn.__name__
    return handler


class Operators(TranslatorBase):
    def BINARY_OP(self, inst: Instruction) -> None:
        assert inst.arg is not None
        right = self.pop()
        left = self.pop()
        self.push(binary_op(self, BINARY_OP_TABLE[inst.arg], left, right))

    UNARY_NEGATIVE = _unary(operator.neg)
    UNARY_POSITIVE = _unary(operator.pos)
    UNARY_INVERT = _unary(operator.invert)
    UNARY_NOT = _unary(operator.not_)

    def COMPARE_OP(self, inst: Instruction) -> None:
        right = self.pop()
        left = self.pop()
        self.push(binary_op(self, COMPARE_TABLE[inst.argval], left, right))

    def IS_OP(self, inst: Instruction) -> None:
        right = self.pop().realize()
        left = self.pop().realize()
        result = identical(left, right, self)
        self.push(ConstantVariable(result != bool(inst.arg)))

    def CONTAINS_OP(self, inst: Instruction) -> None:
        container = self.pop()
        item = self.pop()
        self.push(ConstantVariable(in_op(self, item, container) != bool(inst.arg)))

    def BINARY_SUBSCR(self, inst: Instruction) -> None:
        index = self.pop()
        obj = self.pop()
        self.push(getitem(self, obj, index))

    def STORE_SUBSCR(self, inst: Instruction) -> None:
        """STORE_SUBSCR: TOS1[TOS] = TOS2."""
        key = self.pop()
        container = self.pop().realize()
        value = self.pop()
        if lacks_special_method(self, container, "__setitem__"):
            raise_on_stand_ins(self, operator.setitem, container, key, value)
        container.call_method(self, "__setitem__", [key, value], {})

    def DELETE_SUBSCR(self, inst: Instruction) -> None:
        key = self.pop()
        container = self.pop().realize()
        if lacks_special_method(self, container, "__delitem__"):
            raise_on_stand_ins(self, operator.delitem, container, key)
        container.call_method(self, "__delitem__", [key], {})
