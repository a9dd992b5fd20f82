"""Dict trackers. Keys are constants known while tracing, held in a real dict so that insertion
order is exactly CPython's; the merging of a mapping or of pairs into a dict (`dict(m)`,
`{**m}`, `d.update(m)`). Sets are in variables/sets.py.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind
from tracer.exc import BreakReason, Unsupported, unimplemented
from variables import builder
from variables.arguments import refused_method_call
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import changeable_metaclass, guard_class_operand
from variables.constant import ConstantVariable, is_constant_value
from variables.lists import TupleVariable, contains, each_item, folding

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase
    from variables.user_defined import UserDefinedObjectVariable

NO_KEY: Any = object()
"""What `object_key` gives for a tracker that is not an object of the inputs hashed by identity."""


def key_of(vt: VariableTracker, tx: TranslatorBase | None = None) -> Any:
    """The Python key a tracker stands for: a hashable constant, or, for a dict operation (with
    `tx`), also an object of the frame's inputs that a dict can hold as its key (see
    `object_key`), guarded as that key's hash and equality rely on."""
    if tx is not None:
        found = object_key(tx, vt.realize())
        if found is not NO_KEY:
            return found
    try:
        key = vt.realize().as_python_constant()
    except NotConstantError:
        unimplemented("dict-key", f"{vt!r} used as a dict key or set item is not a constant")
    if isinstance(key, type) and changeable_metaclass(key):
        # a dict or set hashes the class and compares it by its metaclass's `__hash__` and
        # `__eq__`, which the metaclass may gain later: guarded (variables/class_protocols.py),
        # or, with no translator to guard through, the frame breaks
        if tx is None:
            unimplemented(
                "metaclass",
                f"class {key.__name__}, whose metaclass {type(key).__name__} can change, as a"
                " dict key or set item",
            )
        guard_class_operand(tx, vt, ("__hash__", "__eq__"), "a dict key or set item")
    try:
        hash(key)
    except TypeError as e:
        raise Unsupported(BreakReason("user-exception", f"TypeError: {e}"), e) from None
    return key


def key_tracker(key: Any) -> VariableTracker:
    return builder.wrap_constant_result(key)


def hashed_by_identity(cls: type) -> bool:
    """Do instances of `cls` hash and compare as `object` does, by identity, running no user
    code (what Dynamo's `is_hashable` accepts for a user object)?"""
    hash_fn: object = cls.__hash__
    eq_fn: object = cls.__eq__
    return (
        type(cls) is type
        and hash_fn is object.__hash__
        and eq_fn is object.__eq__
        and cls.__module__ != "builtins"
    )


def guard_hashed_by_identity(tx: TranslatorBase, vt: UserDefinedObjectVariable) -> None:
    """The object's class still finds `object`'s `__hash__` and `__eq__` (`hashed_by_identity`
    said so while tracing): both guarded where CPython looks them up, so a class that gains
    either (or `__hash__ = None`) misses."""
    vt.special_method(tx, "__hash__")
    vt.special_method(tx, "__eq__")


