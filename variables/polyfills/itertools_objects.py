"""itertools' iterators as lazy iterator trackers: each `next` pulls from its inputs, and calls
the user's functions (a predicate, a key, `func` of accumulate), exactly when CPython's C
`__next__` would, so their side effects interleave with the traced code as they do eagerly.

They follow the IteratorVariable protocol of variables/iterators.py (`next_item`, None at the
end), so a `for` loop, `next()`, `list()` or another lazy builtin consumes them the same way.
What the C constructors consume eagerly they consume here when made: `product`,
`permutations`, `combinations` and `combinations_with_replacement` turn their inputs into
tuples; the order of the results is then a pure function of the lengths, so the real itertools
function, run over `range`s, gives the indices. An itertools object that escapes the frame
(returned, stored) can't be rebuilt at its position: the frame falls back, with that reason.
`tee` shares the items pulled so far between its iterators.
The arguments were checked first by the real constructor (variables/polyfills/registry.py).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import Unsupported, unimplemented
from variables.base import VariableTracker
from variables.builtin import BuiltinVariable
from variables.constant import ConstantVariable
from variables.iterators import IteratorVariable, UserIteratorVariable, iterate
from variables.length_hint import sized_iterate
from variables.lists import TupleVariable
from variables.polyfills.checks import Handler, check_arguments

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


def call(tx: TranslatorBase, fn: VariableTracker, *args: VariableTracker) -> VariableTracker:
    return fn.realize().call_function(tx, list(args), {})


def truth(tx: TranslatorBase, vt: VariableTracker) -> bool:
    return vt.realize().truthy(tx)


def equal(tx: TranslatorBase, a: VariableTracker, b: VariableTracker) -> bool:
    """`PyObject_RichCompareBool(a, b, Py_EQ)`: the same object is equal without a call."""
    a, b = a.realize(), b.realize()
    if a is b:
        return True
    return truth(tx, BuiltinVariable(operator.eq).call_function(tx, [a, b], {}))


def constant(vt: VariableTracker, what: str) -> Any:
    """The value of an argument the polyfill needs as a constant (a count, an index)."""
    vt = vt.realize()
    if not vt.is_python_constant():
        unimplemented("polyfill-arguments", f"{what} of {vt!r}, not a constant")
    return vt.as_python_constant()


class ItertoolsIterator(IteratorVariable):
    """Base of the itertools trackers: `kind` is the real itertools type it stands for."""

    __slots__ = ()
    kind: type = object

    def python_type(self) -> type:
        return self.kind

    def __repr__(self) -> str:
        return f"{type(self).__name__}(itertools.{self.kind.__name__})"


class ChainVariable(ItertoolsIterator):
    """`chain(*its)` and `chain.from_iterable(its)`: `iterables` yields the iterables; each is
    made an iterator only when the previous one is exhausted."""

    __slots__ = ("active", "iterables")
    kind = itertools.chain

    def __init__(self, iterables: IteratorVariable) -> None:
        super().__init__(None)
        self.iterables: IteratorVariable | None = iterables
        self.active: IteratorVariable | None = None

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        while self.iterables is not None:
            if self.active is None:
                iterable = self.iterables.next_item(tx)
                if iterable is None:
                    self.iterables = None
                    return None
                self.active = iterate(tx, iterable)
            item = self.active.next_item(tx)
            if item is not None:
                return item
            self.active = None
        return None


class ISliceVariable(ItertoolsIterator):
    """`islice(it, [start,] stop [, step])`: skips to the next index, then yields one item."""

    __slots__ = ("count", "iterator", "next_index", "step", "stop")
    kind = itertools.islice

    def __init__(self, iterator: IteratorVariable, start: int, stop: int | None, step: int):
        super().__init__(None)
        self.iterator: IteratorVariable | None = iterator
        self.next_index = start
        self.stop = stop
        self.step = step
        self.count = 0

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        it = self.iterator
        if it is None:
            return None
        while self.count < self.next_index:
            if it.next_item(tx) is None:
                self.iterator = None
                return None
            self.count += 1
        if self.stop is not None and self.count >= self.stop:
            self.iterator = None
            return None
        item = it.next_item(tx)
        if item is None:
            self.iterator = None
            return None
        self.count += 1
        self.next_index += self.step
        if self.stop is not None and self.next_index > self.stop:
            self.next_index = self.stop
        return item


class CountVariable(ItertoolsIterator):
    """`count(start, step)` over constants: each value is the previous one plus `step`."""

    __slots__ = ("current", "step")
    kind = itertools.count

    def __init__(self, start: Any, step: Any) -> None:
        super().__init__(None)
        self.current = start
        self.step = step

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        value = self.current
        self.current = tx.run_user_operation(operator.add, value, self.step)
        return ConstantVariable(value)


class RepeatVariable(ItertoolsIterator):
    """`repeat(obj[, times])`: the same tracker, `times` times (forever without `times`)."""

    __slots__ = ("left", "obj")
    kind = itertools.repeat

    def __init__(self, obj: VariableTracker, times: int | None) -> None:
        super().__init__(None)
        self.obj = obj
        self.left = None if times is None else max(times, 0)

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if self.left is not None:
            if self.left <= 0:
                return None
            self.left -= 1
        return self.obj


class CycleVariable(ItertoolsIterator):
    """`cycle(it)`: the items of `it`, saved as they come; then the saved ones, forever."""

    __slots__ = ("index", "iterator", "saved")
    kind = itertools.cycle

    def __init__(self, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.iterator: IteratorVariable | None = iterator
        self.saved: list[VariableTracker] = []
        self.index = 0

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if self.iterator is not None:
            item = self.iterator.next_item(tx)
            if item is not None:
                self.saved.append(item)
                return item
            self.iterator = None
        if not self.saved:
            return None
        item = self.saved[self.index]
        self.index = (self.index + 1) % len(self.saved)
        return item


class StarmapVariable(ItertoolsIterator):
    """`starmap(fn, it)`: `fn(*item)` per item (the item unpacked as `tuple(item)` would)."""

    __slots__ = ("fn", "iterator")
    kind = itertools.starmap

    def __init__(self, fn: VariableTracker, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.fn = fn
        self.iterator = iterator

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        item = self.iterator.next_item(tx)
        if item is None:
            return None
        args = iterate(tx, item).unpack(tx)
        return call(tx, self.fn, *args)


class TakeWhileVariable(ItertoolsIterator):
    """`takewhile(pred, it)`: items while `pred` holds; the first that fails ends it."""

    __slots__ = ("iterator", "pred", "stopped")
    kind = itertools.takewhile

    def __init__(self, pred: VariableTracker, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.pred = pred
        self.iterator = iterator
        self.stopped = False

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if self.stopped:
            return None
        item = self.iterator.next_item(tx)
        if item is None:
            return None
        if truth(tx, call(tx, self.pred, item)):
            return item
        self.stopped = True
        return None


class DropWhileVariable(ItertoolsIterator):
    """`dropwhile(pred, it)`: skips items while `pred` holds, then yields every item."""

    __slots__ = ("dropping", "iterator", "pred")
    kind = itertools.dropwhile

    def __init__(self, pred: VariableTracker, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.pred = pred
        self.iterator = iterator
        self.dropping = True

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        while (item := self.iterator.next_item(tx)) is not None:
            if not self.dropping or not truth(tx, call(tx, self.pred, item)):
                self.dropping = False
                return item
        return None


class CompressVariable(ItertoolsIterator):
    """`compress(data, selectors)`: a datum, then its selector, until either runs out."""

    __slots__ = ("data", "selectors")
    kind = itertools.compress

    def __init__(self, data: IteratorVariable, selectors: IteratorVariable) -> None:
        super().__init__(None)
        self.data = data
        self.selectors = selectors

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        while True:
            datum = self.data.next_item(tx)
            if datum is None:
                return None
            selector = self.selectors.next_item(tx)
            if selector is None:
                return None
            if truth(tx, selector):
                return datum


class PairwiseVariable(ItertoolsIterator):
    """`pairwise(it)`: `(previous, item)` per item after the first."""

    __slots__ = ("iterator", "old")
    kind = itertools.pairwise

    def __init__(self, iterator: IteratorVariable) -> None:
        super().__init__(None)
        self.iterator: IteratorVariable | None = iterator
        self.old: VariableTracker | None = None

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        # CPython's order, which a user `__next__` that calls `next()` on this pairwise again
        # can observe: `old` is read before the pull of `new` (an inner call that replaces
        # `self.old` meanwhile doesn't change this pair); a first item is stored at once, and
        # dropped if an inner call exhausted the pairwise; `new` is stored last. An error of
        # the iterator (StopIteration or another) ends the pairwise, as it does in C.
        it = self.iterator
        if it is None:
            return None
        old = self.old
        if old is None:
            old = self.old = self.pull(tx, it)
            if old is None:
                return None
            if self.iterator is None:
                self.old = None
                return None
        new = self.pull(tx, it)
        if new is None:
            return None
        self.old = new
        return TupleVariable([old, new])

    def pull(self, tx: TranslatorBase, it: IteratorVariable) -> VariableTracker | None:
        """The next item of the input, or None after ending the pairwise: the input is
        exhausted or raised."""
        try:
            item = it.next_item(tx)
        except Unsupported as e:
            if e.user_exception is not None:
                self.iterator = self.old = None
            raise
        if item is None:
            self.iterator = self.old = None
        return item


class AccumulateVariable(ItertoolsIterator):
    """`accumulate(it, func=None, *, initial=None)`: the running total (`+`, or `func`)."""

    __slots__ = ("func", "initial", "iterator", "total")
    kind = itertools.accumulate

    def __init__(
        self,
        iterator: IteratorVariable,
        func: VariableTracker | None,
        initial: VariableTracker | None,
    ) -> None:
        super().__init__(None)
        self.iterator = iterator
        self.func = func
        self.initial = initial
        self.total: VariableTracker | None = None

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if self.initial is not None:
            self.total, self.initial = self.initial, None
            return self.total
        item = self.iterator.next_item(tx)
        if item is None:
            return None
        if self.total is None:
            self.total = item
        elif self.func is None:
            self.total = BuiltinVariable(operator.add).call_function(tx, [self.total, item], {})
        else:
            self.total = call(tx, self.func, self.total, item)
        return self.total


class ZipLongestVariable(ItertoolsIterator):
    """`zip_longest(*its, fillvalue=None)`: an exhausted input gives `fillvalue` until every
    input is exhausted."""

    __slots__ = ("active", "fillvalue", "iterators")
    kind = itertools.zip_longest

    def __init__(self, iterators: list[IteratorVariable], fillvalue: VariableTracker) -> None:
        super().__init__(None)
        self.iterators: list[IteratorVariable | None] = list(iterators)
        self.active = len(iterators)
        self.fillvalue = fillvalue

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        if not self.iterators or self.active == 0:
            return None
        row = []
        for i, it in enumerate(self.iterators):
            item = None if it is None else it.next_item(tx)
            if item is None:
                if it is not None:
                    self.active -= 1
                    if self.active == 0:
                        return None
                    self.iterators[i] = None
                item = self.fillvalue
            row.append(item)
        return TupleVariable(row)


class IndexedVariable(ItertoolsIterator):
    """product, permutations and the combinations: tuples of the items of `pools` picked by
    an iterator of index tuples (the real function over `range`s: C's order)."""

    __slots__ = ("indices", "kind", "pools")

    def __init__(
        self, kind: type, pools: list[list[VariableTracker]], indices: Iterator[tuple[int, ...]]
    ) -> None:
        super().__init__(None)
        self.kind = kind
        self.pools = pools
        self.indices = indices

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        picked = next(self.indices, None)
        if picked is None:
            return None
        pools = self.pools  # one pool, or product's pools (repeated `repeat` times)
        return TupleVariable([pools[j % len(pools)][i] for j, i in enumerate(picked)])


class GroupByVariable(ItertoolsIterator):
    """`groupby(it, key=None)`: `(key, group)` per run of items with equal keys. The groups
    share this tracker's position, as C's `_grouper` objects share the groupby's: a group read
    after the next `next` of the groupby is empty."""

    __slots__ = ("current", "current_key", "grouper", "iterator", "key", "target_key")
    kind = itertools.groupby

    def __init__(self, iterator: IteratorVariable, key: VariableTracker | None) -> None:
        super().__init__(None)
        self.iterator = iterator
        self.key = key
        self.target_key: VariableTracker | None = None
        self.current_key: VariableTracker | None = None
        self.current: VariableTracker | None = None
        self.grouper: GrouperVariable | None = None

    def step(self, tx: TranslatorBase) -> bool:
        """Pull the next item and its key; False at the end."""
        value = self.iterator.next_item(tx)
        if value is None:
            return False
        key = value if self.key is None else call(tx, self.key, value)
        self.current = value
        self.current_key = key
        return True

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        self.grouper = None
        while True:
            if self.current_key is not None:
                if self.target_key is None:
                    break
                if not equal(tx, self.target_key, self.current_key):
                    break
            if not self.step(tx):
                return None
        self.target_key = self.current_key
        assert self.target_key is not None
        self.grouper = GrouperVariable(self, self.target_key)
        return TupleVariable([self.target_key, self.grouper])


class GrouperVariable(ItertoolsIterator):
    """One group of a groupby: items while their key equals this group's key."""

    __slots__ = ("parent", "target_key")
    kind = type(next(itertools.groupby([0]))[1])

    def __init__(self, parent: GroupByVariable, target_key: VariableTracker) -> None:
        super().__init__(None)
        self.parent = parent
        self.target_key = target_key

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        parent = self.parent
        if parent.grouper is not self:
            return None
        if parent.current is None and not parent.step(tx):
            return None
        assert parent.current_key is not None
        if not equal(tx, self.target_key, parent.current_key):
            return None
        value, parent.current = parent.current, None
        parent.current_key = None  # as C clears both: the next group starts with a step
        return value


class TeeData:
    """What the iterators of one `tee` share: the source and the items pulled so far."""

    __slots__ = ("iterator", "running", "values")

    def __init__(self, iterator: IteratorVariable) -> None:
        self.iterator = iterator
        self.values: list[VariableTracker] = []
        self.running = False


class TeeVariable(ItertoolsIterator):
    """One iterator of `tee(it, n)`: its position in the shared items; the one that is
    ahead pulls the next item from the source."""

    __slots__ = ("data", "index")
    kind: type = type(itertools.tee(())[0])

    def __init__(self, data: TeeData, index: int = 0) -> None:
        super().__init__(None)
        self.data = data
        self.index = index

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        data = self.data
        if self.index < len(data.values):
            self.index += 1
            return data.values[self.index - 1]
        if data.running:  # the source's own code asked this tee for an item
            tx.raise_user_error(RuntimeError("cannot re-enter the tee iterator"))
        data.running = True
        try:
            item = data.iterator.next_item(tx)
        finally:
            data.running = False
        if item is None:
            return None
        data.values.append(item)
        self.index += 1
        return item


def make_tee(tx: TranslatorBase, iterable: VariableTracker, n: int) -> VariableTracker:
    """`tee(it, n)`: a tee given a tee is the first result itself (C copies it for the rest)."""
    if n == 0:
        return TupleVariable([])
    it = iterate(tx, iterable)
    if isinstance(it, UserIteratorVariable):
        # CPython asks the iterator for `__copy__` (one that has it is copied: not modeled),
        # else makes the tee of `iter(it)`, which calls the user's `__iter__` a second time
        has = BuiltinVariable(hasattr).call_function(tx, [it.obj, ConstantVariable("__copy__")], {})
        if has.as_python_constant():
            unimplemented("itertools", f"tee() of {it!r}, which has __copy__")
        it = iterate(tx, it.obj)

    first = it if isinstance(it, TeeVariable) else TeeVariable(TeeData(it))
    return TupleVariable([first] + [TeeVariable(first.data, first.index) for _ in range(n - 1)])


# -- the constructors ---------------------------------------------------------------------------
def make_chain(tx: TranslatorBase, iterables: Sequence[VariableTracker]) -> IteratorVariable:
    return ChainVariable(iterate(tx, TupleVariable(list(iterables))))


def make_chain_from_iterable(tx: TranslatorBase, iterable: VariableTracker) -> IteratorVariable:
    return ChainVariable(iterate(tx, iterable))


def make_islice(tx: TranslatorBase, args: Sequence[VariableTracker]) -> IteratorVariable:
    bounds = [constant(a, "an islice() index") for a in args[1:]]
    if len(bounds) == 1:
        start, stop, step = 0, bounds[0], 1
    else:
        start, stop = bounds[0], bounds[1]
        step = bounds[2] if len(bounds) > 2 else 1
    start = 0 if start is None else operator.index(start)
    stop = None if stop is None else operator.index(stop)
    step = 1 if step is None else operator.index(step)
    return ISliceVariable(iterate(tx, args[0]), start, stop, step)


def make_indexed(
    tx: TranslatorBase, kind: Any, iterables: Sequence[VariableTracker], *extra: Any, **kw: Any
) -> IteratorVariable:
    """product (`kw`: repeat) or the others (`extra`: r) over the inputs made into tuples."""
    pools = [sized_iterate(tx, it).unpack(tx) for it in iterables]  # as PySequence_Tuple
    indices = kind(*[range(len(pool)) for pool in pools], *extra, **kw)
    return IndexedVariable(kind, pools, indices)


def _checked(original: Any, build: Any) -> Handler:
    """A constructor handler: the real constructor checks the arguments, then `build` makes
    the tracker (the lazy ones take their inputs' iterators now, as C does)."""

    def handler(
        tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        check_arguments(tx, original, args, kwargs)
        tracker: VariableTracker = build(tx, list(args), dict(kwargs))
        return tracker

    return handler


def _optional(kwargs: dict[str, VariableTracker], name: str) -> VariableTracker | None:
    """A keyword argument whose None means "not given"."""
    vt = kwargs.get(name)
    if vt is None or (vt.is_python_constant() and vt.as_python_constant() is None):
        return None
    return vt


def _r(args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]) -> Any:
    """The `r` argument of permutations and the combinations (positional or keyword)."""
    vt = args[1] if len(args) > 1 else kwargs.get("r")
    return None if vt is None else constant(vt, "r")


_I = itertools
CONSTRUCTORS: list[tuple[Any, Handler]] = [
    (_I.chain, _checked(_I.chain, lambda tx, a, k: make_chain(tx, a))),
    (_I.islice, _checked(_I.islice, lambda tx, a, k: make_islice(tx, a))),
    (
        _I.count,
        _checked(
            _I.count,
            lambda tx, a, k: CountVariable(
                constant(a[0] if a else k.get("start", ConstantVariable(0)), "count() start"),
                constant(a[1] if len(a) > 1 else k.get("step", ConstantVariable(1)), "step"),
            ),
        ),
    ),
    (
        _I.repeat,
        _checked(
            _I.repeat,
            lambda tx, a, k: RepeatVariable(
                a[0] if a else k["object"],
                constant(a[1], "times") if len(a) > 1 else _const_or_none(k.get("times")),
            ),
        ),
    ),
    (_I.cycle, _checked(_I.cycle, lambda tx, a, k: CycleVariable(iterate(tx, a[0])))),
    (_I.starmap, _checked(_I.starmap, lambda tx, a, k: StarmapVariable(a[0], iterate(tx, a[1])))),
    (
        _I.takewhile,
        _checked(_I.takewhile, lambda tx, a, k: TakeWhileVariable(a[0], iterate(tx, a[1]))),
    ),
    (
        _I.dropwhile,
        _checked(_I.dropwhile, lambda tx, a, k: DropWhileVariable(a[0], iterate(tx, a[1]))),
    ),
    (
        _I.compress,
        _checked(
            _I.compress,
            lambda tx, a, k: CompressVariable(
                iterate(tx, a[0] if a else k["data"]),
                iterate(tx, a[1] if len(a) > 1 else k["selectors"]),
            ),
        ),
    ),
    (_I.pairwise, _checked(_I.pairwise, lambda tx, a, k: PairwiseVariable(iterate(tx, a[0])))),
    (
        _I.accumulate,
        _checked(
            _I.accumulate,
            lambda tx, a, k: AccumulateVariable(
                iterate(tx, a[0] if a else k["iterable"]),
                _optional({"func": a[1]} if len(a) > 1 else k, "func"),
                _optional(k, "initial"),
            ),
        ),
    ),
    (
        _I.zip_longest,
        _checked(
            _I.zip_longest,
            lambda tx, a, k: ZipLongestVariable(
                [iterate(tx, it) for it in a], k.get("fillvalue", ConstantVariable(None))
            ),
        ),
    ),
    (
        _I.product,
        _checked(
            _I.product,
            lambda tx, a, k: make_indexed(
                tx, _I.product, a, repeat=constant(k.get("repeat", ConstantVariable(1)), "repeat")
            ),
        ),
    ),
    (
        _I.permutations,
        _checked(
            _I.permutations,
            lambda tx, a, k: make_indexed(
                tx, _I.permutations, [a[0] if a else k["iterable"]], _r(a, k)
            ),
        ),
    ),
    (
        _I.combinations,
        _checked(
            _I.combinations,
            lambda tx, a, k: make_indexed(
                tx, _I.combinations, [a[0] if a else k["iterable"]], _r(a, k)
            ),
        ),
    ),
    (
        _I.combinations_with_replacement,
        _checked(
            _I.combinations_with_replacement,
            lambda tx, a, k: make_indexed(
                tx, _I.combinations_with_replacement, [a[0] if a else k["iterable"]], _r(a, k)
            ),
        ),
    ),
    (
        _I.tee,
        _checked(
            _I.tee,
            lambda tx, a, k: make_tee(tx, a[0], constant(a[1], "n") if len(a) > 1 else 2),
        ),
    ),
    (
        _I.groupby,
        _checked(
            _I.groupby,
            lambda tx, a, k: GroupByVariable(
                iterate(tx, a[0] if a else k["iterable"]),
                _optional({"key": a[1]} if len(a) > 1 else k, "key"),
            ),
        ),
    ),
]
"""itertools constructors -> handlers (the registry's share for itertools)."""

ATTRIBUTES: list[tuple[Any, str, Handler]] = [
    (
        _I.chain,
        "from_iterable",
        _checked(_I.chain.from_iterable, lambda tx, a, k: make_chain_from_iterable(tx, a[0])),
    ),
]
"""Polyfilled attributes of polyfilled classes: (class, name, handler)."""


def _const_or_none(vt: VariableTracker | None) -> Any:
    return None if vt is None else constant(vt, "times")
