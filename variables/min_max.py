"""`min` and `max` that can't be folded (a key function, items that are not constants): when
to trace them, and tracing them through the Python implementation in variables/polyfills
(moved here from variables/builtin.py, which keeps the folding and the graph ops)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.functions import UserFunctionVariable
from variables.lists import BaseListVariable, TupleVariable
from variables.operator_functions import holds_copy
from variables.polyfills import min_max_functions
from variables.sym import SymNumberVariable
from variables.tensor import TensorVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


def needs_min_max_polyfill(
    args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> bool:
    """A key function, or items that are not all constants (user objects, an iterator's
    items), cannot be folded: min/max then runs as Python. So do items or a default that are
    lists, dicts or sets (a fold would return a copy, not the item). Tensors keep their
    refusal and symbolic numbers their graph op."""
    key = kwargs.get("key")
    if key is not None and not (key.is_python_constant() and key.as_python_constant() is None):
        return True
    default = kwargs.get("default")
    if default is not None and not _folds(default.realize()):
        return True
    if len(args) == 1:
        given = args[0].realize()
        if not isinstance(given, BaseListVariable):
            return not _folds(given)
        args = given.items
    items = [a.realize() for a in args]
    if any(isinstance(i, TensorVariable | SymNumberVariable) for i in items):
        return False  # a graph op or a refusal, as before
    return not all(map(_folds, items))


def _folds(vt: VariableTracker) -> bool:
    """Is `vt` a constant that is the object itself (not a container's copy)?"""
    return vt.is_python_constant() and not holds_copy(vt.as_python_constant())


def _empty_message(fn: Any) -> str:
    """CPython's own words for `fn` of an empty iterable (3.12 reworded them)."""
    try:
        fn(())
    except ValueError as e:
        return str(e)
    raise AssertionError(f"{fn.__name__}(()) returned")


_EMPTY_MESSAGES = {min: _empty_message(min), max: _empty_message(max)}


def traced_min_max(
    tx: TranslatorBase,
    fn: Any,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`min`/`max` traced through the Python implementation in variables/polyfills."""
    if len(args) > 1 and "default" in kwargs:
        tx.raise_user_error(
            TypeError(
                f"Cannot specify a default for {fn.__name__}() with multiple positional arguments"
            )
        )
    iterable = args[0] if len(args) == 1 else TupleVariable(list(args))
    key = kwargs.get("key", ConstantVariable(None))
    call_args = [
        iterable,
        key,
        ConstantVariable(fn is min),
        ConstantVariable("default" in kwargs),
        kwargs.get("default", ConstantVariable(None)),
        ConstantVariable(_EMPTY_MESSAGES[fn]),
    ]
    polyfill: Any = min_max_functions.min_max  # a plain Python function
    return UserFunctionVariable(polyfill).call_function(tx, call_args, {})
