"""The public entry points: compile, explain, trace, reset.

`CompiledFunction.__call__` is the hot path: a dispatcher generated from the cache entries
(tracer.dispatch) with fn's own signature binds the arguments, runs the guards inline and calls
the first entry that passes, newest first. Misses compile under a per-function lock, so no thread
ever sees a half-built entry and the same frame is not compiled twice at once.
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import sys
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
from tracer.config import CompileOptions
from tracer.convert_frame import convert_frame
from tracer.dispatch import DispatchPlan, Signature, build_dispatch
from tracer.dynamic import changed_int_sources
from tracer.dynamic import describe as describe_dynamic
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
    sig = Signature.of(fn.__code__)
    body = sig.locals_dict({n: n for n in sig.names})
    source = f"def ___bind({', '.join(sig.params)}):\n    return {body}\n"
    namespace: dict[str, Any] = {}
    exec(builtins.compile(source, f"<modetrace-binder {fn.__qualname__}>", "exec"), namespace)  # noqa: S102
    binder: types.FunctionType = namespace.pop("___bind")  # not left in its globals: a cycle
    binder.__name__ = fn.__code__.co_name
    binder.__qualname__ = fn.__code__.co_qualname
    binder.__defaults__ = fn.__defaults__
    binder.__kwdefaults__ = fn.__kwdefaults__
    return binder


class _WeakHandle:
    """What a dispatcher calls back on a miss, or when fn's defaults change: its
    CompiledFunction, held weakly.

    The emitted dispatcher keeps its callbacks as constants of its code object, and code
    objects are invisible to the garbage collector; a bound method there (function ->
    dispatcher -> code -> method -> function) made every CompiledFunction, with its entries
    and graphs, live forever, and each garbage collection slower than the last."""

    __slots__ = ("_ref",)

    def __init__(self, owner: CompiledFunction) -> None:
        self._ref = weakref.ref(owner)

    def _owner(self) -> CompiledFunction:
        owner = self._ref()
        if owner is None:
            raise RuntimeError("this dispatcher's compiled function no longer exists")
        return owner

    def miss(
        self, frame_locals: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        return self._owner()._miss(frame_locals, args, kwargs)

    def function_changed(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return self._owner().function_changed(args, kwargs)

    def __repr__(self) -> str:
        return f"_WeakHandle({self._ref()!r})"


class CompiledFunction:
    """A function with a guarded cache of compiled versions: `CompiledFunction(f, 2 entries)`.

    NOTE [one call per hit]: every instance gets its own subclass whose `__call__` is the
    generated dispatcher (tracer.dispatch) as a staticmethod, so `cf(x, y)` enters the dispatcher
    directly with fn's own signature: no `*args` packing, no dict of locals, no second Python
    frame. The dispatcher is regenerated whenever the entries change.
    """

    entries: tuple[CacheEntry, ...]
    dispatch_plan: DispatchPlan

    def __new__(cls, *args: Any, **kwargs: Any) -> CompiledFunction:  # noqa: PYI034
        own = type(cls.__name__, (cls,), {"__qualname__": cls.__qualname__})
        instance: CompiledFunction = super().__new__(own)
        return instance

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
        self.compile_count = 0
        self.last_miss_reasons: list[str] = []
        self._bind = make_binder(fn)
        self._handle = _WeakHandle(self)
        self._lock = threading.RLock()
        self._warned_limit = False
        functools.update_wrapper(self, fn)
        self._install(())
        _live.add(self)

    def __del__(self) -> None:
        """The instance's own class is a reference cycle (a class is in its own `__mro__`), so
        the collector frees it, later. Its dispatcher, and with it every entry, graph and guard
        the dispatcher's code holds, goes now, by reference counting."""
        try:
            del type(self).__call__
        except:  # noqa: E722, S110 - a finalizer never raises (at exit even names may be gone)
            pass

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Replaced per instance by the generated dispatcher (NOTE [one call per hit]); this
        generic form is what the dispatcher does, written out."""
        frame_locals = self._bind(*args, **kwargs)
        for entry in self.entries:
            if entry.check(frame_locals):
                return entry.run(*args, **kwargs)
        return self._miss(frame_locals, args, kwargs)

    def _install(self, entries: tuple[CacheEntry, ...]) -> None:
        dispatch, plan = build_dispatch(self.fn, entries, self._handle.miss)
        self.dispatch_code = self.fn.__code__
        """The code object the dispatcher was made for: its signature bound the arguments."""
        self.entries = entries
        self.dispatch_plan = plan
        type(self).__call__ = staticmethod(dispatch)  # type: ignore[method-assign]

    def function_changed(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """`fn.__code__`, `__defaults__` or `__kwdefaults__` was reassigned: every entry was
        compiled, and every argument binding made, under the old ones; start over and call
        again, passing the arguments on as the caller gave them (bound by the old signature)."""
        from tracer.dispatch import UNSET

        code = self.dispatch_code
        with self._lock:
            self._bind = make_binder(self.fn)
            self._install(())
        names = code.co_varnames[: code.co_argcount]
        given = [i for i, a in enumerate(args[: len(names)]) if a is not UNSET]
        cut = min((i for i in range(len(names)) if i not in given), default=len(args))
        positional = args[:cut]
        by_name = {names[i]: args[i] for i in range(cut, min(len(names), len(args))) if i in given}
        rest = args[len(names) :]  # *args, only reachable when every positional was given
        keywords = {k: v for k, v in kwargs.items() if v is not UNSET}
        return self(*positional, *rest, **by_name, **keywords)

    def _miss(
        self, frame_locals: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        """No entry's guards passed: explain why, then compile, raise, or run eagerly."""
        with self._lock:
            entry = next((e for e in self.entries if e.check(frame_locals)), None)
            if entry is None:  # not compiled meanwhile by another thread
                entry = self._recompile(frame_locals)
        if entry is None:
            return self.fn(*args, **kwargs)
        return entry.run(*args, **kwargs)

    def _recompile(self, frame_locals: dict[str, Any]) -> CacheEntry | None:
        if len(self.entries) >= self.recompile_limit and self._warned_limit:
            return None  # eager from now on; the reasons were reported once
        reasons = self.miss_reasons(frame_locals)
        self.last_miss_reasons = reasons
        if self.entries and self.on_recompile == "error":
            raise RecompileError(self._recompile_message(reasons))
        if len(self.entries) >= self.recompile_limit:
            self._warn_limit(reasons)
            return None
        reasons = reasons + self._mark_dynamic(frame_locals)
        entry = self.compile_entry(frame_locals, reasons)
        self._install((entry, *self.entries))
        return entry

    def _mark_dynamic(self, frame_locals: dict[str, Any]) -> list[str]:
        """Automatic dynamic (dynamic=None): ints whose value changed become graph inputs in
        the recompile; returns the reason lines saying so."""
        if self.options.dynamic is not None or not self.entries:
            return []
        changed = changed_int_sources(self.entries, frame_locals)
        new = {k: v for k, v in changed.items() if k not in self.options.dynamic_sources}
        if not new:
            return []
        marked = self.options.dynamic_sources | frozenset(new)
        self.options = dataclasses.replace(self.options, dynamic_sources=marked)
        return describe_dynamic(new)

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
            stacklevel=_user_stacklevel(),
        )

    def reset(self) -> None:
        with self._lock:
            self._install(())
            self.compile_count = 0
            self._warned_limit = False

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self) -> str:
        return f"CompiledFunction({self.fn.__qualname__}, {len(self.entries)} entries)"


def _user_stacklevel() -> int:
    """The `warnings` stacklevel of the user's call: past this module and the dispatcher."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and (
        frame.f_code.co_filename == __file__
        or frame.f_code.co_filename.startswith("<modetrace-dispatch ")
    ):
        frame = frame.f_back
        level += 1
    return level


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
    """Forget every compiled entry of every compiled function, and the frame ids.

    Every cache that holds an assumption about inputs goes. Decoded instructions stay
    (`tracer.instructions.instructions_of`: a pure function of a code object, kept as Dynamo
    keeps its own across `torch._dynamo.reset()`; notes/design-decisions.md)."""
    for compiled in list(_live):
        compiled.reset()
    _frame_ids.clear()
