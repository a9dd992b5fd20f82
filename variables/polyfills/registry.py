"""The polyfill registry: C functions (and the pure-Python stdlib helpers built on them) that a
trace replaces with a Python implementation, chosen by the identity of the original.

`POLYFILLS` maps each original to a handler `handler(tx, args, kwargs) -> tracker`. The builder
wraps an original met while tracing (a global, a module attribute, a folded result) as a
`PolyfillVariable`, guarded by identity like any builtin; calling it runs the handler. A
handler first lets CPython check the arguments: the real function is called on stand-ins
(`standins`: an empty list for a list, the value itself for a constant, a do-nothing function
for a callable), so wrong arity, wrong types and bad keywords raise CPython's own TypeError with
its message. Then it inlines the polyfill (heapq, bisect, functools.reduce: the functions of
the sibling modules, traced like user code) or builds a lazy iterator tracker (itertools) or a
callable object tracker (operator.itemgetter and friends).
"""

from __future__ import annotations

import bisect
import functools
import heapq
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import regex, value_objects
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import ConstantVariable
from variables.functions import UserFunctionVariable
from variables.lists import ListVariable, TupleVariable
from variables.polyfills import (
    bisect_functions,
    functools_functions,
    heapq_functions,
    itertools_objects,
    operator_objects,
)
from variables.polyfills.checks import Handler, check_arguments

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class PolyfillVariable(KnownObjectVariable):
    """`PolyfillVariable(_heapq.heappush)`: an original whose calls run `handler`."""

    __slots__ = ("handler",)

    def __init__(self, fn: Any, handler: Handler, source: Source | None = None) -> None:
        super().__init__(fn, source)
        self.handler = handler

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        result: VariableTracker = self.handler(tx, args, kwargs)
        return result

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        attribute = ATTRIBUTES.get((id(self.fn), name))
        if attribute is not None:
            return PolyfillVariable(getattr(self.fn, name), attribute)
        if name in ("__name__", "__qualname__", "__module__", "__doc__"):
            return ConstantVariable(getattr(self.fn, name))
        return super().var_getattr(tx, name)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.load_const(self.fn)

    def __repr__(self) -> str:
        name = getattr(self.fn, "__qualname__", repr(self.fn))
        return f"PolyfillVariable({getattr(self.fn, '__module__', None)}.{name})"


def polyfill_for(value: Any, source: Source | None = None) -> PolyfillVariable | None:
    """The tracker of `value` when it is a polyfilled original (by identity), else None."""
    found = POLYFILLS.get(id(value))
    if found is None or found[0] is not value:
        return None
    return PolyfillVariable(value, found[1], source)


