"""Protocol operations on a class itself, decided while tracing (`C == 5`, `bool(C)`,
`hash(C)`, `str(C)`, `C | int`, `C in [1, 2]`, `isinstance(x, C)`), with the special methods
CPython consults for them guarded on the class's metaclass.

CPython looks a special method up on the type of the value, and the type of a class is its
metaclass: `C == 5` asks `type(C).__eq__`. A class whose metaclass is `type` (or any metaclass
whose attributes cannot change) answers as `type` does on every call, so folding the operation
on the class (`UserDefinedClassVariable.as_python_constant()` is the class) costs no guard. A
metaclass that can change (`class Meta(type)`, `abc.ABCMeta`, `enum.EnumType`) can gain the
method after a compile, so each name CPython would consult is looked up on the metaclass with
`class_lookup.lookup_special` through `type(<the class's source>)`: found missing, or found
on `type` or `object`, every mutable metaclass before it on the MRO is guarded to still lack
it. Found on a user metaclass, it is user code that folding would run while tracing, whose
answer may depend on anything: the frame breaks. Found on a stdlib metaclass (ABCMeta's
`__instancecheck__`, EnumType's `__len__`, `__repr__`, `__bool__`), it answers from the class
itself, so it is pinned where it was found (an ID_MATCH on that dict entry) and folded.

Used by `pure_calls.fold` (every C function folded on constants: `len`, `hash`, `str`, `repr`,
the operators), a method of a constant (`"{}".format(C)`), f-strings, truth tests
(`UserDefinedClassVariable.truthy`), a search (`lists.search_target`, `constant_equal`), a
sequence's index and repeat, the sort of constant keys, `range`, and `isinstance`/`issubclass`
(variables/instance_checks.py) (notes/guards.md "Protocols on a class itself"). `len(C)` of a
user metaclass's own `__len__` is traced instead (`BuiltinVariable.call_len`). Also: a class
used as an integer (`guard_index_operands`: a list's or a deque's positions, slice bounds at
BUILD_SLICE), a class among a deque's items (`guard_class_value`), and `C[x]`'s
`__class_getitem__` on the class itself (`guard_class_getitem`).

The same holds for an operand that is an object of a class whose attributes can change (an
enum member, a named tuple, a frozen dataclass, a Fraction, a Counter): the operation runs its
class's special methods (`guard_instance_specials`). A method of the user's would run once,
while tracing, with its answer kept: the frame breaks. A stdlib one (`STDLIB_VALUE_CLASSES`, a
dataclass's generated `__eq__`) is pinned where it was found."""

from __future__ import annotations

import abc
import builtins
import collections
import enum
import fractions
import numbers
import operator
import sys
import types
import typing
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import IMMUTABLE_TYPE, GuardKind
from guards.sources import AttrSource, ItemSource, ModuleSource, TypeSource
from tracer.exc import unimplemented
from variables.class_lookup import lookup_class_attr, lookup_special, made_class, pin_value

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker

STDLIB_METACLASSES = frozenset({abc.ABCMeta, enum.EnumType})
"""Metaclasses (heap types, so guarded) whose own special methods answer from the class and
run no user code of their own: folded while tracing, with the method pinned."""

TRUTH_NAMES = ("__bool__", "__len__")
"""What `bool(C)` and a truth test consult on the metaclass, in order."""

INDEX_NAMES = ("__index__",)
"""What converting a class to an integer consults on its metaclass: a position or a count
(`lst[C]`, `lst.pop(C)`, `lst.insert(C, x)`, `dq.rotate(C)`, `enumerate(it, C)`), a slice
bound (`lst[C:]`, `slice(C)`, `seq.index(x, C)`)."""

_BINARY = (
    "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow",
    "lshift", "rshift", "and", "or", "xor",
)  # fmt: skip
_FORMATTING = ("__format__", "__str__", "__repr__", "__int__", "__index__", "__float__")
_REFLECTED_COMPARISON = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def _operator(name: str, prefix: str = "") -> Any:
    """`operator.add`, `operator.iadd`, `operator.and_`."""
    return getattr(operator, prefix + name, None) or getattr(operator, prefix + name + "_")


