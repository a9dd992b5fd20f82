"""What a class holds: `name` looked up along the MRO as the ordinary attribute lookup does
(without calling descriptors), and the guards that keep what the lookup found, or did not
find, true on later calls.

Used by every tracker of objects and classes (variables/user_defined.py, the runtime's and
torch's nn.Modules, operators, iteration): a trace reads class dicts at trace time, and a class
attribute set afterwards (on the class or a base), a special method a protocol found missing
set later, or `__bases__` reassigned (a new MRO) must make the cached trace miss
(notes/guards.md "What a class holds, guarded").
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

from guards.constants import is_constant
from guards.guard import IMMUTABLE_TYPE, GuardKind, generic_getattribute
from guards.sources import AttrSource, ItemSource, IterationSource
from tracer.exc import unimplemented

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker
    from variables.new_classes import NewClassVariable

ABSENT: Any = object()
"""What `lookup_class_attr` finds when no class on the MRO holds the name."""


def lookup_class_attr(cls: type, name: str) -> tuple[Any, type | None]:
    """`(value, owner)` for `name` found on `cls`'s MRO, without invoking descriptors."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name], klass
    return ABSENT, None


def guard_not_in_classes(
    tx: TranslatorBase,
    cls: type,
    cls_source: Source | None,
    name: str,
    before: type | None = None,
    start: int = 0,
) -> None:
    """The trace found no `name` on `cls`'s MRO (an AttributeError, a `getattr` default,
    `Module.__getattr__` asked), or found it first on `before`: guard each class dict on the
    MRO (from `start`, where `super()` starts looking, up to `before`) to still lack it, since
    a class attribute set later is what the ordinary lookup would find. A class whose
    attributes cannot change (`object`) is not guarded. Each class's dict is reached through
    the first source the trace used for it (`OutputGraph.class_dict_sources`): the class
    source here is pinned (a TYPE_MATCH on the object, an ID_MATCH on the class), so every
    way to that class reaches the same dict. A class made in the frame has a new dict on
    every call, and the classes it got from its bases are guarded through them (`class_at`);
    another class with no source is not guarded."""
    key = (cls, name, before, start)
    if before is cls or key in tx.output.class_names_absent:
        return  # (found on `cls` itself: no class comes before it)
    if cls_source is None and made_class(cls) is None:
        return
    tx.output.class_names_absent.add(key)
    if cls_source is not None:
        mro_source(tx, cls, cls_source)  # which classes come before `before` is the MRO's say
    for index, klass in enumerate(cls.__mro__):
        if klass is before:
            break
        if index < start or klass.__flags__ & IMMUTABLE_TYPE:
            continue
        dict_source = class_dict_source(tx, cls, cls_source, index)
        if dict_source is not None:  # (None: made in the frame, its dict new on every call)
            tx.output.guard_name_absent(dict_source, name)


def class_dict_source(
    tx: TranslatorBase, cls: type, cls_source: Source | None, index: int
) -> Source | None:
    """Where the trace reads the dict of `cls.__mro__[index]`: the first source it used for
    that class (`OutputGraph.class_dict_sources`), else `<class_at>.__dict__`."""
    klass = cls.__mro__[index]
    dict_source = tx.output.class_dict_sources.get(klass)
    if dict_source is None:
        holder = class_at(tx, cls, cls_source, index)
        if holder is None:
            return None
        dict_source = tx.output.class_dict_sources[klass] = AttrSource(holder, "__dict__")
    return dict_source


def class_at(tx: TranslatorBase, cls: type, cls_source: Source | None, index: int) -> Source | None:
    """Where the trace reads `cls.__mro__[index]`: `cls_source` itself for the class (pinned
    there, whatever its bases), `<cls_source>.__mro__[index]` for a base (in the pinned MRO).
    For a class made in the frame (no source, a new class on every call), a class that comes
    from one of its bases is read through the first base from outside whose MRO holds it
    (`G['Base'].__mro__[1]`), and every base from outside has its MRO pinned, since the made
    class's MRO is made from theirs; None for a class made in the frame itself."""
    if cls_source is not None:
        return cls_source if index == 0 else ItemSource(mro_source(tx, cls, cls_source), index)
    made = made_class(cls)
    if made is None or index == 0:
        return None
    klass, found = cls.__mro__[index], None
    for base_vt in made.bases:
        base = base_vt.as_python_constant()
        holder = (
            class_at(tx, base, base_vt.source, base.__mro__.index(klass))
            if klass in base.__mro__
            else None
        )
        if base_vt.source is not None:
            mro_source(tx, base, base_vt.source)
        if found is None:
            found = holder
    return found


