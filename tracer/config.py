"""Every knob of modetrace in one frozen dataclass, with environment parsing in one place.

Modules read `config.current()`; tests swap knobs with `config.patch(...)`, which restores them on
exit, so no knob is ambient mutable state scattered across modules.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import warnings
from collections.abc import Iterator
from typing import Any


@dataclasses.dataclass(frozen=True)
class Config:
    """The knobs. Defaults are what a user gets without setting anything."""

    instruction_budget: int = 1_000_000
    """Traced instructions per frame (inlined frames included) before falling back."""
    inline_depth_limit: int = 32
    """How deep user-function calls are inlined before the call breaks the graph."""
    recompile_limit: int = 8
    """Default for `tracer.compile(recompile_limit=...)`."""
    debug_checks: bool = False
    """Check the stack effect of every handler against `dis.stack_effect` (on in tests)."""
    metrics_limit: int = 1024
    """How many CompilationMetrics records `get_compilation_metrics()` keeps."""
    chromium_event_limit: int = 100_000
    """How many chromium events are kept in memory."""
    break_on: str = ""
    """Graph-break kind that raises an AssertionError instead of breaking (debugging aid)."""
    graph_cache: bool = True
    """Keep what a compiled backend (`fused`) made of a graph in the graph cache and reuse it
    (tracer/graph_cache/, notes/graph-cache.md); MODETRACE_GRAPH_CACHE=0 turns it off."""
    cache_dir: str = ""
    """The local graph cache's directory (MODETRACE_CACHE_DIR); "" means the user's cache
    directory, `$XDG_CACHE_HOME/modetrace` or `~/.cache/modetrace`."""
    remote_cache: str = ""
    """The remote graph cache, `redis://host:port[/db]` (MODETRACE_REMOTE_CACHE); "" for none."""

    def snapshot(self) -> dict[str, Any]:
        """Plain-dict copy for CompilationMetrics.config."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    """The options of one `tracer.compile` call that shape what a compile produces."""

    fullgraph: bool = False
    backend: Any = "eager"
    specialize_float: bool = True
    dynamic: bool | None = None
    dynamic_sources: frozenset[str] = frozenset()
    """Source names (`L['n']`) marked dynamic by automatic dynamic after a value change."""


def _flag(name: str, default: bool) -> bool:
    """A boolean environment variable: 1/true/yes/on or 0/false/no/off (any case), empty for
    False; anything else is warned about in one line and taken as `default`."""
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("", "0", "false", "no", "off"):
        return False
    warnings.warn(
        f"{name}={value!r} is not 1/0, true/false, yes/no or on/off: taken as {default}",
        stacklevel=2,
    )
    return default


def _from_environment() -> Config:
    env = os.environ
    return Config(
        debug_checks=_flag("MODETRACE_DEBUG_CHECKS", False),
        break_on=env.get("MODETRACE_BREAK", ""),
        graph_cache=_flag("MODETRACE_GRAPH_CACHE", True),
        cache_dir=env.get("MODETRACE_CACHE_DIR", ""),
        remote_cache=env.get("MODETRACE_REMOTE_CACHE", ""),
    )


_current = _from_environment()


def current() -> Config:
    return _current


@contextlib.contextmanager
def patch(**changes: Any) -> Iterator[Config]:
    """Temporarily replace knobs: `with config.patch(debug_checks=True): ...`."""
    global _current
    saved = _current
    _current = dataclasses.replace(saved, **changes)
    try:
        yield _current
    finally:
        _current = saved
