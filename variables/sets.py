"""Set and frozenset trackers. Members are constants known while tracing (or objects of the
inputs hashed by identity, guarded so), held in a real set so that iteration order is exactly
CPython's hash order; how a set was made (`SetRecipe`) is kept where that order depends on it.
Set algebra on constants and on dict views is computed by CPython (`set_operation`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import Unsupported, unimplemented
from variables import builder
from variables.base import GetAttrVariable, NotConstantError, VariableTracker
from variables.constant import ConstantVariable, is_constant_value
from variables.dicts import (
    NO_KEY,
    ConstDictVariable,
    DictViewVariable,
    key_of,
    key_tracker,
    object_key,
)

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class _Itself:
    """Stands, in a recipe, for the set being built where an operation takes that set as its own
    argument (`s |= s`, `s.update(s)`): CPython takes a shortcut for that case, so a replay must
    pass the set itself, not a copy."""

    def __repr__(self) -> str:
        return "<the set itself>"


ITSELF: Any = _Itself()


class SetRecipe:
    """How to make a set whose hash table is the one eager code makes: `make(*args)`, then each
    `fn(result, *args)` of `steps` on the result.

    A set iterates in the order of its hash table, and the table depends on more than the
    members: its size, and the history of insertions and removals (`set(s)` may even iterate
    in another order than `s`). So the tracer does not work the order out: it runs each set
    operation of the traced code on real sets, and the compiled code replays the same
    operations. The arguments are constants, private copies nothing mutates, or objects hashed
    by identity (`object_key`: their id is guarded, and their hash is their id), and the hash
    of each is the same for the whole process (a str's too), so every replay builds the same
    table.
    """

    __slots__ = ("args", "make", "steps")

    def __init__(
        self,
        make: Callable[..., Any],
        args: tuple[Any, ...],
        steps: tuple[tuple[Callable[..., Any], tuple[Any, ...]], ...] = (),
    ) -> None:
        self.make = make
        self.args = args
        self.steps = steps

    def then(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> SetRecipe:
        """This recipe followed by `fn(result, *args)` (a recipe is never changed in place: a
        set made from this one earlier keeps its own)."""
        return SetRecipe(self.make, self.args, (*self.steps, (fn, args)))

    def __call__(self) -> Any:
        result = self.make(*self.args)
        for fn, args in self.steps:
            fn(result, *(result if a is ITSELF else a for a in args))
        return result

    def __repr__(self) -> str:
        text = f"{_callable_name(self.make)}({', '.join(map(repr, self.args))})"
        for fn, args in self.steps:
            text += f" then {_callable_name(fn)}(<set>{''.join(f', {a!r}' for a in args)})"
        return f"SetRecipe({text})"


def _callable_name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


SET_MUTATORS = frozenset(
    {
        "add", "discard", "remove", "pop", "clear", "update", "difference_update",
        "intersection_update", "symmetric_difference_update",
        "__ior__", "__iand__", "__isub__", "__ixor__", "__init__",
    }
)  # fmt: skip
"""The methods of `set` that change the set they are called on (`__init__` empties it, then
adds the items of its argument)."""

SET_MEMBER_METHODS = frozenset({"add", "discard", "remove"})
"""The mutators whose argument is one member (any other takes an iterable, or nothing)."""

SET_READERS = frozenset(
    {
        "copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset",
        "symmetric_difference", "union", "__and__", "__or__", "__sub__", "__xor__", "__rand__",
        "__ror__", "__rsub__", "__rxor__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
        "__ge__", "__repr__", "__str__", "__format__", "__sizeof__", "__reduce__",
        "__reduce_ex__", "__hash__", "__dir__", "__getstate__",
    }
)  # fmt: skip
"""The methods of `set` and `frozenset` that only read the set, so they may run on a copy with
the same table. Any other method (`__iter__`, `__setattr__`, ...) is not modeled."""


class SetVariable(VariableTracker):
    """A set or frozenset of constants: `items` is a real set made by the same operations, in
    the same order, as eager code makes it (see SetRecipe), so its iteration order is
    CPython's. `recipe` makes that set again in the compiled code; a set whose making the
    tracer did not follow (`recipe` None) can be asked anything but its order."""

    __slots__ = ("changed", "items", "iterators", "recipe")

    def __init__(self, items: Any, recipe: SetRecipe | None, source: Source | None = None) -> None:
        super().__init__(source)
        self.items: set[Any] | frozenset[Any] = items
        self.recipe = recipe
        self.changed = False
        """An input set changed by the trace: `items` is then a copy with its members, whose
        order is not known (see `_mutate_input`)."""
        self.iterators: list[Any] = []
        """CPython's iterators over `items` while it is the real input set (`iterate`): the
        first change makes a copy, which they would not see (`_mutate_input`)."""

    @classmethod
    def of_keys(cls, keys: Iterable[Any], frozen: bool = False) -> SetVariable:
        """`{a, b}` and `set(xs)` for a list or tuple: the keys added one by one, in order
        (what BUILD_SET and `set(tuple)` both do). The keys must be hashable constants."""
        recipe = SetRecipe(frozenset if frozen else set, (tuple(keys),))
        return cls(recipe(), recipe)

    @property
    def frozen(self) -> bool:
        return type(self.items) is frozenset

    @property
    def is_new(self) -> bool:
        """A set made in the frame is one object with one tracker (a frozenset need not be:
        `frozenset(fs) is fs`)."""
        return self.source is None and not self.frozen

    @property
    def is_input(self) -> bool:
        """A set or frozenset passed in (see `VariableBuilder.wrap_set`): `items` is the real
        object, guarded on its members and its iteration order, never changed here. Its hash
        table is not known beyond that order, so a set computed from it has the right members
        but no recipe (its own order is not known)."""
        return self.source is not None and self.recipe is None and not self.changed

    def python_type(self) -> type:
        return type(self.items)

    def ordered_keys(self) -> list[Any]:
        """The members in CPython's iteration order: the order of the real table (guarded, for
        an input)."""
        if not self.is_input:
            self._order_known("its order")
        return list(self.items)

    def real_value(self) -> Any:
        """The real set to run a reading operation on: a copy with the same table, or, for a
        set without a recipe (an input, or a set computed from one), the set itself: the
        operation does not change it, and what it returns gets no recipe either."""
        return self.items if self.recipe is None else self.snapshot()

    def snapshot(self) -> Any:
        """A new real set with the same table as this one (a frozenset is never changed, so it
        is its own)."""
        self._order_known("a copy")
        assert self.recipe is not None
        return self.items if self.frozen else self.recipe()

    def _order_known(self, what: str) -> None:
        if self.recipe is None:
            unimplemented(
                "set-order",
                f"{what} of {self!r}: the set was made by an operation the tracer did not "
                "follow, so its hash-table order is not known",
            )

    def holds_objects(self) -> bool:
        """Does the set hold an object hashed by identity (`memo.add(module)`, as
        `Module.named_modules` does)? Such a member is guarded by identity (`object_key`), so
        the set answers membership, size and set algebra; but it is no constant, and the
        compiled code neither rebuilds it nor iterates it (its tracker is not kept)."""
        return not all(map(is_constant_value, self.items))

    def as_python_constant(self) -> Any:
        if self.holds_objects():
            raise NotConstantError(self)
        return self.real_value()

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        if self.holds_objects():
            unimplemented("set-of-objects", f"iterating {self!r}, which holds objects")
        return [key_tracker(k) for k in self.ordered_keys()]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.items)

    def method___contains__(self, tx: TranslatorBase, item: VariableTracker) -> VariableTracker:
        return ConstantVariable(key_of(item, tx) in self.items)

    def method___len__(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(self.items))

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        attr = tx.run_user_operation(getattr, self.items, name)  # CPython's AttributeError
        if callable(attr):
            return GetAttrVariable(self, name)
        return super().var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name in ("__contains__", "__len__"):
            return super().call_method(tx, name, args, kwargs)
        tx.run_user_operation(getattr, self.items, name)  # CPython's AttributeError, if any
        real_kwargs = {k: real_operand(tx, v) for k, v in kwargs.items()}
        if name in SET_MUTATORS and not self.frozen:
            member = name in SET_MEMBER_METHODS
            try:
                real_args = tuple(
                    real_operand(tx, a, self, any_iterable=not member, member=member) for a in args
                )
            except Unsupported as e:
                if e.user_exception is None:
                    raise
                # CPython would have changed the set with the items before the error
                unimplemented(
                    "set-change",
                    f"set.{name} stopped part-way by {type(e.user_exception).__name__} "
                    "from its argument",
                )
            return self.mutate(tx, getattr(set, name), real_args, real_kwargs)
        if name not in SET_READERS and not (name in SET_MUTATORS and self.frozen):
            unimplemented("set-method", f"{type(self.items).__name__}.{name} is not modeled")
        # a method that reads the set: on a copy, which a set it returns is then made from
        from_input = reads_input(self, *args)
        receiver = self.real_value()
        real_args = tuple(
            receiver if a is ITSELF else a
            for a in (real_operand(tx, a, self, any_iterable=True, inputs=from_input) for a in args)
        )
        method = getattr(type(self.items), name)
        return set_operation(
            tx, method, (receiver, *real_args), real_kwargs, from_input, (receiver, self)
        )

    def mutate(
        self,
        tx: TranslatorBase,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any] | None = None,
    ) -> VariableTracker:
        """`fn(the set, *args)`, a change of this set: run on the real set and added to the
        recipe. Returns the result (the set itself for in-place operators)."""
        if self.source is not None:
            return self._mutate_input(tx, fn, args, kwargs)
        self._order_known("a change")
        assert self.recipe is not None
        if kwargs:  # CPython refuses them, with its own message
            tx.run_user_operation(fn, self.items, *args, **kwargs)
        real_args = tuple(self.items if a is ITSELF else a for a in args)
        before = set(self.items)
        try:
            result = fn(self.items, *real_args)
        except Exception as e:  # noqa: BLE001 - CPython's error is the user's
            if self.items != before:  # e.g. `s.__init__(1)` empties s, then raises
                unimplemented("set-change", f"{fn.__name__} changed the set, then raised {e!r}")
            tx.raise_user_error(e)
        self.recipe = self.recipe.then(fn, args)
        return self if result is self.items else builder.wrap_constant_result(result)

    def _mutate_input(
        self,
        tx: TranslatorBase,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any] | None,
    ) -> VariableTracker:
        """A change of a set passed in: made here on a copy (its members are known from then
        on, its hash table and so its order are not), and replayed on the real set by the
        compiled code, call by call (SideEffects.record_set_op), so the real set ends with
        eager's members and eager's table. `pop` takes a member the table decides: not
        modeled."""
        assert self.source is not None
        if fn is set.pop or kwargs or any(a is ITSELF for a in args):
            unimplemented(
                "side-effect", f"{fn.__name__} of the set {self.source.name} from outside"
            )
        if not self.changed:
            if any(not it.done for it in self.iterators):
                # CPython's iterator would raise (a new size) or see the change: not modeled
                unimplemented("set-change", f"{self.source.name} changed while iterated")
            self.items = set(self.items)
            self.changed = True
        before = set(self.items)
        try:
            result = fn(self.items, *args)
        except Exception as e:  # noqa: BLE001 - CPython's error is the user's
            if self.items != before:
                unimplemented("set-change", f"{fn.__name__} changed the set, then raised {e!r}")
            tx.raise_user_error(e)
        tx.output.side_effects.record_set_op(self, fn, args)
        return self if result is self.items else builder.wrap_constant_result(result)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        if self.holds_objects():
            unimplemented("set-of-objects", f"rebuilding {self!r}, which holds objects")
        self._order_known("rebuilding")
        recipe = self.recipe
        assert recipe is not None

        def build() -> None:
            if recipe.steps:
                cg.load_function(recipe)
                cg.call(0)
                return
            cg.load_function(recipe.make)
            for arg in recipe.args:
                cg.load_const(arg)
            cg.call(len(recipe.args))

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        kind = "frozenset" if self.frozen else "set"
        return f"SetVariable({kind} {sorted(self.items, key=repr)!r}){self._src()}"


def real_operand(
    tx: TranslatorBase,
    vt: VariableTracker,
    target: SetVariable | None = None,
    any_iterable: bool = False,
    inputs: bool = False,
    member: bool = False,
) -> Any:
    """The real object a set operation is given for `vt`: ITSELF for the set `target` being
    changed; a copy with the same table for a set; for a dict (or its keys) a dict with the
    same keys in the same order, since a set made from a dict takes its size first; else the
    constant. With `any_iterable` (a method that takes any iterable), the items of an
    iterable that is not a constant, as a tuple: CPython adds them one by one either way.
    With `inputs`, an input set is itself (for an operation whose result gets no recipe).
    With `member` (`add`, `discard`, `remove`: the argument is one member, never iterated),
    an object hashed by identity is itself (`object_key`)."""
    vt = vt.realize()
    if vt is target:
        return ITSELF
    if isinstance(vt, SetVariable):
        return vt.real_value() if inputs else vt.snapshot()
    if isinstance(vt, ConstDictVariable):
        return dict.fromkeys(vt.items)
    if isinstance(vt, DictViewVariable) and vt.kind == "keys":
        return dict.fromkeys(vt.dict_vt.items).keys()
    try:
        return vt.as_python_constant()
    except NotConstantError:
        if member and (found := object_key(tx, vt)) is not NO_KEY:
            return found
        if not any_iterable:
            unimplemented("set-operand", f"set operation on {vt!r}, which is not a constant")
    from variables.iterators import iterate, user_iterator_class  # (it builds on this module)

    if user_iterator_class(vt) is not None:  # pulled one at a time: an unhashable item stops it
        it = iterate(tx, vt)
        keys = []
        while (item := it.next_item(tx)) is not None:
            keys.append(key_of(item, tx))
        return tuple(keys)
    return tuple(key_of(item, tx) for item in vt.unpack(tx))


def set_operation(
    tx: TranslatorBase,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
    from_input: bool = False,
    operand: tuple[Any, VariableTracker] | None = None,
) -> VariableTracker:
    """`fn(*args)` computed by CPython on real operands; a set it returns is tracked with that
    same call as its recipe (none when an operand is an input set: see `is_input`).
    `operand`: a real operand and its tracker; when CPython returns that operand itself
    (`frozenset(fs)` and `fs.copy()` are `fs`), the result is its tracker, the same object."""
    result = tx.run_user_operation(fn, *args, **(kwargs or {}))
    return operation_result(result, fn, args, kwargs, from_input, operand)


def operation_result(
    result: Any,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
    from_input: bool = False,
    operand: tuple[Any, VariableTracker] | None = None,
) -> VariableTracker:
    """The tracker of `result`, what `fn(*args, **kwargs)` returned (`set_operation`)."""
    if operand is not None and result is operand[0]:
        return operand[1]
    if type(result) is set or type(result) is frozenset:
        if from_input:
            return SetVariable(result, None)
        make = functools.partial(fn, **kwargs) if kwargs else fn
        return SetVariable(result, SetRecipe(make, args))
    return builder.wrap_constant_result(result)


def reads_input(*operands: VariableTracker) -> bool:
    """Does a set without a recipe (an input set, or one computed from one) take part in an
    operation? Then a set it returns has the right members, but no recipe either."""
    return any(isinstance(v := o.realize(), SetVariable) and v.recipe is None for o in operands)


SET_OPERATORS = frozenset(
    {
        operator.or_, operator.and_, operator.sub, operator.xor,
        operator.ior, operator.iand, operator.isub, operator.ixor,
    }
)  # fmt: skip


def set_binary_op(
    tx: TranslatorBase, fn: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> VariableTracker:
    """`a | b`, `a - b`, `a |= b`, ... where a set or a dict view takes part: computed by
    CPython on the real operands (`d.keys() - {'a'}` is made the way CPython makes it)."""
    a, b = a.realize(), b.realize()
    in_place = fn in (operator.ior, operator.iand, operator.isub, operator.ixor)
    if in_place and isinstance(a, SetVariable) and not a.frozen:
        return a.mutate(tx, fn, (real_operand(tx, b, a),))
    from_input = reads_input(a, b)
    left = real_operand(tx, a, inputs=from_input)
    right = left if b is a else real_operand(tx, b, inputs=from_input)
    return set_operation(tx, fn, (left, right), None, from_input)


_COMPARISONS = frozenset(
    {operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge}
)


def compare_sets_of_objects(
    tx: TranslatorBase, plain: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> VariableTracker | None:
    """`s == t`, `s <= t`, ... where a set holds objects hashed by identity, so is no constant
    to fold: CPython compares the real sets (the other operand a set or a constant), whose
    members hash and compare as `object` does, running no user code. None when this is not
    such a comparison."""
    holds = [isinstance(v, SetVariable) and v.holds_objects() for v in (a, b)]
    if plain not in _COMPARISONS or not any(holds):
        return None
    operands = []
    for v in (a, b):
        if isinstance(v, SetVariable):
            operands.append(v.real_value())
        elif v.is_python_constant():
            operands.append(v.as_python_constant())
        else:
            return None
    return ConstantVariable(tx.run_user_operation(plain, *operands))


def is_set_like(vt: VariableTracker) -> bool:
    """A set, a frozenset or a dict's keys or items view: the operands of set algebra."""
    vt = vt.realize()
    if isinstance(vt, SetVariable):
        return True
    if isinstance(vt, DictViewVariable):
        return vt.kind != "values"
    return False