def object_key(tx: TranslatorBase, vt: VariableTracker) -> Any:
    """The real key for a tracker that is no constant, or NO_KEY: an object of the inputs
    hashed by identity (guarded by identity, ID_MATCH: another object is another key), or a
    frozen dataclass (guarded by value: its fields, read with their guards; see
    `FrozenDataclassVariable.hashable_key`)."""
    if isinstance(vt, ConstantVariable):  # a constant is its own key (`key_of`)
        return NO_KEY
    # (imported here, after the common case, since an import statement costs each time it
    # runs: both modules build on this one)
    from variables.structured import FrozenDataclassVariable
    from variables.user_defined import UserDefinedObjectVariable

    if isinstance(vt, FrozenDataclassVariable):
        return vt.hashable_key(tx)
    if isinstance(vt, UserDefinedObjectVariable) and hashed_by_identity(vt.cls):
        if vt.value is None or vt.source is None:
            unimplemented("dict-key", f"{vt!r}, made in the frame, used as a dict key")
        tx.output.add_guard(GuardKind.ID_MATCH, vt.source, vt.value)
        guard_hashed_by_identity(tx, vt)
        return vt.value

    real = getattr(vt, "real", None)  # a tensor input (`memo.add(p)` in `Module.parameters`)
    if real is not None and vt.source is not None:
        tensor_hash = tx.output.world.tensor_type.__hash__
        if type(real).__hash__ is tensor_hash and tensor_hash is not None:
            # the world's tensors hash by identity, and a set or dict compares hashes before
            # `__eq__` (elementwise: never reached between two tensors): the real tensor is
            # the key, pinned by identity
            tx.output.add_guard(GuardKind.ID_MATCH, vt.source, real)
            return real
    return NO_KEY


