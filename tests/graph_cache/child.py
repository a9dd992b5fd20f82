"""One process's compile, for the tests across processes: `python -m tests.graph_cache.child
NAME` compiles the workload NAME with backend='fused' (the cache directory and Redis come from
MODETRACE_CACHE_DIR and MODETRACE_REMOTE_CACHE), and prints one JSON line: the result's
values and the compile's CompilationMetrics fields of the cache."""

from __future__ import annotations

import json
import sys
import warnings
from typing import Any

import tracer
import tracer.runtime as torch

FIELDS = (
    "backend_compile_time_us",
    "inductor_fx_cache_hit_count",
    "inductor_fx_cache_miss_count",
    "inductor_fx_cache_backend_type",
    "inductor_fx_cache_hit_keys",
    "inductor_fx_cache_miss_keys",
    "remote_cache_version",
    "remote_fx_graph_cache_get_time_us",
    "remote_fx_graph_cache_put_time_us",
    "remote_cache_time_saved_us",
)


def softmax(x: Any) -> Any:
    e = torch.exp(x - x.amax(-1, keepdim=True))
    return e / e.sum(-1, keepdim=True)


def chain(x: Any, y: Any) -> Any:
    return (((x * 1.5 + y) - 0.25).relu() * y) + x.T.sum(0)


WORKLOADS = {
    "softmax": (softmax, lambda: (torch.arange(24.0).reshape(4, 6) / 7,)),
    "chain": (chain, lambda: (torch.arange(36.0).reshape(6, 6) / 5, torch.arange(6.0) - 2)),
}


def main(name: str) -> None:
    fn, make_args = WORKLOADS[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tracer.compile(fn, backend="fused")(*make_args())
    record = tracer.get_compilation_metrics()[-1]
    out = {name: getattr(record, name) for name in FIELDS}
    out["result"] = result.tolist()
    out["warnings"] = [str(w.message) for w in caught]
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