def _consulted() -> dict[Any, tuple[str, ...]]:
    """For each function folded on constants, the special methods CPython may consult on the
    type of a class among its operands. Each operand gets every name of its function (the
    reflected ones too), a few more than the one CPython asks in each position: the names
    found missing from one dict are one guard (OutputGraph.guard_name_absent), so they cost
    nothing more."""
    names: dict[Any, tuple[str, ...]] = {}
    for op in _BINARY:
        both = (f"__{op}__", f"__r{op}__")
        names[_operator(op)] = both
        names[_operator(op, "i")] = (f"__i{op}__", *both)
    # a sequence repeated (`[1] * C`) takes `__index__`, `"%s" % C` formats with `str`,
    # `int`, `float`...
    names[operator.mul] += ("__index__",)
    names[operator.imul] += ("__index__",)
    names[operator.mod] += _FORMATTING
    names[operator.imod] += _FORMATTING
    names[builtins.pow] = ("__pow__", "__rpow__")
    names[builtins.divmod] = ("__divmod__", "__rdivmod__")
    for op, reflected in _REFLECTED_COMPARISON.items():
        # `!=` falls back to `__eq__` through object's `__ne__`
        extra = ("__eq__",) if op == "ne" else ()
        names[_operator(op)] = (f"__{op}__", f"__{reflected}__", *extra)
    for op in ("neg", "pos", "invert", "abs", "index"):
        names[_operator(op)] = (f"__{op}__",)
    names.update({
        builtins.abs: ("__abs__",),
        builtins.len: ("__len__",),
        builtins.hash: ("__hash__",),
        builtins.repr: ("__repr__",),
        builtins.ascii: ("__repr__",),
        builtins.str: ("__str__", "__repr__"),  # object's `__str__` calls `repr`
        builtins.format: _FORMATTING[:3],
        builtins.bool: TRUTH_NAMES,
        operator.truth: TRUTH_NAMES,
        operator.not_: TRUTH_NAMES,
        builtins.int: ("__int__", "__index__", "__trunc__"),
        builtins.float: ("__float__", "__index__"),
        builtins.complex: ("__complex__", "__float__", "__index__"),
        builtins.round: ("__round__", "__index__"),  # (`round(1.5, C)`: the digits)
        operator.getitem: ("__getitem__", "__index__"),  # (`C[0]`, `(1, 2)[C]`)
        builtins.range: ("__index__",),
        builtins.slice: ("__index__",),  # (a slice's bounds, converted when it is used)
        # these consult no special method of a class's metaclass (`isinstance` and
        # `issubclass` check the classes they are given: variables/instance_checks.py)
        builtins.isinstance: (),
        builtins.issubclass: (),
        builtins.callable: (),
        builtins.type: (),
        builtins.id: (),
        operator.is_: (),
        operator.is_not: (),
    })  # fmt: skip
    return names


CONSULTED = _consulted()
"""Function folded on constants -> the special methods it may consult on a class operand's
metaclass. A function not here, given a class whose metaclass can change, breaks the frame."""

CONSTANT_METHOD_NAMES = ("__eq__", "__hash__", *_FORMATTING)
"""What a method of a constant (`(1, 2).index(C)`, `"{}".format(C)`, `frozenset.__contains__`)
may consult on a class argument's metaclass: comparing, hashing, formatting it."""

_SCALARS = frozenset({int, float, str, bytes, bool, type(None), complex})

_CLASS_GETITEM_LOOKUP = ("__class_getitem__", "__getattr__", "__getattribute__")
"""What `C[x]` reads on the metaclass when it has no `__getitem__`: CPython gets the
attribute `C.__class_getitem__` through the metaclass's attribute lookup (its hooks, and a
`__class_getitem__` of the metaclass itself when the class's MRO has none)."""

_TYPING_CLASS_GETITEM = typing.Generic.__dict__["__class_getitem__"]
"""typing's `Generic[T]`, `SomeGeneric[int]`: makes an alias (cached), runs no user code."""


def changeable_metaclass(cls: type) -> bool:
    """Can `cls`'s metaclass gain a special method (a heap type: a user metaclass, ABCMeta)?"""
    meta: type = type(cls)
    return not meta.__flags__ & IMMUTABLE_TYPE


