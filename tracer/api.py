"""The public entry points: compile, explain, trace, reset.

`CompiledFunction.__call__` is the hot path: bind the arguments with a generated binder (no
inspect per call), run each cache entry's generated check newest first, and call the first
entry that passes. Misses compile under a per-function lock, so no thread ever sees a
half-built entry and the same frame is not compiled twice at once.
"""

from __future__ import annotations

import builtins
import functools
import threading
import time
import types
import warnings
import weakref
from collections.abc import Callable
from typing import Any

from tracer import logs
from tracer.cache import CacheEntry
from tracer.compile_context import CompileId
from tracer.convert_frame import CompileOptions, convert_frame
from tracer.events import get_chromium_event_logger
from tracer.exc import UserError

_ON_RECOMPILE = ("recompile", "error")


class RecompileError(RuntimeError):
    """Raised on a cache miss when compiled with `on_recompile="error"`."""


class _FrameIds:
    """Frame ids per code object, in first-compile order (the `0` in compile id `0/1`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: dict[types.CodeType, int] = {}

    def frame_id(self, code: types.CodeType) -> int:
        with self.lock:
            return self.ids.setdefault(code, len(self.ids))

    def clear(self) -> None:
        with self.lock:
            self.ids.clear()


_frame_ids = _FrameIds()
_live: weakref.WeakSet[CompiledFunction] = weakref.WeakSet()


def make_binder(fn: types.FunctionType) -> Callable[..., dict[str, Any]]:
    """A generated function with `fn`'s signature that returns its bound arguments as a dict.
    Python itself binds (and raises fn's own TypeErrors); defaults are fn's."""
    code = fn.__code__
    pos = code.co_varnames[: code.co_argcount]
    kwonly = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
    index = code.co_argcount + code.co_kwonlyargcount
    star = code.co_varnames[index] if code.co_flags & 0x04 else None
    index += 1 if star else 0
    starstar = code.co_varnames[index] if code.co_flags & 0x08 else None
    params = list(pos)
    if code.co_posonlyargcount:
        params.insert(code.co_posonlyargcount, "/")
    if star:
        params.append(f"*{star}")
    elif kwonly:
        params.append("*")
    params.extend(kwonly)
    if starstar:
        params.append(f"**{starstar}")
    names = [*pos, *kwonly, *([star] if star else []), *([starstar] if starstar else [])]
    body = ", ".join(f"{n!r}: {n}" for n in names)
    source = f"def {code.co_name}({', '.join(params)}):\n    return {{{body}}}\n"
    namespace: dict[str, Any] = {}
    exec(builtins.compile(source, f"<modetrace-binder {fn.__qualname__}>", "exec"), namespace)  # noqa: S102
    binder: types.FunctionType = namespace[code.co_name]
    binder.__code__ = binder.__code__.replace(co_qualname=code.co_qualname)
    binder.__defaults__ = fn.__defaults__
    binder.__kwdefaults__ = fn.__kwdefaults__
    return binder


class CompiledFunction:
    """A function with a guarded cache of compiled versions: `CompiledFunction(f, 2 entries)`."""

    def __init__(
        self,
        fn: types.FunctionType,
        options: CompileOptions,
        recompile_limit: int,
        on_recompile: str,
    ) -> None:
        self.fn = fn
        self.options = options
        self.recompile_limit = recompile_limit
        self.on_recompile = on_recompile
        self.entries: tuple[CacheEntry, ...] = ()
        self.compile_count = 0
        self.last_miss_reasons: list[str] = []
        self._bind = make_binder(fn)
        self._lock = threading.RLock()
        self._warned_limit = False
        functools.update_wrapper(self, fn)
        _live.add(self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            frame_locals = self._bind(*args, **kwargs)
        except TypeError:
            return self.fn(*args, **kwargs)
        for entry in self.entries:
            if entry.check(frame_locals):
                return entry.run(*args, **kwargs)
        return self._miss(frame_locals, args, kwargs)

    def _miss(
        self, frame_locals: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        with self._lock:
            for entry in self.entries:  # another thread may have compiled meanwhile
                if entry.check(frame_locals):
                    return entry.run(*args, **kwargs)
            reasons = self.miss_reasons(frame_locals)
            self.last_miss_reasons = reasons
            if self.entries and self.on_recompile == "error":
                raise RecompileError(self._recompile_message(reasons))
            if len(self.entries) >= self.recompile_limit:
                self._warn_limit(reasons)
                return self.fn(*args, **kwargs)
            entry = self.compile_entry(frame_locals, reasons)
            self.entries = (entry, *self.entries)
        return entry.run(*args, **kwargs)

    def compile_entry(self, frame_locals: dict[str, Any], reasons: list[str]) -> CacheEntry:
        frame_id = _frame_ids.frame_id(self.fn.__code__)
        compile_id = CompileId(frame_id, self.compile_count)
        self.compile_count += 1
        reason_text = "\n".join(reasons) if reasons else None
        if reasons:
            self._log_recompile(reasons, compile_id)
        return convert_frame(
            self.fn, frame_locals, self.options, compile_id, reason_text, len(self.entries)
        )

    def miss_reasons(self, frame_locals: dict[str, Any]) -> list[str]:
        """For every entry, the first failing guard in words (miss path only)."""
        return [f"{entry.compile_id}: {entry.failure(frame_locals)}" for entry in self.entries]

    def _recompile_message(self, reasons: list[str]) -> str:
        code = self.fn.__code__
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"
        lines = "\n".join(f"    {r}" for r in reasons)
        return (
            f"Recompiling function {code.co_name} in {where} triggered by the following "
            f"guard failure(s):\n{lines}"
        )

    def _log_recompile(self, reasons: list[str], compile_id: CompileId) -> None:
        get_chromium_event_logger().log_instant_event(
            "recompile", time.time_ns(), {"compile_id": str(compile_id), "reasons": reasons}
        )
        if logs.enabled("recompiles"):
            logs.get_logger("recompiles").info("%s", self._recompile_message(reasons))

    def _warn_limit(self, reasons: list[str]) -> None:
        if self._warned_limit:
            return
        self._warned_limit = True
        code = self.fn.__code__
        warnings.warn(
            f"modetrace: {code.co_name} ({code.co_filename}:{code.co_firstlineno}) hit "
            f"recompile_limit ({self.recompile_limit}); running it eagerly from now on. "
            "Last guard failures:\n" + "\n".join(f"    {r}" for r in reasons),
            RuntimeWarning,
            stacklevel=4,
        )

    def reset(self) -> None:
        with self._lock:
            self.entries = ()
            self.compile_count = 0
            self._warned_limit = False

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self) -> str:
        return f"CompiledFunction({self.fn.__qualname__}, {len(self.entries)} entries)"


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
    """Compile `fn` (or return a decorator when called with options only)."""
    from tracer.backends import lookup_backend

    lookup_backend(backend)
    if (
        not isinstance(recompile_limit, int)
        or isinstance(recompile_limit, bool)
        or recompile_limit < 0
    ):
        raise UserError(f"recompile_limit must be a non-negative int, got {recompile_limit!r}")
    if on_recompile not in _ON_RECOMPILE:
        raise UserError(f"on_recompile must be one of {_ON_RECOMPILE}, got {on_recompile!r}")
    if dynamic not in (None, True, False):
        raise UserError(f"dynamic must be None, True or False, got {dynamic!r}")
    options = CompileOptions(fullgraph, backend, bool(specialize_float), dynamic)

    def decorate(target: Callable[..., Any]) -> CompiledFunction:
        if isinstance(target, CompiledFunction):
            target = target.fn
        if not isinstance(target, types.FunctionType):
            kind = type(target).__name__
            raise UserError(f"tracer.compile expects a Python function, got {kind} {target!r}")
        return CompiledFunction(target, options, recompile_limit, on_recompile)

    if fn is None:
        return decorate
    return decorate(fn)


def reset() -> None:
    """Forget every compiled entry of every compiled function, and the frame ids."""
    for compiled in list(_live):
        compiled.reset()
    _frame_ids.clear()
