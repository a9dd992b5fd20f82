"""User-defined classes and their instances.

Attributes are looked up statically, the way `object.__getattribute__` would find them, without
running user code: instance `__dict__` first unless the class has a data descriptor, then the
class MRO. Properties are inlined; a class with a custom `__getattribute__` (or a `__getattr__`
that would be needed) is not traced.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from guards.builder import has_instance_attr
from guards.guard import IMMUTABLE_TYPE, GuardKind
from guards.sources import AttrSource, ItemSource, TypeSource
from tracer.exc import Unsupported, unimplemented
from variables import (
    builder,
    dict_subclass,
    enum_members,
    list_subclass,
    slots,
    streams,
    value_objects,
    value_subclass,
)
from variables.base import VariableTracker
from variables.class_lookup import (
    ABSENT,
    custom_getattribute_reason,
    guard_class_names,
    guard_not_in_classes,
    lookup_class_attr,
    lookup_special,
    made_class,
    made_class_member_source,
    mro_source,
    stored_class_attr,
)
from variables.class_protocols import TRUTH_NAMES, guard_metaclass_specials, module_path_source
from variables.constant import ConstantVariable
from variables.functions import UserFunctionVariable, UserMethodVariable
from variables.misc import PartialVariable
from variables.protocol_results import Sized, Truthy, protocol_result
from variables.wrappers import FunctoolsPartialVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


_TYPE_READS_OWN_DICT = frozenset({"__doc__", "__module__"})


def _is_data_descriptor(member: Any) -> bool:
    return hasattr(type(member), "__set__") or hasattr(type(member), "__delete__")


def wrap_class(cls: type) -> VariableTracker:
    return builder.wrap_class(cls)


class _DeletedAttr(VariableTracker):
    """Marks an attribute deleted inside the trace (reads then raise AttributeError)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<deleted>"


DELETED_ATTR = _DeletedAttr()


def is_slot(member: Any, owner: type | None) -> bool:
    """A `__slots__` member of a user class (a member descriptor its class made)."""
    return (
        type(member) is types.MemberDescriptorType
        and owner is not None
        and "__slots__" in owner.__dict__
    )


def property_error(
    tx: TranslatorBase, prop: property, cls: type, action: str, source: Source | None
) -> None:
    """CPython's own AttributeError for a property with no getter, setter or deleter, raised
    by the property on a stand-in whose type has `cls`'s names (the message names the type by
    its `__qualname__`: `'f.<locals>.Q' object`). The property is pinned where the class holds
    it (`source`; None for a class made in the frame): one that gets the accessor later
    (`C.p = C.p.setter(f)`, a new property) misses."""
    if source is not None:
        tx.output.add_guard(GuardKind.ID_MATCH, source, prop)
    stand_in = type(cls.__name__, (), {"__qualname__": cls.__qualname__})()
    if action == "get":
        tx.run_user_operation(prop.__get__, stand_in, type(stand_in))
    elif action == "set":
        tx.run_user_operation(prop.__set__, stand_in, None)
    else:
        tx.run_user_operation(prop.__delete__, stand_in)
    raise AssertionError(f"property {action} without a function did not raise")


def wrap_class_member(
    tx: TranslatorBase,
    member: Any,
    source: Source | None,
    bound_to: VariableTracker | None,
    cls_vt: VariableTracker | None,
) -> VariableTracker:
    """What reading a class attribute gives: methods bind, static/class methods unwrap."""
    wrapper = tx.output.builder
    if issubclass(type(member), staticmethod):
        # `source` reads the attribute with getattr, which already unwraps a staticmethod:
        # it is the function (a classmethod's gives a bound method, hence its __func__)
        return wrapper.lazy(member.__func__, source).realize()
    if issubclass(type(member), classmethod):
        src = AttrSource(source, "__func__") if source is not None else None
        fn = wrapper.lazy(member.__func__, src).realize()
        assert cls_vt is not None
        if not isinstance(fn, UserFunctionVariable):
            unimplemented("classmethod", f"classmethod wrapping {fn!r} is not supported")
        return UserMethodVariable(fn, cls_vt)
    value = wrapper.lazy(member, source).realize()
    if bound_to is not None and type(member) is types.FunctionType:
        if isinstance(value, UserFunctionVariable):
            return UserMethodVariable(value, bound_to)

        return PartialVariable(value, [bound_to])
    return value


