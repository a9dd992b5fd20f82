"""Structured values: NamedTuples and frozen dataclasses, proxied field by field.

A NamedTuple is a tuple whose items are read lazily (only fields the trace reads are guarded);
a frozen dataclass instance is a user object whose fields can't change, so both may be taken
apart into graph inputs and rebuilt when returned. The `dataclasses` helpers (`replace`,
`fields`, `asdict`, `astuple`, `is_dataclass`) are modeled here, never run on trackers.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic

from guards.sources import AttrSource, ItemSource, TypeSource
from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, KnownObjectVariable, NotConstantError, VariableTracker
from variables.class_lookup import (
    class_dict_source,
    guard_class_names,
    lookup_class_attr,
    made_class,
    pin_value,
)
from variables.class_protocols import module_path_source
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable
from variables.functions import UserFunctionVariable, bind_with_signature
from variables.lists import BaseListVariable, ListVariable, TupleVariable
from variables.sym import SymNumberVariable
from variables.tensor import TensorVariable
from variables.user_defined import (
    UserDefinedClassVariable,
    UserDefinedObjectVariable,
    wrap_class_member,
)

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def is_namedtuple_class(cls: type) -> bool:
    return issubclass(cls, tuple) and issubclass(type(getattr(cls, "_fields", None)), tuple)


def _code_of(member: Any) -> Any:
    """The code object of a function or of a classmethod's function, else None."""
    func = getattr(member, "__func__", member)
    return getattr(func, "__code__", None)


_GENERATED = collections.namedtuple("_GENERATED", "a")
"""A namedtuple made by `collections`: every namedtuple class's `_replace`, `_asdict` and
`_make` share its methods' code objects, which is how a class's own override is told apart."""


def _uses_generated(cls: type, *names: str) -> bool:
    """Are `cls`'s `names` the ones `collections.namedtuple` made (not the user's override)?"""
    return all(
        _code_of(lookup_class_attr(cls, name)[0]) is _code_of(_GENERATED.__dict__[name])
        for name in names
    )


_TUPLEGETTER = type(vars(collections.namedtuple("_Generated", "a"))["a"])
"""The class of a named tuple's field accessors (`P.x`: the item at the field's position)."""

NAMEDTUPLE_PINNED = (
    "__new__", "__repr__", "__getnewargs__", "_make", "_replace", "_asdict", "_fields",
    "__match_args__", "_field_defaults",
)  # fmt: skip
"""What a NamedTupleVariable relies on its class holding as `collections.namedtuple` made it,
without reading it through a source: pinned by identity (`guard_class_names`), besides the
class's names. (`__new__`'s defaults are pinned with it: see `guard_namedtuple_class`.)"""


def guard_namedtuple_class(tx: TranslatorBase, cls: type, cls_source: Source | None) -> None:
    """A named tuple class keeps its names and the members NamedTupleVariable relies on, and
    its `__new__` the defaults it binds with (`construct_namedtuple`)."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    guard_class_names(tx, cls, cls_source, (*NAMEDTUPLE_PINNED, *fields))  # accessors too
    member, owner = lookup_class_attr(cls, "__new__")
    wrapped = type(member) is staticmethod  # (as namedtuple makes it)
    new = member.__func__ if wrapped else member
    if not inspect.isfunction(new) or owner is None:
        return
    dict_source = class_dict_source(tx, cls, cls_source, cls.__mro__.index(owner))
    if dict_source is None:  # (made in the frame: new on every call)
        return
    where = ItemSource(dict_source, "__new__")
    defaults = AttrSource(AttrSource(where, "__func__") if wrapped else where, "__defaults__")
    pin_value(tx, defaults, new.__defaults__)


def is_frozen_dataclass(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


_GENERATED_SPECIAL_NAMES = frozenset(
    {
        "__new__", "__repr__", "__getnewargs__", "__match_args__", "__replace__", "__slots__",
        "__doc__", "__module__", "__annotations__", "__orig_bases__", "__parameters__",
        "__class_getitem__", "__init_subclass__", "__firstlineno__", "__static_attributes__",
        "__dict__", "__weakref__", "__slotnames__",
    }
)  # fmt: skip
"""The special names `collections.namedtuple` and `typing.NamedTuple` (3.11 to 3.13) give a
class, and bookkeeping (a subclass's dict, copyreg's cache of slot names)."""


def _own_special_methods(cls: type) -> tuple[str, ...]:
    """The special names a named tuple class (or a subclass of one) defines beyond those it is
    made with (`__add__`, `__len__`, `__eq__`, `__init__`): a NamedTupleVariable models
    tuple's own, so such a class is not modeled."""
    mine = [k for k in cls.__mro__ if k not in (tuple, object) and k is not Generic]
    names = {name for k in mine for name in vars(k) if name.startswith("__")}
    return tuple(sorted(names - _GENERATED_SPECIAL_NAMES))