def made_class(cls: type) -> NewClassVariable | None:
    """The tracker of `cls` when this trace's frame made it (a class statement), else None."""
    from variables.new_classes import made_in_frame

    made = made_in_frame(cls)
    return made if made is not None and made.value is cls else None


def made_class_member_source(tx: TranslatorBase, cls: type, name: str) -> Source | None:
    """Where the trace reads `name`, found on a class that a class made in the frame got from
    a base from outside (`G['Base'].m`), with the classes before it guarded to still lack the
    name; None when the frame made the class holding it too (or no class)."""
    owner = lookup_class_attr(cls, name)[1]
    if owner is None:
        return None
    guard_not_in_classes(tx, cls, None, name, owner)
    holder = class_at(tx, cls, None, cls.__mro__.index(owner))
    return None if holder is None else AttrSource(holder, name)


def mro_source(tx: TranslatorBase, cls: type, cls_source: Source) -> Source:
    """Where the trace reads `cls.__mro__` to reach a class at a fixed position
    (`type(L['o']).__mro__[1]`): the first source it used for that class's MRO
    (`OutputGraph.class_mro_sources`), pinned there by an ID_MATCH on the tuple when the class
    can change. Assigning `__bases__` (the class's, or a base's) gives the class a new MRO
    tuple, in which the positions may hold other classes, and the guard holds the old tuple,
    so its id is not reused. Also what an answer decided from the MRO (`isinstance`) pins."""
    sources = tx.output.class_mro_sources
    source = sources.get(cls)
    if source is None:
        source = sources[cls] = AttrSource(cls_source, "__mro__")
        if not cls.__flags__ & IMMUTABLE_TYPE:
            tx.output.add_guard(GuardKind.ID_MATCH, source, cls.__mro__)
    return source


def lookup_special(
    tx: TranslatorBase, cls: type, cls_source: Source | None, name: str, *, pin: bool = False
) -> tuple[Any, type | None]:
    """`lookup_class_attr` for a protocol CPython runs by looking special method `name` up on
    the type (`len(obj)`, `obj + 1`, `bool(obj)`, `==`'s identity fallback), with what the
    trace decided from it guarded. Not found, or found only on a class whose attributes
    cannot change (`object.__eq__`, `object.__hash__`): every class before it still lacks the
    name, as a method set there later is what CPython would call. Found on a class that can
    change, the caller usually reads the method through the class (`type(L['o']).__len__`),
    and that read's guard follows the live MRO; where it decides from the member itself
    (`pin`: `_overrides` compares two; a `__hash__` of None), the member is pinned where it
    was found: the classes before its owner lack the name, the owner's dict entry is it."""
    member, owner = lookup_class_attr(cls, name)
    if owner is None or owner.__flags__ & IMMUTABLE_TYPE:
        guard_not_in_classes(tx, cls, cls_source, name, owner)
    elif pin or member is None:
        guard_not_in_classes(tx, cls, cls_source, name, owner)
        owner_dict = class_dict_source(tx, cls, cls_source, cls.__mro__.index(owner))
        if owner_dict is not None:
            tx.output.add_guard(GuardKind.ID_MATCH, ItemSource(owner_dict, name), member)
    return member, owner


def custom_getattribute_reason(cls: type) -> str | None:
    """Why attribute reads of `cls`'s instances are not modeled, or None when they are: a
    class on the MRO other than `object` holds its own `__getattribute__`. Every C type holds
    one (a slot wrapper, generic or not), so a class built on one is named as such."""
    attr, owner = lookup_class_attr(cls, "__getattribute__")
    if attr is generic_getattribute(cls) or owner is None:
        return None
    if type(attr) is types.WrapperDescriptorType:
        built_on = "" if owner is cls else f" (built on C type {owner.__qualname__})"
        return f"attributes of {cls.__name__} objects{built_on} are not modeled"
    return f"{owner.__name__} defines __getattribute__"