class ConstDictVariable(VariableTracker):
    """`ConstDictVariable({'a': TensorVariable(...)})`: a dict whose keys are constants."""

    __slots__ = ("items", "key_vts")

    def __init__(self, items: dict[Any, VariableTracker], source: Source | None = None) -> None:
        super().__init__(source)
        self.items: dict[Any, VariableTracker] = dict(items)
        self.key_vts: dict[int, tuple[Any, VariableTracker]] = {}
        """The trackers of keys that are objects, not constants (by id of the key, with the
        key itself, so a reused id is told apart): what iterating the dict gives for them."""

    def key_vt(self, key: Any) -> VariableTracker:
        """The tracker of one of the keys: its object's tracker, or the constant."""
        known = self.key_vts.get(id(key))
        if known is not None and known[0] is key:
            return known[1]
        return key_tracker(key)

    def store_key(self, tx: TranslatorBase, key_vt: VariableTracker) -> Any:
        """The real key for `key_vt` in a store (`d[k] = v`), remembering the tracker of a key
        that is an object or a container (a tuple): the compiled code rebuilds the key from it,
        so the dict holds the very object the frame made (`d[pos] = node` with `node.pos is
        pos`), not an equal copy."""
        key = key_of(key_vt, tx)
        tracker = key_vt.realize()
        if not is_constant_value(key) or not isinstance(tracker, ConstantVariable):
            self.key_vts[id(key)] = (key, tracker)
        return key

    @property
    def is_new(self) -> bool:
        return self.source is None

    def python_type(self) -> type:
        return dict

    def as_python_constant(self) -> Any:
        return folding(self, lambda: {k: v.as_python_constant() for k, v in self.items.items()})

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return [self.key_vt(k) for k in self.items]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def _check_mutable(self, tx: TranslatorBase, what: str) -> None:
        if not self.is_new:
            tx.output.side_effects.mutate_existing(tx, self, what)

    def _log(self, tx: TranslatorBase, op: str, *args: Any) -> None:
        """A change of a dict from outside, logged to be replayed as made (see SideEffects)."""
        if not self.is_new:
            tx.output.side_effects.log_dict_op(self, op, *args)

    def getitem(self, tx: TranslatorBase, key_vt: VariableTracker) -> VariableTracker:
        key = key_of(key_vt, tx)
        try:
            return self.items[key]
        except KeyError:
            tx.raise_user_error(KeyError(key))

    def method___getitem__(self, tx: TranslatorBase, key: VariableTracker, /) -> VariableTracker:
        return self.getitem(tx, key)

    def method_get(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None, /
    ) -> VariableTracker:
        found = self.items.get(key_of(key, tx))
        if found is not None:
            return found
        return default if default is not None else ConstantVariable(None)

    def method___contains__(self, tx: TranslatorBase, key: VariableTracker, /) -> VariableTracker:
        return ConstantVariable(key_of(key, tx) in self.items)

    def method___len__(self, tx: TranslatorBase, /) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def method_keys(self, tx: TranslatorBase, /) -> VariableTracker:
        return DictViewVariable(self, "keys")

    def method_values(self, tx: TranslatorBase, /) -> VariableTracker:
        return DictViewVariable(self, "values")

    def method_items(self, tx: TranslatorBase, /) -> VariableTracker:
        return DictViewVariable(self, "items")

    def method_copy(self, tx: TranslatorBase, /) -> VariableTracker:
        copied = ConstDictVariable(self.items)
        copied.key_vts.update(self.key_vts)
        return copied

    def method___setitem__(
        self, tx: TranslatorBase, key: VariableTracker, value: VariableTracker, /
    ) -> VariableTracker:
        self._check_mutable(tx, "item assignment")
        k = self.store_key(tx, key)
        self._log(tx, "__setitem__", k, value)
        self.items[k] = value
        return ConstantVariable(None)

    def method___delitem__(self, tx: TranslatorBase, key: VariableTracker, /) -> VariableTracker:
        self._check_mutable(tx, "item deletion")
        k = key_of(key, tx)
        if k not in self.items:
            tx.raise_user_error(KeyError(k))
        self._log(tx, "__delitem__", k)
        del self.items[k]
        return ConstantVariable(None)

    def method_pop(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None, /
    ) -> VariableTracker:
        self._check_mutable(tx, "pop")
        k = key_of(key, tx)
        if k in self.items:
            self._log(tx, "pop", k)
            return self.items.pop(k)
        if default is None:
            tx.raise_user_error(KeyError(k))
        return default

    def method_popitem(self, tx: TranslatorBase, /) -> VariableTracker:
        self._check_mutable(tx, "popitem")
        if not self.items:
            tx.raise_user_error(KeyError("popitem(): dictionary is empty"))
        self._log(tx, "popitem")
        k_vt = self.key_vt(next(reversed(self.items)))
        _k, v = self.items.popitem()
        return TupleVariable([k_vt, v])

    def method_setdefault(
        self, tx: TranslatorBase, key: VariableTracker, default: VariableTracker | None = None, /
    ) -> VariableTracker:
        k = key_of(key, tx)
        if k in self.items:
            return self.items[k]
        self._check_mutable(tx, "setdefault")
        k = self.store_key(tx, key)
        value = default if default is not None else ConstantVariable(None)
        self._log(tx, "setdefault", k, value)
        self.items[k] = value
        return value

    def method_update(
        self, tx: TranslatorBase, other: VariableTracker | None = None, /, **kwargs: VariableTracker
    ) -> VariableTracker:
        self._check_mutable(tx, "update")
        if other is not None:
            for key, value in self.update_pairs(tx, other):  # pairs before an error stay
                self.items[key] = value
        self.items.update(kwargs)
        return ConstantVariable(None)

    def update_pairs(
        self, tx: TranslatorBase, other: VariableTracker
    ) -> Iterator[tuple[Any, VariableTracker]]:
        """The pairs this dict's `update(other)` takes: dict's merge (`each_pair`)."""
        return each_pair(tx, other)

    def method_clear(self, tx: TranslatorBase, /) -> VariableTracker:
        self._check_mutable(tx, "clear")
        self._log(tx, "clear")
        self.items.clear()
        return ConstantVariable(None)

    def refused_call(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return refused_method_call(tx, dict.fromkeys(self.items), name, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            for k, v in self.items.items():
                cg(self.key_vt(k))
                cg(v)
            cg.build_map(len(self.items))

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"ConstDictVariable({{{self._items_repr()}}}){self._src()}"

    @reprlib.recursive_repr("{...}")
    def _items_repr(self) -> str:
        """The items, with a dict that holds itself shown as `{...}` (as `repr(dict)` does)."""
        return ", ".join(f"{k!r}: {v!r}" for k, v in self.items.items())


def pairs_of(tx: TranslatorBase, other: VariableTracker) -> dict[Any, VariableTracker]:
    """The (key, value) pairs `dict.update(other)` would take, in order."""
    return dict(each_pair(tx, other))


def each_pair(
    tx: TranslatorBase, other: VariableTracker, check: Callable[[Any], None] | None = None
) -> Iterator[tuple[Any, VariableTracker]]:
    """The (key, value) pairs `dict.update(other)` takes, one at a time (see `each_item`): a
    mapping's (`is_mapping`), else the items of an iterable of pairs. `check(key)`, for a
    mapping, runs before the key's value is read (`f(**m)` refuses a repeated key there)."""
    other = other.realize()
    if isinstance(other, ConstDictVariable):
        for key, value in list(other.items.items()):
            if check is not None:
                check(key)
            yield key, value
        return
    if is_mapping(tx, other):
        yield from mapping_pairs(tx, other, check)
        return
    for i, pair in enumerate(each_item(tx, other)):
        parts = pair.realize().unpack(tx)
        if len(parts) != 2:  # CPython's ValueError, naming element #i: dict() on a stand-in
            tx.run_user_operation(dict, [*[(None, None)] * i, tuple(parts)])
        yield key_of(parts[0]), parts[1]


def is_mapping(tx: TranslatorBase, vt: VariableTracker) -> bool:
    """Does CPython merge `vt` as a mapping (`{**vt}`, `f(**vt)`, `dict(vt)`, `d.update(vt)`):
    a dict, or any object with a `keys` attribute (a user object's is looked up traced, with
    its guards)?"""
    vt = vt.realize()
    if isinstance(vt, ConstDictVariable):
        return True
    from variables.builtin import BuiltinVariable  # (it builds on this module)
    from variables.user_defined import UserDefinedObjectVariable

    if isinstance(vt, UserDefinedObjectVariable):
        found = BuiltinVariable(hasattr).call_function(tx, [vt, ConstantVariable("keys")], {})
        return bool(found.as_python_constant())
    return hasattr(vt.python_type(), "keys")


def mapping_pairs(
    tx: TranslatorBase, mapping: VariableTracker, check: Callable[[Any], None] | None
) -> Iterator[tuple[Any, VariableTracker]]:
    """CPython's merge of a mapping that is not a dict: `mapping.keys()`, listed first, then
    `mapping[key]` for each key, all traced (a user's `keys` and `__getitem__` run)."""
    from variables.builtin import getitem  # (it builds on this module)

    keys = list(each_item(tx, mapping.var_getattr(tx, "keys").call_function(tx, [], {})))
    for key_vt in keys:
        key = key_of(key_vt, tx)
        if check is not None:
            check(key)
        yield key, getitem(tx, mapping, key_vt)


class DictViewVariable(VariableTracker):
    """`d.keys()`, `d.values()` or `d.items()`: a live view of a ConstDictVariable."""

    __slots__ = ("dict_vt", "kind")

    def __init__(self, dict_vt: ConstDictVariable, kind: str) -> None:
        super().__init__(None)
        self.dict_vt = dict_vt
        self.kind = kind

    def python_type(self) -> type:
        return type(getattr(type(self.dict_vt.items)(), self.kind)())  # odict_keys, ...

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        items, key_vt = self.dict_vt.items, self.dict_vt.key_vt
        if self.kind == "keys":
            return [key_vt(k) for k in items]
        if self.kind == "values":
            return list(items.values())
        return [TupleVariable([key_vt(k), v]) for k, v in items.items()]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.dict_vt.items)

    def as_python_constant(self) -> Any:
        return getattr(self.dict_vt.as_python_constant(), self.kind)()

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.dict_vt.items))

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        if self.kind == "keys":
            return ConstantVariable(key_of(item, tx) in self.dict_vt.items)

        return ConstantVariable(contains(tx, self.unpack(tx), item))

    def __repr__(self) -> str:
        return f"DictViewVariable({self.kind} of {self.dict_vt!r})"