class UserDefinedClassVariable(VariableTracker):
    """`UserDefinedClassVariable(Config)`: a class; calling it creates an instance."""

    __slots__ = ("value",)

    def __init__(self, value: type, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value

    def python_type(self) -> type:
        return type(self.value)

    def as_python_constant(self) -> Any:
        return self.value

    def truthy(self, tx: TranslatorBase) -> bool:
        """`bool(cls)`: the metaclass's `__bool__`, then its `__len__` (guarded, or the frame
        breaks for a user metaclass's own: variables/class_protocols.py), else true."""
        guard_metaclass_specials(tx, self.value, self.source, TRUTH_NAMES, "bool()")
        return bool(self.value)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """`type.__getattribute__`: a data descriptor of a user metaclass first, then the
        class's own MRO, then the metaclass's other attributes (its methods bind to the class).
        Attributes `type` itself provides (`__mro__`, `__bases__`, ...) are not modeled.
        A class reached with no source (`type(e)` of an exception made in the frame, a
        member's class, a class pattern's) is read through its module's global of its name
        when it is that (`module_path_source`, pinned), so what is read from it is guarded."""
        if self.source is None and made_class(self.value) is None:
            self.source = module_path_source(tx, self.value)
        meta = type(self.value)
        if name in ("__name__", "__qualname__") and lookup_class_attr(meta, name)[1] is type:
            # a class's names can be assigned: read at its source (guarded by value); a class
            # with no source is one made in the frame (named anew on every call) or a value
            value = getattr(self.value, name)
            if self.source is None or self.value.__flags__ & IMMUTABLE_TYPE:
                return ConstantVariable(value)
            return tx.output.builder.wrap(value, AttrSource(self.source, name))
        if self.value in value_objects.VALUE_CLASSES:
            found = value_objects.class_attribute(self.value, name)
            if found is not None:
                return found
        if lookup_class_attr(meta, "__getattribute__")[0] is not type.__dict__["__getattribute__"]:
            unimplemented("metaclass", f"metaclass {meta.__name__} defines __getattribute__")
        meta_member, meta_owner = lookup_class_attr(meta, name)
        from_type = meta_owner is type or meta_owner is object
        source: Source | None = None if self.source is None else AttrSource(self.source, name)
        if meta_owner is not None and _is_data_descriptor(meta_member):
            if from_type:
                # type's `__doc__` and `__module__` read the class's own dict entry
                if name not in _TYPE_READS_OWN_DICT or name not in self.value.__dict__:
                    unimplemented("getattr", f"{name} of class {self.value.__name__} (type's)")
            elif issubclass(type(meta_member), property):
                return self._metaclass_property(tx, meta_member, name)
            else:
                unimplemented("metaclass", f"descriptor {meta.__name__}.{name} of a metaclass")
        stored = stored_class_attr(tx, self.value, self.source, name)
        if stored is not None:
            return stored
        member, owner = lookup_class_attr(self.value, name)
        if member is not ABSENT:
            if source is None:  # a class made in the frame, `name` from its base
                source = made_class_member_source(tx, self.value, name)
            if issubclass(type(member), property):
                unimplemented("getattr", f"reading property {name} from the class itself")
            getter = lookup_class_attr(type(member), "__get__")[0]
            if type(getter) is types.FunctionType and owner is not None:
                return self._descriptor_get(tx, member, owner, name, getter)
            return wrap_class_member(tx, member, source, None, self)
        if from_type:
            unimplemented("getattr", f"{name} of class {self.value.__name__} (type's)")
        if meta_owner is not None:
            self._guard_not_in_mro(tx, name)
            meta_source = AttrSource(TypeSource(self.source), name) if self.source else None
            return wrap_class_member(tx, meta_member, meta_source, self, wrap_class(meta))
        if self.meta_special(tx, "__getattr__")[1] is not None:
            unimplemented("metaclass", f"metaclass {meta.__name__} defines __getattr__")
        # found nowhere: what decided it is guarded (a name found is read through the class
        # at its source, a live lookup, and needs none of these)
        self.meta_special(tx, name)
        self.meta_special(tx, "__getattribute__")
        self._guard_not_in_mro(tx, name)  # set on the class later, it is found
        tx.raise_user_error(
            AttributeError(f"type object '{self.value.__name__}' has no attribute '{name}'")
        )

    def store_attr(self, tx: TranslatorBase, name: str, value: VariableTracker) -> None:
        """`cls.name = value` with `type.__setattr__`: recorded in the side effects, replayed
        onto the class, and read back by later lookups through the class, its subclasses and
        instances. Dunder names (CPython's protocol lookups read those) and values that are
        descriptors (functions become methods) are not modeled."""
        cls = self.value
        meta = type(cls)
        what = f"setting class attribute {cls.__name__}.{name}"
        if self.meta_special(tx, "__setattr__")[0] is not type.__dict__["__setattr__"]:
            unimplemented("setattr", f"{what}: metaclass {meta.__name__} defines __setattr__")
        if cls.__flags__ & IMMUTABLE_TYPE:  # a C type (array.array): CPython's TypeError
            tx.run_user_operation(type.__setattr__, cls, name, None)
        meta_member, meta_owner = lookup_class_attr(meta, name)
        if meta_owner is not None and _is_data_descriptor(meta_member):
            unimplemented("setattr", f"{what}: a data descriptor of its metaclass")
        if name.startswith("__") and name.endswith("__"):
            unimplemented("setattr", f"{what}: a special name")
        if self.source is None:
            unimplemented("setattr", f"{what}: a class with no known origin")
        value = value.realize()
        if lookup_class_attr(value.python_type(), "__get__")[1] is not None:
            unimplemented("setattr", f"{what} to {value!r}, a descriptor")
        tx.output.side_effects.store_class_attr(self, name, value)

    def _descriptor_get(
        self, tx: TranslatorBase, member: Any, owner: type, name: str, getter: Any
    ) -> VariableTracker:
        """A descriptor written in Python, read from the class: what its `__get__(None, cls)`
        returns (an Enum's member redirect gives the member), traced. The descriptor itself
        is read where it sits, `cls.__dict__[name]` of the class that holds it."""
        if self.source is None:
            unimplemented("getattr", f"descriptor {self.value.__name__}.{name} of a new class")
        index = self.value.__mro__.index(owner)
        holder = (
            self.source
            if index == 0
            else ItemSource(mro_source(tx, self.value, self.source), index)
        )
        raw = ItemSource(AttrSource(holder, "__dict__"), name)
        descriptor = tx.output.builder.lazy(member, raw).realize()
        get = tx.output.builder.lazy(getter, AttrSource(TypeSource(raw), "__get__")).realize()
        try:
            return get.call_function(tx, [descriptor, ConstantVariable(None), self], {})
        except Unsupported as e:
            fallback = self.metaclass_special(tx, "__getattr__")
            if fallback is None or not isinstance(e.user_exception, AttributeError):
                raise
        # type.__getattribute__ failed: CPython asks the metaclass's __getattr__
        return fallback.call_function(tx, [ConstantVariable(name)], {})

    def _guard_not_in_mro(self, tx: TranslatorBase, name: str) -> None:
        """The class's MRO still lacks `name` (else it would hide the metaclass's attribute)."""
        guard_not_in_classes(tx, self.value, self.source, name)

    def _metaclass_property(self, tx: TranslatorBase, prop: property, name: str) -> VariableTracker:
        """A property of the metaclass read on the class: its getter called with the class."""
        if prop.fget is None:
            where = AttrSource(TypeSource(self.source), name) if self.source is not None else None
            property_error(tx, prop, type(self.value), "get", where)
        fget_source = None
        if self.source is not None:
            fget_source = AttrSource(AttrSource(TypeSource(self.source), name), "fget")
        getter = wrap_class_member(tx, prop.fget, fget_source, None, None)
        return getter.call_function(tx, [self], {})

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """A protocol call on the class (`len(cls)`, `x in cls`, `iter(cls)` for an Enum): the
        special method is looked up on the metaclass alone, as CPython's slots do, and a user
        metaclass's Python method is traced with the class bound."""
        method = self.metaclass_special(tx, name)
        if method is None:
            return super().call_method(tx, name, args, kwargs)
        return method.call_function(tx, args, kwargs)

    def meta_special(self, tx: TranslatorBase, name: str) -> tuple[Any, type | None]:
        """`(member, owner)` of `name` on the metaclass's MRO, where CPython looks a class's
        special methods (and then its attributes) up, with what was found guarded
        (`class_lookup.lookup_special`)."""
        source = TypeSource(self.source) if self.source is not None else None
        return lookup_special(tx, type(self.value), source, name)

    def metaclass_special(self, tx: TranslatorBase, name: str) -> VariableTracker | None:
        """The metaclass's Python function `name` bound to the class, or None."""
        meta = type(self.value)
        member, owner = self.meta_special(tx, name)
        if owner is None or owner is type or type(member) is not types.FunctionType:
            return None
        source = AttrSource(TypeSource(self.source), name) if self.source is not None else None
        return wrap_class_member(tx, member, source, self, wrap_class(meta))

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if self.value in value_objects.VALUE_CLASSES:
            return value_objects.construct(tx, self.value, args, kwargs)
        if self.value in streams.STREAM_CLASSES:
            return streams.make_stream(tx, self.value, args, kwargs)
        if list_subclass.is_plain_list_subclass(self.value):
            return list_subclass.make_list_subclass(tx, self.value, args, kwargs)
        if value_subclass.is_value_subclass(self.value):
            return value_subclass.make_value_subclass(tx, self.value, self.source, args, kwargs)
        if dict_subclass.is_dict_subclass(self.value):
            return dict_subclass.make_dict_subclass(tx, self.value, self.source, args, kwargs)
        if self.value is functools.partial:
            return FunctoolsPartialVariable.create(tx, args, kwargs)
        if enum_members.is_enum_class(self.value):
            guard_class_names(tx, self.value, self.source)  # what a member does stays
            return enum_members.lookup_member(tx, self.value, args, kwargs)
        if self.value in tx.output.world.constant_classes and all(
            v.is_python_constant() for v in (*args, *kwargs.values())
        ):  # `torch.device("cpu")`, `torch.finfo(x.dtype)`: C constructors of immutable values
            made = tx.run_user_operation(
                self.value,
                *(a.as_python_constant() for a in args),
                **{k: v.as_python_constant() for k, v in kwargs.items()},
            )
            return builder.wrap_constant_result(made)
        return tx.output.side_effects.new_user_object(tx, self, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.load_const(self.value)

    def __repr__(self) -> str:
        return f"UserDefinedClassVariable({self.value.__qualname__}{self._src()})"


_MODULE_DICT: Any = vars(types.ModuleType)["__dict__"]
"""A module's own dict, read without asking its class (which may define `__dict__`)."""


class UserDefinedObjectVariable(VariableTracker):
    """`UserDefinedObjectVariable(Counter @ L['c'])`: an instance of a user class.

    `value` is the real object for one read from outside (guarded by TYPE_MATCH at its source),
    or None for an object created inside the trace, whose attributes live in `attrs`.
    """

    __slots__ = ("attrs", "cls", "cls_source", "value")

    def __init__(
        self,
        value: Any,
        cls: type,
        source: Source | None = None,
        attrs: dict[str, VariableTracker] | None = None,
        cls_source: Source | None = None,
    ) -> None:
        super().__init__(source)
        self.value = value
        self.cls = cls
        self.attrs: dict[str, VariableTracker] = dict(attrs or {})
        self.cls_source = cls_source
        """Where the class of a new object came from (its methods are guarded there)."""

    @property
    def is_new(self) -> bool:
        return self.source is None

    def python_type(self) -> type:
        return self.cls

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        reason = custom_getattribute_reason(self.cls)
        if reason is not None:
            unimplemented("getattr", reason)
        cls_source = self.class_source()
        if name == "__class__" and lookup_class_attr(self.cls, name)[1] is object:
            # found where the object's class is (its type is guarded); a class may define a
            # `__class__` of its own (test_super), found like any other attribute below
            cls_vt = builder.wrap_class(self.cls)
            if isinstance(cls_vt, UserDefinedClassVariable):
                cls_vt.source = cls_source
            return cls_vt
        stored = stored_class_attr(tx, self.cls, cls_source, name)
        if stored is not None:  # a class attribute this trace assigned: a plain value
            own = self._instance_attr(tx, name)
            return own if own is not None else stored
        member, owner = lookup_class_attr(self.cls, name)
        is_data_descriptor = member is not ABSENT and _is_data_descriptor(member)
        if issubclass(type(member), property):
            try:
                if member.fget is None:
                    property_error(tx, member, self.cls, "get", self._class_source(tx, name))
                getter = wrap_class_member(
                    tx,
                    member.fget,
                    self._class_source(tx, name, "fget"),
                    None,
                    None,
                )
                return getter.call_function(tx, [self], {})
            except Unsupported as e:
                if isinstance(e.user_exception, AttributeError):
                    self._no_getattr_fallback(tx, name)
                raise
        if self._is_slot(tx, name, member, owner):
            if not self._slot_filled(tx, name, member):
                self._no_getattr_fallback(tx, name)
            return self._slot_value(tx, name, member)
        if is_data_descriptor:
            unimplemented("getattr", f"descriptor attribute {self.cls.__name__}.{name}")
        own = self._instance_attr(tx, name)
        if own is not None:
            return own
        if member is ABSENT:
            guard_not_in_classes(tx, self.cls, cls_source, name)
            return self.missing_attr(tx, name)
        if hasattr(type(member), "__get__") and not issubclass(
            type(member), types.FunctionType | staticmethod | classmethod
        ):
            unimplemented("getattr", f"descriptor attribute {self.cls.__name__}.{name}")
        source = self._class_source(tx, name)
        return wrap_class_member(tx, member, source, self, builder.wrap_class(self.cls))

    def special_method(
        self, tx: TranslatorBase, name: str, *, pin: bool = False
    ) -> tuple[Any, type | None]:
        """`(method, owner)` of special method `name` as CPython finds it, on the class, with
        what was found guarded (`class_lookup.lookup_special`)."""
        return lookup_special(tx, self.cls, self.class_source(), name, pin=pin)

    def _no_getattr_fallback(self, tx: TranslatorBase, name: str) -> None:
        """A descriptor's AttributeError (a property's, an empty slot's) makes CPython call
        the class's `__getattr__`, which is not traced here: break when the class has one."""
        if self.special_method(tx, "__getattr__")[0] is not ABSENT:
            unimplemented(
                "getattr",
                f"{self.cls.__name__}.{name} raised AttributeError and "
                f"{self.cls.__name__} defines __getattr__",
            )

    def missing_attr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """Normal lookup found nothing (its places guarded to still lack `name`): CPython calls
        the class's `__getattr__`, `type(obj).__getattr__(obj, name)`, traced like any method
        (pinned where it was found); without one, it raises AttributeError. A special name
        is not asked of `__getattr__` (the tracer looks those up for CPython's implicit
        lookups, which skip it), nor is a `__getattr__` that is not a Python function: both
        break the frame. (A subclass may model its own, as nn.Module's does.)"""
        if issubclass(self.cls, types.ModuleType):
            self._module_lookup_fails(tx, name)
        member, _owner = self.special_method(tx, "__getattr__", pin=True)
        if member is ABSENT:
            tx.raise_user_error(
                AttributeError(f"'{self.cls.__name__}' object has no attribute '{name}'")
            )
        if type(member) is not types.FunctionType or (
            name.startswith("__") and name.endswith("__")
        ):
            unimplemented("getattr", f"{self.cls.__name__} defines __getattr__ ({name})")
        getattr_vt = wrap_class_member(
            tx,
            member,
            self._class_source(tx, "__getattr__"),
            self,
            builder.wrap_class(self.cls),
        )
        return getattr_vt.call_function(tx, [ConstantVariable(name)], {})

    def _module_lookup_fails(self, tx: TranslatorBase, name: str) -> None:
        """An object of a module subclass (`torch._VF`): after the generic lookup, module's
        own `__getattribute__` asks a `__getattr__` in the object's dict (PEP 562), then
        raises with its own message; only then does CPython call the class's `__getattr__`.
        Traced when the dict has none (guarded to stay so) and the class has one; else a
        break."""
        own = _MODULE_DICT.__get__(self.value) if self.value is not None else None
        has_class_getattr = self.special_method(tx, "__getattr__")[0] is not ABSENT
        if self.source is None or type(own) is not dict or "__getattr__" in own:
            has_class_getattr = False
        if not has_class_getattr:
            unimplemented("getattr", f"missing attribute {name} of module subclass object")
        assert self.source is not None
        tx.output.guard_name_absent(AttrSource(self.source, "__dict__"), "__getattr__")

    def _class_source(self, tx: TranslatorBase, name: str, *more: str) -> Source | None:
        """Where the class attribute `name` (and `more` below it: a property's `fget`) is
        read: `type(L['o']).name`, the class's own source's, or, for a class made in the
        frame, its base's from outside (`made_class_member_source`)."""
        cls_source = self.class_source()
        if cls_source is not None:
            source: Source | None = AttrSource(cls_source, name)
        else:
            source = made_class_member_source(tx, self.cls, name)
        for part in more:
            source = None if source is None else AttrSource(source, part)
        return source

    def _instance_attr(self, tx: TranslatorBase, name: str) -> VariableTracker | None:
        """The instance-dict entry for `name`, guarding its presence or absence at the source."""
        if name in self.attrs:
            found = self.attrs[name]
            return None if found is DELETED_ATTR else found
        if self.is_new:
            return None
        assert self.source is not None
        instance_dict = getattr(self.value, "__dict__", None)
        if instance_dict is None and slots.has_instance_dict(self.cls):
            # a C type's own dict with no `__dict__` attribute (3.12's TypeVar keeps the
            # `__module__` its constructor found there): not readable, nor guardable
            unimplemented("getattr", f"{self.cls.__name__} objects keep an unexposed __dict__")
        dict_source = AttrSource(self.source, "__dict__")
        if instance_dict is None or name not in instance_dict:
            if instance_dict is not None:
                tx.output.guard_name_absent(dict_source, name)
            return None
        tx.output.guard_attr_present(self.source, name)
        return tx.output.builder.lazy(instance_dict[name], AttrSource(self.source, name))

    def _slot_value(self, tx: TranslatorBase, name: str, member: Any) -> VariableTracker:
        """A `__slots__` member: the value stored in the trace, else the object's own, read at
        `L['x'].name` once HASATTR says it is filled; an empty slot raises CPython's error."""
        if self._slot_filled(tx, name, member):
            found = self.attrs.get(name)
            if found is not None:
                return found
            assert self.source is not None
            value = member.__get__(self.value, self.cls)
            return tx.output.builder.lazy(value, AttrSource(self.source, name))
        self._raise_empty_slot_error(tx, name, member.__get__)

    def _raise_empty_slot_error(self, tx: TranslatorBase, name: str, access: Any) -> NoReturn:
        """Reading or deleting an empty slot: CPython's own error, got by doing the same on
        the object itself when it came from outside with the slot empty, else on a bare
        instance of its class (`variables.slots`)."""
        if not self.is_new and self.source is not None and not has_instance_attr(self.value, name):
            tx.run_user_operation(access, self.value)
        slots.raise_on_bare_instance(tx, self.cls, f"empty slot {self.cls.__name__}.{name}", access)

    def _is_slot(self, tx: TranslatorBase, name: str, member: Any, owner: type | None) -> bool:
        """Is `member` (found as `name` on the class) a `__slots__` member? Then it is pinned
        where the class holds it: replaced by a class attribute or deleted from the class
        later, the slot no longer takes reads and stores."""
        if not is_slot(member, owner):
            return False
        source = self._class_source(tx, name)
        if source is not None:
            tx.output.add_guard(GuardKind.ID_MATCH, source, member)
        return True

    def _slot_filled(self, tx: TranslatorBase, name: str, member: Any) -> bool:
        """Does slot `name` hold a value now (guarded for an object from outside)?"""
        if name in self.attrs:
            return self.attrs[name] is not DELETED_ATTR
        if self.is_new:
            return False
        assert self.source is not None
        filled = has_instance_attr(self.value, name)
        kind = GuardKind.HASATTR if filled else GuardKind.NO_HASATTR
        tx.output.add_guard(kind, self.source, name)
        return filled

    def store_attr(self, tx: TranslatorBase, name: str, value: VariableTracker) -> None:
        """`obj.name = value`: a class `__setattr__` (a frozen dataclass's, say) is inlined."""
        setattr_fn, _owner = self.special_method(tx, "__setattr__")
        if setattr_fn is not object.__dict__["__setattr__"]:
            if type(setattr_fn) is not types.FunctionType:
                unimplemented("setattr", f"{self.cls.__name__} defines a C __setattr__")

            self.call_method(tx, "__setattr__", [ConstantVariable(name), value], {})
            return
        self.object_setattr(tx, name, value)

    def class_source(self) -> Source | None:
        """Where the object's class is read from: `type(<source>)`, or the class's own source
        for an object made in the frame."""
        return TypeSource(self.source) if self.source is not None else self.cls_source

    def object_setattr(self, tx: TranslatorBase, name: str, value: VariableTracker) -> None:
        """`object.__setattr__(obj, name, value)`: the store itself, with no class hook."""
        member, owner = lookup_class_attr(self.cls, name)
        if issubclass(type(member), property):
            if member.fset is None:
                property_error(tx, member, self.cls, "set", self._class_source(tx, name))
            setter = wrap_class_member(
                tx,
                member.fset,
                self._class_source(tx, name, "fset"),
                None,
                None,
            )
            setter.call_function(tx, [self, value], {})
            return
        slot = self._is_slot(tx, name, member, owner)
        if member is not ABSENT and hasattr(type(member), "__set__") and not slot:
            unimplemented("setattr", f"assigning to descriptor {self.cls.__name__}.{name}")
        if member is ABSENT:  # a data descriptor set on a class later would take the store
            guard_not_in_classes(tx, self.cls, self.class_source(), name)
        if not slot and not slots.has_instance_dict(self.cls):
            what = f"storing {self.cls.__name__}.{name} (no slot, no __dict__)"
            store = lambda bare: object.__setattr__(bare, name, None)  # noqa: E731
            slots.raise_on_bare_instance(tx, self.cls, what, store)
        if not self.is_new:
            tx.output.side_effects.store_attr(tx, self, name, value)
        self.attrs[name] = value

    def delete_attr(self, tx: TranslatorBase, name: str) -> None:
        delattr_fn, _owner = self.special_method(tx, "__delattr__")
        if delattr_fn is not object.__dict__["__delattr__"]:
            if type(delattr_fn) is not types.FunctionType:
                unimplemented("delattr", f"{self.cls.__name__} defines a C __delattr__")

            self.call_method(tx, "__delattr__", [ConstantVariable(name)], {})
            return
        self.object_delattr(tx, name)

    def object_delattr(self, tx: TranslatorBase, name: str) -> None:
        """`object.__delattr__(obj, name)`: the deletion itself, with no class hook."""
        member, owner = lookup_class_attr(self.cls, name)
        if issubclass(type(member), property):
            if member.fdel is None:
                property_error(tx, member, self.cls, "delete", self._class_source(tx, name))
            deleter = wrap_class_member(
                tx,
                member.fdel,
                self._class_source(tx, name, "fdel"),
                None,
                None,
            )
            deleter.call_function(tx, [self], {})
            return
        if self._is_slot(tx, name, member, owner):
            if not self._slot_filled(tx, name, member):
                self._raise_empty_slot_error(tx, name, member.__delete__)
            if not self.is_new:  # a slot empty at the call and filled by the trace: no replay
                assert self.source is not None
                existed = has_instance_attr(self.value, name)
                kind = GuardKind.HASATTR if existed else GuardKind.NO_HASATTR
                tx.output.add_guard(kind, self.source, name)
                tx.output.side_effects.delete_attr(tx, self, name, existed)
            self.attrs[name] = DELETED_ATTR
            return
        if member is not ABSENT and _is_data_descriptor(member):
            unimplemented("delattr", f"deleting descriptor {self.cls.__name__}.{name}")
        if self._instance_attr(tx, name) is None:
            tx.raise_user_error(
                AttributeError(f"'{self.cls.__name__}' object has no attribute '{name}'")
            )
        if not self.is_new:
            existed = name in getattr(self.value, "__dict__", {})
            tx.output.side_effects.delete_attr(tx, self, name, existed)
        self.attrs[name] = DELETED_ATTR

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`obj.name(*args)` as the operations that call a method implicitly ask it (`len`,
        `bool`, `with`, calling the object; an explicit `obj.name(...)` reads `var_getattr`):
        a special method is looked up on the class only, never in the instance dict
        (`type(obj).__len__(obj)`, as CPython's `_PyObject_LookupSpecial`)."""
        if name.startswith("__") and name.endswith("__"):
            method = self.bound_special(tx, name)
            if method is not None:
                return method.call_function(tx, args, kwargs)
        return self.var_getattr(tx, name).call_function(tx, args, kwargs)

    def bound_special(self, tx: TranslatorBase, name: str) -> VariableTracker | None:
        """Special method `name` bound as CPython's implicit lookups bind it: found on the
        class (guarded there), never in the instance dict; None when the class has none, or
        has one that is not a function, static or class method."""
        member, owner = self.special_method(tx, name)
        if owner is None or type(member) not in _BOUND_FROM_CLASS:
            return None
        source = self._class_source(tx, name)
        return wrap_class_member(tx, member, source, self, builder.wrap_class(self.cls))

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if self.special_method(tx, "__call__")[1] is None:
            tx.raise_user_error(TypeError(f"'{self.cls.__name__}' object is not callable"))
        return self.call_method(tx, "__call__", args, kwargs)

    def truthy(self, tx: TranslatorBase) -> bool:
        if self.special_method(tx, "__bool__")[1] is not None:
            return bool(protocol_result(tx, bool, Truthy, self.call_method(tx, "__bool__", [], {})))
        if self.special_method(tx, "__len__")[1] is not None:
            return bool(protocol_result(tx, bool, Sized, self.call_method(tx, "__len__", [], {})))
        return True

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        cg.new_object(self, self.cls, self.attrs)

    def __repr__(self) -> str:
        if self.is_new:
            return f"UserDefinedObjectVariable({self.cls.__qualname__}, new)"
        return f"UserDefinedObjectVariable({self.cls.__qualname__}{self._src()})"


class ObjectNewVariable(VariableTracker):
    """`object.__new__`, reached as `super().__new__` in a class's `__new__` (Fraction's) or
    read from `object` (`object.__new__(Decimal)`): `object.__new__(cls)` makes a blank
    instance of a plain user class, running no `__init__`, like a class call without one."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls_vt = args[0].realize() if args else None
        if len(args) != 1 or kwargs or not isinstance(cls_vt, UserDefinedClassVariable):
            unimplemented("new-object", "object.__new__ with these arguments")  # eager decides
        cls = cls_vt.value
        mro = cls.__mro__
        plain = mro[-1] is object and all(k.__flags__ & _TPFLAGS_HEAPTYPE for k in mro[:-1])
        if not plain or getattr(cls, "__abstractmethods__", None):
            unimplemented("new-object", f"object.__new__({cls.__name__}): not a plain class")
        from variables.modes import is_mode_class
        from variables.structured import is_frozen_dataclass

        if is_frozen_dataclass(cls) or is_mode_class(cls):  # their own trackers
            unimplemented("new-object", f"object.__new__({cls.__name__})")
        return UserDefinedObjectVariable(None, cls, cls_source=cls_vt.source)

    def __repr__(self) -> str:
        return "ObjectNewVariable()"


_TPFLAGS_HEAPTYPE = 1 << 9
"""Set on classes made by a class statement; a builtin base (list, int) needs its own __new__."""


_BOUND_FROM_CLASS = (types.FunctionType, staticmethod, classmethod)
"""Special methods `UserDefinedObjectVariable.call_method` binds from the class itself."""
