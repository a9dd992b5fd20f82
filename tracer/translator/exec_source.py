"""`exec(source, globals[, locals])` with a dict the trace tracks, traced.

With an explicit globals dict, `exec` does not read the frame it is called in: it only puts the
calling frame's builtins dict into `globals['__builtins__']` when that key is missing (the
compiled frame has the same builtins), compiles a string with the caller's `__future__` flags,
and runs the module code with `locals` (or `globals`) as the mapping of its name opcodes. Here
the module code is traced like a class body (tracer/translator/class_bodies.py,
`run_with_namespace`) whose namespace is the dict tracker: STORE_NAME is the dict's
`__setitem__`, so every change is an ordinary dict side effect replayed in order. LOAD_GLOBAL,
STORE_GLOBAL and DELETE_GLOBAL in that code, and in the functions it defines (which have the
dict as `__globals__`, variables/exec_functions.py), read and write the globals dict's tracker,
then the builtins.

Accepted: the source is a string (or bytes) the trace knows as a constant, or a code object
without free variables; globals (and locals, when given) are plain dicts the trace tracks;
`__builtins__` is absent or the builtins. A string that does not compile raises CPython's own
SyntaxError, as the user's error, after `__builtins__` was put in (as CPython does).
Anything else falls back with a reason: no dict (exec reads the frame), a source not known
while tracing, a class statement or an import in the code, a defined function that leaves the
frame.
"""

from __future__ import annotations
import __future__

import builtins
import functools
import operator
import types
from collections.abc import Iterator, MutableMapping, Sequence

from guards.guard import GuardKind
from guards.sources import BuiltinSource, GlobalsDictSource
from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.class_bodies import ClassBodies, run_with_namespace
from tracer.translator.imports import Imports
from tracer.translator.instructions import Instruction
from variables.base import NotConstantError, VariableTracker
from variables.builtin import BuiltinVariable
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable
from variables.exec_functions import BuiltinsDictVariable, ExecFunctionVariable
from variables.functions import NestedUserFunctionVariable
from variables.lazy import LazyVariableTracker

_FUTURE_FLAGS = functools.reduce(
    operator.or_, (getattr(__future__, name).compiler_flag for name in __future__.all_feature_names)
)
"""The `from __future__` flags a code object carries, which `exec` passes on to `compile`."""


class DictNamespace(MutableMapping[str, VariableTracker]):
    """A dict tracker seen as the namespace of name opcodes: each read and write goes through
    the tracker's own methods (so an input dict's reads are guarded and its writes replayed)."""

    def __init__(self, tx: TranslatorBase, dict_vt: ConstDictVariable) -> None:
        self.tx = tx
        self.dict_vt = dict_vt

    def __contains__(self, name: object) -> bool:
        found = self.dict_vt.call_method(self.tx, "__contains__", [ConstantVariable(name)], {})
        return bool(found.as_python_constant())

    def __getitem__(self, name: str) -> VariableTracker:
        if name not in self:
            raise KeyError(name)
        return self.dict_vt.call_method(self.tx, "__getitem__", [ConstantVariable(name)], {})

    def __setitem__(self, name: str, value: VariableTracker) -> None:
        self.dict_vt.call_method(self.tx, "__setitem__", [ConstantVariable(name), value], {})

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self.dict_vt.call_method(self.tx, "__delitem__", [ConstantVariable(name)], {})

    def __iter__(self) -> Iterator[str]:
        return iter([key for key in self.dict_vt.items if isinstance(key, str)])

    def __len__(self) -> int:
        return len(self.dict_vt.items)


