"""Loading and storing names: fast locals, globals and builtins, closure cells, constants,
attributes. Values read from outside the frame are wrapped lazily at their Source.
"""

from __future__ import annotations

import builtins
import sys
import types
from typing import Any

from guards.guard import GuardKind
from guards.sources import (
    AttrSource,
    BuiltinsDictSource,
    BuiltinSource,
    GlobalsDictSource,
    GlobalSource,
    ItemSource,
    ModuleSource,
    Source,
)
from tracer.bytecode_versions import NULL_AFTER_CALLABLE
from tracer.exc import unimplemented
from tracer.side_effects import DELETED_GLOBAL
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.base import VariableTracker
from variables.builder import wrap_constant_result
from variables.constant import ConstantVariable
from variables.functions import UserMethodVariable
from variables.lifetimes import check_drop
from variables.lists import TupleVariable
from variables.misc import NULL, CellVariable
from variables.tensor import TensorVariable
from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable

_GLOBALS_DICT = GlobalsDictSource()
"""The `G` source of every "not a global" guard (a builtin the globals do not shadow)."""

_BUILTINS_DICT = BuiltinsDictSource()
"""The `B` source of every "not a builtin" guard (a name neither defines: a NameError)."""


def builtins_of(f_globals: dict[str, Any]) -> dict[str, Any]:
    """The builtins dict code run with `f_globals` sees: its `__builtins__` (a module or a
    dict), else the interpreter's."""
    found = f_globals.get("__builtins__", builtins)
    found_dict: dict[str, Any] = found if issubclass(type(found), dict) else vars(found)
    return found_dict


