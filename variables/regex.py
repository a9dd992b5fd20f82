"""Regular expressions while tracing: compiled patterns, matches, and the `re` functions.

`re.Pattern` and `re.Match` are immutable C objects, and their methods are C code with no user
hooks when every argument is a str, bytes, int or None (a callable `repl` of `sub` is user code:
such a call breaks the graph). So CPython computes them: `RegexVariable` holds the real object,
reads its attributes and calls its methods on constant arguments, and wraps what they return.
The functions of the `re` module (`re.compile`, `re.sub`, ...) are Python code that goes through
`re._compile` and its cache; they are computed the same way, by calling them on constants, so
a trace does not follow the cache. An exception they raise (`re.error`, a TypeError) is the
user's exception. A pattern or match found in a global or an argument is guarded by identity.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, KnownObjectVariable, VariableTracker
from variables.constant import is_constant_value

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

METHODS: dict[type, frozenset[str]] = {
    re.Pattern: frozenset({"match", "search", "fullmatch", "sub", "subn", "split", "findall"}),
    re.Match: frozenset(
        {"group", "groups", "groupdict", "start", "end", "span", "expand", "__getitem__"}
    ),
}
"""The methods computed by CPython; `finditer` and `scanner` return stateful iterators and
are left out (reading them breaks the graph)."""

ATTRIBUTES: dict[type, frozenset[str]] = {
    re.Pattern: frozenset({"pattern", "flags", "groups"}),
    re.Match: frozenset({"string", "re", "pos", "endpos", "lastindex", "lastgroup"}),
}


def is_regex_object(value: Any) -> bool:
    return type(value) is re.Pattern or type(value) is re.Match


_BOUND_METHOD_TYPES = frozenset({types.BuiltinMethodType, type(re.compile("").match)})
"""A method read from a pattern (`builtin_method` in 3.11, not `builtin_function_or_method`)."""


def bound_method(value: Any) -> VariableTracker | None:
    """`pattern.match` read once and kept (`_m = STRINGCHUNK.match`, a default argument of
    json's scanner): the method of a RegexVariable; None for anything else."""
    if type(value) not in _BOUND_METHOD_TYPES:  # (any other value's own code is not asked)
        return None
    owner = value.__self__
    if not is_regex_object(owner):
        return None
    if value.__name__ not in METHODS[type(owner)]:
        return None
    return GetAttrVariable(RegexVariable(owner), value.__name__)


def wrap_result(value: Any) -> VariableTracker:
    """A pattern or a match as a RegexVariable; anything else (str, list, tuple, dict, None)
    as any folded result is wrapped."""
    if is_regex_object(value):
        return RegexVariable(value)
    return builder.wrap_constant_result(value)


def _constant_arguments(
    what: str, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> tuple[list[Any], dict[str, Any]]:
    """The real arguments, when each is a constant (str, bytes, int, None, a tuple of them, a
    RegexFlag) or a pattern/match; else a graph break (a callable would run user code)."""

    def real(vt: VariableTracker) -> Any:
        vt = vt.realize()
        if isinstance(vt, RegexVariable):
            return vt.fn
        if not vt.is_python_constant():
            unimplemented("regex", f"{what} with the non-constant argument {vt!r}")
        value = vt.as_python_constant()
        if not (is_constant_value(value) or isinstance(value, re.RegexFlag)):
            unimplemented("regex", f"{what} with an argument of type {type(value).__name__}")
        return value

    return [real(a) for a in args], {k: real(v) for k, v in kwargs.items()}


def compute(
    tx: TranslatorBase,
    what: str,
    fn: Callable[..., Any],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`fn(*args, **kwargs)` run by CPython on the real arguments, its result wrapped."""
    real_args, real_kwargs = _constant_arguments(what, args, kwargs)
    return wrap_result(tx.run_user_operation(fn, *real_args, **real_kwargs))


class RegexVariable(KnownObjectVariable):
    """`RegexVariable(re.compile('a+'))`: a compiled pattern or a match object."""

    __slots__ = ()

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        kind = type(self.fn)
        if name in ATTRIBUTES[kind]:
            return wrap_result(getattr(self.fn, name))
        if name in METHODS[kind]:
            return GetAttrVariable(self, name)
        unimplemented("regex", f"attribute {kind.__name__}.{name} is not supported while tracing")

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        kind = type(self.fn)
        if name not in METHODS[kind]:
            return super().call_method(tx, name, args, kwargs)
        if name in ("sub", "subn") and _callable_repl(args, kwargs):
            return substitute(tx, self.fn, name == "subn", args, kwargs)
        method = getattr(self.fn, name)
        return compute(tx, f"{kind.__name__}.{name}", method, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"RegexVariable({self.fn!r})"


def _callable_repl(args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]) -> bool:
    """Is the `repl` of a `sub` (its first argument) something other than a str or bytes
    constant (a function, which `sub` calls on each match)?"""
    repl = args[0] if args else kwargs.get("repl")
    if repl is None:
        return False
    repl = repl.realize()
    return not (repl.is_python_constant() and is_constant_value(repl.as_python_constant()))


def substitute(
    tx: TranslatorBase,
    pattern: re.Pattern[Any],
    counting: bool,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`pattern.sub(repl, string, count)` with a function `repl`: CPython finds the matches
    (`finditer` on the constant string, the same matches `sub` makes), the trace calls `repl`
    on each, and the pieces are put together as `_sre` does: the text before a match when it
    is not empty, `repl`'s result unless it is None, the rest; joined by CPython, so a result
    of the wrong type raises `_sre`'s own error."""
    names = ("repl", "string", "count")
    bound = dict(zip(names, args, strict=False)) | kwargs
    if set(bound) - set(names) or len(args) > 3 or "string" not in bound:
        unimplemented("regex", "Pattern.sub with these arguments")  # CPython's error: eager
    repl = bound["repl"]
    _, real = _constant_arguments(
        "Pattern.sub", [], {k: v for k, v in bound.items() if k != "repl"}
    )
    string, count = real["string"], real.get("count", 0)
    if type(string) not in (str, bytes) or type(count) is not int:
        unimplemented("regex", "Pattern.sub of a value that is not a str or bytes")
    matches = list(tx.run_user_operation(pattern.finditer, string))
    if count != 0:  # at most `count`; a negative count substitutes nothing, as in `_sre`
        matches = matches[: max(count, 0)]
    pieces: list[Any] = []
    end = 0
    for match in matches:
        if end < match.start():
            pieces.append(string[end : match.start()])
        value = repl.call_function(tx, [RegexVariable(match)], {}).realize()
        if not value.is_python_constant():
            unimplemented("regex", f"Pattern.sub whose function returned {value!r}")
        if value.as_python_constant() is not None:
            pieces.append(value.as_python_constant())
        end = match.end()
    if end < len(string):
        pieces.append(string[end:])
    result = tx.run_user_operation(string[:0].join, pieces)
    return wrap_result((result, len(matches)) if counting else result)


def _function(fn: Callable[..., Any]) -> Callable[..., VariableTracker]:
    def handler(
        tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
    ) -> VariableTracker:
        if fn in (re.sub, re.subn) and len(args) >= 2 and _callable_repl(args[1:], {}):
            if set(kwargs) - {"count"}:
                unimplemented("regex", f"re.{fn.__name__} with a function and flags")
            pattern = compute(tx, "re.compile", re.compile, args[:1], {})
            assert isinstance(pattern, RegexVariable)
            return substitute(tx, pattern.fn, fn is re.subn, args[1:], kwargs)
        return compute(tx, f"re.{fn.__name__}", fn, args, kwargs)

    return handler


FUNCTIONS: list[tuple[Any, Callable[..., VariableTracker]]] = [
    (fn, _function(fn))
    for fn in (
        re.compile, re.match, re.search, re.fullmatch, re.sub, re.subn, re.split, re.findall,
        re.escape,
    )
]  # fmt: skip
"""The `re` functions computed by CPython, for the polyfill registry (by identity)."""

__all__ = ["FUNCTIONS", "RegexVariable", "bound_method", "is_regex_object", "wrap_result"]
