"""The opcodes CPython 3.12 and 3.13 added, one handler each, named after it.

On 3.11 none of them is dispatched to (its `dis.opmap` lacks them). Most say in a new way what
a 3.11 handler already does, and call it: RETURN_CONST is LOAD_CONST then RETURN_VALUE,
BINARY_SLICE builds the slice BINARY_SUBSCR takes, CALL_KW is KW_NAMES then CALL. What else
changed between the versions (the order of a call's NULL, LOAD_ATTR's method bit, FOR_ITER's
exit) is in tracer/bytecode_versions.py; notes/python-versions.md lists all of it.
"""

from __future__ import annotations

import dis

from tracer.exc import unimplemented
from tracer.translator.builders import Builders
from tracer.translator.calls import Calls
from tracer.translator.control_flow import ControlFlow
from tracer.translator.instructions import Instruction
from tracer.translator.names import Names, push_callable, store_local
from tracer.translator.operators import Operators
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable
from variables.functions import NestedUserFunctionVariable
from variables.lists import TupleVariable
from variables.misc import NULL, CellVariable, ExceptionVariable

_INTRINSIC_1 = {
    "INTRINSIC_PRINT": "interactive-mode expressions",
    "INTRINSIC_IMPORT_STAR": "import statements",
    "INTRINSIC_ASYNC_GEN_WRAP": "async generators",
    "INTRINSIC_TYPEVAR": "type parameters (PEP 695)",
    "INTRINSIC_PARAMSPEC": "type parameters (PEP 695)",
    "INTRINSIC_TYPEVARTUPLE": "type parameters (PEP 695)",
    "INTRINSIC_SUBSCRIPT_GENERIC": "type parameters (PEP 695)",
    "INTRINSIC_TYPEALIAS": "type aliases (PEP 695)",
}
"""CALL_INTRINSIC_1's functions modetrace does not model, with the construct they belong to."""


