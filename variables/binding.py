"""Binding call arguments to parameters exactly as CPython does: CPython does it.

A *binder* is a generated function with a code object's own parameter list whose body returns
its locals as a dict: `def ___bind(x, y=<default>, *args): return {'x': x, 'y': y, 'args':
args}`. Calling it lets the interpreter itself bind positional, keyword, default, `*args` and
`**kwargs` arguments and raise its own TypeError, word for word, when a call does not fit. The
compiled function binds its real arguments with one (`tracer/cache/function.py`), and inlining
binds VariableTrackers with one: the values are just objects to the binder.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Mapping, Sequence
from typing import Any


def parameters(code: types.CodeType) -> tuple[list[str], list[str]]:
    """The parameter list as written (`x`, `/`, `*args`, `*`, `k`, `**kw`), and the names in
    `co_varnames` order (positional, keyword-only, `*args`, `**kwargs`)."""
    argcount, kwonly = code.co_argcount, code.co_kwonlyargcount
    names = list(code.co_varnames[: argcount + kwonly])
    params = [_spelled(n) for n in names]
    star = code.co_varnames[len(names)] if code.co_flags & inspect.CO_VARARGS else None
    starstar_at = len(names) + (1 if star else 0)
    starstar = code.co_varnames[starstar_at] if code.co_flags & inspect.CO_VARKEYWORDS else None
    if star:
        params.insert(argcount, f"*{star}")
        names.append(star)
    elif kwonly:
        params.insert(argcount, "*")
    if code.co_posonlyargcount:
        params.insert(code.co_posonlyargcount, "/")
    if starstar:
        params.append(f"**{starstar}")
        names.append(starstar)
    return params, names


def _spelled(name: str) -> str:
    """A parameter name as source can spell it: a comprehension's implicit `.0` is `implicit0`
    (only generated code passes it, always positionally)."""
    return name if name.isidentifier() else "implicit" + name.lstrip(".")


def binder_source(code: types.CodeType) -> str:
    """`def ___bind(x, y):\\n    return {'x': x, 'y': y}` with `code`'s parameter list."""
    params, names = parameters(code)
    frame_locals = ", ".join(f"{n!r}: {_spelled(n)}" for n in names)
    return f"def ___bind({', '.join(params)}):\n    return {{{frame_locals}}}\n"


@functools.lru_cache(maxsize=1024)
def _binder_code(code: types.CodeType) -> types.CodeType:
    """The binder's code for functions with `code`: the one compiled for its parameter list,
    named as `code` is (CPython names the function in its errors)."""
    return _compiled_binder(binder_source(code)).replace(
        co_name=code.co_name,
        co_qualname=code.co_qualname,
        co_filename=f"<modetrace-binder {code.co_qualname}>",
    )


@functools.lru_cache(maxsize=1024)
def _compiled_binder(source: str) -> types.CodeType:
    """The binder compiled from its source: once per parameter list, a pure function of it
    (kept, like decoded instructions, across `tracer.reset()`, and shared by every function
    with that parameter list, a resume function made again after a reset among them)."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<modetrace-binder>", "exec"), namespace)  # noqa: S102
    binder_code: types.CodeType = namespace["___bind"].__code__
    return binder_code


def make_binder(
    code: types.CodeType,
    qualname: str,
    defaults: Sequence[object] | None,
    kwdefaults: Mapping[str, object] | None,
) -> types.FunctionType:
    """A binder for a function with `code`, this `__qualname__` (CPython names the function in
    its errors) and these defaults."""
    binder = types.FunctionType(_binder_code(code), {}, code.co_name, tuple(defaults or ()) or None)
    binder.__qualname__ = qualname
    binder.__kwdefaults__ = dict(kwdefaults) if kwdefaults else None
    return binder


def bind(
    code: types.CodeType,
    qualname: str,
    defaults: Sequence[object],
    kwdefaults: Mapping[str, object],
    args: Sequence[object],
    kwargs: Mapping[str, object],
) -> dict[str, Any]:
    """The callee's locals by parameter name, `*args` as a tuple and `**kwargs` as a dict;
    CPython's own TypeError when the call does not fit."""
    binder = make_binder(code, qualname, defaults, kwdefaults)
    bound: dict[str, Any] = binder(*args, **kwargs)
    return bound
