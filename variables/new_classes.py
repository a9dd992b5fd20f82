"""Classes defined inside the traced frame (`class C: ...` in a traced function).

A class statement runs the class body and then calls the metaclass with the namespace the body
filled (`__build_class__`). The translator traces the body like an inlined call whose locals are
that namespace (tracer/translator/class_bodies.py). What this module adds is the class object:

- at trace time a *template* class is built by CPython itself, `type(name, bases, namespace)`
  on real values: the namespace's constants and, for each method, a real function made from
  the method's code object with real cells. The rest of the tracer then treats the template
  like any user class (`UserDefinedClassVariable`): attribute lookups, instances created in the
  frame, inlined methods, `super()` through the `__class__` cell. The template is not an input,
  so nothing guards it. A cell the template's methods close over is a stand-in for a cell of
  the frame (or the class's own `__class__` cell); the side effects map it back to that cell's
  tracker, so an inlined method reads and writes the frame's cell, symbolically.
- the compiled code builds the real class each call (`NewClassVariable.reconstruct`): the
  namespace rebuilt from its trackers, each method a new function from its code object over
  the call's real cells, then `type(...)`. Two calls make two classes, as in plain Python. Any
  place the generated code would load the template (a class tracker, an instance rebuilt with
  `object.__new__`, a method of the class) loads the class this call built instead
  (`PyCodegen.load_const` asks `made_in_frame`).
"""

from __future__ import annotations

import dataclasses
import types
import weakref
from collections.abc import Callable, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.constant import CONSTANT_TYPES, ConstantVariable
from variables.functions import NestedUserFunctionVariable, fill_cells, load_cell, make_function
from variables.misc import CellVariable
from variables.user_defined import UserDefinedClassVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

BuildClass = Callable[
    ["TranslatorBase", Sequence[VariableTracker], dict[str, VariableTracker]], VariableTracker
]


