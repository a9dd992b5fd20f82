"""The remote cache: the same entries in a Redis server (`MODETRACE_REMOTE_CACHE=redis://...`).

An entry is a Redis string under `modetrace:fxgraph:v<REMOTE_CACHE_VERSION>:<key>`. Redis is
never needed for a correct compile: when the `redis` package is missing, the server can't be
reached, or a command fails (the server went away mid-run, a timeout), `RemoteCache` warns
once, says why, and answers every later call with "no entry" without trying again in this
process, so a dead server costs one connection attempt, not one per compile.

Loading the client is a process's cost, not a compile's: importing the `redis` package (its
`__init__` also imports `redis.asyncio`, about 0.1 s) and making the client happen when the
remote cache is configured: at modetrace's import when MODETRACE_REMOTE_CACHE is set (the end
of this module), as PyTorch imports the package with Inductor's code cache when
`torch.compile` sets up. Without a remote cache the package is never imported; one configured
later (`config.patch(remote_cache=...)`) loads it on its first use. Connecting is lazy: the
first get or put connects, inside the compile that makes it, as in PyTorch.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import time
import warnings
from typing import Any

from tracer import config
from tracer.graph_cache.entry import GraphCacheWarning
from tracer.version import __version__

REMOTE_CACHE_VERSION = 1
"""The layout of the remote cache's keys and values (CompilationMetrics.remote_cache_version)."""
CONNECT_TIMEOUT_S = 1.0
COMMAND_TIMEOUT_S = 2.0
log = logging.getLogger("modetrace.graph_cache")


@dataclasses.dataclass(frozen=True)
class ClientPackage:
    """The `redis` package as this process loaded it (`load_client`)."""

    redis: Any
    """The package, with its `backoff` and `retry` modules; None when it can't be imported."""
    error: str | None
    """Why it can't be imported (None when it was)."""
    import_us: int
    """How long importing it took, wall time (`make bench` shows it next to the phases)."""
    import_cpu_us: int
    """The same in the thread's CPU time."""


_package: ClientPackage | None = None


def load_client() -> ClientPackage:
    """Import the `redis` client package, once per process. A missing or broken package is not
    an error here: the remote cache's first use reports it (it warns and compiles locally)."""
    global _package
    if _package is None:
        started, started_cpu = time.perf_counter_ns(), time.thread_time_ns()
        found: Any = None
        error: str | None = None
        try:
            import redis
            import redis.backoff
            import redis.retry
        except ImportError:
            error = "the redis package is not installed (pip install redis)"
        except Exception as e:  # noqa: BLE001 - a broken install must not break `import tracer`
            error = f"importing the redis package failed ({type(e).__name__}: {e})"
        else:
            found = redis
            # A connection encodes its host name with this codec: its import is part of the
            # client's cost too, paid here rather than by the compile that connects first.
            importlib.import_module("encodings.idna")
        wall_us = (time.perf_counter_ns() - started) // 1000
        cpu_us = (time.thread_time_ns() - started_cpu) // 1000
        _package = ClientPackage(found, error, wall_us, cpu_us)
    return _package


class RemoteCache:
    def __init__(self, url: str) -> None:
        """Loads the client (`load_client`) and makes it for `url`, without connecting. A
        missing package or a malformed URL is reported by the first get or put."""
        self.url = url
        self.down: str | None = None
        """Why the remote cache is not used any more (None while it works)."""
        self._client: Any = None
        self._unusable: str | None = None
        """Why no client could be made, reported by the first get or put."""
        package = load_client()
        if package.error is not None:
            self._unusable = package.error
            return
        try:
            self._client = _make_client(package.redis, url)
        except Exception as e:  # noqa: BLE001 - a malformed URL
            self._unusable = _why(e)

    def __repr__(self) -> str:
        return f"RemoteCache({self.url!r}{', down' if self.down else ''})"

    def redis_key(self, key: str) -> str:
        return f"modetrace:fxgraph:v{REMOTE_CACHE_VERSION}:{key}"

    def get(self, key: str) -> bytes | None:
        client = self._connect()
        if client is None:
            return None
        try:
            found = client.get(self.redis_key(key))
        except Exception as e:  # noqa: BLE001 - any client failure: compile locally
            self._fail(_why(e))
            return None
        return found if isinstance(found, bytes) else None

    def put(self, key: str, text: str) -> None:
        client = self._connect()
        if client is None:
            return
        try:
            client.set(self.redis_key(key), text.encode())
        except Exception as e:  # noqa: BLE001 - any client failure: the entry stays local
            self._fail(_why(e))

    def _connect(self) -> Any:
        """The client (it connects on its first command), or None when the cache is not used."""
        if self.down is not None:
            return None
        if self._unusable is not None:
            self._fail(self._unusable)
            return None
        return self._client

    def _fail(self, why: str) -> None:
        """Stop using the remote cache in this process, with one warning that says why."""
        self.down = why
        warnings.warn(
            f"modetrace: remote graph cache {self.url} not used from now on ({self.down}); "
            "graphs are compiled locally",
            GraphCacheWarning,
            stacklevel=2,
        )
        if self._client is not None:
            try:
                self._client.close()
            except Exception:  # closing a broken connection
                log.debug("closing the redis client failed", exc_info=True)
            self._client = None


def _why(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _make_client(redis: Any, url: str) -> Any:
    """A client for `url`; it connects on its first command."""
    options: dict[str, Any] = {}
    if hasattr(redis, "DriverInfo"):  # redis-py 7.2 and later
        # The server's CLIENT LIST names modetrace; and given its version here, redis-py does
        # not search the installed packages' metadata for it when the client connects.
        driver = redis.DriverInfo(lib_version=redis.__version__)
        options["driver_info"] = driver.add_upstream_driver("modetrace", __version__)
    return redis.Redis.from_url(
        url,
        # The cache reads and writes strings, which RESP2 carries as well as RESP3 does. RESP2,
        # which every Redis server speaks, starts a connection without the HELLO exchange that
        # RESP3 (redis-py 8's default) needs. A `?protocol=` in the URL wins.
        protocol=2,
        socket_connect_timeout=CONNECT_TIMEOUT_S,
        socket_timeout=COMMAND_TIMEOUT_S,
        retry=redis.retry.Retry(redis.backoff.NoBackoff(), 0),  # a failure is final
        **options,
    )


_remotes: dict[str, RemoteCache] = {}


def remote_cache(url: str) -> RemoteCache | None:
    """The process's RemoteCache for `url` ("" for none)."""
    if not url:
        return None
    found = _remotes.get(url)
    if found is None:
        found = _remotes[url] = RemoteCache(url)
    return found


def forget_remotes() -> None:
    """Drop every RemoteCache (and its `down` state): the next compile connects again."""
    for remote in _remotes.values():
        if remote._client is not None:
            remote._client.close()
    _remotes.clear()


# Configured at import (MODETRACE_REMOTE_CACHE): the process loads the client here, before
# any compile; the first get or put connects.
remote_cache(config.current().remote_cache)