def guard_metaclass_specials(
    tx: TranslatorBase, cls: type, cls_source: Source | None, names: Iterable[str], what: str
) -> None:
    """`what` (an operation on class `cls` itself) was decided from `names` as `cls`'s
    metaclass has them: guarded (module docstring). Nothing for a metaclass that cannot
    change; a class with no source (not an input: a class a fold returned) cannot be
    guarded, so the frame breaks. (A class made in the frame has metaclass `type`:
    tracer/translator/class_bodies.py makes no other.)"""
    meta: type = type(cls)
    if meta.__flags__ & IMMUTABLE_TYPE:
        return
    if cls_source is None:
        cls_source = module_path_source(tx, cls)
    if cls_source is None:
        unimplemented(
            "metaclass",
            f"{what} of class {cls.__name__}, whose metaclass {meta.__name__} can change,"
            " with no source to guard it through (it is not its module's global of its name)",
        )
    meta_source = TypeSource(cls_source)
    for name in names:
        owner = lookup_class_attr(meta, name)[1]
        user_code = owner is not None and not owner.__flags__ & IMMUTABLE_TYPE
        if user_code and owner not in STDLIB_METACLASSES:
            unimplemented(
                "metaclass",
                f"{what} of class {cls.__name__}: metaclass {meta.__name__} defines {name}",
            )
        lookup_special(tx, meta, meta_source, name, pin=True)


def guard_metaclass_call(tx: TranslatorBase, cls: type, cls_source: Source | None) -> None:
    """`cls(...)` for a class whose metaclass is not `type` (ABCMeta, a user metaclass) runs
    `type.__call__` (`__new__`, then `__init__`) when the metaclass defines no `__call__` of
    its own: guarded so (`guard_metaclass_specials`), since the metaclass can gain one. A
    `__call__` of its own (EnumType's, a user's) is not modeled here: the frame breaks."""
    meta = type(cls)
    if lookup_class_attr(meta, "__call__")[1] is not type:
        unimplemented(
            "new-object", f"creating {cls.__name__}: metaclass {meta.__name__} defines __call__"
        )
    guard_metaclass_specials(tx, cls, cls_source, ("__call__",), f"creating {cls.__name__}")


def module_path_source(tx: TranslatorBase, cls: type) -> Source | None:
    """A source for a class a fold returned without one (`groupby(data, type)` gives
    statistics' `_sum` its classes): `sys.modules[m].__dict__[name]`, when the module the
    class names holds this very class under its name. Both steps are pinned (the dict and the
    class, by ID_MATCH), so a module replaced or a name rebound is a miss. None for a class
    its module does not hold so (a nested or local class, one made by `type()`)."""
    module_name: Any = vars(cls).get("__module__")
    module = sys.modules.get(module_name) if issubclass(type(module_name), str) else None
    name = cls.__qualname__
    if type(module) is not types.ModuleType or module.__dict__.get(name) is not cls:
        return None
    assert isinstance(module_name, str)
    dict_source = AttrSource(ModuleSource(module_name), "__dict__")
    tx.output.add_guard(GuardKind.ID_MATCH, dict_source, module.__dict__)
    source = ItemSource(dict_source, name)
    tx.output.add_guard(GuardKind.ID_MATCH, source, cls)
    return source


def guard_class_operand(
    tx: TranslatorBase, vt: VariableTracker, names: Iterable[str], what: str
) -> None:
    """`guard_metaclass_specials` for a tracker that may stand for a class (a no-op for any
    other value, and for a class whose metaclass cannot change)."""
    vt = vt.realize()
    if not vt.is_python_constant():
        return
    value = vt.as_python_constant()
    if isinstance(value, type) and changeable_metaclass(value):
        guard_metaclass_specials(tx, value, vt.source, names, what)


def guard_index_operands(
    tx: TranslatorBase, operands: Sequence[VariableTracker], values: Sequence[Any], what: str
) -> None:
    """Each of `operands` (whose constants are `values`) is converted with `__index__` when
    the operation runs (`INDEX_NAMES`): a class among them has that guarded on its metaclass.
    A slice's bounds are guarded when it is built (BUILD_SLICE, `slice()`), since the slice
    constant keeps no source of its own. (Given the values: most are ints, one test each.)"""
    for vt, value in zip(operands, values, strict=True):
        if isinstance(value, type):
            guard_class_operand(tx, vt, INDEX_NAMES, what)


