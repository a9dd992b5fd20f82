"""Fixtures of the graph cache's tests: an empty local cache per test, the session's Redis
server (tests/redis_server.py), and a server of a test's own, to stop in the middle."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tracer
from tests.redis_server import RedisServer
from tracer import config
from tracer.graph_cache import forget_remotes


@pytest.fixture
def cache_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty local cache for this test; no remote cache; nothing compiled yet."""
    directory = tmp_path / "cache"
    tracer.reset()
    forget_remotes()
    with config.patch(cache_dir=str(directory), remote_cache="", graph_cache=True):
        yield directory / "fxgraph"
    forget_remotes()
    tracer.reset()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One Redis server for the session's tests."""
    server = RedisServer.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def own_redis_server() -> Iterator[RedisServer]:
    """A Redis server of this test's own (stopping it leaves the session's one alone)."""
    server = RedisServer.start()
    try:
        yield server
    finally:
        server.stop()