class NamedTupleVariable(TupleVariable):
    """`NamedTupleVariable(Point(x=ConstantVariable(int: 1), y=TensorVariable(...)))`."""

    __slots__ = ("tuple_cls",)

    def __init__(
        self, items: Sequence[VariableTracker], tuple_cls: type, source: Source | None = None
    ) -> None:
        own = _own_special_methods(tuple_cls)
        if own:  # the tuple operations below would skip them
            unimplemented("namedtuple", f"{tuple_cls.__name__} defines {', '.join(own)}")
        super().__init__(items, source)
        self.tuple_cls = tuple_cls

    def python_type(self) -> type:
        return self.tuple_cls

    def as_python_constant(self) -> Any:
        return self.tuple_cls(*(item.as_python_constant() for item in self.items))

    def stand_in(self) -> Any:
        """An instance of the named tuple class holding the trackers, for CPython's error on a
        call its own method refuses (`t._replace(5)`); made with `tuple.__new__`, so no
        `__new__` of the class runs, and not at all for a class with `__del__`, which would
        see it."""
        if lookup_class_attr(self.tuple_cls, "__del__")[1] is not None:
            unimplemented("namedtuple", f"{self.tuple_cls.__name__} defines __del__")
        return tuple.__new__(self.tuple_cls, self.items)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        fields: tuple[str, ...] = self.tuple_cls._fields  # type: ignore[attr-defined]
        if name in fields and type(lookup_class_attr(self.tuple_cls, name)[0]) is _TUPLEGETTER:
            return self.items[fields.index(name)]  # (the accessor is pinned with the class)
        if name == "_fields":
            return ConstantVariable(fields)
        if name == "__class__":
            return builder.wrap_class(self.tuple_cls)
        # modeled when collections made them: `_replace` builds the result with `_make`
        if name == "_replace" and _uses_generated(self.tuple_cls, "_replace", "_make"):
            return GetAttrVariable(self, name)
        if name == "_asdict" and _uses_generated(self.tuple_cls, "_asdict"):
            return GetAttrVariable(self, name)
        member, owner = lookup_class_attr(self.tuple_cls, name)
        if owner is None or owner in (tuple, object):
            return super().var_getattr(tx, name)
        # read where a later change shows: through the class (a method, property or constant
        # replaced on it misses the guards of what it held)
        cls_source = (
            TypeSource(self.source)
            if self.source is not None
            else module_path_source(tx, self.tuple_cls)
        )
        if cls_source is None:
            unimplemented(
                "namedtuple", f"{name} of {self.tuple_cls.__name__}, a class with no source"
            )
        where = AttrSource(cls_source, name)
        if issubclass(type(member), property) and member.fget is not None:
            getter = wrap_class_member(tx, member.fget, AttrSource(where, "fget"), None, None)
            return getter.call_function(tx, [self], {})
        return wrap_class_member(tx, member, where, self, builder.wrap_class(self.tuple_cls))

    def method__replace(
        self, tx: TranslatorBase, /, **changes: VariableTracker
    ) -> VariableTracker:  # `/`: a field may be named `self` or `tx`
        fields: tuple[str, ...] = self.tuple_cls._fields  # type: ignore[attr-defined]
        if not set(changes) <= set(fields):
            # CPython's error (its type and wording change between versions), from the class's
            # own `_replace` called with the same names on an instance holding placeholders
            if lookup_class_attr(self.tuple_cls, "__del__")[1] is not None:
                unimplemented("namedtuple", f"{self.tuple_cls.__name__} defines __del__")
            placeholder: tuple[Any, ...] = tuple.__new__(self.tuple_cls, [None] * len(fields))
            tx.run_user_operation(
                self.tuple_cls._replace,  # type: ignore[attr-defined]
                placeholder,
                **dict.fromkeys(changes),
            )
            raise AssertionError(f"{self.tuple_cls.__name__}._replace accepted {list(changes)}")
        items = [changes.get(name, item) for name, item in zip(fields, self.items, strict=True)]
        return NamedTupleVariable(items, self.tuple_cls)

    def method__asdict(self, tx: TranslatorBase) -> VariableTracker:
        fields: tuple[str, ...] = self.tuple_cls._fields  # type: ignore[attr-defined]
        return ConstDictVariable(dict(zip(fields, self.items, strict=True)))

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            cg.load_function(self.tuple_cls)
            for item in self.items:
                cg(item)
            cg.call(len(self.items))

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        fields: tuple[str, ...] = self.tuple_cls._fields  # type: ignore[attr-defined]
        inner = ", ".join(f"{f}={v!r}" for f, v in zip(fields, self.items, strict=False))
        return f"NamedTupleVariable({self.tuple_cls.__qualname__}({inner})){self._src()}"


