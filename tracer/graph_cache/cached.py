"""`compile_cached`: a backend's compile of a graph, through the local and remote caches.

    key = hash of the graph's canonical form, its inputs, the backend and its options, versions
    local entry  -> checked and loaded: a hit ("local")
    remote entry -> checked and loaded: a hit ("remote"), written to the local cache too
    neither      -> a miss: compile, then write the entry locally and remotely

An entry that fails a check (entry.py) or whose payload the backend refuses is a miss with one
warning saying why; the fresh compile then overwrites it. A graph whose code uses a global
that can't be described as data, or whose output the backend can't express as data, is not
cached (a bypass). What each lookup did is counted in the compile's CompilationMetrics under
PyTorch's names (`inductor_fx_cache_*`, `remote_fx_graph_cache_*`, `remote_cache_version`),
the time a hit saved (the compile time stored with the entry) is added to
`remote_cache_time_saved_us` and to the `backend_compile` phase's event, and the lookup is an
`fx_graph_cache_hit` / `_miss` / `_bypass` artifact in the structured log.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tracer import config
from tracer.graph import GraphModule
from tracer.graph_cache.entry import EntryError, GraphCacheWarning, decode, encode
from tracer.graph_cache.key import hash_key, key_parts
from tracer.graph_cache.local import LocalCache, cache_dir
from tracer.graph_cache.remote import REMOTE_CACHE_VERSION, remote_cache
from tracer.observability import trace_log
from tracer.observability.events import get_chromium_event_logger
from tracer.observability.metrics import get_metrics_context

T = TypeVar("T")
log = logging.getLogger("modetrace.graph_cache")

REFUSED = (EntryError, ValueError, TypeError, KeyError, AttributeError, ImportError, SyntaxError)
"""What checking or loading a bad entry raises: a miss, not a crash. (A payload that passed
the checksum and the schema but still fails to load: code it names that no longer exists.)"""


def compile_cached(
    gm: GraphModule,
    example_inputs: Sequence[Any],
    backend: str,
    options: dict[str, Any],
    compile: Callable[[], T],
    to_payload: Callable[[T], dict[str, Any] | None],
    from_payload: Callable[[dict[str, Any]], T],
) -> T:
    """`compile()`'s result for `gm`, from the cache when an entry passes every check.

    `to_payload` gives what to store (JSON data, or None when the result can't be stored);
    `from_payload` turns a stored payload back into a result, raising ValueError (or another
    of REFUSED) for one it refuses."""
    knobs = config.current()
    if not knobs.graph_cache:
        return compile()
    parts = key_parts(gm, example_inputs, backend, options)
    if parts is None:
        _report("bypass", None, "local", {"reason": "a global of the graph is not data"})
        return compile()
    key = hash_key(parts)
    local = LocalCache(cache_dir())
    remote = remote_cache(knobs.remote_cache)

    found = _load(key, local.get(key), f"local entry {local.path(key)}", backend, from_payload)
    if found is not None:
        value, saved_us = found
        _report("hit", key, "local", {"time_saved_us": saved_us}, parts)
        return value
    if remote is not None:
        text, get_us = _timed(lambda: remote.get(key))
        _count_remote("remote_fx_graph_cache_get_time_us", get_us)
        found = _load(key, text, f"remote entry {remote.redis_key(key)}", backend, from_payload)
        if found is not None:
            value, saved_us = found
            assert text is not None
            _write_local(local, key, text)  # the bytes as Redis has them
            _report("hit", key, "remote", {"time_saved_us": saved_us}, parts)
            return value

    started = time.perf_counter_ns()
    value = compile()
    compile_us = (time.perf_counter_ns() - started) // 1000
    payload = to_payload(value)
    where = "remote" if remote is not None and remote.down is None else "local"
    _report("miss", key, where, {"stored": payload is not None}, parts)
    if payload is not None:
        text_out = encode(key, backend, compile_us, payload)
        _write_local(local, key, text_out)
        if remote is not None:
            _, put_us = _timed(lambda: remote.put(key, text_out))
            _count_remote("remote_fx_graph_cache_put_time_us", put_us)
    return value


def _load(
    key: str,
    text: bytes | None,
    what: str,
    backend: str,
    from_payload: Callable[[dict[str, Any]], T],
) -> tuple[T, int] | None:
    """The result an entry's text loads to and the time it saves; None for no entry, and for
    an entry that fails a check (with one warning)."""
    if text is None:
        return None
    try:
        payload, saved_us = decode(text, key, backend)
        return from_payload(payload), saved_us
    except REFUSED as e:
        warnings.warn(
            f"modetrace: graph cache {what} not used ({type(e).__name__}: {e}); "
            "a fresh compile replaces it",
            GraphCacheWarning,
            stacklevel=2,
        )
        return None


def _write_local(local: LocalCache, key: str, text: str | bytes) -> None:
    try:
        local.put(key, text)
    except OSError as e:
        warnings.warn(
            f"modetrace: graph cache entry not written to {local.directory} ({e})",
            GraphCacheWarning,
            stacklevel=2,
        )


def _timed(call: Callable[[], T]) -> tuple[T, int]:
    started = time.perf_counter_ns()
    value = call()
    return value, (time.perf_counter_ns() - started) // 1000


def _count_remote(column: str, us: int) -> None:
    ctx = get_metrics_context()
    if ctx.in_progress():
        ctx.increment(column, us)
        ctx.set("remote_cache_version", REMOTE_CACHE_VERSION, overwrite=True)


def _report(
    state: str,
    key: str | None,
    backend_type: str,
    info: dict[str, Any],
    parts: dict[str, Any] | None = None,
) -> None:
    """Count the lookup in the compile's metrics and phase event, and log it."""
    log.debug("fx graph cache %s for key %s (%s)", state, key, backend_type)
    ctx = get_metrics_context()
    if ctx.in_progress() and key is not None:
        ctx.increment(f"inductor_fx_cache_{state}_count", 1)
        ctx.add_to_set(f"inductor_fx_cache_{state}_keys", key)
        ctx.set("inductor_fx_cache_backend_type", backend_type, overwrite=True)
        if state == "hit":
            ctx.increment("remote_cache_time_saved_us", info["time_saved_us"])
    events = get_chromium_event_logger()
    if "backend_compile" in events.get_stack():
        phase: dict[str, Any] = {"fx_graph_cache": state, "fx_graph_cache_key": key}
        if state == "hit":
            phase["time_saved_us"] = info["time_saved_us"]
        events.add_event_data("backend_compile", **phase)
    record = {"cache_state": state, "key": key, "backend_type": backend_type, **info}
    trace_log.trace_artifact(
        f"fx_graph_cache_{state}", "json", lambda: {**record, "components": parts}
    )