class BuildClassVariable(VariableTracker):
    """`__build_class__` as LOAD_BUILD_CLASS pushes it; calling it is the class statement,
    carried out by the translator's `build` (tracer/translator/class_bodies.py)."""

    __slots__ = ("build",)

    def __init__(self, build: BuildClass) -> None:
        super().__init__()
        self.build = build

    def python_type(self) -> type:
        return types.BuiltinFunctionType

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.build(tx, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        unimplemented(
            "class-definition",
            "a class statement that breaks is not split (its frame runs eagerly)",
        )

    def __repr__(self) -> str:
        return "BuildClassVariable()"


TEMPLATES: dict[int, weakref.ref[NewClassVariable]] = {}
"""The classes made by traces still alive, by id of the template and of each template method
(each tracker is kept alive by its trace's OutputGraph, `classes_made`). Empty unless a live
trace defined a class, which is what `PyCodegen.load_const` checks first."""


class ClassLocalsVariable(VariableTracker):
    """What 3.12's LOAD_LOCALS pushes in a class body: the namespace the body fills, which the
    LOAD_FROM_DICT_OR_DEREF right after it reads first (tracer/translator/class_bodies.py). It
    lives only between those two instructions, so it is never rebuilt by generated code."""

    __slots__ = ("namespace",)

    def __init__(self, namespace: MutableMapping[str, VariableTracker]) -> None:
        super().__init__()
        self.namespace = namespace

    def python_type(self) -> type:
        return dict


def made_in_frame(value: object) -> NewClassVariable | None:
    """The class tracker `value` belongs to, when it is a template class or one of its methods."""
    if not TEMPLATES:
        return None
    ref = TEMPLATES.get(id(value))
    return ref() if ref is not None else None


def _forget(ids: list[int]) -> Callable[[object], None]:
    def forget(_: object) -> None:
        for key in ids:
            TEMPLATES.pop(key, None)

    return forget


def is_immutable_value(value: object) -> bool:
    """A value the template may share with every class the compiled code builds: a constant,
    a class, a function, or a tuple or frozenset of them."""
    if type(value) in CONSTANT_TYPES or issubclass(type(value), type | types.FunctionType):
        return True
    if type(value) is tuple or type(value) is frozenset:
        return all(is_immutable_value(item) for item in value)
    return False


class NewClassVariable(UserDefinedClassVariable):
    """`NewClassVariable(f.<locals>.C)`: a class this trace defined; `value` is its template."""

    __slots__ = (
        "__weakref__",
        "_ids",
        "_ref",
        "bases",
        "class_cell",
        "decorations",
        "functions",
        "namespace",
    )

    def __init__(
        self,
        template: type,
        bases: list[VariableTracker],
        namespace: dict[str, VariableTracker],
        class_cell: CellVariable | None,
        functions: list[tuple[types.FunctionType, tuple[str, ...]]],
    ) -> None:
        super().__init__(template)
        self.bases = bases
        self.namespace = namespace
        """The class body's namespace, name to tracker, in the order the body bound them."""
        self.class_cell = class_cell
        """The body's `__class__` cell (methods using `super()` or `__class__` close over it)."""
        self.functions: dict[int, tuple[str, ...]] = {}
        """Where each of the template's functions is found on the class: `(name,)` for a
        method, `(name, "__func__")` for a static or class method, `(name, "fget")`..."""
        self.decorations: list[tuple[tuple[str, Any], ...]] = []
        """The keyword arguments of each `dataclasses.dataclass` applied to the class."""
        self._ids = [id(template)]
        self._ref = weakref.ref(self, _forget(self._ids))
        TEMPLATES[id(template)] = self._ref
        for fn, path in functions:
            self.register(fn, path)

    def register(self, fn: types.FunctionType, path: tuple[str, ...]) -> None:
        """`fn`, found at `path` on the template, stands for the same on the built class."""
        self.functions[id(fn)] = path
        self._ids.append(id(fn))
        TEMPLATES[id(fn)] = self._ref

    def apply_dataclass(self, tx: TranslatorBase, keywords: dict[str, Any]) -> None:
        """`dataclasses.dataclass(cls, **keywords)`: run by CPython on the template now, and on
        the built class by the compiled code; the functions it adds stand for the built
        class's. `slots=True` makes a new class, which is not supported."""
        if keywords.get("slots") or keywords.get("weakref_slot"):
            unimplemented("class-definition", "a dataclass with slots=True (a new class)")
        tx.run_user_operation(dataclasses.dataclass, self.value, **keywords)
        self.decorations.append(tuple(keywords.items()))
        for name, member in self.value.__dict__.items():
            if type(member) is types.FunctionType and id(member) not in self.functions:
                self.register(member, (name,))

    def load_member(self, cg: PyCodegen, value: object) -> None:
        """Load what stands for `value` (the template, or one of its methods) in the class
        this call built."""
        cg(self)
        if value is self.value:
            return
        name, *attrs = self.functions[id(value)]
        cg.load_attr("__dict__")
        cg.load_const(name)
        cg.binary_subscr()
        for attr in attrs:
            cg.load_attr(attr)

    def reconstruct(self, cg: PyCodegen) -> None:
        """Build the class once; then fill the new cells its methods close over (a method may
        name the class itself: its cell is filled once the class exists)."""
        built = id(self) in cg.tempvars
        fill: list[CellVariable] = []
        cg.rebuild_once(self, lambda: self._build(cg, fill))
        if not built:
            fill_cells(cg, fill)

    def _build(self, cg: PyCodegen, fill: list[CellVariable]) -> None:
        """`type(name, bases, namespace)`, with each method a new function over this call's
        cells and `__classcell__` a new cell that `type` fills with the class; then the
        dataclass decorations, in order."""
        if self.decorations:
            cg.load_function(decorate_dataclass)
        cg.load_function(type)
        cg.load_const(self.value.__name__)
        for base in self.bases:
            cg(base)
        cg.build_tuple(len(self.bases))
        for name, vt in self.namespace.items():
            cg.load_const(name)
            if isinstance(vt, NestedUserFunctionVariable):
                vt.build(cg, lambda cell: _load_cell(cg, cell, self, fill))
            elif isinstance(vt, ClassMemberVariable):
                vt.rebuild(cg, self, fill)
            elif isinstance(vt, CellVariable):  # `__classcell__`
                _load_cell(cg, vt, self, fill)
            else:
                cg(vt)
        cg.build_map(len(self.namespace))
        cg.call(3)
        if self.decorations:
            cg.load_const(tuple(self.decorations))
            cg.call(2)

    def __repr__(self) -> str:
        return f"NewClassVariable({self.value.__qualname__})"


def decorate_dataclass(cls: type, decorations: tuple[tuple[tuple[str, Any], ...], ...]) -> type:
    """`dataclasses.dataclass(cls, **keywords)` for each decoration, in order."""
    for keywords in decorations:
        cls = dataclasses.dataclass(cls, **dict(keywords))
    return cls


def _load_cell(
    cg: PyCodegen, cell: CellVariable, cls: NewClassVariable, fill: list[CellVariable]
) -> None:
    """The real cell a method of the class closes over (`load_cell`); `__class__`'s is made
    empty, and `type` fills it with the class."""
    if cell is cls.class_cell:

        def build() -> None:
            cg.load_function(types.CellType)
            cg.call(0)

        cg.rebuild_once(cell, build)
        return
    load_cell(cg, cell, f"a method of {cls.value.__name__}", fill)


def template_cell(tx: TranslatorBase, cell: CellVariable) -> types.CellType:
    """The real cell a template method closes over in place of the frame's `cell`: the cell
    itself when it is a real one; else an empty stand-in, kept as the tracker's `real_cell`
    (the tracker stays new: its stores are not replayed) and mapped back to the tracker by the
    side effects, so an inlined method reads and writes `cell` symbolically."""
    if cell.real_cell is None:
        cell.real_cell = types.CellType()
        tx.output.side_effects.cells[id(cell.real_cell)] = cell
    return cell.real_cell


def template_namespace(
    tx: TranslatorBase, name: str, namespace: dict[str, VariableTracker]
) -> tuple[dict[str, Any], list[tuple[types.FunctionType, tuple[str, ...]]]]:
    """The real namespace of the template class: constants as they are, a real function for
    each method, and where each function is found on the class. A value the classes of every
    call can't share (a list, an object made in the body) is not supported."""
    real: dict[str, Any] = {}
    functions: list[tuple[types.FunctionType, tuple[str, ...]]] = []
    for key, vt in namespace.items():
        vt = vt.realize()
        if isinstance(vt, NestedUserFunctionVariable):
            fn = _template_function(tx, vt, name)
            # `type` wraps these three in a staticmethod or classmethod itself
            implicit = key in ("__new__", "__init_subclass__", "__class_getitem__")
            functions.append((fn, (key, "__func__") if implicit else (key,)))
            real[key] = fn
            continue
        if isinstance(vt, ClassMemberVariable):
            if vt.kind is property and key.startswith("__") and key.endswith("__"):
                # CPython's special-method slots treat a property their own way
                unimplemented("class-definition", f"special method {name}.{key} is a property")
            real[key] = vt.template(tx, name, key, functions)
            continue
        if isinstance(vt, CellVariable) and key == "__classcell__":
            real[key] = template_cell(tx, vt)
            continue
        try:
            value = vt.as_python_constant()
        except NotConstantError:
            value = None
            ok = False
        else:
            ok = is_immutable_value(value) or (key == "__annotations__" and type(value) is dict)
        if ok and hasattr(type(value), "__set_name__"):
            unimplemented(
                "class-definition",
                f"class attribute {name}.{key} has __set_name__, which making the class calls",
            )
        if not ok:
            unimplemented(
                "class-definition",
                f"class attribute {name}.{key} holds {vt!r}, which is not a constant",
            )
        real[key] = value
    return real, functions


class ClassMemberVariable(VariableTracker):
    """`staticmethod(f)`, `classmethod(f)` or `property(fget, fset, fdel)` in a class body, over
    functions the body defined (None for a missing accessor); `@p.setter` and `@p.deleter`
    make the next property."""

    __slots__ = ("functions", "kind")

    KINDS = (staticmethod, classmethod, property)
    _ACCESSORS = ("fget", "fset", "fdel")

    def __init__(self, kind: type, functions: Sequence[NestedUserFunctionVariable | None]) -> None:
        super().__init__()
        self.kind = kind
        self.functions = list(functions)

    @classmethod
    def create(
        cls, kind: type, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> ClassMemberVariable | None:
        """The member, when every argument is a function of the body (or None for a property's
        missing accessor); else None (the builtin is called as usual)."""
        limit = 3 if kind is property else 1
        if kwargs or not 1 <= len(args) <= limit:
            return None
        functions: list[NestedUserFunctionVariable | None] = []
        for arg in args:
            arg = arg.realize()
            if isinstance(arg, NestedUserFunctionVariable):
                functions.append(arg)
            elif kind is property and arg.is_python_constant() and arg.as_python_constant() is None:
                functions.append(None)
            else:
                return None
        return cls(kind, functions)

    def python_type(self) -> type:
        return self.kind

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if self.kind is property and name in ("getter", "setter", "deleter"):
            return _PropertyCopier(self, ("getter", "setter", "deleter").index(name))
        if self.kind is property and name in self._ACCESSORS:
            index = self._ACCESSORS.index(name)
            found = self.functions[index] if index < len(self.functions) else None
            return found if found is not None else ConstantVariable(None)
        return super().var_getattr(tx, name)

    def template(
        self,
        tx: TranslatorBase,
        class_name: str,
        key: str,
        functions: list[tuple[types.FunctionType, tuple[str, ...]]],
    ) -> Any:
        real: list[types.FunctionType | None] = []
        for i, fn_vt in enumerate(self.functions):
            if fn_vt is None:
                real.append(None)
                continue
            fn = _template_function(tx, fn_vt, class_name)
            attr = self._ACCESSORS[i] if self.kind is property else "__func__"
            functions.append((fn, (key, attr)))
            real.append(fn)
        return self.kind(*real)

    def rebuild(self, cg: PyCodegen, cls: NewClassVariable, fill: list[CellVariable]) -> None:
        cg.load_function(self.kind)
        for fn_vt in self.functions:
            if fn_vt is None:
                cg.load_const(None)
            else:
                fn_vt.build(cg, lambda cell: _load_cell(cg, cell, cls, fill))
        cg.call(len(self.functions))

    def __repr__(self) -> str:
        return f"ClassMemberVariable({self.kind.__name__})"


class _PropertyCopier(VariableTracker):
    """`prop.setter` (and `getter`, `deleter`): called with a function, a property with that
    accessor replaced."""

    __slots__ = ("index", "prop")

    def __init__(self, prop: ClassMemberVariable, index: int) -> None:
        super().__init__()
        self.prop = prop
        self.index = index

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        fn = args[0].realize() if len(args) == 1 and not kwargs else None
        if not isinstance(fn, NestedUserFunctionVariable):
            unimplemented("class-definition", f"property accessor made from {args!r}")
        functions = [*self.prop.functions, None, None][:3]
        functions[self.index] = fn
        return ClassMemberVariable(property, functions)


def _template_function(
    tx: TranslatorBase, fn: NestedUserFunctionVariable, class_name: str
) -> types.FunctionType:
    defaults: tuple[Any, ...] | None = None
    kwdefaults: dict[str, Any] | None = None
    try:
        if fn.defaults:
            defaults = tuple(v.as_python_constant() for v in fn.defaults)
        if fn.kwdefaults:
            kwdefaults = {k: v.as_python_constant() for k, v in fn.kwdefaults.items()}
    except NotConstantError:
        unimplemented(
            "class-definition",
            f"method {fn.qualname} of {class_name} has a default that is not a constant",
        )
    if not all(is_immutable_value(v) for v in (*(defaults or ()), *(kwdefaults or {}).values())):
        unimplemented(
            "class-definition",
            f"method {fn.qualname} of {class_name} has a mutable default",
        )
    annotations = None
    if fn.annotations is not None:
        try:
            annotations = fn.annotations.as_python_constant()
        except NotConstantError:
            unimplemented(
                "class-definition",
                f"method {fn.qualname} of {class_name} has annotations that are not constants",
            )
    closure = tuple(template_cell(tx, cell) for cell in fn.closure) or None
    return make_function(
        fn.code, fn.f_globals, fn.qualname, defaults, kwdefaults, closure, annotations
    )


def dataclass_call(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker | None:
    """`dataclasses.dataclass(C, ...)` on a class defined in the frame, or `dataclass(...)`
    with options only (the decorator it returns); None for any other call (traced as usual)."""
    if len(args) > 1:
        return None
    try:
        keywords = {key: value.as_python_constant() for key, value in kwargs.items()}
    except NotConstantError:
        return None
    if not all(is_immutable_value(value) for value in keywords.values()):
        return None
    if not args:
        return DataclassDecoratorVariable(keywords)
    cls = args[0].realize()
    if not isinstance(cls, NewClassVariable):
        return None
    cls.apply_dataclass(tx, keywords)
    return cls


class DataclassDecoratorVariable(VariableTracker):
    """`dataclasses.dataclass(frozen=True)`: the decorator, applied to a class defined in the
    frame."""

    __slots__ = ("keywords",)

    def __init__(self, keywords: dict[str, Any]) -> None:
        super().__init__()
        self.keywords = keywords

    def python_type(self) -> type:
        return types.FunctionType

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls = args[0].realize() if len(args) == 1 and not kwargs else None
        if not isinstance(cls, NewClassVariable):
            unimplemented("class-definition", f"the dataclass decorator applied to {args!r}")
        cls.apply_dataclass(tx, self.keywords)
        return cls

    def __repr__(self) -> str:
        return f"DataclassDecoratorVariable({self.keywords})"