def is_struct_sequence(cls: type) -> bool:
    """A C struct sequence whose fields are exactly its tuple's items, all named
    (`torch.return_types.topk`; not `os.stat_result`, which holds more fields than items)."""
    items = getattr(cls, "n_sequence_fields", None)
    if not issubclass(cls, tuple) or type(items) is not int:
        return False
    fields = getattr(cls, "__match_args__", ())
    return getattr(cls, "n_fields", None) == items == len(fields) and (
        getattr(cls, "n_unnamed_fields", None) == 0
    )


class StructSequenceVariable(TupleVariable):
    """An op's named result, a C struct sequence (`is_struct_sequence`): `x.max(dim)` and
    `x.topk(k)` give `torch.return_types.max(values=..., indices=...)`. Its items are read by
    index or by field name; anything else a tuple does it does as a tuple (a slice of it, or
    `r + t`, is a plain tuple, as in CPython). Rebuilt as `cls(items)`, the one way to make one."""

    __slots__ = ("sequence_cls",)

    def __init__(
        self, items: Sequence[VariableTracker], sequence_cls: type, source: Source | None = None
    ) -> None:
        super().__init__(items, source)
        self.sequence_cls = sequence_cls

    def python_type(self) -> type:
        return self.sequence_cls

    def as_python_constant(self) -> Any:
        return self.sequence_cls(tuple(item.as_python_constant() for item in self.items))

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        fields: tuple[str, ...] = self.sequence_cls.__match_args__  # type: ignore[attr-defined]
        if name in fields:
            return self.items[fields.index(name)]
        if name == "__class__":
            return builder.wrap_class(self.sequence_cls)
        if name in vars(tuple):  # `count`, `index`
            return super().var_getattr(tx, name)
        unimplemented("struct-sequence", f"attribute {name} of {self.sequence_cls.__qualname__}")

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            cg.load_function(self.sequence_cls)
            self.reconstruct_items(cg)
            cg.build_tuple(len(self.items))
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        fields: tuple[str, ...] = self.sequence_cls.__match_args__  # type: ignore[attr-defined]
        inner = ", ".join(f"{f}={v!r}" for f, v in zip(fields, self.items, strict=False))
        return f"StructSequenceVariable({self.sequence_cls.__qualname__}({inner})){self._src()}"


