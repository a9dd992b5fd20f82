"""The public entry points: `compile` (options checked here, the cache in
tracer/cache/function.py) and `reset`; `explain` and `trace` are in tracer/explain.py."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from tracer.cache import resume
from tracer.cache.function import CompiledFunction, RecompileError, reset_all
from tracer.cache.targets import CompiledModule, compiled_target
from tracer.debug import graph_break
from tracer.options import check_options

__all__ = [
    "CompiledFunction",
    "CompiledModule",
    "RecompileError",
    "compile",
    "graph_break",
    "reset",
]


def compile(
    fn: Callable[..., Any] | None = None,
    *,
    fullgraph: bool = False,
    backend: Any = "eager",
    specialize_float: bool = True,
    dynamic: bool | None = None,
    recompile_limit: int = 8,
    on_recompile: str = "recompile",
) -> Any:
    """Compile `fn` (or return a decorator when called with options only): a function, a
    bound method, an nn.Module (its forward, with the module as `self`) or a callable object
    (its class's `__call__`); see tracer/cache/targets.py. The options are checked in
    tracer/options.py."""
    checked = check_options(
        fullgraph, backend, specialize_float, dynamic, recompile_limit, on_recompile
    )

    def make(fn: types.FunctionType) -> CompiledFunction:
        return CompiledFunction(fn, checked.compile, checked.recompile_limit, checked.on_recompile)

    def decorate(target: Callable[..., Any]) -> Any:
        return compiled_target(target, make)

    if fn is None:
        return decorate
    return decorate(fn)


def reset() -> None:
    """Forget every compiled entry of every compiled function, and the frame ids.

    Every cache that holds an assumption about inputs goes. Decoded instructions stay
    (`tracer.translator.instructions.instructions_of`: a pure function of a code object,
    kept as Dynamo keeps its own across `torch._dynamo.reset()`; notes/design-decisions.md).
    Resume functions go too (their compiled caches are assumptions like any other)."""
    reset_all()
    resume.clear()