class NewerOpcodes(Names, Operators, Builders, ControlFlow, Calls):
    # -- 3.12 ---------------------------------------------------------------------------------
    def RETURN_CONST(self, inst: Instruction) -> None:
        """RETURN_CONST(consti): `return <constant>`."""
        self.LOAD_CONST(inst)
        self.RETURN_VALUE(inst)

    LOAD_FAST_CHECK = Names.LOAD_FAST
    """LOAD_FAST of a local that may be unbound (3.12's LOAD_FAST never is); ours checks."""

    def LOAD_FAST_AND_CLEAR(self, inst: Instruction) -> None:
        """An inlined comprehension (PEP 709) saves a local its variable shadows: push it (NULL
        when unbound) and unbind it; STORE_FAST puts it back afterwards. For a cell variable
        (a closure in the comprehension captures it) the slot holds the cell itself: that is
        saved, the comprehension makes its own (MAKE_CELL), and the outer one is put back."""
        name = inst.argval
        if name in self.code.co_cellvars and name in self.cells:
            self.push(self.cells.pop(name))
            return
        value = self.symbolic_locals.pop(name, None)
        self.push(NULL if value is None else value)

    def END_FOR(self, inst: Instruction) -> None:
        """The end of a `for` loop: pops what the exhausted FOR_ITER left (3.12: two values;
        3.13: one, and a POP_TOP follows for the iterator), as `dis.stack_effect` says."""
        self.popn(-dis.stack_effect(inst.opcode))

    def END_SEND(self, inst: Instruction) -> None:
        """The end of a `yield from`: drop the exhausted inner iterator under its return value
        (SEND_LEAVES_RECEIVER)."""
        value = self.pop()
        self.pop()
        self.push(value)

    def BINARY_SLICE(self, inst: Instruction) -> None:
        """`container[start:stop]`: [container, start, stop]."""
        self.BUILD_SLICE(_with_arg(inst, 2))
        self.BINARY_SUBSCR(inst)

    def STORE_SLICE(self, inst: Instruction) -> None:
        """`container[start:stop] = value`: [value, container, start, stop]."""
        self.BUILD_SLICE(_with_arg(inst, 2))
        self.STORE_SUBSCR(inst)

    def CALL_INTRINSIC_1(self, inst: Instruction) -> None:
        """CALL_INTRINSIC_1(i): one of CPython's helper functions on TOS, which took over a few
        3.11 opcodes (UNARY_POSITIVE, LIST_TO_TUPLE) and rarer constructs."""
        name = dis._intrinsic_1_descs[inst.arg]  # type: ignore[attr-defined]
        if name == "INTRINSIC_UNARY_POSITIVE":
            self.UNARY_POSITIVE(inst)
        elif name == "INTRINSIC_LIST_TO_TUPLE":
            self.LIST_TO_TUPLE(inst)
        elif name == "INTRINSIC_STOPITERATION_ERROR":
            # a generator's body ends in a handler that turns an escaping StopIteration into
            # RuntimeError (PEP 479) and lets any other exception through
            exc = self.peek().realize()
            if isinstance(exc, ExceptionVariable) and issubclass(exc.cls, StopIteration):
                unimplemented("generator", "a StopIteration escaping a generator (PEP 479)")
        else:
            construct = _INTRINSIC_1.get(name, name)
            unimplemented("unsupported-opcode", f"{construct} ({name}) are not supported")

    def CALL_INTRINSIC_2(self, inst: Instruction) -> None:
        """CALL_INTRINSIC_2(i): `except*` (PREP_RERAISE_STAR) and PEP 695 type parameters."""
        name = dis._intrinsic_2_descs[inst.arg]  # type: ignore[attr-defined]
        construct = "except* (exception groups)" if "RERAISE_STAR" in name else "type parameters"
        unimplemented("unsupported-opcode", f"{construct} ({name}) are not supported")

    def LOAD_SUPER_ATTR(self, inst: Instruction) -> None:
        """`super().name` (3.12): [super, class, self] -> the attribute of super(class, self).
        With the method bit the decode step calls it LOAD_SUPER_METHOD."""
        self.push(self._super_of_stack().var_getattr(self, inst.argval))

    def LOAD_SUPER_METHOD(self, inst: Instruction) -> None:
        """`super().name(...)`: the attribute with a NULL beside it, for CALL."""
        push_callable(self, self._super_of_stack().var_getattr(self, inst.argval))

    def _super_of_stack(self) -> VariableTracker:
        """Pops [super, class, self] and calls super(class, self), as 3.11's `super()` did."""
        obj = self.pop()
        cls = self.pop()
        super_fn = self.pop()
        return self.call_function(super_fn, [cls, obj], {})

    # -- 3.13 ---------------------------------------------------------------------------------
    def TO_BOOL(self, inst: Instruction) -> None:
        """`bool(TOS)`, which 3.13 puts before every conditional jump and UNARY_NOT."""
        self.push(ConstantVariable(self.pop().realize().truthy(self)))

    def CALL_KW(self, inst: Instruction) -> None:
        """CALL_KW(argc): CALL whose last len(TOS) arguments are keywords named by TOS."""
        self.kw_names = tuple(self.pop().as_python_constant())
        self.CALL(inst)

    def LOAD_FAST_LOAD_FAST(self, inst: Instruction) -> None:
        """Two LOAD_FASTs of locals the compiler knows are bound: argval is both names."""
        first, second = inst.argval
        self.push(self._fast_slot(first))
        self.push(self._fast_slot(second))

    def STORE_FAST_STORE_FAST(self, inst: Instruction) -> None:
        """Two STORE_FASTs: TOS into the first name, the next into the second."""
        first, second = inst.argval
        store_local(self, first, self.pop())
        store_local(self, second, self.pop())

    def STORE_FAST_LOAD_FAST(self, inst: Instruction) -> None:
        """STORE_FAST of the first name, then LOAD_FAST of the second."""
        stored, loaded = inst.argval
        store_local(self, stored, self.pop())
        self.push(self._fast_slot(loaded))

    def _fast_slot(self, name: str) -> VariableTracker:
        """What 3.13's LOAD_FAST_* of `name` pushes: the local, or, for a cell variable (a
        closure being built), its cell, as LOAD_CLOSURE did (see `vocabulary`)."""
        cell = self.cells.get(name)
        return cell if cell is not None else self.symbolic_locals[name]

    def SET_FUNCTION_ATTRIBUTE(self, inst: Instruction) -> None:
        """SET_FUNCTION_ATTRIBUTE(flag): [value, function] -> the function with one part set,
        by flag as MAKE_FUNCTION's flags were in 3.12: closure (8), annotations (4), keyword
        defaults (2), positional defaults (1)."""
        fn = self.pop()
        value = self.pop()
        assert isinstance(fn, NestedUserFunctionVariable) and inst.arg is not None
        if inst.arg & 0x08:
            assert isinstance(value, TupleVariable)
            fn.closure = [c for c in value.items if isinstance(c, CellVariable)]
        elif inst.arg & 0x04:
            fn = self.annotated_function(fn, value)
        elif inst.arg & 0x02:
            value = value.realize()
            if not isinstance(value, ConstDictVariable):
                unimplemented("function", f"keyword defaults from {value!r}")
            fn.kwdefaults = {str(k): v for k, v in value.items.items()}
        elif inst.arg & 0x01:
            fn.defaults = value.unpack(self)
        self.push(fn)

    def CONVERT_VALUE(self, inst: Instruction) -> None:
        """CONVERT_VALUE(i): `str`, `repr` or `ascii` (1, 2, 3) of TOS, for an f-string."""
        assert inst.arg is not None
        self.push(self.format_value(self.pop(), inst.arg, ""))

    def FORMAT_SIMPLE(self, inst: Instruction) -> None:
        """`format(TOS)`, an f-string's `{x}`."""
        self.push(self.format_value(self.pop(), 0, ""))

    def FORMAT_WITH_SPEC(self, inst: Instruction) -> None:
        """`format(TOS1, TOS)`, an f-string's `{x:spec}`."""
        spec = self.pop().as_python_constant()
        self.push(self.format_value(self.pop(), 0, spec))


def _with_arg(inst: Instruction, arg: int) -> Instruction:
    """`inst` with another argument, to hand a handler that reads one."""
    return Instruction(inst.opcode, inst.opname, arg, arg, inst.offset, inst.lineno)
