"""`sum(iterable, start=0)` as CPython computes it: its fast paths for a run of constant
numbers (a float run compensated for rounding since 3.12) and its generic path of `+`; and
`math.sumprod(p, q)` (new in 3.12) and `math.fsum` over iterables that are not constants."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.iterators import iterate

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


def sum_of(
    tx: TranslatorBase,
    iterable: VariableTracker,
    start: VariableTracker | None,
    add: Callable[[VariableTracker, VariableTracker], VariableTracker],
) -> VariableTracker:
    """The traced `sum`; `add` is the traced `+` (variables/builtin.py, `binary_op`)."""
    total: VariableTracker = start if start is not None else ConstantVariable(0)
    # CPython adds a run of constant numbers from the start in a fast path of its own,
    # which since 3.12 compensates a float sum's rounding errors: the run's items are added
    # here one at a time (an error stops the pulling where CPython's does), then CPython
    # sums the run itself, and the rest is added as CPython's generic path adds it
    constant_start = start is None or start.is_python_constant()
    first = total.as_python_constant() if constant_start else None
    run: list[Any] | None = [] if constant_start else None  # None: in the generic path
    it = iterate(tx, iterable)  # one item at a time: an error stops the pulling
    while (item := it.next_item(tx)) is not None:
        if run is not None and item.is_python_constant():
            run.append(item.as_python_constant())
        elif run is not None:
            total = _sum_of_run(tx, total, run, first)
            run = None
            if _is_float(total) and item.python_type() is float:  # CPython's float path
                unimplemented("builtin", "sum() of floats that are not constants")
        total = add(total, item)
    return total if run is None else _sum_of_run(tx, total, run, first)


def _is_float(vt: VariableTracker) -> bool:
    return vt.is_python_constant() and type(vt.as_python_constant()) is float


def _sum_of_run(
    tx: TranslatorBase, total: VariableTracker, run: list[Any], start: Any
) -> VariableTracker:
    """`total`, the constant items of `run` added to `start` one at a time, as CPython's sum
    gives it: CPython's own sum of them when that is a float (compensated since 3.12)."""
    if not run or not any(type(value) is float for value in run) and type(start) is not float:
        return total
    value = tx.run_user_operation(sum, tuple(run), start)
    return ConstantVariable(value) if type(value) is float else total


SUMPROD: Any = getattr(math, "sumprod", None)
"""`math.sumprod`, which 3.12 added (None before: no call is to it)."""
_LENGTH_ERROR = "Inputs are not the same length"


def sumprod_of(tx: TranslatorBase, p: VariableTracker, q: VariableTracker) -> VariableTracker:
    """`math.sumprod(p, q)` (`statistics.covariance` passes two generators): the items are
    pulled as CPython pulls them, one of `p` then one of `q` per step, until either stops, and
    CPython computes on the lists pulled, which takes the same steps on the same values. Every
    item must be a constant. CPython raises its length error where the pulling stops here too;
    any other error it raises at some step, where it stops pulling, which the lists cannot
    tell: the frame falls back then."""
    its = iterate(tx, p), iterate(tx, q)
    pulled: tuple[list[Any], list[Any]] = ([], [])
    stopped = False
    while not stopped:
        for it, items in zip(its, pulled, strict=True):
            item = it.next_item(tx)
            if item is None:
                stopped = True
                continue
            item = item.realize()
            if not item.is_python_constant():
                unimplemented("non-constant-args", f"sumprod() of the value {item!r}")
            items.append(item.as_python_constant())
    try:
        value = SUMPROD(*pulled)
    except Exception as e:  # noqa: BLE001
        if type(e) is ValueError and str(e) == _LENGTH_ERROR:
            tx.raise_user_error(e)
        unimplemented("builtin", f"sumprod() raises {type(e).__name__} at some step: {e}")
    return ConstantVariable(value)


def fsum_of(tx: TranslatorBase, iterable: VariableTracker) -> VariableTracker:
    """`math.fsum` over an iterable that is not a constant (a generator, a list built in the
    frame): its items are pulled one at a time, as fsum pulls them, and CPython sums them.
    Pulling stops at the first item that is not an int or float constant: CPython then raises
    its own error for it (a str), or the frame breaks (a value only known at runtime)."""
    it = iterate(tx, iterable)
    values: list[Any] = []
    while (item := it.next_item(tx)) is not None:
        item = item.realize()
        if not item.is_python_constant():
            unimplemented("non-constant-args", f"fsum() of the value {item!r}")
        values.append(item.as_python_constant())
        if type(values[-1]) not in (int, float, bool):
            break
    return ConstantVariable(tx.run_user_operation(math.fsum, values))