def guard_class_value(
    tx: TranslatorBase,
    vt: VariableTracker,
    value: Any,
    names: tuple[str, ...] | None,
    what: str,
) -> None:
    """`value` (the constant of `vt`) is read by an operation run on it while tracing: a fold's
    operand, a search's target or candidate (`in`, `count`, `index`, `remove`), an item of a
    deque compared with another. A class has `names` guarded on its metaclass (None: not
    known, so a class with a changeable metaclass breaks the frame). A container holding
    such a class (`str((C,))`, `(C,) in lst`: the tuples compare their items) breaks the
    frame, since its items have no source here."""
    if type(value) in _SCALARS:
        return
    if isinstance(value, type):
        if changeable_metaclass(value):
            if names is None:
                unimplemented(
                    "metaclass",
                    f"{what} of class {value.__name__}, whose metaclass"
                    f" {type(value).__name__} can change",
                )
            guard_metaclass_specials(tx, value, vt.realize().source, names, what)
        if not value.__flags__ & IMMUTABLE_TYPE and (names is None or "__repr__" in names):
            # `repr(C)` is `<class 'module.qualname'>`, both writable
            guard_class_naming(tx, value, vt.realize().source, ("__module__", "__qualname__"), what)
    elif not type(value).__flags__ & IMMUTABLE_TYPE:
        guard_instance_specials(tx, vt, value, names, what)
    elif type(value) in (types.FunctionType, types.ModuleType):
        if names is None or "__repr__" in names:
            guard_named_value(tx, vt, value, what)
    elif holds_changeable_class(value):
        unimplemented(
            "metaclass", f"{what} of {vt!r}, which holds a class whose metaclass can change"
        )


def guard_class_naming(
    tx: TranslatorBase, cls: type, cls_source: Source | None, names: Iterable[str], what: str
) -> None:
    """A text folded while tracing names class `cls` (`repr(C)`, a named tuple's or an enum
    member's repr): its naming attributes, writable on a class that can change, are guarded by
    value at its source. A class with no source (nor a module path) breaks the frame."""
    if cls_source is None:
        cls_source = module_path_source(tx, cls)
    if cls_source is None:
        unimplemented("repr", f"{what} names class {cls.__qualname__}, which has no source")
    for name in names:
        pin_value(tx, AttrSource(cls_source, name), getattr(cls, name))


def guard_named_value(tx: TranslatorBase, vt: VariableTracker, value: Any, what: str) -> None:
    """`repr(f)` of a function names its `__qualname__` (writable): guarded at the function's
    source. A module's repr is built by importlib from several of its attributes (`__name__`,
    `__spec__`, `__file__`, its loader's): not modeled, the frame breaks."""
    if type(value) is types.ModuleType:
        unimplemented("repr", f"{what} of a module, built from its attributes")
    source = vt.realize().source
    if source is None:
        unimplemented("repr", f"{what} of function {value.__qualname__}, with no source")
    pin_value(tx, AttrSource(source, "__qualname__"), value.__qualname__)


def _stdlib_members() -> frozenset[int]:
    """By id: the functions of the stdlib value classes whose special methods answer from the
    object alone (an enum member, a Fraction, a named tuple's generated `__repr__`)."""
    members: list[Any] = [f for f in vars(enum).values() if type(f) is types.FunctionType]
    for cls in STDLIB_VALUE_CLASSES:  # (and enum's own functions: `global_enum`'s reprs)
        members += vars(cls).values()
    members.append(collections.namedtuple("_Generated", "a").__repr__)
    return frozenset(id(getattr(m, "__code__", m)) for m in members)


STDLIB_VALUE_CLASSES = (
    enum.Enum, enum.Flag, enum.IntEnum, enum.IntFlag, enum.ReprEnum, enum.StrEnum,
    fractions.Fraction, numbers.Rational, numbers.Real, numbers.Complex, numbers.Number,
    collections.Counter,
)  # fmt: skip
"""Heap classes of the standard library (so their attributes can change) whose special methods
run no user code: an operation on one of their objects is folded, with the method pinned."""
_STDLIB_MEMBERS = _stdlib_members()


_C_METHOD_KINDS = (types.WrapperDescriptorType, types.MethodDescriptorType)
"""A method of a builtin type, as the class holds it (`int.__format__`, `float.__repr__`)."""


def _answers_from_the_object(owner: type, member: Any) -> bool:
    """Does `member`, found on `owner`, run only code that answers from the object: a function
    of `STDLIB_VALUE_CLASSES` (by code: a Flag subclass gets copies of Flag's operators, a
    named tuple class its own generated `__repr__`), one `dataclasses` generated from text for
    a dataclass (`__eq__`, `__hash__`, `__lt__`; `__repr__` wrapped by dataclasses' recursion
    guard), a builtin type's own method set on the class, or a method of a value class of
    modetrace's runtime (`dtype`, `Size`)?"""
    if id(getattr(member, "__code__", member)) in _STDLIB_MEMBERS:
        return True
    if type(member) in _C_METHOD_KINDS:  # `IntEnum.__format__` is int's, set on the class
        owner_type: type = getattr(member, "__objclass__", object)
        return bool(owner_type.__flags__ & IMMUTABLE_TYPE)
    if "__dataclass_fields__" in vars(owner):
        generated = getattr(member, "__wrapped__", member)
        return getattr(getattr(generated, "__code__", None), "co_filename", None) == "<string>"
    return str(getattr(owner, "__module__", "")).startswith("tracer.runtime.")