class ExecSource(Imports, ClassBodies):
    """`exec` called with a dict, and the names of the code it runs."""

    @property
    def exec_globals(self) -> ConstDictVariable | None:
        """The globals dict tracker of this frame's code, when `exec` made it (or a function it
        defined); None for a function with real globals."""
        owner = self.globals_owner
        return owner.globals_vt if isinstance(owner, ExecFunctionVariable) else None

    def call_function(
        self, fn: VariableTracker, args: list[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        fn = fn.realize()
        if type(fn) is BuiltinVariable and fn.fn is builtins.exec:
            return exec_call(self, args, kwargs)
        return super().call_function(fn, args, kwargs)

    def load_global(self, name: str) -> VariableTracker:
        """The exec'd code's globals dict, then the builtins (the compiled frame's own)."""
        exec_globals = self.exec_globals
        if exec_globals is None:
            return super().load_global(name)
        namespace = DictNamespace(self, exec_globals)
        if name in namespace:
            return namespace[name]
        builtins_dict = vars(builtins)
        if name not in builtins_dict:
            self.raise_name_error(builtins_dict, name)

        # The compiled frame reads a builtin (B['len']) as LOAD_GLOBAL does: its own globals
        # first. So the builtin is used where they do not hold the name, and guarded so.
        if name in self.output.root_globals:
            unimplemented(
                "exec",
                f"builtin {name!r} read by code that exec() runs is shadowed by a global of "
                "the compiled function's module",
            )
        self.output.guard_name_absent(GlobalsDictSource(), name)
        return self.output.builder.lazy(builtins_dict[name], BuiltinSource(name))

    def STORE_GLOBAL(self, inst: Instruction) -> None:
        exec_globals = self.exec_globals
        if exec_globals is None:
            super().STORE_GLOBAL(inst)
            return
        _refuse_builtins_store(inst.argval)
        DictNamespace(self, exec_globals)[inst.argval] = self.pop()

    def DELETE_GLOBAL(self, inst: Instruction) -> None:
        exec_globals = self.exec_globals
        if exec_globals is None:
            super().DELETE_GLOBAL(inst)
            return
        if DictNamespace(self, exec_globals).pop(inst.argval, None) is None:
            self.raise_user_error(NameError(f"name '{inst.argval}' is not defined"))

    def STORE_NAME(self, inst: Instruction) -> None:
        if self.exec_namespace is not None:
            _refuse_builtins_store(inst.argval)
        super().STORE_NAME(inst)

    def MAKE_FUNCTION(self, inst: Instruction) -> None:
        """A function defined by exec'd code has the exec globals as its `__globals__`."""
        super().MAKE_FUNCTION(inst)
        exec_globals = self.exec_globals
        if exec_globals is not None:
            fn = self.pop()
            if type(fn) is not NestedUserFunctionVariable:
                unimplemented("exec", f"{fn!r} made by code that exec() runs")
            self.push(ExecFunctionVariable(fn, exec_globals))

    def LOAD_BUILD_CLASS(self, inst: Instruction) -> None:
        if self.exec_globals is not None:
            unimplemented("exec", "a class statement in code that exec() runs")
        super().LOAD_BUILD_CLASS(inst)

    def IMPORT_NAME(self, inst: Instruction) -> None:
        if self.exec_globals is not None:
            unimplemented("exec", f"import of {inst.argval!r} in code that exec() runs")
        super().IMPORT_NAME(inst)


def _refuse_builtins_store(name: str) -> None:
    if name == "__builtins__":
        unimplemented("exec", "code that exec() runs rebinds __builtins__")


def exec_call(
    tx: ExecSource, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`exec(source, globals[, locals])`, in CPython's order: check the dicts, put in
    `__builtins__`, compile a string (its SyntaxError is the user's), run the code."""
    if kwargs:
        unimplemented("exec", f"exec() with keyword arguments {', '.join(kwargs)}")
    if len(args) not in (2, 3):
        unimplemented("exec", "exec() without a globals dict reads the frame it is called in")
    root_builtins = tx.output.root_globals.get("__builtins__", builtins)
    if root_builtins is not builtins and root_builtins is not vars(builtins):
        unimplemented("exec", "exec() in a frame whose globals hold their own __builtins__")
    globals_vt = _namespace_dict(args[1], "globals")
    locals_vt = _namespace_dict(args[2], "locals") if len(args) == 3 else None
    try:
        source = args[0].realize().as_python_constant()
    except NotConstantError:
        unimplemented("exec", f"exec() of {args[0]!r}, a source not known while tracing")
    if not isinstance(source, str | bytes | types.CodeType):
        unimplemented("exec", f"exec() of a {type(source).__name__}")
    namespace = DictNamespace(tx, globals_vt)
    if "__builtins__" in namespace:
        _check_builtins(tx, namespace["__builtins__"])
    else:
        namespace["__builtins__"] = BuiltinsDictVariable()
    if isinstance(source, str | bytes):
        try:
            code = compile(
                source,
                "<string>",
                "exec",
                flags=tx.code.co_flags & _FUTURE_FLAGS,
                dont_inherit=True,
            )
        except SyntaxError as e:
            tx.raise_user_error(e)
    else:
        code = source
        if code.co_freevars:
            unimplemented("exec", "exec() of a code object with free variables")
    module = ExecFunctionVariable(NestedUserFunctionVariable(code, {}, code.co_name), globals_vt)
    names = DictNamespace(tx, locals_vt if locals_vt is not None else globals_vt)
    run_with_namespace(tx, module, names, class_body=False)
    return ConstantVariable(None)


def _namespace_dict(vt: VariableTracker, what: str) -> ConstDictVariable:
    vt = vt.realize()
    if what == "globals" and isinstance(vt, ConstantVariable) and vt.value is None:
        unimplemented("exec", "exec() with globals None reads the frame it is called in")
    if type(vt) is not ConstDictVariable:
        unimplemented("exec", f"exec() with {what} {vt!r}, not a dict the trace tracks")
    return vt


def _check_builtins(tx: TranslatorBase, vt: VariableTracker) -> None:
    """A `__builtins__` the dict holds already must be the builtins the compiled frame has:
    the one an earlier `exec` put in, or, read from an input dict, the builtins module or its
    dict (pinned by identity where it was found)."""
    if isinstance(vt, BuiltinsDictVariable):
        return
    if isinstance(vt, LazyVariableTracker) and not vt.is_realized:
        if vt.source is not None and (vt.value is builtins or vt.value is vars(builtins)):
            tx.output.add_guard(GuardKind.ID_MATCH, vt.source, vt.value)
            return
    else:
        try:
            if vt.realize().as_python_constant() is builtins:
                return
        except NotConstantError:
            pass
    unimplemented("exec", f"exec() with a globals dict whose __builtins__ is a {vt.type_name()}")
