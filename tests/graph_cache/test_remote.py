"""The remote graph cache on a real Redis server (tests/redis_server.py): a process with an
empty local cache hits the remote one; Redis down from the start, or stopped in the middle of
a run, costs one warning and a local compile; a corrupt remote entry is a miss with one
warning and is replaced."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tests.graph_cache.helpers import entries, read_entry, run_child
from tests.redis_server import RedisServer, free_port
from tracer import config
from tracer.graph_cache import REMOTE_CACHE_VERSION, GraphCacheWarning, remote_cache


def norm(x: Any) -> Any:
    return (x - x.mean(-1, keepdim=True)) * 2.0


def shifted(x: Any) -> Any:
    return (x + 1.0).exp().sum(0)


def scaled(x: Any) -> Any:
    return (x.T * 0.5).sum(1) + 1.0


def compile_once(fn: Callable[..., Any]) -> tuple[Any, Any, list[str]]:
    tracer.reset()
    x = torch.arange(12.0).reshape(3, 4) / 5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tracer.compile(fn, backend="fused")(x)
    close(result, fn(x))  # eager, within the fused backend's float tolerance
    record = tracer.get_compilation_metrics()[-1]
    return result, record, [str(w.message) for w in caught if w.category is GraphCacheWarning]


def test_with_the_local_cache_emptied_a_second_process_hits_the_remote_one(
    cache_dir: Path, redis_server: RedisServer
) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    first = run_child("chain", cache_dir, redis_server.url)
    assert first["inductor_fx_cache_miss_count"] == 1
    assert first["inductor_fx_cache_backend_type"] == "remote"
    assert first["remote_cache_version"] == REMOTE_CACHE_VERSION
    assert first["remote_fx_graph_cache_put_time_us"] > 0
    (key,) = first["inductor_fx_cache_miss_keys"]
    shutil.rmtree(cache_dir)

    second = run_child("chain", cache_dir, redis_server.url)
    assert second["inductor_fx_cache_hit_count"] == 1 and second["inductor_fx_cache_hit_keys"] == [
        key
    ]
    assert second["inductor_fx_cache_backend_type"] == "remote"
    assert second["remote_fx_graph_cache_get_time_us"] > 0
    assert second["remote_cache_time_saved_us"] > 0
    assert second["result"] == first["result"] and second["warnings"] == []
    assert [p.stem for p in entries(cache_dir)] == [key]  # the remote hit is kept locally too
    third = run_child("chain", cache_dir, redis_server.url)
    assert third["inductor_fx_cache_backend_type"] == "local"


def test_a_remote_hit_in_process(cache_dir: Path, redis_server: RedisServer) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    with config.patch(remote_cache=redis_server.url):
        compile_once(norm)
        saved = read_entry(entries(cache_dir)[0])["compile_time_us"]
        shutil.rmtree(cache_dir)
        tracer.observability.events.clear_compile_events()
        _, record, caught = compile_once(norm)
    assert record.inductor_fx_cache_hit_count == 1 and caught == []
    assert record.inductor_fx_cache_backend_type == "remote"
    # the hit's key and the time it saved are on the frame's backend phase too
    assert record.remote_cache_time_saved_us == saved
    (phase,) = [e for e in tracer.get_compile_events() if e.name == "backend_compile"]
    assert phase.metadata["fx_graph_cache"] == "hit"
    assert phase.metadata["fx_graph_cache_key"] == record.inductor_fx_cache_hit_keys[0]
    assert phase.metadata["time_saved_us"] == saved


def test_redis_down_from_the_start_costs_one_warning_and_a_local_compile(
    cache_dir: Path,
) -> None:
    url = f"redis://127.0.0.1:{free_port()}"  # nothing listens there
    with config.patch(remote_cache=url):
        _, record, caught = compile_once(norm)
        assert record.inductor_fx_cache_miss_count == 1
        assert len(caught) == 1 and url in caught[0] and "compiled locally" in caught[0]
        _, record, caught = compile_once(shifted)  # no second attempt, no second warning
        assert record.inductor_fx_cache_miss_count == 1 and caught == []
        _, record, caught = compile_once(norm)  # the local cache still works
        assert record.inductor_fx_cache_hit_count == 1 and caught == []
        assert record.inductor_fx_cache_backend_type == "local"
    remote = remote_cache(url)
    assert remote is not None and remote.down is not None


def test_redis_stopped_in_the_middle_of_a_run(
    cache_dir: Path, own_redis_server: RedisServer
) -> None:
    url = own_redis_server.url
    with config.patch(remote_cache=url):
        _, record, caught = compile_once(norm)
        assert caught == [] and record.remote_fx_graph_cache_put_time_us is not None
        (key,) = record.inductor_fx_cache_miss_keys
        stored = redis.Redis.from_url(url).get(f"modetrace:fxgraph:v{REMOTE_CACHE_VERSION}:{key}")
        assert stored is not None and stored == entries(cache_dir)[0].read_bytes()

        own_redis_server.stop()
        _, record, caught = compile_once(shifted)
        assert record.inductor_fx_cache_miss_count == 1
        assert len(caught) == 1 and "compiled locally" in caught[0]
        _, record, caught = compile_once(scaled)
        assert record.inductor_fx_cache_miss_count == 1 and caught == []
        _, record, caught = compile_once(norm)
        assert record.inductor_fx_cache_hit_count == 1 and caught == []


def test_a_corrupt_remote_entry_is_a_miss_with_one_warning_and_is_replaced(
    cache_dir: Path, redis_server: RedisServer
) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    with config.patch(remote_cache=redis_server.url):
        _, record, _ = compile_once(shifted)
        (key,) = record.inductor_fx_cache_miss_keys
        name = f"modetrace:fxgraph:v{REMOTE_CACHE_VERSION}:{key}"
        good = client.get(name)
        assert isinstance(good, bytes)
        client.set(name, good[: len(good) // 3])  # truncated
        shutil.rmtree(cache_dir)
        _, record, caught = compile_once(shifted)
        assert record.inductor_fx_cache_miss_count == 1
        assert len(caught) == 1 and "remote entry" in caught[0] and "not used" in caught[0]
        assert client.get(name) == entries(cache_dir)[0].read_bytes()  # replaced
        shutil.rmtree(cache_dir)
        _, record, caught = compile_once(shifted)
        assert record.inductor_fx_cache_hit_count == 1 and caught == []
