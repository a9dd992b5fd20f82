"""Iterators: trackers with a position over a live object, and the lazy builtins built on them.

An iterator made while tracing is what CPython's is: a position over the object as it is when
`next` runs, not a copy of its items taken when the iterator was made. A list iterator indexes
into the list's current items, so items appended during a `for` loop are seen and removals shift
the rest; a dict or set iterator is CPython's own iterator over the real dict or set that models
the container, so changing its size while iterating raises CPython's RuntimeError. `map`,
`filter`, `zip`, `enumerate`, `reversed` and `iter(callable, sentinel)` are lazy: each `next`
pulls one item from each input, in CPython's order, and calls the user's function only then.
An iterator over an iterator shares its position (`zip(it, it)` pairs neighbours).

Everything that iterates goes through `iterate` (GET_ITER, `iter()`, and the builtins that
consume an iterable: `list`, `sorted`, `sum`, ...) and `IteratorVariable.next_item` (FOR_ITER,
`next()`, unpacking), so consuming an iterator anywhere advances it for everyone.

An iterator that escapes the frame (returned, stored in a global or an attribute) is rebuilt by
the compiled code at its position where that is exact (a sequence iterator, and the lazy
builtins over rebuildable parts); a dict or set iterator can't be put back at its position in
the real container, so returning one falls back.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import Unsupported, unimplemented
from variables import builder
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import guard_index_operands
from variables.constant import ConstantVariable
from variables.deques import DequeVariable
from variables.dicts import ConstDictVariable, DictViewVariable, key_tracker
from variables.lists import (
    BaseListVariable,
    ListVariable,
    RangeVariable,
    TupleVariable,
    constant_equal,
    search_target,
)
from variables.sets import SetVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_END: Any = object()


class IteratorVariable(VariableTracker):
    """Base of the iterator trackers: `next_item` advances the iterator and returns its next
    item, or None when it is exhausted (the tracker of a Python `None` is never None)."""

    __slots__ = ()

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        raise NotImplementedError

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        """Consume the rest of the iterator, one `next` at a time (as `list(it)` does)."""
        items = []
        while (item := self.next_item(tx)) is not None:
            items.append(item)
        return items

    def truthy(self, tx: TranslatorBase) -> bool:
        return True  # an iterator defines neither __bool__ nor __len__

    def stop_iteration(self, tx: TranslatorBase) -> BaseException:
        """The StopIteration `next()` raises right after `next_item` found this iterator
        exhausted (a generator's carries its return value)."""
        return StopIteration()

    def method___next__(self, tx: TranslatorBase) -> VariableTracker:
        item = self.next_item(tx)
        if item is None:
            tx.raise_user_error(self.stop_iteration(tx))
        return item

    def method___iter__(self, tx: TranslatorBase) -> VariableTracker:
        return self

    def reconstruct(self, cg: PyCodegen) -> None:
        unimplemented(
            "reconstruct",
            f"{self!r} escapes the traced frame and can't be rebuilt at its position",
        )


class SequenceIteratorVariable(IteratorVariable):
    """`iter(xs)` or `reversed(xs)` over a list or tuple tracker: an index into the sequence's
    current items, moving by `step` (1, or -1 for reversed). As in CPython, an index outside the
    items when `next` runs exhausts the iterator for good (`seq` becomes None), even if the list
    grows later."""

    __slots__ = ("index", "kind", "seq", "step")

    def __init__(self, seq: BaseListVariable, step: int = 1) -> None:
        super().__init__(None)
        self.seq: BaseListVariable | None = seq
        self.kind: type = list if isinstance(seq, ListVariable) else tuple
        self.step = step
        self.index = 0 if step == 1 else len(seq.items) - 1

    def python_type(self) -> type:
        empty = self.kind()
        return type(iter(empty) if self.step == 1 else reversed(empty))

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        seq = self.seq
        if seq is None:
            return None
        items = seq.items
        index = self.index
        if 0 <= index < len(items):
            self.index = index + self.step
            return items[index]
        self.seq = None
        return None

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        if self.step != 1 or self.seq is None:
            return super().unpack(tx)
        rest = self.seq.items[self.index :]
        self.seq = None
        return rest

    def reconstruct(self, cg: PyCodegen) -> None:
        seq = self.seq
        if seq is not None:
            # CPython's __setstate__ clamps an index past the end; such an iterator is
            # exhausted at its next `next` only if the list has not grown by then
            limit = len(seq.items) - (1 if self.step == -1 else 0)
            if self.index > limit:
                super().reconstruct(cg)

        def build() -> None:
            cg.load_function(rebuild_sequence_iterator)
            if seq is None:
                cg.load_const(None)
            else:
                cg(seq)
            cg.load_const(self.kind)
            cg.load_const(self.index)
            cg.load_const(self.step)
            cg.call(4)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        where = "exhausted" if self.seq is None else f"at {self.index} of {self.seq!r}"
        return f"SequenceIteratorVariable({self.type_name()} {where})"


def rebuild_sequence_iterator(
    seq: Sequence[Any] | None, kind: type, index: int, step: int
) -> Iterator[Any]:
    """The real iterator a SequenceIteratorVariable stands for, made by the compiled code:
    over `seq`, about to yield `seq[index]`. An exhausted one (`seq` None) is an iterator of
    the same type that has already found its (empty) sequence exhausted."""
    it: Any
    if seq is None:
        empty = kind()
        it = iter(empty) if step == 1 else reversed(empty)
        next(it, None)
        return it  # type: ignore[no-any-return]
    it = iter(seq) if step == 1 else reversed(seq)
    it.__setstate__(index)
    return it  # type: ignore[no-any-return]


class BuiltinIteratorVariable(IteratorVariable):
    """CPython's own iterator over the real object that models a container while tracing: the
    dict of a ConstDictVariable (or one of its views), the set of a SetVariable, or an immutable
    constant (str, bytes, tuple, range, frozenset). Each `next` is CPython's, so a dict or set
    whose size changed since the iterator was made raises CPython's RuntimeError, and a dict
    whose keys changed at the same size raises its "keys changed" error. `convert` makes a
    tracker of each item; `constant` is the iterated constant when the compiled code can rebuild
    the iterator at its position (forward over a sequence)."""

    __slots__ = ("constant", "convert", "done", "iterator", "produced")

    def __init__(
        self,
        iterator: Iterator[Any],
        convert: Callable[[Any], VariableTracker],
        constant: Any = None,
    ) -> None:
        super().__init__(None)
        self.iterator = iterator
        self.convert = convert
        self.constant = constant
        self.produced = 0
        self.done = False
        """Has `next` found the end (CPython's iterator lets go of its container then)?"""

    def python_type(self) -> type:
        return type(self.iterator)

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        item = tx.run_user_operation(next, self.iterator, _END)
        if item is _END:
            self.done = True
            return None
        self.produced += 1
        return self.convert(item)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.constant is None:
            super().reconstruct(cg)

        def build() -> None:
            cg.load_function(rebuild_sequence_iterator)
            cg.load_const(self.constant)
            cg.load_const(type(self.constant))
            cg.load_const(self.produced)
            cg.load_const(1)
            cg.call(4)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"BuiltinIteratorVariable({self.type_name()}, {self.produced} produced)"


def _dict_value(value: VariableTracker) -> VariableTracker:
    return value


def _itself(item: VariableTracker) -> VariableTracker:
    """The item of a real container of trackers (a deque's) is its own tracker."""
    return item


def dict_iterator(dict_vt: ConstDictVariable, kind: str, reverse: bool) -> IteratorVariable:
    """`iter(d)`, `iter(d.values())`, `reversed(d.items())`, ...: CPython's iterator over the
    real dict that holds the tracker's items (keys -> trackers of the values)."""
    items, key_vt = dict_vt.items, dict_vt.key_vt
    view = items.keys() if kind == "keys" else getattr(items, kind)()

    def item(pair: tuple[Any, VariableTracker]) -> VariableTracker:
        return TupleVariable([key_vt(pair[0]), pair[1]])

    converts: dict[str, Callable[[Any], VariableTracker]] = {
        "keys": key_vt,
        "values": _dict_value,
        "items": item,
    }
    convert = converts[kind]
    return BuiltinIteratorVariable(reversed(view) if reverse else iter(view), convert)


def _real_iterator(
    tx: TranslatorBase, make: Callable[[Any], Any], vt: VariableTracker
) -> tuple[Any, Iterator[Any]]:
    """`iter(value)` or `reversed(value)` of a constant tracker, by CPython (its TypeError for
    an int is the user's); a tracker that is not a constant can't be iterated this way."""
    try:
        value = vt.as_python_constant()
    except NotConstantError:
        unimplemented("iterate", f"iterating over {vt.type_name()} is not supported")
    return value, tx.run_user_operation(make, value)


def iterate_or_refuse(tx: TranslatorBase, vt: VariableTracker, refused: str) -> IteratorVariable:
    """`iterate`, for a consumer that replaces a TypeError of `iter()` (no `__iter__`, one that
    returned no iterator or raised TypeError) with its own message, as `str.join` ("can only
    join an iterable"), `bytes()` and `bytearray()` ("cannot convert 'C' object to bytes")
    do; any other error, and the errors of the items, stay as they are."""
    try:
        return iterate(tx, vt)
    except Unsupported as e:
        if not isinstance(e.user_exception, TypeError):
            raise
    tx.raise_user_error(TypeError(refused))


def iterate(tx: TranslatorBase, vt: VariableTracker) -> IteratorVariable:
    """GET_ITER and `iter(vt)`: the iterator over `vt` (an iterator is its own iterator)."""
    vt = vt.realize()
    if isinstance(vt, IteratorVariable):
        return vt
    if isinstance(vt, BaseListVariable):
        return SequenceIteratorVariable(vt)
    if isinstance(vt, ConstDictVariable):
        return dict_iterator(vt, "keys", reverse=False)
    if isinstance(vt, DictViewVariable):
        return dict_iterator(vt.dict_vt, vt.kind, reverse=False)
    if isinstance(vt, SetVariable):
        vt.ordered_keys()  # its order must be known: made by followed operations, or guarded
        made = BuiltinIteratorVariable(iter(vt.items), key_tracker)
        if vt.source is not None and not vt.changed:  # over the real input set
            vt.iterators.append(made)
        return made
    if isinstance(vt, DequeVariable):  # CPython's deque iterator over the deque of trackers
        return BuiltinIteratorVariable(iter(vt.items), _itself)
    if isinstance(vt, ConstantVariable | RangeVariable):
        value, iterator = _real_iterator(tx, iter, vt)
        sequence = isinstance(value, str | bytes | tuple | range)
        constant = value if sequence else None
        return BuiltinIteratorVariable(iterator, builder.wrap_constant_result, constant)
    # (imported here, after the common cases, since an import statement costs each time it
    # runs: variables.bytearrays loads variables.constant, which loads this module)
    from variables.bytearrays import BytearrayVariable

    if isinstance(vt, BytearrayVariable):  # CPython's iterator over the real bytearray
        return BuiltinIteratorVariable(iter(vt.value), builder.wrap_constant_result)
    if user_iterator_class(vt) is not None:
        return user_iterator(tx, vt.call_method(tx, "__iter__", [], {}).realize())
    from variables.user_defined import UserDefinedClassVariable

    if isinstance(vt, UserDefinedClassVariable):  # a class whose metaclass iterates (an Enum)
        method = vt.metaclass_special(tx, "__iter__")
        if method is not None:
            return user_iterator(tx, method.call_function(tx, [], {}).realize())
    # anything else that iterates to a fixed list of items (a tensor's rows)
    return SequenceIteratorVariable(TupleVariable(vt.unpack(tx)))


def user_iterator_class(vt: VariableTracker) -> type | None:
    """The class of a user object that defines `__iter__` (looked up on the type)."""
    from variables.class_lookup import lookup_class_attr
    from variables.user_defined import UserDefinedObjectVariable

    if isinstance(vt, UserDefinedObjectVariable) and lookup_class_attr(vt.cls, "__iter__")[1]:
        return vt.cls
    return None


def defines_next(vt: VariableTracker) -> bool:
    from variables.class_lookup import lookup_class_attr
    from variables.user_defined import UserDefinedObjectVariable

    return (
        isinstance(vt, UserDefinedObjectVariable)
        and lookup_class_attr(vt.cls, "__next__")[1] is not None
    )


def user_iterator(tx: TranslatorBase, it: VariableTracker) -> IteratorVariable:
    """What a user `__iter__` returned, as the iterator a `for` loop steps: CPython's TypeError
    when it is no iterator."""
    if isinstance(it, IteratorVariable):
        return it
    if defines_next(it):
        return UserIteratorVariable(it)
    if isinstance(it, BaseListVariable | ConstDictVariable | SetVariable | ConstantVariable):
        tx.raise_user_error(TypeError(f"iter() returned non-iterator of type '{it.type_name()}'"))
    unimplemented("iterate", f"__iter__ returned {it!r}")


class UserIteratorVariable(IteratorVariable):
    """A user object whose class defines `__next__`, stepped by a `for` loop or a consumer
    (`list(it)`, unpacking): each item is a traced call of `__next__`, and a StopIteration
    that leaves `__next__` ends the iteration, as CPython's `tp_iternext` slot does. `iter()`
    and `next()` on the object itself see the object, not this tracker."""

    __slots__ = ("obj",)

    def __init__(self, obj: VariableTracker) -> None:
        super().__init__(None)
        self.obj = obj

    def python_type(self) -> type:
        return self.obj.python_type()

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        try:
            return self.obj.call_method(tx, "__next__", [], {})
        except Unsupported as e:
            if isinstance(e.user_exception, StopIteration):
                return None
            raise

    def reconstruct(self, cg: PyCodegen) -> None:
        self.obj.reconstruct(cg)

    def __repr__(self) -> str:
        return f"UserIteratorVariable({self.obj!r})"


def next_of(
    tx: TranslatorBase, it: VariableTracker, default: VariableTracker | None = None
) -> VariableTracker:
    """`next(it)` and `next(it, default)`."""
    it = it.realize()
    if defines_next(it):  # the user's __next__, its StopIteration included
        if default is None:
            return it.call_method(tx, "__next__", [], {})
        item = UserIteratorVariable(it).next_item(tx)
        return default if item is None else item
    if not isinstance(it, IteratorVariable):
        if isinstance(it, BaseListVariable | ConstDictVariable | SetVariable | ConstantVariable):
            tx.raise_user_error(TypeError(f"'{it.type_name()}' object is not an iterator"))
        unimplemented("call", f"next() on {it!r} is not supported")
    item = it.next_item(tx)
    if item is not None:
        return item
    if default is None:
        tx.raise_user_error(it.stop_iteration(tx))
    return default


def iterator_contains(tx: TranslatorBase, it: IteratorVariable, item: VariableTracker) -> bool:
    """`item in it` for an iterator (it has no `__contains__`): CPython pulls items until one
    is `item` or equal to it, and leaves the rest unconsumed."""
    realized = item.realize()
    target: Any = _END
    while (candidate := it.next_item(tx)) is not None:
        if candidate is item or candidate.realize() is realized:
            return True
        if target is _END:
            target = search_target(tx, realized)
        if constant_equal(tx, candidate, target):
            return True
    return False


def make_reversed(tx: TranslatorBase, seq: VariableTracker) -> IteratorVariable:
    """`reversed(seq)`: a list or tuple backwards by index, a dict (or view) by CPython's
    reverse dict iterator; CPython's TypeError for what is neither reversible nor a sequence
    (a set, an iterator)."""
    seq = seq.realize()
    if isinstance(seq, BaseListVariable):
        return SequenceIteratorVariable(seq, step=-1)
    if isinstance(seq, ConstDictVariable):
        return dict_iterator(seq, "keys", reverse=True)
    if isinstance(seq, DictViewVariable):
        return dict_iterator(seq.dict_vt, seq.kind, reverse=True)
    if isinstance(seq, DequeVariable):
        return BuiltinIteratorVariable(reversed(seq.items), _itself)
    if isinstance(seq, IteratorVariable | SetVariable):
        tx.raise_user_error(TypeError(f"'{seq.type_name()}' object is not reversible"))
    if isinstance(seq, ConstantVariable | RangeVariable):
        iterator = _real_iterator(tx, reversed, seq)[1]
        return BuiltinIteratorVariable(iterator, builder.wrap_constant_result)
    from variables.user_defined import UserDefinedClassVariable

    if isinstance(seq, UserDefinedClassVariable):  # a class whose metaclass reverses (an Enum)
        method = seq.metaclass_special(tx, "__reversed__")
        made = method.call_function(tx, [], {}).realize() if method is not None else None
        if isinstance(made, IteratorVariable):  # (CPython returns whatever it gives)
            return made
    unimplemented("call", f"reversed() of {seq!r} is not supported")


class MapVariable(IteratorVariable):
    """`map(fn, *iterables)`: each `next` pulls one item from each input, left to right, and
    calls `fn` on them; the first exhausted input ends this `next` (the earlier inputs have
    already given an item, as in CPython)."""

    __slots__ = ("fn", "iterators")

    def __init__(self, fn: VariableTracker, iterators: list[IteratorVariable]) -> None:
        super().__init__(None)
        self.fn = fn
        self.iterators = iterators

    def python_type(self) -> type:
        return map

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        args = []
        for it in self.iterators:
            item = it.next_item(tx)
            if item is None:
                return None
            args.append(item)
        return self.fn.realize().call_function(tx, args, {})

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.rebuild_once(self, lambda: _call(cg, map, [self.fn, *self.iterators]))


class FilterVariable(IteratorVariable):
    """`filter(fn, iterable)`: pulls until an item passes (`fn` None or `bool`: its truth)."""

    __slots__ = ("fn", "iterator")

    def __init__(self, fn: VariableTracker, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.fn = fn
        self.iterator = iterator

    def python_type(self) -> type:
        return filter

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        fn = self.fn.realize()
        by_truth = fn.is_python_constant() and fn.as_python_constant() in (None, bool)
        while (item := self.iterator.next_item(tx)) is not None:
            test = item if by_truth else fn.call_function(tx, [item], {})
            if test.realize().truthy(tx):
                return item
        return None

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.rebuild_once(self, lambda: _call(cg, filter, [self.fn, self.iterator]))


class ZipVariable(IteratorVariable):
    """`zip(*iterables, strict=...)`: each `next` pulls from the inputs left to right and stops
    at the first exhausted one; with `strict`, CPython's ValueError names the shorter or
    longer argument (the later inputs are pulled once more to find a longer one)."""

    __slots__ = ("iterators", "strict")

    def __init__(self, iterators: list[IteratorVariable], strict: bool) -> None:
        super().__init__(None)
        self.iterators = iterators
        self.strict = strict

    def python_type(self) -> type:
        return zip

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if not self.iterators:
            return None
        row = []
        for i, it in enumerate(self.iterators):
            item = it.next_item(tx)
            if item is None:
                if self.strict:
                    self._check_lengths(tx, i)
                return None
            row.append(item)
        return TupleVariable(row)

    def _check_lengths(self, tx: TranslatorBase, exhausted: int) -> None:
        """strict=True and input `exhausted` (0-based) ran out: the others must have too."""
        if exhausted:
            tx.raise_user_error(ValueError(_zip_length_message(exhausted, "shorter")))
        for i in range(1, len(self.iterators)):
            if self.iterators[i].next_item(tx) is not None:
                tx.raise_user_error(ValueError(_zip_length_message(i, "longer")))

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.strict:
            super().reconstruct(cg)
        cg.rebuild_once(self, lambda: _call(cg, zip, self.iterators))


def _zip_length_message(index: int, how: str) -> str:
    """CPython's words for zip(strict=True) whose argument `index` (0-based) differs."""
    others = "argument 1" if index == 1 else f"arguments 1-{index}"
    return f"zip() argument {index + 1} is {how} than {others}"


class EnumerateVariable(IteratorVariable):
    """`enumerate(iterable, start)`: `(count, item)` per item pulled."""

    __slots__ = ("count", "iterator")

    def __init__(self, iterator: IteratorVariable, count: int) -> None:
        super().__init__(None)
        self.iterator = iterator
        self.count = count

    def python_type(self) -> type:
        return enumerate

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        item = self.iterator.next_item(tx)
        if item is None:
            return None
        pair = TupleVariable([ConstantVariable(self.count), item])
        self.count += 1
        return pair

    def reconstruct(self, cg: PyCodegen) -> None:
        parts = [self.iterator, ConstantVariable(self.count)]
        cg.rebuild_once(self, lambda: _call(cg, enumerate, parts))


class CallableIteratorVariable(IteratorVariable):
    """`iter(fn, sentinel)`: calls `fn()` per `next` until it returns the sentinel (identity
    or `==`, as CPython compares) or raises StopIteration; then it stays exhausted."""

    __slots__ = ("fn", "sentinel")

    def __init__(self, fn: VariableTracker, sentinel: VariableTracker) -> None:
        super().__init__(None)
        self.fn: VariableTracker | None = fn
        self.sentinel = sentinel

    def python_type(self) -> type:
        return type(iter(int, 0))

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if self.fn is None:
            return None
        try:
            result = self.fn.realize().call_function(tx, [], {})
        except Unsupported as e:
            # fn raised StopIteration and no handler inside fn caught it: the iterator
            # catches it and ends
            if isinstance(e.user_exception, StopIteration):
                self.fn = None
                return None
            raise
        if self._is_sentinel(tx, result.realize()):
            self.fn = None
            return None
        return result

    def _is_sentinel(self, tx: TranslatorBase, result: VariableTracker) -> bool:
        sentinel = self.sentinel.realize()
        if result is sentinel:
            return True
        try:
            a, b = result.as_python_constant(), sentinel.as_python_constant()
        except NotConstantError:
            unimplemented("compare", f"comparing {result!r} with the sentinel {sentinel!r}")
        return a is b or bool(tx.run_user_operation(operator.eq, a, b))

    def reconstruct(self, cg: PyCodegen) -> None:
        fn = self.fn
        if fn is None:
            super().reconstruct(cg)
            return
        cg.rebuild_once(self, lambda: _call(cg, iter, [fn, self.sentinel]))


def _call(cg: PyCodegen, fn: Any, args: Sequence[VariableTracker]) -> None:
    """Emit `fn(*args)` for a builtin `fn` and trackers `args`."""
    cg.load_function(fn)
    for arg in args:
        cg(arg)
    cg.call(len(args))


# -- the builtins that make iterators -------------------------------------------------------------
def make_map(
    tx: TranslatorBase, fn: VariableTracker, iterables: Sequence[VariableTracker]
) -> IteratorVariable:
    if not iterables:
        tx.run_user_operation(map, None)  # CPython's TypeError for too few arguments
    return MapVariable(fn, [iterate(tx, it) for it in iterables])


def make_filter(
    tx: TranslatorBase, fn: VariableTracker, iterable: VariableTracker
) -> IteratorVariable:
    return FilterVariable(fn, iterate(tx, iterable))


def make_zip(
    tx: TranslatorBase, iterables: Sequence[VariableTracker], strict: VariableTracker | None
) -> IteratorVariable:
    is_strict = strict is not None and strict.realize().truthy(tx)
    return ZipVariable([iterate(tx, it) for it in iterables], is_strict)


def make_enumerate(
    tx: TranslatorBase, iterable: VariableTracker, start: VariableTracker | None
) -> IteratorVariable:
    count = 0
    if start is not None:
        try:
            value = start.realize().as_python_constant()
        except NotConstantError:
            unimplemented("call", f"enumerate() with a start of {start!r}")
        # CPython checks the start (an integer, through __index__) before the iterable
        guard_index_operands(tx, [start], [value], "enumerate()'s start")
        tx.run_user_operation(enumerate, (), value)
        count = int(operator.index(value))
    return EnumerateVariable(iterate(tx, iterable), count)


def make_iter(
    tx: TranslatorBase, obj: VariableTracker, sentinel: VariableTracker | None
) -> VariableTracker:
    if sentinel is None:
        if user_iterator_class(obj.realize()) is not None:  # `iter(obj)` is what __iter__ gives
            it = obj.realize().call_method(tx, "__iter__", [], {}).realize()
            user_iterator(tx, it)  # CPython's TypeError when that is no iterator
            return it
        return iterate(tx, obj)
    fn = obj.realize()
    if fn.is_python_constant() and not callable(fn.as_python_constant()):
        tx.raise_user_error(TypeError("iter(v, w): v must be callable"))
    return CallableIteratorVariable(fn, sentinel)


def unpack_sequence(
    tx: TranslatorBase, vt: VariableTracker, before: int, after: int | None
) -> list[VariableTracker]:
    """UNPACK_SEQUENCE (`after` None: exactly `before` items) and UNPACK_EX (`before` names, a
    starred list, `after` names), as CPython's unpack_iterable pulls: one item per name, then
    one more to find too many; the starred name takes the rest. The values come in order."""
    vt = vt.realize()
    if after is None and isinstance(vt, BaseListVariable) and len(vt.items) == before:
        return list(vt.items)
    if isinstance(vt, ConstantVariable):
        value = vt.value
        if not hasattr(type(value), "__iter__") and not hasattr(type(value), "__getitem__"):
            tx.raise_user_error(
                TypeError(f"cannot unpack non-iterable {type(value).__name__} object")
            )
    it = iterate(tx, vt)
    items: list[VariableTracker] = []
    for _ in range(before):
        item = it.next_item(tx)
        if item is None:
            expected = f"{before}" if after is None else f"at least {before + after}"
            tx.raise_user_error(
                ValueError(f"not enough values to unpack (expected {expected}, got {len(items)})")
            )
        items.append(item)
    if after is None:
        if it.next_item(tx) is not None:
            tx.raise_user_error(ValueError(f"too many values to unpack (expected {before})"))
        return items
    from variables.length_hint import rest_of  # (it builds on this module)

    rest = rest_of(tx, it)  # the starred name's list: `list(it)`
    if len(rest) < after:
        tx.raise_user_error(
            ValueError(
                f"not enough values to unpack (expected at least {before + after}, "
                f"got {before + len(rest)})"
            )
        )
    split = len(rest) - after
    return [*items, ListVariable(rest[:split]), *rest[split:]]
