"""Arguments of a polyfilled function, checked by the real function on stand-ins: CPython's
own TypeError or ValueError for a wrong arity, a wrong type or a bad keyword, with its message,
raised before any user code runs (as the C code checks before it starts)."""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.dicts import ConstDictVariable, DictViewVariable
from variables.iterators import IteratorVariable
from variables.lists import ListVariable, RangeVariable, TupleVariable
from variables.sets import SetVariable

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


def standin(vt: VariableTracker, items: Sequence[Any] = ()) -> tuple[Any, bool]:
    """A value the real function can check `vt` with, without running any user code, and
    whether the real function's error on it is certainly CPython's error on the real value.

    A list or tuple becomes an empty one (or one of `items`): exact. A function becomes one
    that does nothing (never the user's: the check must not run it): exact for a function,
    not for another callable object. Another iterable becomes a tuple, and any other object
    a plain `object()`: not exact (the real value may pass where the stand-in fails)."""
    vt = vt.realize()
    if isinstance(vt, ListVariable):
        return list(items), True
    if isinstance(vt, TupleVariable) and vt.python_type() is tuple:
        return tuple(items), True
    if isinstance(vt, _ITERABLE_TRACKERS):
        return tuple(items), False
    kind = vt.python_type()
    if _defines(kind, "__call__"):
        return _do_nothing, kind in _FUNCTION_TYPES
    if vt.is_python_constant():
        return vt.as_python_constant(), True
    if _defines(kind, "__iter__"):  # another iterable: the real function takes its items later
        return tuple(items), False
    if not any(_defines(kind, name) for name in ("__len__", "__getitem__")):
        return object(), False  # an item, say: the real function only stores or compares it
    unimplemented("polyfill-arguments", f"checking an argument {vt!r} of a polyfilled function")


_FUNCTION_TYPES = frozenset(
    {types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.BuiltinMethodType}
)


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
    arguments is the user's exception, raised before any user code runs, as in CPython. When
    a stand-in was not exact, the error may be the stand-in's: the frame falls back."""
    checked = [standin(a, items) for a in args]
    checked_kwargs = {k: standin(v, items) for k, v in kwargs.items()}
    try:
        fn(*[value for value, _ in checked], **{k: v for k, (v, _) in checked_kwargs.items()})
    except Exception as e:  # noqa: BLE001 - the real function's error is the user's
        if all(exact for _, exact in [*checked, *checked_kwargs.values()]):
            tx.raise_user_error(e)
        name = getattr(fn, "__qualname__", fn)
        unimplemented(
            "polyfill-arguments",
            f"{name}() rejected a stand-in for an argument that is not a list, tuple, function "
            f"or constant ({type(e).__name__}: {e})",
        )
