"""Without redis-server on PATH the Redis tests skip, except under MODETRACE_REQUIRE_REDIS=1
(`make test`), where they fail: CI must really run them."""

from __future__ import annotations

import pytest

from tests.redis_server import redis_server_path


def test_a_missing_redis_server_skips_or_fails_as_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("MODETRACE_REQUIRE_REDIS", raising=False)
    with pytest.raises(pytest.skip.Exception):
        redis_server_path()
    monkeypatch.setenv("MODETRACE_REQUIRE_REDIS", "1")
    with pytest.raises(pytest.fail.Exception, match="MODETRACE_REQUIRE_REDIS=1"):
        redis_server_path()