def _special(name: str, member: Any) -> bool:
    """A special method a class defines in Python (a dunder holding a function, a static or a
    class method; `__dict__`'s descriptor and `__doc__` are none)."""
    kinds = (types.FunctionType, staticmethod, classmethod)
    return name[:2] == name[-2:] == "__" and isinstance(member, kinds)


def guard_instance_specials(
    tx: TranslatorBase, vt: VariableTracker, value: Any, names: tuple[str, ...] | None, what: str
) -> None:
    """`value`, an object of a class whose attributes can change (an enum member, a named tuple,
    a frozen dataclass, a Fraction), is an operand of `what`, run on the real object while
    tracing: CPython consults `names` on its class. Found on a class that can change, a method
    of the user's (`Color.__str__`) is user code a fold would run once, while tracing, with
    its answer kept (it may read anything): the frame breaks. A stdlib one (Enum's `__str__`,
    Flag's `__or__`, a named tuple's generated `__repr__`) answers from the object: pinned where
    it was found, and the classes before it guarded to lack the name (`lookup_special`), so a
    method set later misses; without a source for the class (an object made in the frame from
    a local class) it is folded unpinned. Missing, or found on a builtin, the classes are
    guarded to lack it. `names` None (a function not in `CONSULTED`) breaks."""
    cls = type(value)
    if names is None:  # not known which: every special method of a class that can change
        mutable = [k for k in cls.__mro__ if not k.__flags__ & IMMUTABLE_TYPE]
        specials = [(n, m, k) for k in mutable for n, m in vars(k).items() if _special(n, m)]
        if all(_answers_from_the_object(k, m) for _, m, k in specials):
            return  # (unpinned: which of them the function uses is not known)
        unimplemented("user-class-operand", f"{what} of a {cls.__name__} object")
    found = [(name, *lookup_class_attr(cls, name)) for name in names]
    for name, member, owner in found:
        if owner is None or owner.__flags__ & IMMUTABLE_TYPE:
            continue
        if _answers_from_the_object(owner, member):
            continue
        unimplemented(
            "user-special-method", f"{what} would run {owner.__qualname__}.{name} while tracing"
        )
    source = vt.realize().source
    cls_source = TypeSource(source) if source is not None else module_path_source(tx, cls)
    if cls_source is None:
        return  # (no way to the class: stdlib methods folded unpinned, see above)
    for name, _member, owner in found:
        lookup_special(tx, cls, cls_source, name, pin=owner is not None)
    runs_stdlib_code = any(owner is not None and owner is not object for _, _, owner in found)
    if runs_stdlib_code and "__repr__" in names:  # a repr names the class (`Point(x=1)`)
        guard_class_naming(tx, cls, cls_source, ("__name__", "__qualname__"), what)
    if isinstance(value, enum.Enum) and runs_stdlib_code and source is not None:
        for state in ("_name_", "_value_"):  # what Enum's methods answer from (writable)
            pin_value(tx, AttrSource(source, state), getattr(value, state))


def guard_folded_classes(
    tx: TranslatorBase,
    fn: Any,
    operands: Sequence[VariableTracker],
    values: Sequence[Any],
    names: tuple[str, ...] | None = None,
) -> None:
    """Before `fn` is called on the constants `values` (of the trackers `operands`): each
    operand that is a class with a changeable metaclass has the names `fn` consults guarded
    (`names`, else `CONSULTED`); a function not in the table breaks the frame for one. A
    class inside a container operand (`str((C,))`, `sorted([C, D])`) has no source of its
    own here: when its metaclass can change and `fn` consults any name, the frame breaks,
    unless it is a slice's bound and `fn` only indexes with it (`"abc"[C:]`): those were
    guarded when the slice was built (`guard_index_operands`). Operands that are all numbers
    or strings (most folds) cost one pass over their types."""
    for value in values:
        if type(value) not in _SCALARS:
            break
    else:
        return
    if names is None:
        names = CONSULTED.get(fn)
    if names == ():  # (`type(C)`, `C is D`: nothing of the metaclass is asked)
        return
    what = f"{getattr(fn, '__name__', fn)}()"
    for vt, value in zip(operands, values, strict=True):
        if type(value) is not slice or fn is not operator.getitem:
            guard_class_value(tx, vt, value, names, what)
    if fn is operator.getitem and isinstance(values[0], type):  # (`C[x]`)
        guard_class_getitem(tx, values[0], operands[0].realize().source)


