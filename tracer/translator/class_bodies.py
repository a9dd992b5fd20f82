"""Class statements: LOAD_BUILD_CLASS, and the class body's name opcodes (LOAD_NAME,
STORE_NAME, DELETE_NAME, LOAD_CLASSDEREF, SETUP_ANNOTATIONS; 3.12 splits LOAD_CLASSDEREF into
LOAD_LOCALS and LOAD_FROM_DICT_OR_DEREF).

`class C(Base): ...` compiles to `__build_class__(<body function>, 'C', Base)`. CPython runs the
body with a fresh namespace as its locals, then calls the metaclass with that namespace. Here
the body is traced like an inlined call whose locals are the namespace (`class_namespace`), and
the class object is a template built by CPython from the traced namespace
(variables/new_classes.py), rebuilt by the compiled code on every call.

Accepted when CPython would run no user code of its own while making the class: the metaclass
is `type`, no base defines `__init_subclass__`, no namespace value has `__set_name__`. What the
body itself does (a list appended to, a tensor op) is traced like any code, and its side
effects are replayed like any other: the compiled code builds the class from the namespace, it
does not run the body again. Anything else falls back with a reason saying what it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import MutableMapping, Sequence

from tracer import translator
from tracer.exc import unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.calls import Calls
from tracer.translator.instructions import Instruction
from tracer.translator.names import Names
from variables.base import NotConstantError, VariableTracker
from variables.class_lookup import lookup_special
from variables.dicts import ConstDictVariable
from variables.functions import NestedUserFunctionVariable, UserFunctionVariable
from variables.misc import CellVariable
from variables.new_classes import (
    BuildClassVariable,
    ClassLocalsVariable,
    ClassMemberVariable,
    NewClassVariable,
    dataclass_call,
    template_namespace,
)


class ClassBodies(Names, Calls):
    class_namespace: dict[str, VariableTracker] | None = None
    """The namespace of the class body this frame runs; None in a function's frame."""
    exec_namespace: MutableMapping[str, VariableTracker] | None = None
    """The locals of the module code `exec` runs in this frame (a dict the trace tracks, see
    tracer/translator/exec_source.py); None elsewhere. Unlike a class body's, no call or
    function in it is made a class member."""

    def LOAD_BUILD_CLASS(self, inst: Instruction) -> None:
        self.push(BuildClassVariable(build_class))

    def _namespace(self, inst: Instruction) -> MutableMapping[str, VariableTracker]:
        if self.class_namespace is not None:
            return self.class_namespace
        if self.exec_namespace is None:
            unimplemented(
                "unsupported-opcode", f"module-level names ({inst.opname}) are not supported"
            )
        return self.exec_namespace

    def LOAD_NAME(self, inst: Instruction) -> None:
        """The namespace, then the globals, then the builtins."""
        value = self._namespace(inst).get(inst.argval)
        self.push(value if value is not None else self.load_global(inst.argval))

    def STORE_NAME(self, inst: Instruction) -> None:
        self._namespace(inst)[inst.argval] = self.pop()

    def DELETE_NAME(self, inst: Instruction) -> None:
        if self._namespace(inst).pop(inst.argval, None) is None:
            self.raise_user_error(NameError(f"name '{inst.argval}' is not defined"))

    def LOAD_CLASSDEREF(self, inst: Instruction) -> None:
        """A free variable read in a class body (3.11): the namespace first, then the cell."""
        self._load_namespace_or_cell(self._namespace(inst), inst.argval)

    def LOAD_LOCALS(self, inst: Instruction) -> None:
        """3.12: push the class body's namespace, for the LOAD_FROM_DICT_OR_DEREF after it."""
        self.push(ClassLocalsVariable(self._namespace(inst)))

    def LOAD_FROM_DICT_OR_DEREF(self, inst: Instruction) -> None:
        """3.12's LOAD_CLASSDEREF, split in two: a free variable read in a class body, from the
        mapping LOAD_LOCALS pushed first, then from the cell."""
        mapping = self.pop()
        if not isinstance(mapping, ClassLocalsVariable):
            unimplemented("unsupported-opcode", f"LOAD_FROM_DICT_OR_DEREF from {mapping!r}")
        self._load_namespace_or_cell(mapping.namespace, inst.argval)

    def _load_namespace_or_cell(
        self, namespace: MutableMapping[str, VariableTracker], name: str
    ) -> None:
        value = namespace.get(name)
        self.push(value if value is not None else self.cells[name].load(self, name))

    def call_function(
        self, fn: VariableTracker, args: list[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        """In a class body, `staticmethod`, `classmethod` and `property` over the body's own
        functions make a member the class can rebuild on every call; `dataclasses.dataclass`
        on a class defined in the frame is applied to its template and to the built class."""
        fn = fn.realize()
        if self.class_namespace is not None or (
            type(fn) is UserFunctionVariable and fn.fn is dataclasses.dataclass
        ):
            made = self._class_statement_call(fn, args, kwargs)
            if made is not None:
                return made
        return super().call_function(fn, args, kwargs)

    def _class_statement_call(
        self, fn: VariableTracker, args: list[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker | None:
        if self.class_namespace is not None:
            kind = _member_kind(fn)
            if kind is not None:
                return ClassMemberVariable.create(kind, args, kwargs)
        if isinstance(fn, UserFunctionVariable) and fn.fn is dataclasses.dataclass:
            return dataclass_call(self, args, kwargs)
        return None

    def SETUP_ANNOTATIONS(self, inst: Instruction) -> None:
        namespace = self._namespace(inst)
        if "__annotations__" not in namespace:
            namespace["__annotations__"] = ConstDictVariable({})


def _member_kind(fn: VariableTracker) -> type | None:
    try:
        value = fn.as_python_constant()
    except NotConstantError:
        return None
    return value if value in ClassMemberVariable.KINDS else None


def build_class(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`__build_class__(body, name, *bases, **keywords)` for a class statement."""
    body = args[0].realize()
    assert isinstance(body, NestedUserFunctionVariable), body
    name = args[1].as_python_constant()
    base_vts = [base.realize() for base in args[2:]]
    bases = tuple(_real_base(name, vt) for vt in base_vts)
    keywords = dict(kwargs)
    meta_vt = keywords.pop("metaclass", None)
    if keywords:
        unimplemented("class-definition", f"class {name} with keywords {', '.join(keywords)}")
    _check_metaclass(name, bases, meta_vt)
    for base, base_vt in zip(bases, base_vts, strict=True):
        owner = lookup_special(tx, base, base_vt.source, "__init_subclass__")[1]
        if owner is not object:
            assert owner is not None
            unimplemented(
                "class-definition",
                f"class {name}: its base {owner.__name__} defines __init_subclass__",
            )
    namespace = _run_body(tx, body)
    real_namespace, functions = template_namespace(tx, name, namespace)
    template = tx.run_user_operation(type, name, bases, real_namespace)
    class_cell = namespace.get("__classcell__")
    if not isinstance(class_cell, CellVariable):
        class_cell = None
    made = NewClassVariable(template, base_vts, namespace, class_cell, functions)
    if class_cell is not None:
        class_cell.contents = made
    tx.output.classes_made.append(made)
    return made


def _real_base(name: str, vt: VariableTracker) -> type:
    try:
        base = vt.as_python_constant()
    except NotConstantError:
        unimplemented("class-definition", f"class {name} with base {vt!r}")
    if not isinstance(base, type):
        unimplemented("class-definition", f"class {name} with base {base!r}, not a class")
    return base


def _check_metaclass(name: str, bases: tuple[type, ...], meta_vt: VariableTracker | None) -> None:
    """The class's metaclass, as `__build_class__` and `type.__new__` pick it, must be `type`:
    another metaclass runs its own code to make the class."""
    metas = [type(base) for base in bases]
    if meta_vt is not None:
        try:
            metas.append(meta_vt.realize().as_python_constant())
        except NotConstantError:
            unimplemented("class-definition", f"class {name} with metaclass {meta_vt!r}")
    for meta in metas:
        if meta is not type:
            what = getattr(meta, "__name__", repr(meta))
            unimplemented("class-definition", f"class {name} with metaclass {what}")


def _run_body(tx: TranslatorBase, body: NestedUserFunctionVariable) -> dict[str, VariableTracker]:
    """Trace the class body; its namespace, in the order it bound names."""
    namespace: dict[str, VariableTracker] = {}
    run_with_namespace(tx, body, namespace, class_body=True)
    return namespace


def run_with_namespace(
    tx: TranslatorBase,
    body: NestedUserFunctionVariable,
    namespace: MutableMapping[str, VariableTracker],
    *,
    class_body: bool,
) -> None:
    """Trace `body` (no arguments) with `namespace` as its locals, the mapping LOAD_NAME,
    STORE_NAME and DELETE_NAME use: a class body, or module code that `exec` runs."""
    output = tx.output
    child = translator.InliningInstructionTranslator(
        body.code, body.f_globals, {}, body.closure, output, tx, body
    )
    if class_body:
        assert isinstance(namespace, dict)
        child.class_namespace = namespace
    else:
        child.exec_namespace = namespace
    output.note_inline_depth(child.depth)
    try:
        child.run()
    finally:
        output.current_tx = tx
