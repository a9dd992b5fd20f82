"""The real-torch section of `make bench`: modetrace on real torch next to Dynamo, on the same
functions and the same real tensors (issue 24).

The section above times modetrace on its own runtime against Dynamo on torch; here both trace
real torch: `tracer.compile(fn)` (modetrace's translator over torch's fake tensors, the
TorchWorld of tracer/torch_adapter) against `torch.compile(fn, backend="eager")`. Workloads:
every function of `make_workloads(torch)` and two nn.Modules compiled whole
(`tracer.compile(model)` against `torch.compile(model)`): an MLP and a transformer block with
`F.scaled_dot_product_attention`.

Per workload and system, medians over rounds that interleave the two systems:

- `compile_us`: the first call after a reset (it traces, builds guards and code, then runs);
- `eager_us`, `compiled_us` and `overhead_us` (compiled minus eager, per call; eager and
  compiled calls are timed in alternating stretches, `timing.interleaved_per_call_us`);
- `compile_ratio` and `overhead_ratio`: modetrace over Dynamo. The goal of issue 24 is at most
  0.2 for both.

`python -m benchmarks --only-real-torch` runs this section alone (the figures land in
results.json under `real_torch`); `python -m benchmarks.real_torch` prints it without writing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from benchmarks.compile_time import Samples, _Bench, noop_us, torch_or_none
from benchmarks.timing import calibrate, caller, median, noop, once_us, ratio
from benchmarks.workloads import Workload, make_workloads

GOAL = 0.2
"""Issue 24's goal: modetrace's first call and per-call overhead at most 1/5 of Dynamo's."""