class Names(TranslatorBase):
    # -- fast locals --------------------------------------------------------------------------
    def LOAD_FAST(self, inst: Instruction) -> None:
        value = self.symbolic_locals.get(inst.argval)
        if value is None:  # never assigned, or deleted
            self.raise_user_error(
                UnboundLocalError(
                    f"cannot access local variable '{inst.argval}' where it is not associated "
                    "with a value"
                )
            )
        self.push(value)

    def STORE_FAST(self, inst: Instruction) -> None:
        store_local(self, inst.argval, self.pop())

    def DELETE_FAST(self, inst: Instruction) -> None:
        old = self.symbolic_locals.get(inst.argval)
        if old is None:
            self.raise_user_error(
                UnboundLocalError(
                    f"cannot access local variable '{inst.argval}' "
                    "where it is not associated with a value"
                )
            )
        del self.symbolic_locals[inst.argval]
        check_drop(self, old, "`del {}`", inst.argval)

    def LOAD_CONST(self, inst: Instruction) -> None:
        value = inst.argval
        if isinstance(value, types.CodeType):  # MAKE_FUNCTION's code object
            self.push(ConstantVariable(value))
        else:
            self.push(wrap_constant_result(value))

    # -- globals and builtins -----------------------------------------------------------------
    def LOAD_GLOBAL(self, inst: Instruction) -> None:
        """LOAD_GLOBAL(namei): (namei & 1) means push NULL with the global, for a call."""
        assert inst.arg is not None
        if inst.arg & 1:
            push_callable(self, self.load_global(inst.argval))
        else:
            self.push(self.load_global(inst.argval))

    def load_global(self, name: str) -> VariableTracker:
        """The global (or builtin) `name`: a stored value if the trace assigned it, else the
        real value wrapped lazily at its source (the builder keeps one tracker per source)."""
        stored = self.output.side_effects.load_global(self.f_globals, name)
        deleted = stored is DELETED_GLOBAL
        if stored is not None and not deleted:
            return stored
        if name in self.f_globals and not deleted:
            source = self.global_source(name)
            self.output.guard_name_present(self.globals_dict_source(), name, source)
            return self.output.builder.lazy(self.f_globals[name], source)
        builtins_dict = builtins_of(self.f_globals)
        if not deleted:  # (a name the trace deleted was there, so no guard says it is absent)
            self.guard_global_absent(name)
        if name not in builtins_dict:
            self.raise_name_error(builtins_dict, name)
        self.output.guard_name_present(_BUILTINS_DICT, name, BuiltinSource(name))
        return self.output.builder.lazy(builtins_dict[name], BuiltinSource(name))

    def raise_name_error(self, builtins_dict: dict[str, Any], name: str) -> None:
        """CPython's NameError for a name neither the globals (guarded by the caller) nor the
        builtins define, guarded to stay undefined: `name not in B`, when `builtins_dict` is
        the compiled function's builtins. Others (a function from a module given builtins of
        its own) are not a root of the check: the frame falls back."""
        if builtins_dict is not builtins_of(self.output.root_globals):
            unimplemented("name-error", f"name {name!r} is undefined in builtins of another module")
        self.output.guard_name_absent(_BUILTINS_DICT, name)
        self.raise_user_error(NameError(f"name '{name}' is not defined"))

    def guard_global_absent(self, name: str) -> None:
        """Guard that this frame's globals do not hold `name` (a builtin is not shadowed)."""
        self.output.guard_name_absent(self.globals_dict_source(), name)

    def globals_dict_source(self) -> Source:
        """Where this frame's globals dict is read: `G`, or another module's dict."""
        if self.f_globals is self.output.root_globals:
            return _GLOBALS_DICT
        return self.foreign_globals_source()

    def global_source(self, name: str) -> Source:
        if self.f_globals is self.output.root_globals:
            return GlobalSource(name)
        return ItemSource(self.foreign_globals_source(), name)

    def foreign_globals_source(self) -> Source:
        """Where the globals of a function from another module are read: that module's dict,
        `sys.modules['m'].__dict__` (guarded to be this very dict, so a replaced module is a
        miss), else the function's own `__globals__` when the function has a source."""
        module_name: Any = self.f_globals.get("__name__")
        module = sys.modules.get(module_name) if issubclass(type(module_name), str) else None
        if module is not None and getattr(module, "__dict__", None) is self.f_globals:
            assert isinstance(module_name, str)
            source: Source = AttrSource(ModuleSource(module_name), "__dict__")
            self.output.add_guard(GuardKind.ID_MATCH, source, self.f_globals)
            return source
        owner = self.globals_owner
        owner_source = owner.source if owner is not None else None
        if owner_source is None and isinstance(owner, UserMethodVariable):
            owner_source = owner.func.source  # a bound method: its function's globals
        if owner_source is None:
            unimplemented(
                "foreign-globals",
                f"globals of a function from {module_name!r}, which is not a module in "
                "sys.modules, reached with no source",
            )
        return AttrSource(owner_source, "__globals__")

    def DELETE_GLOBAL(self, inst: Instruction) -> None:
        """`del name` with `global name`: the name must be bound now (its value is read, and so
        guarded, as a load would); the deletion is replayed in order with the global stores."""
        name = inst.argval
        if self.f_globals is not self.output.root_globals:
            unimplemented("foreign-globals", f"deleting global {name!r} of another module")
        side_effects = self.output.side_effects
        stored = side_effects.load_global(self.f_globals, name)
        if stored is DELETED_GLOBAL or (stored is None and name not in self.f_globals):
            if stored is None:
                self.output.guard_name_absent(_GLOBALS_DICT, name)
            self.raise_user_error(NameError(f"name '{name}' is not defined"))
        existed = name in self.f_globals
        if existed:  # bound when the call began: read, so guarded
            self.output.builder.lazy(self.f_globals[name], GlobalSource(name)).realize()
        else:  # bound by this trace: plain Python would clobber a global that appeared since
            self.output.guard_name_absent(_GLOBALS_DICT, name)
        side_effects.delete_global(name, existed)

    def STORE_GLOBAL(self, inst: Instruction) -> None:
        if self.f_globals is not self.output.root_globals:
            unimplemented("foreign-globals", f"storing global {inst.argval!r} of another module")
        self.output.side_effects.store_global(self, self.f_globals, inst.argval, self.pop())

    # -- closures -----------------------------------------------------------------------------
    def MAKE_CELL(self, inst: Instruction) -> None:
        name = inst.argval
        if name in self.code.co_freevars:  # cells are kept by name: the two would be one
            unimplemented(
                "closure",
                f"{name} is a cell of {self.code.co_name} and a free variable of it "
                "(a class body in a method that reads `__class__`)",
            )
        self.cells[name] = CellVariable(self.symbolic_locals.pop(name, None))

    def COPY_FREE_VARS(self, inst: Instruction) -> None:
        self.cells.update(zip(self.code.co_freevars, self.closure, strict=True))

    def LOAD_CLOSURE(self, inst: Instruction) -> None:
        cell = self.cells.get(inst.argval)
        if cell is None:  # (3.13: a LOAD_FAST of a cell variable's slot, decoded as this, while
            # an inlined comprehension keeps a plain value there: LOAD_FAST_AND_CLEAR took the
            # cell out, and puts it back after)
            self.LOAD_FAST(inst)
            return
        self.push(cell)

    def LOAD_DEREF(self, inst: Instruction) -> None:
        name = inst.argval
        self.push(self.cells[name].load(self, name))

    def STORE_DEREF(self, inst: Instruction) -> None:
        self.cells[inst.argval].store(self, self.pop())

    # -- attributes ---------------------------------------------------------------------------
    def LOAD_ATTR(self, inst: Instruction) -> None:
        obj = self.pop().realize()
        self.push(obj.var_getattr(self, inst.argval))

    def LOAD_METHOD(self, inst: Instruction) -> None:
        """Pushes the bound attribute with a NULL: CALL then treats it as a plain callable.
        (3.12 and later: LOAD_ATTR with the method bit, decoded as this pseudo-instruction.)"""
        obj = self.pop().realize()
        push_callable(self, obj.var_getattr(self, inst.argval))

    def DELETE_ATTR(self, inst: Instruction) -> None:
        obj = self.pop().realize()
        if not isinstance(obj, UserDefinedObjectVariable):
            unimplemented("delattr", f"deleting attribute {inst.argval!r} of {obj!r}")
        obj.delete_attr(self, inst.argval)

    def STORE_ATTR(self, inst: Instruction) -> None:
        obj = self.pop().realize()
        value = self.pop()
        if isinstance(obj, TupleVariable):
            self.raise_user_error(AttributeError("can't set attribute"))
        if isinstance(obj, UserDefinedClassVariable | TensorVariable):
            obj.store_attr(self, inst.argval, value)
            return
        if not isinstance(obj, UserDefinedObjectVariable):
            unimplemented("setattr", f"setting attribute {inst.argval!r} on {obj!r}")
        obj.store_attr(self, inst.argval, value)