def inline(
    tx: TranslatorBase,
    polyfill: Callable[..., Any],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """Trace the Python implementation like a user function."""
    return UserFunctionVariable(polyfill).call_function(tx, args, kwargs)  # type: ignore[arg-type]


# -- heapq, bisect, functools.reduce ------------------------------------------------------------
HEAPIFY_LIMIT = 2500
"""Above this many items CPython's heapify sifts in a cache-friendly order the polyfill does
not follow: such a heapify falls back."""


def _traced_function(
    original: Callable[..., Any],
    polyfill: Callable[..., Any],
    items: Sequence[Any] = (),
    helper: Callable[..., Any] | None = None,
    adjust: Callable[[list[VariableTracker], dict[str, VariableTracker]], None] | None = None,
) -> Handler:
    """A handler that checks the arguments with `original`, then inlines `polyfill`.
    `items`: what a list stand-in holds (heappop and heapreplace of `[]` would raise);
    `helper`: passed after the arguments (the max-heap sift of the `_max` functions);
    `adjust`: changes the arguments the check sees (bisect's `hi`)."""

    def handler(
        tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        checked_args, checked_kwargs = list(args), dict(kwargs)
        if adjust is not None:
            adjust(checked_args, checked_kwargs)
        check_arguments(tx, original, checked_args, checked_kwargs, items)
        if original in (heapq.heapify, _heapify_max):
            heap = args[0].realize()
            if isinstance(heap, ListVariable) and len(heap.items) > HEAPIFY_LIMIT:
                unimplemented(
                    "polyfill", f"heapq.heapify of more than {HEAPIFY_LIMIT} items (another order)"
                )
        if helper is not None:
            args = [*args, UserFunctionVariable(helper)]  # type: ignore[arg-type]
        return inline(tx, polyfill, args, kwargs)

    return handler


def _bisect_bounds(args: list[VariableTracker], kwargs: dict[str, VariableTracker]) -> None:
    """The check runs on an empty list: an integer `hi` becomes 0 there, so the search reads
    no item (its type is what the check is for; a negative `lo` still raises first). The
    sequence must be a list, a tuple or a constant: the polyfill reads it with `len` and `[]`,
    where the C code asks the sequence protocol (a dict would differ)."""
    given = args[0] if args else kwargs.get("a")
    sequence = None if given is None else given.realize()
    if (
        sequence is not None
        and not isinstance(sequence, ListVariable | TupleVariable)
        and not (sequence.is_python_constant() and _is_sequence(sequence.as_python_constant()))
    ):
        unimplemented("polyfill-arguments", f"bisect on {sequence!r}, not a list or tuple")
    at = 3 if len(args) > 3 else None
    hi = args[3] if at is not None else kwargs.get("hi")
    if hi is None or not hi.is_python_constant():
        return
    value = hi.as_python_constant()
    if type(value) in (int, bool):
        if at is not None:
            args[at] = ConstantVariable(0)
        else:
            kwargs["hi"] = ConstantVariable(0)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, str | bytes | tuple | range | list)


def _reduce(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`functools.reduce`: checked on a one-item stand-in iterable (an empty one would raise
    the "empty iterable" error), then one of the two forms."""
    check_arguments(tx, functools.reduce, args, kwargs, items=(None,))
    polyfill = functools_functions.reduce_from if len(args) == 3 else functools_functions.reduce
    return inline(tx, polyfill, args, {})


H = heapq_functions
B = bisect_functions
_heapify_max: Any = heapq._heapify_max
_heappop_max: Any = heapq._heappop_max  # type: ignore[attr-defined]
_heapreplace_max: Any = heapq._heapreplace_max  # type: ignore[attr-defined]
"""The max-heap functions of `_heapq` that `heapq.nsmallest` and `heapq.merge` call."""

_FUNCTIONS: list[tuple[Any, Handler]] = [
    (heapq.heappush, _traced_function(heapq.heappush, heapq_functions.heappush)),
    (heapq.heappop, _traced_function(heapq.heappop, heapq_functions.heappop, (None,))),
    (heapq.heapreplace, _traced_function(heapq.heapreplace, heapq_functions.heapreplace, (None,))),
    (heapq.heappushpop, _traced_function(heapq.heappushpop, heapq_functions.heappushpop)),
    (heapq.heapify, _traced_function(heapq.heapify, heapq_functions.heapify)),
    (_heapify_max, _traced_function(_heapify_max, H.heapify, (), H.siftup_max)),
    (_heappop_max, _traced_function(_heappop_max, H.heappop, (None,), H.siftup_max)),
    (_heapreplace_max, _traced_function(_heapreplace_max, H.heapreplace, (None,), H.siftup_max)),
    (
        bisect.bisect_left,
        _traced_function(bisect.bisect_left, B.bisect_left, adjust=_bisect_bounds),
    ),
    (
        bisect.bisect_right,
        _traced_function(bisect.bisect_right, B.bisect_right, adjust=_bisect_bounds),
    ),
    (
        bisect.insort_left,
        _traced_function(bisect.insort_left, B.insort_left, adjust=_bisect_bounds),
    ),
    (
        bisect.insort_right,
        _traced_function(bisect.insort_right, B.insort_right, adjust=_bisect_bounds),
    ),
    (functools.reduce, _reduce),
]


def _table(entries: Sequence[tuple[Any, Handler]]) -> dict[int, tuple[Any, Handler]]:
    return {id(original): (original, handler) for original, handler in entries}


POLYFILLS: dict[int, tuple[Any, Handler]] = _table(
    [
        *_FUNCTIONS,
        *itertools_objects.CONSTRUCTORS,
        *operator_objects.CONSTRUCTORS,
        *regex.FUNCTIONS,
        *value_objects.FUNCTIONS,
    ]
)
"""id(original) -> (original, handler): the one registry of polyfilled originals. The key is
the identity: an original is found without hashing (or comparing) the value looked up."""

ATTRIBUTES: dict[tuple[int, str], Handler] = {
    (id(original), name): handler for original, name, handler in itertools_objects.ATTRIBUTES
}
"""(id(original), attribute name) -> handler, for the attributes of a polyfilled class that
are themselves polyfilled (`itertools.chain.from_iterable`: a new bound method at each read)."""