def module_workloads(torch: ModuleType) -> list[Workload]:
    """nn.Modules compiled whole: the module is the workload's function."""
    from torch import nn
    from torch.nn import functional as F

    class MLP(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = nn.Linear(16, 32)
            self.fc2 = nn.Linear(32, 16)
            self.norm = nn.LayerNorm(16)

        def forward(self, x: Any) -> Any:
            return self.norm(self.fc2(F.gelu(self.fc1(x))) + x)

    class Block(nn.Module):
        def __init__(self, dim: int = 16, heads: int = 2) -> None:
            super().__init__()
            self.heads = heads
            self.norm1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

        def forward(self, x: Any) -> Any:
            b, t, d = x.shape
            q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
            q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
            k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
            v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
            attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
            return x + self.mlp(self.norm2(x))

    torch.manual_seed(0)
    mlp, block = MLP(), Block()
    return [
        Workload("module_mlp", mlp, lambda: (torch.randn(4, 16),), "nn.Module: MLP + LayerNorm"),
        Workload(
            "module_block", block, lambda: (torch.randn(2, 6, 16),), "nn.Module: transformer block"
        ),
    ]


class TorchSideBench(_Bench):
    """One system on real torch: compile, reset and its compile records."""

    def __init__(
        self,
        name: str,
        workloads: Sequence[Workload],
        target_ns: int,
        compile_fn: Callable[[Any], Any],
        reset_fn: Callable[[], None],
        records_fn: Callable[[], list[Any]],
    ) -> None:
        super().__init__(workloads, target_ns)
        self.name = name
        self._compile = compile_fn
        self._reset = reset_fn
        self._records = records_fn

    def compile(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        return self._compile(fn)  # type: ignore[no-any-return]

    def reset(self) -> None:
        self._reset()

    def round(self, samples: Samples) -> None:
        for workload in self.workloads:
            self.reset()
            compiled = self.compile(workload.fn)
            args = workload.make_args()
            elapsed, _ = once_us(caller(compiled, args, workload.context))
            records = self._records()
            samples.add(workload.name, "compile_us", elapsed)
            breaks = sum(getattr(r, "graph_break_count", 0) or 0 for r in records)
            if breaks:
                samples.note(workload.name, f"graph breaks: {breaks}")
            self.per_call_figures(samples, workload, compiled, args)
            if len(self._records()) != len(records):
                samples.note(workload.name, "recompiled while timing calls")


def benches(torch: ModuleType, target_ns: int, only: Sequence[str]) -> list[TorchSideBench]:
    import tracer
    from tracer.observability.metrics import clear_compilation_metrics

    def chosen(workloads: list[Workload]) -> list[Workload]:
        return [w for w in workloads if not only or w.name in only]

    def mt_reset() -> None:
        tracer.reset()
        clear_compilation_metrics()

    def dynamo_reset() -> None:
        torch._dynamo.reset()
        torch._dynamo.utils.clear_compilation_metrics()

    def dynamo_records() -> list[Any]:
        return list(torch._dynamo.utils.get_compilation_metrics())

    return [
        TorchSideBench(
            "modetrace",
            chosen(make_workloads(torch) + module_workloads(torch)),
            target_ns,
            tracer.compile,
            mt_reset,
            tracer.get_compilation_metrics,
        ),
        TorchSideBench(
            "dynamo",
            chosen(make_workloads(torch) + module_workloads(torch)),
            target_ns,
            lambda fn: torch.compile(fn, backend="eager"),
            dynamo_reset,
            dynamo_records,
        ),
    ]


def run(rounds: int, target_ns: int, only: Sequence[str] = ()) -> dict[str, Any]:
    """The section's figures, or `{"skipped": why}` without torch."""
    torch = torch_or_none()
    if torch is None:
        print("\nReal-torch section skipped: torch is not installed.")
        return {"skipped": "torch is not installed"}
    # one intra-op thread: on a small shared machine torch's thread pool spends the measuring
    # thread's CPU time waiting for its workers (a 16x32 Linear took 15 ms a call)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        both = benches(torch, target_ns, only)
        for bench in both:
            bench.first_compile()  # imports and first-use caches, kept out of the medians
        samples = {bench.name: Samples() for bench in both}
        n_noop = calibrate(caller(noop, (1, 2)), target_ns)
        noops = []
        for index in range(rounds):
            noops.append(noop_us(n_noop))
            for bench in both if index % 2 == 0 else both[::-1]:
                bench.round(samples[bench.name])
    finally:
        torch.set_num_threads(threads)
    base = median(noops)
    out: dict[str, Any] = {
        "torch_version": torch.__version__,
        "goal_ratio": GOAL,
        "torch_threads": 1,
    }
    for bench in both:
        out[bench.name] = {
            "first_compile_in_process_us": bench.first_compile_in_process_us,
            "workloads": samples[bench.name].summary(base),
        }
    out["comparison"] = {}
    for name, row in out["modetrace"]["workloads"].items():
        theirs = out["dynamo"]["workloads"].get(name, {})
        out["comparison"][name] = {
            "compile_ratio": ratio(row.get("compile_us"), theirs.get("compile_us")),
            "overhead_ratio": _overhead_ratio(row.get("overhead_us"), theirs.get("overhead_us")),
        }
    return out


def _overhead_ratio(mine: float | None, theirs: float | None) -> float | None:
    """modetrace's over Dynamo's; 0.0 when modetrace's is at or below eager (no overhead)."""
    if mine is not None and mine <= 0 and theirs is not None and theirs > 0:
        return 0.0
    return ratio(mine, theirs)


def print_table(results: dict[str, Any]) -> None:
    if "skipped" in results:
        return
    mt, dyn = results["modetrace"], results["dynamo"]
    print(
        f"\nReal torch {results['torch_version']}: modetrace (tracer.compile) and Dynamo "
        "(torch.compile, backend='eager') on the same functions and tensors; first compile in "
        f"this process (apart): modetrace {_f(_ms(mt['first_compile_in_process_us']))} ms, "
        f"Dynamo {_f(_ms(dyn['first_compile_in_process_us']))} ms; torch.set_num_threads(1)"
    )
    print(
        f"{'workload':<15}{'eager µs':>9}{'mt compile ms':>14}{'dyn compile ms':>15}"
        f"{'mt/dyn':>8}{'mt ovh µs':>10}{'dyn ovh µs':>11}{'mt/dyn':>8}"
    )
    met = {"compile": 0, "overhead": 0}
    for name, row in mt["workloads"].items():
        theirs = dyn["workloads"].get(name, {})
        cmp = results["comparison"].get(name, {})
        for key in met:
            value = cmp.get(f"{key}_ratio")
            met[key] += value is not None and value <= GOAL
        print(
            f"{name:<15}{_f(row.get('eager_us')):>9}{_f(_ms(row.get('compile_us')), '.2f'):>14}"
            f"{_f(_ms(theirs.get('compile_us')), '.2f'):>15}"
            f"{_f(cmp.get('compile_ratio'), '.3f'):>8}{_f(row.get('overhead_us')):>10}"
            f"{_f(theirs.get('overhead_us')):>11}{_f(cmp.get('overhead_ratio'), '.3f'):>8}"
        )
    for side in (mt, dyn):
        for name, row in side["workloads"].items():
            for note in row["notes"]:
                print(f"  note {name} ({'modetrace' if side is mt else 'dynamo'}): {note}")
    total = len(mt["workloads"])
    print(
        f"goal (mt/dyn at most {GOAL}): first call met on {met['compile']} of {total} workloads, "
        f"per-call overhead on {met['overhead']} of {total} (ovh = compiled - eager per call; "
        "0.000 where modetrace's compiled call is no slower than eager)"
    )


def _ms(us: float | None) -> float | None:
    return None if us is None else us / 1000


def _f(value: Any, spec: str = ".1f") -> str:
    return "-" if value is None else f"{value:{spec}}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.real_torch")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args(argv)
    print_table(run(args.rounds, 4_000_000, args.only))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
