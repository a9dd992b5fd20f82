"""`list.sort` (and so `sorted`) on a list tracker, with CPython's calls, order and errors.

CPython empties the list while it sorts (a key or `__lt__` that looks at it sees `[]`), calls
the key function on every item first, in order, then sorts the keys; with `reverse=True` it
reverses the list before and after a stable sort. When a comparison raises, the list is left as
far as the sort got. Here:

- keys that are constants (numbers, strings, tuples of them...) compare in C with no user code:
  the real `list.sort` sorts their positions, so the order, and the error and the partial order
  when two keys cannot be compared, are CPython's own;
- other keys (user objects with `__lt__`) are sorted by `polyfills.sort_small`, CPython's
  algorithm in Python, inlined like user code so every `__lt__` runs traced, in CPython's order;
  it covers lists of fewer than 64 items, and longer ones fall back.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracer.bytecode_versions import SORT_DESCENDING_RUNS_HOLD_EQUAL_KEYS
from tracer.exc import unimplemented
from variables import polyfills
from variables.base import VariableTracker
from variables.class_lookup import lookup_class_attr
from variables.class_protocols import guard_folded_classes
from variables.constant import ConstantVariable
from variables.functions import UserFunctionVariable
from variables.lists import ListVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

SMALL_SORT = 64
"""Below this many items CPython's sort is one binary-insertion run (no merges)."""


def sort_list(
    tx: TranslatorBase,
    target: ListVariable,
    key: VariableTracker | None,
    reverse: VariableTracker | None,
) -> None:
    """`target.sort(key=key, reverse=reverse)`, in place. The list holds its final order, or on
    an error the order CPython leaves, when this returns or raises."""
    descending = _reverse_flag(tx, reverse)
    items = list(target.items)
    has_key = not (key is None or (key.is_python_constant() and key.as_python_constant() is None))
    target.items.clear()  # CPython's list is empty while it sorts
    try:
        keys = [key.call_function(tx, [item], {}) for item in items] if key and has_key else items
        _check_unchanged(target)
        constants = _constant_keys(keys)
        if constants is not None:  # a class among them: compared by its metaclass's `<`
            guard_folded_classes(tx, operator.lt, keys, constants)
        if constants is None and len(items) >= SMALL_SORT:
            unimplemented(
                "sort",
                f"sorting {len(items)} traced values (CPython merges runs above "
                f"{SMALL_SORT - 1} items, which is not modeled)",
            )
    except BaseException:
        target.items[:] = items
        raise
    if constants is not None:
        _sort_constants(tx, target, items, constants, descending)
    else:
        _sort_traced(tx, target, items, keys if has_key else None, descending)


def _check_unchanged(target: ListVariable) -> None:
    if target.items:
        unimplemented("sort", "the list is changed during its own sort")


def _reverse_flag(tx: TranslatorBase, reverse: VariableTracker | None) -> bool:
    """`reverse` as list.sort reads it: CPython checks it on an empty list, which calls no key."""
    if reverse is None:
        return False
    value = reverse.realize().as_python_constant()
    tx.run_user_operation([].sort, reverse=value)
    return bool(value)


def _sort_constants(
    tx: TranslatorBase,
    target: ListVariable,
    items: list[VariableTracker],
    keys: list[Any],
    descending: bool,
) -> None:
    """Constant keys: the real `list.sort` orders the items' positions by their keys, making
    the comparisons sorting the keys would make. If two keys cannot be compared, the positions
    are left in the partial order CPython leaves a list in, and the list takes that order."""
    positions = list(range(len(items)))
    error: Exception | None = None
    try:
        positions.sort(key=keys.__getitem__, reverse=descending)
    except Exception as e:  # noqa: BLE001 - a comparison of two keys failed in CPython
        error = e
    target.items[:] = [items[i] for i in positions]
    if error is not None:
        tx.raise_user_error(error)


def _sort_traced(
    tx: TranslatorBase,
    target: ListVariable,
    items: list[VariableTracker],
    keys: list[VariableTracker] | None,
    descending: bool,
) -> None:
    """Other keys: `polyfills.sort_small` inlined, so each comparison is traced; with
    `reverse=True` the lists are reversed before and after, as CPython does."""
    order = ListVariable(items[::-1] if descending else items)
    key_list = None if keys is None else ListVariable(keys[::-1] if descending else keys)
    less = _less(keys if keys is not None else items)
    try:
        UserFunctionVariable(polyfills.sort_small).call_function(  # type: ignore[arg-type]
            tx,
            [
                key_list or order,
                order if key_list else ConstantVariable(None),
                less,
                ConstantVariable(SORT_DESCENDING_RUNS_HOLD_EQUAL_KEYS),
            ],
            {},
        )
        _check_unchanged(target)
    finally:
        target.items[:] = order.items[::-1] if descending else order.items


def _less(keys: list[VariableTracker]) -> VariableTracker:
    """The comparison CPython picks for these keys: when they all have one user type that
    defines `__lt__`, that `__lt__` first; `<` otherwise."""
    kinds = {
        k.python_type() if isinstance(k, UserDefinedObjectVariable) else None
        for k in (key.realize() for key in keys)
    }
    kind = kinds.pop() if len(kinds) == 1 else None
    own_lt = kind is not None and lookup_class_attr(kind, "__lt__")[1] not in (None, object)
    chosen: Callable[[Any, Any], Any] = polyfills.same_type_less if own_lt else polyfills.less
    return UserFunctionVariable(chosen)  # type: ignore[arg-type]


def _constant_keys(keys: list[VariableTracker]) -> list[Any] | None:
    """The keys' values when every key is a constant (compared by C code), else None."""
    values = []
    for vt in keys:
        vt = vt.realize()
        if not vt.is_python_constant():
            return None
        values.append(vt.as_python_constant())
    return values
