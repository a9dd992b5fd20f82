"""Calls of pure C functions on constants, computed by CPython while tracing (`fold`), and the
table of the functions that may be (`PURE_FUNCTIONS`): builtins, `math`, `operator`, and the C
helpers under `posixpath` and `binascii`. A function not on the table breaks the graph.

A fold computes on the constants of its arguments: for a list, dict or set tracker that is a
copy made for the call, so a result holding such a copy (`max(lists)`, `(lst,) + (1,)`) would
not be the object plain Python returns, and the fold refuses it (`returns_a_copy`)."""

from __future__ import annotations

import binascii
import builtins
import math
import operator
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.class_protocols import guard_folded_classes
from variables.operator_functions import OPERATOR_CALL, returns_a_copy
from variables.sets import operation_result
from variables.sym import SPECIALIZING_CALLS, SymNumberVariable, record_scalar_op

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

PURE_BUILTINS: frozenset[Any] = frozenset(
    {
        abs, all, any, ascii, bin, bool, bytes, callable, chr, complex, divmod, float, format,
        frozenset, hash, hex, int, isinstance, issubclass, len, max, min, oct, ord, pow, repr,
        round, sorted, str, sum, tuple, list, dict, set, type, slice, range, reversed, zip,
        enumerate,
    }
)  # fmt: skip
_OS_C = sys.modules[os.name]  # posix (or nt): the C module under os, posixpath and ntpath
PATH_FUNCTIONS: frozenset[Any] = frozenset(
    [
        os.fspath,
        *(getattr(_OS_C, n) for n in ("_path_normpath", "_path_splitroot_ex") if hasattr(_OS_C, n)),
    ]
)
"""The C functions under posixpath and ntpath, pure on the constants a fold passes them (str,
bytes; a user object with `__fspath__` is not a constant, so its call breaks instead). Which
exist depends on the version: `posixpath.normpath` calls `_path_normpath` (3.13's is it), and
3.13 added `_path_splitroot_ex` (its `posixpath.splitroot`). They compute on the string alone;
`nt`'s `_path_isdir` and friends ask the file system and are not here."""
BINASCII_FUNCTIONS: frozenset[Any] = frozenset(
    getattr(binascii, name) for name in dir(binascii) if name[:1].isalpha() and name[0].islower()
)
"""binascii's conversions (`hexlify`, `b2a_base64`, `crc32`, ...): bytes in, bytes or int out,
no hooks; base64's pure-Python functions call them."""
OPERATOR_FUNCTIONS = frozenset(
    {OPERATOR_CALL, operator.setitem, operator.delitem, operator.iconcat, operator.concat}
    | {operator.is_, operator.is_not}
)
"""What `variables.operator_functions` traces rather than folds."""
PURE_FUNCTIONS: frozenset[Any] = frozenset(
    {getattr(math, name) for name in dir(math) if callable(getattr(math, name))}
    | {getattr(operator, name) for name in dir(operator) if name[:1] != "_" and name != "call"}
    | PURE_BUILTINS
    | PATH_FUNCTIONS
    | BINASCII_FUNCTIONS
)
"""C functions folded on constant arguments. Anything else (time.time, random.random, print,
open, id) is not pure or not deterministic, and breaks the graph. `operator.call(f, ...)` (3.11)
calls `f`, so it is traced as that call (`variables.operator_functions`), never folded."""


def fold(
    tx: TranslatorBase, fn: Any, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """Call a pure C function on constant arguments and wrap its result."""
    if fn not in PURE_FUNCTIONS:
        name = f"{getattr(fn, '__module__', None) or 'builtins'}.{getattr(fn, '__name__', fn)}"
        kind = (
            "builtin"
            if getattr(builtins, getattr(fn, "__name__", ""), None) is fn
            else "C function"
        )
        unimplemented(
            "non-pure-call",
            f"call to {kind} {name.removeprefix('builtins.')} is not supported",
            hints=("only functions on the table of pure functions are folded while tracing",),
        )
    if any(isinstance(a.realize(), SymNumberVariable) for a in args) and _records_symbolically(
        fn, args, kwargs
    ):
        return record_scalar_op(tx, fn, [a.realize() for a in args])
    for a in (*args, *kwargs.values()):
        pin = getattr(a.realize(), "pin_value", None)
        if pin is not None:  # an input whose value is a constant once guarded by value
            pin(tx)
    try:
        const_args = [a.realize().as_python_constant() for a in args]
        const_kwargs = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
    except NotConstantError as e:
        unimplemented(
            "non-constant-args",
            f"{getattr(fn, '__name__', fn)}() with non-constant argument {e.vt!r}",
        )
    # a class's special methods live on its metaclass, which may gain one later
    guard_folded_classes(tx, fn, (*args, *kwargs.values()), (*const_args, *const_kwargs.values()))
    result = tx.run_user_operation(fn, *const_args, **const_kwargs)
    if returns_a_copy(result, (*const_args, *const_kwargs.values())):
        # (`max(lists)`, `(lst,) + (1,)`: the result would hold a copy, not the object)
        name = getattr(fn, "__name__", fn)
        unimplemented("non-constant-args", f"{name}() would return a copy of its argument")
    return operation_result(result, fn, tuple(const_args), const_kwargs)  # a set keeps its making


def _records_symbolically(
    fn: Any, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> bool:
    """A call with a symbolic number among `args` becomes a graph node (rather than
    specializing the number) for `math` functions and `abs`/`pow`/`min`/`max` on numbers."""
    recordable = getattr(fn, "__module__", None) == "math" or fn in (abs, pow, min, max)
    return (
        recordable
        and not kwargs
        and fn not in SPECIALIZING_CALLS
        and all(isinstance(a.realize(), SymNumberVariable) or a.is_python_constant() for a in args)
    )