def construct_namedtuple(
    tx: TranslatorBase,
    cls: type,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`Point(1, y=t)`: bind like the generated `__new__` does, without running it."""
    new = cls.__new__
    if not inspect.isfunction(new):
        unimplemented("namedtuple", f"{cls.__name__} has a non-Python __new__")
    defaults = [builder.wrap_constant_result(d) for d in (new.__defaults__ or ())]
    bound = bind_with_signature(
        tx, new.__code__, new.__qualname__, defaults, {}, [_CLS, *args], kwargs
    )
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    return NamedTupleVariable([bound[name] for name in fields], cls)


def tuple_new(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`tuple.__new__(cls, iterable=())` for `tuple` or a namedtuple class (what a namedtuple's
    `_make` calls): the items of the iterable, in a tuple of that class. CPython checks the
    call's shape and `cls` on a stand-in iterable first."""
    cls_vt = args[0].realize() if args else None
    cls = (
        cls_vt.as_python_constant() if cls_vt is not None and cls_vt.is_python_constant() else None
    )
    if cls is not tuple and not (isinstance(cls, type) and is_namedtuple_class(cls)):
        unimplemented("tuple-new", f"tuple.__new__ with {cls_vt!r}")
    if cls is not tuple:
        assert cls_vt is not None
        guard_namedtuple_class(tx, cls, cls_vt.source)  # it keeps what it was made with
    stand_ins = [() for _ in args[1:]]
    tx.run_user_operation(
        functools.partial(tuple.__new__, cls, *stand_ins, **dict.fromkeys(kwargs))
    )
    from variables.iterators import iterate

    items = iterate(tx, args[1]).unpack(tx) if len(args) > 1 else []
    if cls is tuple:
        return TupleVariable(items)
    return NamedTupleVariable(items, cls)


_CLS = ConstantVariable(None)
"""Stands for the `_cls` argument of a namedtuple's `__new__` while binding."""


class FrozenDataclassVariable(UserDefinedObjectVariable):
    """`FrozenDataclassVariable(Config @ L['cfg'])`: an instance of a frozen dataclass.

    Its fields can't change after `__init__`, so reading one is guarded once and a new instance
    built in the trace is a value: it can be rebuilt, compared, hashed and used as a dict key.
    """

    __slots__ = ("fields_guarded",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields_guarded = False
        """For an existing instance: are its fields guarded by value (see `hashable_key`)?"""

    def field_names(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self.cls)]

    def hashable_key(self, tx: TranslatorBase) -> Any:
        """The instance as a dict key: an existing one once each field is read (and so guarded
        by value: its hash and equality, generated from the fields, are then the same on every
        call that passes the guards); a class with its own `__eq__` or `__hash__` is not
        modeled."""
        if self.value is not None and not self.fields_guarded:
            if not generated_eq_and_hash(self.cls):
                unimplemented("dict-key", f"{self.cls.__name__} defines its own __eq__/__hash__")
            self.pin_value(tx)
            if not self.fields_guarded:
                unimplemented("dict-key", f"{self!r} as a key: a field is not a constant")
        return self.key_value()

    def pin_value(self, tx: TranslatorBase) -> None:
        """Guard each field of an existing instance by value (a field that is a graph input is
        specialized), so that the instance is a constant: the same on every call that passes
        the guards. A field that is no constant (a tensor) leaves it a non-constant."""
        if self.value is None or self.fields_guarded:
            return
        for name in self.field_names():
            field = self.var_getattr(tx, name).realize()
            if isinstance(field, SymNumberVariable):
                field = field.specialize(tx)
            if not field.is_python_constant():
                return
        self.fields_guarded = True

    def key_value(self) -> Any:
        """The real instance to use as a dict key (existing, once its fields are guarded), or
        an equal one built from constant fields without running `__init__`."""
        if self.value is not None:
            if not self.fields_guarded:  # its value is not pinned by any guard yet
                raise NotConstantError(self)
            return self.value
        try:
            values = {name: self.attrs[name].as_python_constant() for name in self.field_names()}
        except KeyError:
            raise NotConstantError(self) from None
        instance: Any = object.__new__(self.cls)
        for name, value in values.items():
            object.__setattr__(instance, name, value)
        return instance

    def as_python_constant(self) -> Any:
        return self.key_value()

    def __repr__(self) -> str:
        if self.source is not None:
            return f"FrozenDataclassVariable({self.cls.__qualname__} @ {self.source.name})"
        inner = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())
        return f"FrozenDataclassVariable({self.cls.__qualname__}({inner}))"


def generated_eq_and_hash(cls: type) -> bool:
    """Are `__eq__` and `__hash__` of a frozen dataclass the ones `dataclasses` generated
    (compiled from text, so their code has no file), comparing and hashing the fields?"""
    return all(
        getattr(getattr(cls.__dict__.get(name), "__code__", None), "co_filename", None)
        == "<string>"
        for name in ("__eq__", "__hash__")
    )


