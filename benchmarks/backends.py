"""The backend section of `make bench`: backend="fused" next to backend="eager", in one run.

    python -m benchmarks.backends [--quick]

- `chain6`: six pointwise ops (mul, add, sub, relu, mul, add) over 100,000 float32 elements;
- `softmax`: a row softmax of a 256x512 tensor (amax, sub, exp, sum, div);
- `transposed_sum`: `y = x.T * 2 + 1` over a 256x256 tensor, returned with `y.sum(0)`: the
  pointwise statement's stride order and the reduction's differ, so they share one kernel only
  when the scheduler reorders loops (NOTE [loop order] in tracer/fused/scheduler.py); measured
  with reordering on and off, with each one's kernel count;
- the first call of each workload (trace, backend compile, run) under both backends, with
  the graph cache off;
- the graph cache (benchmarks/graph_cache.py): a second process compiling `chain6` loads the
  first one's plan from the local cache, and, with Redis, from the remote one.

Per-call figures are medians over interleaved rounds of thread CPU time (benchmarks/timing.py).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

import tracer
import tracer.runtime as torch
from benchmarks.timing import calibrate, caller, interleaved_per_call_us, median, once_us, ratio
from tracer import config
from tracer.backends import fused_backend


def chain6(x: Any, y: Any) -> Any:
    return (((x * 1.5 + y) - 0.25).relu() * y) + x


def softmax(x: Any) -> Any:
    e = torch.exp(x - x.amax(-1, keepdim=True))
    return e / e.sum(-1, keepdim=True)


def transposed_sum(x: Any) -> Any:
    y = x.T * 2.0 + 1.0
    return y, y.sum(0)


WORKLOADS: dict[str, tuple[Callable[..., Any], Callable[[], tuple[Any, ...]]]] = {
    "chain6": (chain6, lambda: (torch.randn(100_000), torch.randn(100_000))),
    "softmax": (softmax, lambda: (torch.randn(256, 512),)),
    "transposed_sum": (transposed_sum, lambda: (torch.randn(256, 256),)),
}
BACKENDS: dict[str, Any] = {
    "eager": "eager",
    "fused": "fused",
    "fused_no_reorder": fused_backend(reorder_loops=False),
}


def _kernels(fn: Callable[..., Any], backend: Any, args: tuple[Any, ...]) -> int:
    explanation = tracer.explain(fn, backend=backend)(*args)
    return sum(k.count for k in explanation.kernels_per_graph)


def run(rounds: int = 5, target_ns: int = 400_000_000) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, (fn, make_args) in WORKLOADS.items():
        args = make_args()
        backends = ["eager", "fused"] + (["fused_no_reorder"] if name == "transposed_sum" else [])
        first: dict[str, list[float]] = {b: [] for b in backends}
        calls = []
        for backend in backends:
            # the first call compiles: without the graph cache (benchmarks/graph_cache.py
            # measures it), or every round after the first would load the plan instead
            with config.patch(graph_cache=False):
                for _ in range(max(1, rounds // 2)):
                    tracer.reset()
                    compiled = tracer.compile(fn, backend=BACKENDS[backend])
                    first[backend].append(once_us(caller(compiled, args))[0])
            calls.append(caller(compiled, args))
        ns = [calibrate(call, target_ns // 8) for call in calls]
        per_call: dict[str, list[float]] = {b: [] for b in backends}
        for _ in range(rounds):
            for backend, us in zip(backends, interleaved_per_call_us(calls, ns, 2), strict=True):
                per_call[backend].append(us)
        row: dict[str, Any] = {}
        for backend in backends:
            row[backend] = {
                "per_call_ms": (median(per_call[backend]) or 0) / 1000,
                "first_call_ms": (median(first[backend]) or 0) / 1000,
                "kernels": _kernels(fn, BACKENDS[backend], args) if backend != "eager" else None,
            }
        row["speedup"] = ratio(row["eager"]["per_call_ms"], row["fused"]["per_call_ms"])
        if "fused_no_reorder" in row:
            row["reorder_speedup"] = ratio(
                row["fused_no_reorder"]["per_call_ms"], row["fused"]["per_call_ms"]
            )
        results[name] = row
    tracer.reset()
    return results


def print_table(results: dict[str, Any]) -> None:
    print(
        f"\nbackends (per call, thread CPU time)\n{'workload':<16}{'backend':<18}"
        f"{'per call ms':>12}{'first call ms':>14}{'kernels':>8}"
    )
    for name, row in results.items():
        for backend in ("eager", "fused", "fused_no_reorder"):
            if backend not in row:
                continue
            r = row[backend]
            kernels = "" if r["kernels"] is None else str(r["kernels"])
            print(
                f"{name:<16}{backend:<18}{r['per_call_ms']:>12.2f}{r['first_call_ms']:>14.2f}"
                f"{kernels:>8}"
            )
        line = f"{'':<16}fused / eager: {row['speedup']:.1f}x faster"
        if "reorder_speedup" in row:
            line += f"; reordering: {row['reorder_speedup']:.1f}x faster than without"
        print(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backends")
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args(argv)
    print_table(run(rounds=3 if args.quick else 5))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
