"""The graph cache in `make bench`'s backend section: the same function compiled by fresh
processes, one after the other, sharing a cache (tracer/graph_cache/, notes/graph-cache.md).

    python -m benchmarks.graph_cache [--workload model|chain6] [--rounds N]

1. a first process compiles the workload (`model` below, or `chain6` of benchmarks/backends.py)
   with backend="fused": a miss, the plan is compiled and written to a new, empty local cache;
2. a second process compiles it again: a local hit;
3. when `redis-server` is on PATH: a Redis server on a free port, a process that fills it
   (a miss, written locally and remotely), the local cache emptied, and another process: a
   remote hit (each round in a database of its own, so each starts empty).
Each row is one process's compile, the median of a few rounds (each with new caches): its
backend phase (`backend_compile_time_us`, wall time, and the same phase in thread CPU time,
which a busy machine disturbs less: the ratios use it), the cache's counts and keys, the
time the hit saved and Redis's get and put times, from its CompilationMetrics record. A
process with a remote cache imports the `redis` package at `import tracer`, before it
compiles anything (tracer/graph_cache/remote.py): that import is a line of its own, the
median over the Redis rows' processes.
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


def layer(x: Any, w: Any) -> Any:
    """Layer norm, a matmul, a row softmax, a tanh GELU and a residual."""
    mu = x.mean(-1, keepdim=True)
    d = x - mu
    h = d / ((d * d).mean(-1, keepdim=True) + 1e-5).sqrt()
    a = h @ w
    e = (a - a.amax(-1, keepdim=True)).exp()
    s = e / e.sum(-1, keepdim=True)
    g = s * 0.5 * (1.0 + (s * 0.79788456 * (1.0 + 0.044715 * s * s)).tanh())
    return (g + h).relu()


def model(x: Any, w1: Any, w2: Any, w3: Any) -> Any:
    """A model-like function: three layers, then a reduction over a transposed value; one
    graph of about 100 nodes that the fused backend makes into 12 kernels."""
    y = layer(layer(layer(x, w1), w2), w3)
    return y.sum(0), (y.T * 2.0 + 1.0).sum(0)


def child(name: str) -> None:
    """One process's compile of workload `name`; prints its CompilationMetrics fields (and
    the backend phase's thread CPU time) as JSON."""
    import tracer
    import tracer.runtime as torch
    from benchmarks.backends import chain6
    from tracer.backends import lookup_backend
    from tracer.graph_cache.remote import load_client

    fused = lookup_backend("fused")
    cpu_ns = []

    def measured(gm: Any, example_inputs: list[Any]) -> Any:
        """The fused backend, its thread CPU time measured too (the machine may be busy)."""
        started = time.thread_time_ns()
        try:
            return fused(gm, example_inputs)
        finally:
            cpu_ns.append(time.thread_time_ns() - started)

    torch.manual_seed(0)
    if name == "chain6":
        tracer.compile(chain6, backend=measured)(torch.randn(100_000), torch.randn(100_000))
    else:
        args = [torch.randn(64, 64) for _ in range(4)]
        tracer.compile(model, backend=measured)(*args)
    record = tracer.get_compilation_metrics()[-1]
    out = {name: getattr(record, name) for name in FIELDS}
    out["backend_cpu_us"] = sum(cpu_ns) // 1000
    if os.environ.get("MODETRACE_REMOTE_CACHE"):  # loaded by `import tracer`, before the compile
        package = load_client()
        out["client_import_us"] = package.import_us
        out["client_import_cpu_us"] = package.import_cpu_us
    print(json.dumps(out))