class DataclassFunctionVariable(KnownObjectVariable):
    """`dataclasses.replace/fields/asdict/astuple/is_dataclass`.

    A class from outside the frame can change after a compile (a field added to its
    `__dataclass_fields__`, a Field's name or flags set, the class no longer a dataclass):
    `fields`, `is_dataclass` and `replace` on one are the stdlib's Python, traced, so what
    they read is guarded where it is read; `asdict` and `astuple` (CPython's deep copy of each
    field, keyed by `id()`, does not trace) are modeled, with the field list from the traced
    `fields`. A class made in the frame was decorated while tracing, as the compiled code
    decorates the class it makes (variables/new_classes.py), and its Field objects exist only
    in this trace: all five are modeled on what it holds now."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        name = self.fn.__name__
        if name in ("fields", "is_dataclass", "replace") and not _made_in_frame(args[:1]):
            return _traced(tx, self.fn, args, kwargs)
        handler: Callable[..., VariableTracker] = getattr(self, f"call_{name}")
        return handler(tx, *args, **kwargs)

    def call_is_dataclass(self, tx: TranslatorBase, obj: VariableTracker) -> VariableTracker:
        cls = _class_of(obj.realize())
        return ConstantVariable(dataclasses.is_dataclass(cls))

    def call_fields(self, tx: TranslatorBase, obj: VariableTracker) -> VariableTracker:
        cls = _class_of(obj.realize())
        if not dataclasses.is_dataclass(cls):
            tx.raise_user_error(TypeError("must be called with a dataclass type or instance"))
        return TupleVariable([FieldVariable(f) for f in dataclasses.fields(cls)])

    def call_replace(
        self, tx: TranslatorBase, obj: VariableTracker, /, **changes: VariableTracker
    ) -> VariableTracker:  # `/`: CPython's; a field may be named `obj`, `self` or `tx`
        target = obj.realize()
        if not isinstance(target, UserDefinedObjectVariable) or not dataclasses.is_dataclass(
            target.cls
        ):
            tx.raise_user_error(TypeError("replace() should be called on dataclass instances"))
        init_kwargs: dict[str, VariableTracker] = {}
        for f in dataclasses.fields(target.cls):
            if not f.init:
                if f.name in changes:
                    tx.raise_user_error(
                        ValueError(
                            f"field {f.name} is declared with init=False, it cannot be "
                            "specified with replace()"
                        )
                    )
                continue
            changed = changes.pop(f.name, None)
            init_kwargs[f.name] = changed if changed is not None else target.var_getattr(tx, f.name)
        if changes:
            unknown = next(iter(changes))
            tx.raise_user_error(
                TypeError(
                    f"{target.cls.__name__}.__init__() got an unexpected keyword "
                    f"argument '{unknown}'"
                )
            )
        cls_vt = builder.wrap_class(target.cls)
        if target.source is None and target.cls_source is not None:
            cls_vt.source = target.cls_source
        return cls_vt.call_function(tx, [], init_kwargs)

    def call_asdict(
        self, tx: TranslatorBase, obj: VariableTracker, **factory: VariableTracker
    ) -> VariableTracker:
        return _top_level_plain(tx, obj, factory, "asdict")

    def call_astuple(
        self, tx: TranslatorBase, obj: VariableTracker, **factory: VariableTracker
    ) -> VariableTracker:
        return _top_level_plain(tx, obj, factory, "astuple")

    def __repr__(self) -> str:
        return f"DataclassFunctionVariable(dataclasses.{self.fn.__name__})"


class FieldVariable(VariableTracker):
    """A `dataclasses.Field` of a class made in the frame: its name, type and flags are
    constants."""

    __slots__ = ("field",)

    def __init__(self, field: dataclasses.Field[Any]) -> None:
        super().__init__(None)
        self.field = field

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in ("name", "init", "repr", "compare", "hash", "kw_only", "type"):
            return builder.wrap_constant_result(getattr(self.field, name))
        return super().var_getattr(tx, name)

    def __repr__(self) -> str:
        return f"FieldVariable({self.field.name})"


def _class_of(vt: VariableTracker) -> type:
    if isinstance(vt, UserDefinedClassVariable):
        return vt.value
    return vt.python_type()


def _made_in_frame(args: Sequence[VariableTracker]) -> bool:
    """Is the first argument a class made in the frame, or an object of one?"""
    return bool(args) and made_class(_class_of(args[0].realize())) is not None


def _traced(
    tx: TranslatorBase,
    fn: Callable[..., Any],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`fn(*args, **kwargs)` for a function of `dataclasses`, traced as the stdlib's Python."""
    return UserFunctionVariable(fn).call_function(tx, args, kwargs)  # type: ignore[arg-type]