def stored_class_attr(
    tx: TranslatorBase, cls: type, cls_source: Source | None, name: str
) -> VariableTracker | None:
    """The value this trace assigned to `name` on `cls` or a base, if a read finds it; a base's
    value holds only while the classes before it in the MRO still lack `name` (guarded)."""
    found = tx.output.side_effects.stored_class_attr(cls, name)
    if found is None:
        return None
    value, index = found
    if index:
        if cls_source is None:
            unimplemented("getattr", f"{name} assigned on a base of {cls.__name__}, not found")
        guard_not_in_classes(tx, cls, cls_source, name, cls.__mro__[index])
    return value


def guard_class_names(
    tx: TranslatorBase, cls: type, cls_source: Source | None, pinned: tuple[str, ...] = ()
) -> None:
    """Trackers that model an object by its builtin base or by what its class was made with
    (an object of a plain subclass of int or dict, variables/value_subclass.py and
    dict_subclass.py; a named tuple; an enum member) decide from what the classes of its MRO
    hold at trace time: `len(t)`, `t.count(2)`, `d.get(k)`, `i + 1`, `str(member)` run the
    base's code because no class defines those names. That holds while no class gets or loses
    a name: each class whose attributes can change is guarded to hold the names it held
    (`tuple(G['T'].__dict__) == ('__module__', 'first', ...)`), so a special method, or a
    method shadowing the base's, set later misses. A value the trace reads from a class is
    guarded where it is read (`class_member_source`). A class made in the frame is new on every
    call; its bases from outside are guarded through `class_at`. Each class is guarded once,
    through the first source the trace had for it (an object's class reached again without a
    source, `s.__class__`, is the same class). A class with no source that the frame did not
    make, and not guarded yet, cannot be guarded: the trace falls back.

    `pinned`: names whose values the tracker relies on without reading them through a source
    (a named tuple's generated `__new__` and `__repr__`), pinned by identity in each class
    dict that holds them (`G['P'].__dict__['__repr__']`), a constant by value (`_fields`)."""
    named = tx.output.classes_named
    if cls in named:
        return
    if cls_source is None and made_class(cls) is None:
        unimplemented("class-origin", f"objects of {cls.__name__}, a class with no known origin")
    named.add(cls)
    for index, klass in enumerate(cls.__mro__):
        if klass.__flags__ & IMMUTABLE_TYPE:
            continue
        dict_source = class_dict_source(tx, cls, cls_source, index)
        if dict_source is None:  # made in the frame, its dict new on every call
            continue
        names = IterationSource(dict_source)
        tx.output.add_guard(GuardKind.EQUALS_MATCH, names, tuple(klass.__dict__))
        for name in pinned:
            if name in klass.__dict__:
                pin_value(tx, ItemSource(dict_source, name), klass.__dict__[name])


def pin_value(tx: TranslatorBase, source: Source, value: object) -> None:
    """Guard `source` to hold `value`: a constant by value, anything else by identity."""
    kind = GuardKind.EQUALS_MATCH if is_constant(value) else GuardKind.ID_MATCH
    tx.output.add_guard(kind, source, value)


def class_member_source(
    tx: TranslatorBase, cls: type, cls_source: Source | None, index: int, name: str
) -> Source | None:
    """Where the trace reads member `name` of `cls.__mro__[index]` (`G['T'].scale`,
    `G['T'].__mro__[1].scale`); None for a class made in the frame (new on every call)."""
    holder = class_at(tx, cls, cls_source, index)
    return None if holder is None else AttrSource(holder, name)


def guard_abstract_methods(tx: TranslatorBase, cls: type, cls_source: Source | None) -> None:
    """`object.__new__(cls)` refuses a class whose `__abstractmethods__` is not empty (ABCMeta
    sets it on each class it makes; `abc.update_abstractmethods` or an assignment changes it):
    the value is guarded at the class's source, and CPython's TypeError, with its message,
    raised for a class that has abstract methods left."""
    abstract = cls.__dict__.get("__abstractmethods__", ABSENT)
    if abstract is ABSENT:
        return
    if cls_source is not None:
        pin_value(tx, AttrSource(cls_source, "__abstractmethods__"), abstract)
    if abstract:
        tx.run_user_operation(object.__new__, cls)  # raises, with no object made
