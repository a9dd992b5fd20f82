"""`make bench`'s graph cache section (benchmarks/graph_cache.py) runs its processes and reports
what each one's CompilationMetrics say, with the redis client's import on a line of its own.
Its timings are not asserted on."""

from __future__ import annotations

import pytest

from benchmarks import graph_cache
from tests.redis_server import redis_server_path


def test_one_round_of_the_section(capsys: pytest.CaptureFixture[str]) -> None:
    redis_server_path()  # skips (or fails under MODETRACE_REQUIRE_REDIS=1) without a server
    rows = graph_cache.run(rounds=1, workload="chain6")
    miss, local, remote_miss, remote = (rows[name] for name in graph_cache.ROWS)
    (key,) = miss["inductor_fx_cache_miss_keys"]
    assert local["inductor_fx_cache_hit_keys"] == remote["inductor_fx_cache_hit_keys"] == [key]
    assert local["inductor_fx_cache_backend_type"] == "local"
    assert remote_miss["inductor_fx_cache_miss_keys"] == [key]
    assert remote["inductor_fx_cache_backend_type"] == "remote"
    assert remote["remote_cache_time_saved_us"] > 0 and remote["remote_cache_version"] == 1
    # the import happened at `import tracer`, before the compile: a figure of its own
    assert rows[graph_cache.CLIENT_IMPORT]["client_import_us"] > 0
    graph_cache.print_table(rows, "chain6")
    printed = capsys.readouterr().out
    assert "redis client import" in printed and "not in a compile" in printed
    assert "local emptied (remote hit): backend phase" in printed