def store_local(tx: TranslatorBase, name: str, value: VariableTracker) -> None:
    """`name = value` in the frame. A NULL unbinds it: 3.12's inlined comprehensions save a
    local they shadow with LOAD_FAST_AND_CLEAR and put it back (maybe unbound) with STORE_FAST,
    a cell variable's cell itself (a cell is never a value a frame stores otherwise)."""
    if isinstance(value, CellVariable) and name in tx.code.co_cellvars:
        tx.cells[name] = value
        tx.symbolic_locals.pop(name, None)  # (the comprehension's own value of the slot)
        return
    old = tx.symbolic_locals.get(name)
    if value is NULL:
        tx.symbolic_locals.pop(name, None)
    else:
        tx.symbolic_locals[name] = value
    if old is not None and old.source is not None and old is not value:  # (read from outside)
        check_drop(tx, old, "rebinding `{}`", name)


def push_callable(tx: TranslatorBase, fn: VariableTracker) -> None:
    """Push `fn` with a NULL beside it, in the order this version's CALL expects."""
    if NULL_AFTER_CALLABLE:
        tx.stack += (fn, NULL)
    else:
        tx.stack += (NULL, fn)


def callable_under(tx: TranslatorBase, depth: int) -> VariableTracker:
    """The callable of a call whose two slots (the callable and its NULL, in this version's
    order) are just under the top `depth` stack items (`push_callable`)."""
    return tx.peek(depth + (2 if NULL_AFTER_CALLABLE else 1))