def guard_class_getitem(tx: TranslatorBase, cls: type, cls_source: Source | None) -> None:
    """`C[x]` folded on class `cls` (after its metaclass's `__getitem__` was guarded): with no
    `__getitem__` on the metaclass, CPython calls `C.__class_getitem__(x)`. Found missing,
    each class dict on the MRO is guarded to still lack it (and so is the metaclass, when it
    can change, with its attribute hooks): one set later is what CPython would call. Found,
    it is pinned where it was found when it is a known pure one (a C method such as
    `list.__class_getitem__`, `classmethod(types.GenericAlias)` as `collections.abc` and the
    stdlib spell it, typing's `Generic`); any other is user code that folding would run
    while tracing, and the frame breaks. A class whose attributes cannot change (`list`,
    `dict`) costs nothing."""
    meta: type = type(cls)
    if lookup_class_attr(meta, "__getitem__")[1] not in (None, type, object):
        return  # (the metaclass's `__getitem__` answers: guarded by the caller)
    if changeable_metaclass(cls):
        guard_metaclass_specials(tx, cls, cls_source, _CLASS_GETITEM_LOOKUP, f"{cls.__name__}[]")
    if cls.__flags__ & IMMUTABLE_TYPE:
        return
    if cls_source is None and made_class(cls) is None:
        unimplemented("class-getitem", f"{cls.__name__}[] of a class with no source to guard")
    member, owner = lookup_special(tx, cls, cls_source, "__class_getitem__", pin=True)
    if owner is None or _pure_class_getitem(member):
        return
    unimplemented(
        "class-getitem",
        f"{cls.__name__}[]: {owner.__qualname__} defines __class_getitem__, user code that"
        " subscripting the class runs",
    )


def _pure_class_getitem(member: Any) -> bool:
    """Is `member` (a class dict's `__class_getitem__`) one that only makes an alias?"""
    if type(member) is types.ClassMethodDescriptorType or member is _TYPING_CLASS_GETITEM:
        return True
    return type(member) is classmethod and member.__func__ is types.GenericAlias


_DICTS = frozenset({dict, collections.OrderedDict, collections.Counter, collections.defaultdict})


def holds_changeable_class(value: Any) -> bool:
    """Does a builtin container (nested ones too) hold a class with a changeable metaclass?"""
    kind = type(value)
    if kind is slice:  # (`slice(C) == slice(D)` compares the bounds)
        return holds_changeable_class((value.start, value.stop, value.step))
    if kind in _DICTS:  # (an OrderedDict's or a Counter's `==` compares the values too)
        return holds_changeable_class(tuple(dict.keys(value))) or holds_changeable_class(
            tuple(dict.values(value))
        )
    if kind not in (tuple, list, set, frozenset, collections.deque):
        return isinstance(value, type) and changeable_metaclass(value)
    for item in value:
        if type(item) not in _SCALARS and holds_changeable_class(item):
            return True
    return False


def type_of(tx: TranslatorBase, obj: VariableTracker) -> VariableTracker:
    """`type(obj)`: the tracker of its class, at `type(<obj's source>)` for a user object (its
    exact type is guarded already) or a user class from outside. A class's metaclass is
    pinned there (an ID_MATCH) when it can change: assigning `__class__` swaps it."""
    from variables import builder
    from variables.dict_subclass import DictSubclassVariable
    from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable

    cls_vt = builder.wrap_class(obj.python_type())
    if not isinstance(cls_vt, UserDefinedClassVariable):
        return cls_vt
    if isinstance(obj, UserDefinedObjectVariable):
        cls_vt.source = TypeSource(obj.source) if obj.source else obj.cls_source
    elif isinstance(obj, DictSubclassVariable):  # (`type(L['cfg'])` for one passed in)
        cls_vt.source = obj.cls_source
    elif isinstance(obj, UserDefinedClassVariable) and obj.source is not None:
        cls_vt.source = TypeSource(obj.source)
        if changeable_metaclass(obj.value):
            tx.output.add_guard(GuardKind.ID_MATCH, cls_vt.source, cls_vt.value)
    return cls_vt
