"""The remote cache: the same entries in a Redis server (`MODETRACE_REMOTE_CACHE=redis://...`).

An entry is a Redis string under `modetrace:fxgraph:v<REMOTE_CACHE_VERSION>:<key>`. Redis is
never needed for a correct compile: when the `redis` package is missing, the server can't be
reached, or a command fails (the server went away mid-run, a timeout), `RemoteCache` warns
once, says why, and answers every later call with "no entry" without trying again in this
process, so a dead server costs one connection attempt, not one per compile.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

from tracer.graph_cache.entry import GraphCacheWarning

REMOTE_CACHE_VERSION = 1
"""The layout of the remote cache's keys and values (CompilationMetrics.remote_cache_version)."""
CONNECT_TIMEOUT_S = 1.0
COMMAND_TIMEOUT_S = 2.0
log = logging.getLogger("modetrace.graph_cache")


class RemoteCache:
    def __init__(self, url: str) -> None:
        self.url = url
        self.down: str | None = None
        """Why the remote cache is not used any more (None while it works)."""
        self._client: Any = None

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
            self._fail(e)
            return None
        return found if isinstance(found, bytes) else None

    def put(self, key: str, text: str) -> None:
        client = self._connect()
        if client is None:
            return
        try:
            client.set(self.redis_key(key), text.encode())
        except Exception as e:  # noqa: BLE001 - any client failure: the entry stays local
            self._fail(e)

    def _connect(self) -> Any:
        if self.down is not None:
            return None
        if self._client is None:
            try:
                import redis
                from redis.backoff import NoBackoff
                from redis.retry import Retry
            except ImportError as e:
                self._fail(e, "the redis package is not installed (pip install redis)")
                return None
            try:
                self._client = redis.Redis.from_url(
                    self.url,
                    socket_connect_timeout=CONNECT_TIMEOUT_S,
                    socket_timeout=COMMAND_TIMEOUT_S,
                    retry=Retry(NoBackoff(), 0),  # a failure is final: compile locally
                )
            except Exception as e:  # noqa: BLE001 - a malformed URL
                self._fail(e)
                return None
        return self._client

    def _fail(self, error: BaseException, why: str | None = None) -> None:
        self.down = why or f"{type(error).__name__}: {error}"
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
