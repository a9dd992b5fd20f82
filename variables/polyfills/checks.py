"""Arguments of a polyfilled function, checked by the real function on stand-ins: CPython's
own TypeError or ValueError for a wrong arity, a wrong type or a bad keyword, with its message,
raised before any user code runs (as the C code checks before it starts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.dicts import ConstDictVariable, DictViewVariable, SetVariable
from variables.iterators import IteratorVariable
from variables.lists import ListVariable, RangeVariable, TupleVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

Handler = Callable[["TranslatorBase", Sequence[VariableTracker], dict[str, VariableTracker]], Any]
"""`handler(tx, args, kwargs) -> tracker`: what calling a polyfilled original does."""


def _do_nothing(*args: Any, **kwargs: Any) -> None:
    return None


_ITERABLE_TRACKERS = (
    ListVariable,
    TupleVariable,
    ConstDictVariable,
    DictViewVariable,
    SetVariable,
    RangeVariable,
    IteratorVariable,
)


def standin(vt: VariableTracker, items: Sequence[Any] = ()) -> Any:
    """A value the real function can check `vt` with, without calling any user code: a list
    tracker becomes a list of `items` (empty by default), another iterable tracker a tuple of
    `items`, a constant its value, and anything callable a function that does nothing."""
    vt = vt.realize()
    if isinstance(vt, ListVariable):
        return list(items)
    if isinstance(vt, _ITERABLE_TRACKERS):
        return tuple(items)
    if vt.is_python_constant():
        value = vt.as_python_constant()
        if not isinstance(value, list | dict | set):  # a mutable constant: copied, not shared
            return value
    kind = vt.python_type()
    if _defines(kind, "__call__"):
        return _do_nothing
    if not any(_defines(kind, name) for name in ("__len__", "__getitem__", "__iter__")):
        return object()  # an item, say: the real function only stores or compares it
    unimplemented("polyfill-arguments", f"checking an argument {vt!r} of a polyfilled function")


def _defines(kind: type, name: str) -> bool:
    return any(name in vars(k) for k in kind.__mro__)


def check_arguments(
    tx: TranslatorBase,
    fn: Callable[..., Any],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
    items: Sequence[Any] = (),
) -> None:
    """Call the real `fn` on stand-ins of the arguments: its TypeError or ValueError for bad
    arguments is the user's exception, raised before any user code runs, as in CPython."""
    tx.run_user_operation(
        fn,
        *[standin(a, items) for a in args],
        **{k: standin(v, items) for k, v in kwargs.items()},
    )
