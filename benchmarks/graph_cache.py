"""The graph cache in `make bench`'s backend section: the same function compiled by fresh
processes, one after the other, sharing a cache (tracer/graph_cache/, notes/graph-cache.md).

    python -m benchmarks.graph_cache

1. a first process compiles `chain6` (benchmarks/backends.py) with backend="fused": a miss,
   the plan is compiled and written to a new, empty local cache;
2. a second process compiles it again: a local hit;
3. when `redis-server` is on PATH: a Redis server on a free port, a process that fills it
   (a miss, written locally and remotely), the local cache emptied, and another process: a
   remote hit.
Each row is one process's compile: its backend phase (`backend_compile_time_us`), the cache's
counts and keys, and the time the hit saved, all from its CompilationMetrics record.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FIELDS = (
    "backend_compile_time_us",
    "inductor_fx_cache_hit_count",
    "inductor_fx_cache_miss_count",
    "inductor_fx_cache_backend_type",
    "inductor_fx_cache_hit_keys",
    "inductor_fx_cache_miss_keys",
    "remote_cache_time_saved_us",
    "remote_fx_graph_cache_get_time_us",
    "remote_fx_graph_cache_put_time_us",
    "remote_cache_version",
)


def child() -> None:
    """One process's compile of chain6; prints its CompilationMetrics fields as JSON."""
    import tracer
    import tracer.runtime as torch
    from benchmarks.backends import chain6

    torch.manual_seed(0)
    x, y = torch.randn(100_000), torch.randn(100_000)
    tracer.compile(chain6, backend="fused")(x, y)
    record = tracer.get_compilation_metrics()[-1]
    print(json.dumps({name: getattr(record, name) for name in FIELDS}))


def _process(env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.graph_cache", "--child"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def run() -> dict[str, Any]:
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="modetrace-bench-cache-") as tmp:
        env = {"MODETRACE_CACHE_DIR": str(Path(tmp) / "local"), "MODETRACE_REMOTE_CACHE": ""}
        rows["first process (miss)"] = _process(env)
        rows["second process (local hit)"] = _process(env)
        server = shutil.which("redis-server")
        if server is None:
            rows["remote"] = {"skipped": "redis-server is not on PATH"}
            return rows
        port = _free_port()
        redis = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", tmp],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            _wait_for(port)
            remote = {**env, "MODETRACE_CACHE_DIR": str(Path(tmp) / "remote-local"),
                      "MODETRACE_REMOTE_CACHE": f"redis://127.0.0.1:{port}"}  # fmt: skip
            rows["first process, Redis (miss)"] = _process(remote)
            shutil.rmtree(Path(tmp) / "remote-local")
            rows["local emptied (remote hit)"] = _process(remote)
        finally:
            redis.terminate()
            redis.wait()
    return rows


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server did not listen on port {port}")


def print_table(rows: dict[str, Any]) -> None:
    print("\ngraph cache: chain6 with backend='fused', one process per row")
    print(f"{'process':<30}{'backend ms':>11}{'hit':>5}{'miss':>6}{'saved ms':>10}  key")
    first = rows["first process (miss)"]["backend_compile_time_us"]
    for name, row in rows.items():
        if "skipped" in row:
            print(f"{name:<30}skipped: {row['skipped']}")
            continue
        keys = row["inductor_fx_cache_hit_keys"] or row["inductor_fx_cache_miss_keys"] or ["-"]
        saved = row["remote_cache_time_saved_us"]
        print(
            f"{name:<30}{row['backend_compile_time_us'] / 1000:>11.2f}"
            f"{row['inductor_fx_cache_hit_count'] or 0:>5}"
            f"{row['inductor_fx_cache_miss_count'] or 0:>6}"
            f"{'' if saved is None else f'{saved / 1000:.2f}':>10}  {keys[0]}"
            f" ({row['inductor_fx_cache_backend_type']})"
        )
    for name, row in rows.items():
        if "hit" in name and "skipped" not in row:
            faster = first / max(row["backend_compile_time_us"], 1)
            print(f"  {name}: backend phase {faster:.1f}x faster than the first process's")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.graph_cache")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child()
        return 0
    print_table(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