def _process(env: dict[str, str], workload: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.graph_cache", "--child", workload],
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


WORKLOADS = ("model", "chain6")
ROWS = (
    "first process (miss)",
    "second process (local hit)",
    "first process, Redis (miss)",
    "local emptied (remote hit)",
)
MISS, LOCAL_HIT, REDIS_MISS, REMOTE_HIT = ROWS
BASELINES = {LOCAL_HIT: MISS, REMOTE_HIT: REDIS_MISS}
"""Each hit's backend phase is compared with the miss of the process that wrote its entry."""
CLIENT_IMPORT = "redis client import"
"""The row of the `redis` package's import: paid by each process with MODETRACE_REMOTE_CACHE
set, at `import tracer` (tracer/graph_cache/remote.py), not in a compile's backend phase."""


def run(rounds: int = 3, workload: str = "model") -> dict[str, Any]:
    """Per row, the median over `rounds` fresh caches of each process's record (the keys are
    the same in every round: the key does not depend on the process or the cache)."""
    samples: dict[str, list[dict[str, Any]]] = {}

    def sample(name: str, env: dict[str, str]) -> None:
        samples.setdefault(name, []).append(_process(env, workload))

    server = shutil.which("redis-server")
    with tempfile.TemporaryDirectory(prefix="modetrace-bench-cache-") as tmp:
        redis = None
        port = _free_port()
        if server is not None:
            redis = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", tmp],
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
        try:
            for i in range(rounds):
                local = Path(tmp) / f"local-{i}"
                env = {"MODETRACE_CACHE_DIR": str(local), "MODETRACE_REMOTE_CACHE": ""}
                sample(MISS, env)
                sample(LOCAL_HIT, env)
                if redis is None:
                    continue
                _wait_for(port)
                remote = {"MODETRACE_CACHE_DIR": str(Path(tmp) / f"remote-{i}"),
                          "MODETRACE_REMOTE_CACHE": f"redis://127.0.0.1:{port}/{i}"}  # fmt: skip
                sample(REDIS_MISS, remote)
                shutil.rmtree(Path(tmp) / f"remote-{i}")
                sample(REMOTE_HIT, remote)
        finally:
            if redis is not None:
                redis.terminate()
                redis.wait()
    rows: dict[str, Any] = {name: _median_row(found) for name, found in samples.items()}
    if server is None:
        rows["remote"] = {"skipped": "redis-server is not on PATH"}
    else:
        imports = [row for name in (REDIS_MISS, REMOTE_HIT) for row in samples[name]]
        imports.sort(key=lambda row: row["client_import_cpu_us"])
        median = imports[len(imports) // 2]
        rows[CLIENT_IMPORT] = {k: median[k] for k in ("client_import_us", "client_import_cpu_us")}
    return rows


def _median_row(found: list[dict[str, Any]]) -> dict[str, Any]:
    """The sample whose backend phase is the median one."""
    ordered = sorted(found, key=lambda row: row["backend_cpu_us"])
    return ordered[len(ordered) // 2]


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server did not listen on port {port}")


def print_table(rows: dict[str, Any], workload: str = "model") -> None:
    print(f"\ngraph cache: {workload} with backend='fused', one process per row (median of rounds)")
    print(
        f"{'process':<30}{'backend ms':>11}{'cpu ms':>8}{'hit':>5}{'miss':>6}{'saved ms':>10}"
        f"{'redis get ms':>14}{'redis put ms':>14}  key (answered by)"
    )
    for name, row in rows.items():
        if "skipped" in row:
            print(f"{name:<30}skipped: {row['skipped']}")
            continue
        if name == CLIENT_IMPORT:
            print(
                f"{name:<30}{row['client_import_us'] / 1000:>11.2f}"
                f"{row['client_import_cpu_us'] / 1000:>8.2f}"
                "  once per process with a remote cache, at `import tracer`, not in a compile"
            )
            continue
        keys = row["inductor_fx_cache_hit_keys"] or row["inductor_fx_cache_miss_keys"] or ["-"]
        print(
            f"{name:<30}{row['backend_compile_time_us'] / 1000:>11.2f}"
            f"{row['backend_cpu_us'] / 1000:>8.2f}"
            f"{row['inductor_fx_cache_hit_count'] or 0:>5}"
            f"{row['inductor_fx_cache_miss_count'] or 0:>6}"
            f"{_ms(row['remote_cache_time_saved_us']):>10}"
            f"{_ms(row['remote_fx_graph_cache_get_time_us']):>14}"
            f"{_ms(row['remote_fx_graph_cache_put_time_us']):>14}"
            f"  {keys[0]} ({row['inductor_fx_cache_backend_type']})"
        )
    for name, baseline in BASELINES.items():
        if name in rows and baseline in rows:
            faster = rows[baseline]["backend_cpu_us"] / max(rows[name]["backend_cpu_us"], 1)
            print(f"  {name}: backend phase {faster:.1f}x faster than {baseline} (CPU time)")
    if REDIS_MISS in rows:
        print("  (a process's first Redis call connects: part of its get or put time)")


def _ms(us: int | None) -> str:
    return "" if us is None else f"{us / 1000:.2f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.graph_cache")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workload", choices=WORKLOADS, default="model")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per row (default 3)")
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    print_table(run(rounds=args.rounds, workload=args.workload), args.workload)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
