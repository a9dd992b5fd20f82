"""CompiledFunction: a function with its guarded cache of compiled versions.

`CompiledFunction.__call__` is the path of every call: bind the arguments with a binder that has
fn's own signature (`make_binder`), ask the dispatch table (guards/dispatch.py) for the entries
that can pass, run each one's compiled check (guards/manager.py) and call the first that passes,
newest first. Misses compile under a per-function lock, so no thread ever sees a half-built entry
and the same frame is not compiled twice at once.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
import time
import types
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import tracer.runtime
from guards.dispatch import DispatchTable
from guards.manager import GuardFailure
from tracer.cache.dynamic import changed_int_sources, static_shape_notes
from tracer.cache.dynamic import describe as describe_dynamic
from tracer.cache.entry import CacheEntry
from tracer.cache.resume import CachePolicy
from tracer.codegen.resume import frame_name
from tracer.config import CompileOptions
from tracer.convert_frame import convert_frame
from tracer.observability import logs
from tracer.observability.compile_context import CompileId
from tracer.observability.events import get_chromium_event_logger
from variables import binding


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
    """A function with `fn`'s signature that returns its bound arguments as a dict, the frame
    locals `L` every check reads (variables/binding.py): Python itself binds, and raises fn's
    own TypeErrors; defaults are fn's, as they are when the binder is made."""
    code = fn.__code__
    return binding.make_binder(code, code.co_qualname, fn.__defaults__, fn.__kwdefaults__)