def _is_dataclass_instance(tx: TranslatorBase, vt: VariableTracker) -> bool:
    """Is `vt` an object of a dataclass, as `dataclasses.is_dataclass` decides it?"""
    if not isinstance(vt, UserDefinedObjectVariable):
        return False
    if _made_in_frame([vt]):
        return dataclasses.is_dataclass(vt.cls)
    return bool(_traced(tx, dataclasses.is_dataclass, [vt], {}).as_python_constant())


def _field_names(tx: TranslatorBase, vt: UserDefinedObjectVariable) -> list[str]:
    """The names of a dataclass object's fields, in order, as `dataclasses.fields` gives them."""
    if _made_in_frame([vt]):
        return [f.name for f in dataclasses.fields(vt.cls)]
    fields = _traced(tx, dataclasses.fields, [vt], {}).unpack(tx)
    return [f.var_getattr(tx, "name").as_python_constant() for f in fields]


def _top_level_plain(
    tx: TranslatorBase, obj: VariableTracker, factory: dict[str, VariableTracker], name: str
) -> VariableTracker:
    """asdict/astuple: CPython's TypeError for anything but a dataclass instance (a dataclass
    itself included); a `dict_factory`/`tuple_factory` is not modeled."""
    vt = obj.realize()
    if not _is_dataclass_instance(tx, vt):
        tx.raise_user_error(TypeError(f"{name}() should be called on dataclass instances"))
    if factory:
        unimplemented("dataclass", f"{name}() with {', '.join(factory)}")
    return _as_plain(tx, vt, as_dict=name == "asdict")


def _as_plain(tx: TranslatorBase, vt: VariableTracker, as_dict: bool) -> VariableTracker:
    """asdict/astuple: recursive, and a copy all the way down (tensors are cloned, as
    `copy.deepcopy` gives a new tensor eagerly)."""
    vt = vt.realize()
    if _is_dataclass_instance(tx, vt):
        assert isinstance(vt, UserDefinedObjectVariable)
        pairs = {
            name: _as_plain(tx, vt.var_getattr(tx, name), as_dict) for name in _field_names(tx, vt)
        }
        return ConstDictVariable(pairs) if as_dict else TupleVariable(list(pairs.values()))
    if isinstance(vt, NamedTupleVariable):
        return NamedTupleVariable([_as_plain(tx, i, as_dict) for i in vt.items], vt.tuple_cls)
    if isinstance(vt, BaseListVariable):
        return type(vt)([_as_plain(tx, i, as_dict) for i in vt.items])
    if isinstance(vt, ConstDictVariable):
        return ConstDictVariable({k: _as_plain(tx, v, as_dict) for k, v in vt.items.items()})
    if isinstance(vt, TensorVariable):
        return vt.call_method(tx, "clone", [], {})

    if vt.is_python_constant() or isinstance(vt, SymNumberVariable):
        return vt
    unimplemented("dataclass", f"asdict/astuple of a field holding {vt!r}")


def dataclass_functions() -> dict[int, Callable[..., Any]]:
    table: list[Callable[..., Any]] = [
        dataclasses.replace,
        dataclasses.fields,
        dataclasses.asdict,
        dataclasses.astuple,
        dataclasses.is_dataclass,
    ]
    return {id(fn): fn for fn in table}


__all__ = [
    "DataclassFunctionVariable",
    "FieldVariable",
    "FrozenDataclassVariable",
    "ListVariable",
    "NamedTupleVariable",
    "construct_namedtuple",
    "guard_namedtuple_class",
    "is_frozen_dataclass",
    "is_namedtuple_class",
]
