"""Building and unpacking containers and strings: BUILD_*, LIST_/SET_/MAP_ appends and
updates, UNPACK_SEQUENCE/UNPACK_EX, FORMAT_VALUE and BUILD_STRING.
"""

from __future__ import annotations

from typing import Any, TypeVar

from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.calls import function_str, not_iterable
from tracer.translator.instructions import Instruction
from tracer.translator.names import callable_under
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import guard_folded_classes, guard_index_operands
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable, each_pair, is_mapping, key_of, pairs_of
from variables.iterators import unpack_sequence
from variables.length_hint import sized_iterate
from variables.lists import ListVariable, TupleVariable
from variables.misc import ExceptionVariable
from variables.sets import SetVariable, real_operand
from variables.value_objects import check_format

T = TypeVar("T", ListVariable, SetVariable, ConstDictVariable)

_CONVERSIONS = {0: None, 1: str, 2: repr, 3: ascii}


class Builders(TranslatorBase):
    def BUILD_TUPLE(self, inst: Instruction) -> None:
        assert inst.arg is not None
        self.push(TupleVariable(self.popn(inst.arg)))

    def BUILD_LIST(self, inst: Instruction) -> None:
        assert inst.arg is not None
        self.push(ListVariable(self.popn(inst.arg)))

    def BUILD_SET(self, inst: Instruction) -> None:
        assert inst.arg is not None
        self.push(SetVariable.of_keys([key_of(vt, self) for vt in self.popn(inst.arg)]))

    def BUILD_MAP(self, inst: Instruction) -> None:
        assert inst.arg is not None
        flat = self.popn(2 * inst.arg)
        made = ConstDictVariable({})
        for k, v in zip(flat[::2], flat[1::2], strict=False):
            made.items[made.store_key(self, k)] = v
        self.push(made)

    def BUILD_CONST_KEY_MAP(self, inst: Instruction) -> None:
        assert inst.arg is not None
        keys = self.pop().as_python_constant()
        values = self.popn(inst.arg)
        self.push(ConstDictVariable(dict(zip(keys, values, strict=False))))

    def BUILD_SLICE(self, inst: Instruction) -> None:
        assert inst.arg is not None
        bounds = self.popn(inst.arg)
        # the slice constant keeps no sources: a class bound is guarded now for the
        # `__index__` that indexing with the slice converts it by
        parts = [vt.realize().as_python_constant() for vt in bounds]
        guard_index_operands(self, bounds, parts, "a slice bound")
        self.push(ConstantVariable(slice(*parts)))

    def BUILD_STRING(self, inst: Instruction) -> None:
        assert inst.arg is not None
        pieces = [vt.as_python_constant() for vt in self.popn(inst.arg)]
        self.push(ConstantVariable("".join(pieces)))

    def FORMAT_VALUE(self, inst: Instruction) -> None:
        """FORMAT_VALUE(flags): flags & 3 picks the conversion, flags & 4 pops a format spec."""
        assert inst.arg is not None
        spec = self.pop().as_python_constant() if inst.arg & 0x04 else ""
        self.push(self.format_value(self.pop(), inst.arg & 0x03, spec))

    def format_value(self, vt: VariableTracker, conversion: int, spec: str) -> VariableTracker:
        """`format(conv(value), spec)`, conversion 0 (none), 1 (!s), 2 (!r) or 3 (!a)."""
        value = vt.realize()
        try:
            # an exception formats as a fresh one made from its arguments does
            real = (
                value.create()
                if isinstance(value, ExceptionVariable)
                else value.as_python_constant()
            )
        except NotConstantError:
            unimplemented("format", f"formatting {value!r} needs its runtime value")
        guard_folded_classes(self, format, [value], [real])  # a class: its metaclass's methods
        convert = _CONVERSIONS[conversion]
        if convert is not None:
            real = self.run_user_operation(convert, real)
        check_format(real, spec)
        return ConstantVariable(self.run_user_operation(format, real, spec))

    # -- comprehension and display helpers ----------------------------------------------------
    def _display(self, depth: int, kind: type[T], what: str) -> T:
        """The list, set or dict being built `depth` down the stack. Made in the frame it is
        new; a resume function gets one that a graph break inside the display left on the stack
        (`{**d, 'z': t.item()}`) as an input, an existing object whose changes are recorded and
        replayed like any other's."""
        target = self.peek(depth).realize()
        assert isinstance(target, kind)
        if not target.is_new and not isinstance(target, SetVariable):  # (a set logs each change)
            self.output.side_effects.mutate_existing(self, target, what)
        return target

    def LIST_APPEND(self, inst: Instruction) -> None:
        assert inst.arg is not None
        item = self.pop()
        target = self._display(inst.arg, ListVariable, "append")
        target.items.append(item)

    def LIST_EXTEND(self, inst: Instruction) -> None:
        """`[*x]`, `(*x,)`, `f(a, *x)`: CPython names the star when `x` is no iterable."""
        assert inst.arg is not None
        iterable = self.pop().realize()
        target = self._display(inst.arg, ListVariable, "extend")
        if (kind := not_iterable(iterable)) is not None:
            self.raise_user_error(TypeError(f"Value after * must be an iterable, not {kind}"))
        target.items.extend(sized_iterate(self, iterable).unpack(self))

    def LIST_TO_TUPLE(self, inst: Instruction) -> None:
        lst = self.pop().realize()
        assert isinstance(lst, ListVariable)
        self.push(TupleVariable(lst.items))

    def SET_ADD(self, inst: Instruction) -> None:
        assert inst.arg is not None
        item = self.pop()
        target = self._display(inst.arg, SetVariable, "add")
        target.mutate(self, set.add, (key_of(item, self),))

    def SET_UPDATE(self, inst: Instruction) -> None:
        assert inst.arg is not None
        iterable = self.pop().realize()
        target = self._display(inst.arg, SetVariable, "update")
        # set.update, as CPython's SET_UPDATE: a set or dict is merged, not added item by item
        target.mutate(self, set.update, (real_operand(self, iterable, target, any_iterable=True),))

    def MAP_ADD(self, inst: Instruction) -> None:
        assert inst.arg is not None
        value = self.pop()
        key = self.pop()
        target = self._display(inst.arg, ConstDictVariable, "item assignment")
        target.method___setitem__(self, key, value)  # (logged for replay when not new)

    def DICT_UPDATE(self, inst: Instruction) -> None:
        """`{**a}`: `a` must be a mapping (a dict, or an object with `keys`); an iterable of
        pairs is CPython's TypeError here, where `dict(pairs)` takes it."""
        assert inst.arg is not None
        other = self.pop()
        target = self._display(inst.arg, ConstDictVariable, "update")
        if not is_mapping(self, other):
            kind = other.realize().python_type().__name__
            self.raise_user_error(TypeError(f"'{kind}' object is not a mapping"))
        target.items.update(pairs_of(self, other))

    def DICT_MERGE(self, inst: Instruction) -> None:
        """Like DICT_UPDATE, for `f(**a, **b)`, with CPython's TypeErrors, which name the
        callee (below the arguments tuple): a repeated key, or `b` not a mapping."""
        assert inst.arg is not None
        update = self.pop().realize()
        target = self._display(inst.arg, ConstDictVariable, "update")
        callee = callable_under(self, inst.arg + 1)  # under the arguments tuple
        if not is_mapping(self, update):
            kind = update.python_type()
            self.raise_user_error(
                TypeError(
                    f"{self.callee_str(callee)} argument after ** must be a mapping, "
                    f"not {kind.__name__}"
                )
            )

        def check(key: Any) -> None:
            if key in target.items:
                self.raise_user_error(
                    TypeError(
                        f"{self.callee_str(callee)} got multiple values for keyword argument "
                        f"'{key}'"
                    )
                )

        for key, value in each_pair(self, update, check):
            target.items[key] = value

    def callee_str(self, callee: VariableTracker) -> str:
        name = function_str(callee)
        if name is None:
            unimplemented("call", f"the name CPython's error gives {callee!r}")
        return name

    # -- unpacking ----------------------------------------------------------------------------
    def UNPACK_SEQUENCE(self, inst: Instruction) -> None:
        assert inst.arg is not None
        items = unpack_sequence(self, self.pop(), inst.arg, None)
        self.stack.extend(reversed(items))

    def UNPACK_EX(self, inst: Instruction) -> None:
        """UNPACK_EX(counts): low byte = names before the star, high byte = names after it."""
        assert inst.arg is not None
        parts = unpack_sequence(self, self.pop(), inst.arg & 0xFF, inst.arg >> 8)
        self.stack.extend(reversed(parts))