class CompiledFunction:
    """A function with a guarded cache of compiled versions: `CompiledFunction(f, 2 entries)`."""

    dispatch_plan: DispatchTable[CacheEntry]
    """The entries and how a call picks its candidates (`dispatch_plan.describe()`)."""

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
        self._lock = threading.RLock()
        self._warned_limit = False
        functools.update_wrapper(self, fn)
        self._start_over()
        _live.add(self)

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:  # `/`: fn may take `self=`
        run = self.choose(args, kwargs)
        # (`run(*args, **{})` would build an empty dict for the call)
        return run(*args, **kwargs) if kwargs else run(*args)

    def target(self, /, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        """What a call with these arguments runs (`choose`). Returned rather than called, so
        that nothing here holds the arguments while it runs: a resume function is called this
        way (tracer/codegen/resume.py), so that an object it drops dies."""
        return self.choose(args, kwargs)

    def choose(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Callable[..., Any]:
        """What a call with these arguments runs: the code of the cache entry whose guards
        pass (compiling one on a miss), or the function itself, eagerly. The arguments come
        as the call packed them, so that the per-call path packs them once."""
        fn = self.fn
        # NOTE [live defaults]: the binder copied fn's defaults and signature, and every entry
        # traced fn's code; if `fn.__code__`, `__defaults__` or `__kwdefaults__` was reassigned
        # since, the cache was built under the old ones: start over.
        if (
            fn.__code__ is not self._code
            or fn.__defaults__ is not self._defaults
            or fn.__kwdefaults__ is not self._kwdefaults
        ):
            with self._lock:
                self._start_over()
        frame_locals = self._bind(*args, **kwargs) if kwargs else self._bind(*args)
        for entry in self.dispatch_plan.candidates(frame_locals):
            if entry.check(frame_locals):
                return entry.run
        return self._miss(frame_locals)

    def _start_over(self) -> None:
        """A binder for fn as it is now, and no entries."""
        fn = self.fn
        self._bind = make_binder(fn)
        self._code = fn.__code__
        self._defaults = fn.__defaults__
        self._kwdefaults = fn.__kwdefaults__
        self._install(())

    def _install(self, entries: tuple[CacheEntry, ...]) -> None:
        """Make `entries` (newest first) the cache: one assignment, seen whole by every thread."""
        guards = [entry.guard_manager.guards for entry in entries]
        roots = entries[0].guard_manager.roots if entries else {}
        for entry in entries:  # the mode-stack accessor, if any entry reads the stack
            if entry.guard_manager.reads_mode_stack:
                roots = entry.guard_manager.roots
                break
        self.dispatch_plan = DispatchTable(
            entries, guards, roots=roots, tensor_type=tracer.runtime.Tensor
        )

    @property
    def entries(self) -> tuple[CacheEntry, ...]:
        """The cache entries, newest first (those of the dispatch table)."""
        return self.dispatch_plan.entries

    def _miss(self, frame_locals: dict[str, Any]) -> Callable[..., Any]:
        """No entry's guards passed: explain why, then compile (what runs is the new entry's
        code), raise, or run the function eagerly."""
        with self._lock:
            entry = next((e for e in self.entries if e.check(frame_locals)), None)
            if entry is None:  # not compiled meanwhile by another thread
                entry = self._recompile(frame_locals)
        return self.fn if entry is None else entry.run

    def _recompile(self, frame_locals: dict[str, Any]) -> CacheEntry | None:
        if len(self.entries) >= self.recompile_limit and self._warned_limit:
            return None  # eager from now on; the reasons were reported once
        failures = self.miss_failures(frame_locals)
        reasons = _reason_lines(failures)
        self.last_miss_reasons = reasons
        if self.entries and self.on_recompile == "error":
            raise RecompileError(self._recompile_message(reasons))
        if len(self.entries) >= self.recompile_limit:
            self._warn_limit(reasons)
            return None
        reasons = reasons + self._mark_dynamic(frame_locals, failures)
        entry = self.compile_entry(frame_locals, reasons, failures)
        self._install((entry, *self.entries))
        return entry

    def _mark_dynamic(
        self,
        frame_locals: dict[str, Any],
        failures: Sequence[tuple[CompileId, GuardFailure | None]],
    ) -> list[str]:
        """Automatic dynamic (dynamic=None): ints whose value changed become graph inputs in
        the recompile; returns the reason lines saying so. With dynamic=True, a tensor shape
        that changed is said to be static, in the reasons and in a warning."""
        if self.options.dynamic is True:
            notes = static_shape_notes(failures)
            if notes:
                code = self.fn.__code__
                warnings.warn(
                    f"modetrace: {frame_name(code)} ({code.co_filename}:{code.co_firstlineno}) "
                    f"recompiles: {notes[0]}",
                    UserWarning,
                    stacklevel=_user_stacklevel(),
                )
            return notes
        if self.options.dynamic is not None or not self.entries:
            return []
        changed = changed_int_sources(self.entries, frame_locals)
        new = {k: v for k, v in changed.items() if k not in self.options.dynamic_sources}
        if not new:
            return []
        marked = self.options.dynamic_sources | frozenset(new)
        self.options = dataclasses.replace(self.options, dynamic_sources=marked)
        return describe_dynamic(new)

    def compile_entry(
        self,
        frame_locals: dict[str, Any],
        reasons: list[str],
        failures: Sequence[tuple[CompileId, GuardFailure | None]] = (),
    ) -> CacheEntry:
        frame_id = _frame_ids.frame_id(self.fn.__code__)
        compile_id = CompileId(frame_id, self.compile_count)
        self.compile_count += 1
        reason_text = "\n".join(reasons) if reasons else None
        if reasons:
            self._log_recompile(reasons, compile_id)
        guard_failures = [
            {"cache_entry": str(entry_id), **failure.as_data()}
            for entry_id, failure in failures
            if failure is not None
        ]
        return convert_frame(
            self.fn, frame_locals, self.options, compile_id, reason_text, len(self.entries),
            guard_failures or None,
            policy=CachePolicy(self.recompile_limit, self.on_recompile),
        )  # fmt: skip

    def miss_failures(
        self, frame_locals: dict[str, Any]
    ) -> list[tuple[CompileId, GuardFailure | None]]:
        """For every entry, its id and its first failing guard (miss path only)."""
        return [(e.compile_id, e.guard_manager.first_failure(frame_locals)) for e in self.entries]

    def miss_reasons(self, frame_locals: dict[str, Any]) -> list[str]:
        """For every entry, the first failing guard in words (miss path only)."""
        return _reason_lines(self.miss_failures(frame_locals))

    def _recompile_message(self, reasons: list[str]) -> str:
        code = self.fn.__code__
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"
        lines = "\n".join(f"    {r}" for r in reasons)
        return (
            f"Recompiling function {frame_name(code)} in {where} triggered by the following "
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
            f"modetrace: {frame_name(code)} ({code.co_filename}:{code.co_firstlineno}) hit "
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


def _reason_lines(failures: list[tuple[CompileId, GuardFailure | None]]) -> list[str]:
    """`0/1: L['n'] == 2 (actual 3), from ...`, one line per entry."""
    return [f"{entry_id}: {failure}" for entry_id, failure in failures]


def _user_stacklevel() -> int:
    """The `warnings` stacklevel of the user's call: past this module's frames."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
        level += 1
    return level


def reset_all() -> None:
    """`tracer.reset()`: every CompiledFunction starts over, and frame ids are numbered anew."""
    for compiled in list(_live):
        compiled.reset()
    _frame_ids.clear()
