"""`python -m benchmarks.guards`: what guards and dispatch cost on a cache hit.

Every figure is a median over interleaved rounds of `time.perf_counter_ns` loops (gc off, after
a warm-up), printed in ns and as a multiple of a no-op Python call measured in the same rounds:

1. per-call overhead (compiled minus eager) of six small functions on 4-element tensors;
2. the guard check alone (the entry's `check(L)` on a prebuilt dict) and ns per guard;
3. dispatch alone: the per-call path (binding, the key, the check) as the compiled call minus
   calling the entry's code directly;
4. the hit cost with N = 1, 2, 4, 8, 16 entries (N shapes compiled), hitting the newest entry and
   the oldest one (the worst case of a linear scan), in total and dispatch-only.

Targets (issue "Guards at their best"): overhead <= 40x no-op for each function, check alone
<= 10x no-op for x + y, hit cost at N=16 <= 1.25x the cost at N=1, for the oldest entry too.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import tracer
import tracer.runtime as torch

Loop = Callable[[int], int]
_clock: list[Callable[[], int]] = [time.perf_counter_ns]
NS = [1, 2, 4, 8, 16]


@dataclasses.dataclass(frozen=True)
class Point:
    t: Any
    s: float


def add(x, y):
    return x + y


def sin_add(x, y):
    return (x * 2).sin() + y


def loop3(xs):
    total = xs[0]
    for v in xs[1:]:
        total = total + v
    return total


def frozen(p):
    return p.t * p.s


def _inner(a, b):
    return a * b


def _outer(a, b):
    return _inner(a, b) + a


def nested(x, y):
    return _outer(x, y) - y


def dict_input(d):
    return d["a"] + d["b"]


def one(x):
    return x + 1


def first_dim(x):
    return x.shape[0]


def noop() -> None:
    """The baseline."""


def _loop(call: Callable[..., Any], args: tuple[Any, ...]) -> Loop:
    """A loop of n calls `call(*args)` with the arguments as locals (no per-call packing)."""
    names = [f"a{i}" for i in range(len(args))]
    source = (
        f"def run(n, {', '.join(['call', *names])}):\n"
        "    r = range(n)\n"
        "    t0 = clock()\n"
        f"    for _ in r: call({', '.join(names)})\n"
        "    return clock() - t0\n"
    )
    scope: dict[str, Any] = {"clock": _clock[0]}
    exec(compile(source, "<guards-bench loop>", "exec"), scope)  # noqa: S102 - our own source
    run = scope["run"]
    return lambda n: int(run(n, call, *args))


@dataclasses.dataclass
class Bench:
    """Named loops timed together: every round runs each once, in the same order."""

    n: int
    rounds: int
    loops: dict[str, Loop] = dataclasses.field(default_factory=dict)

    def add(self, name: str, call: Callable[..., Any], *args: Any) -> None:
        call(*args)  # warm-up (and compile)
        self.loops[name] = _loop(call, args)

    def run(self) -> Samples:
        samples: dict[str, list[float]] = {name: [] for name in self.loops}
        for loop in self.loops.values():
            loop(self.n // 10 or 1)  # warm-up
        order = list(self.loops.items())
        enabled = gc.isenabled()
        gc.disable()
        try:
            for index in range(self.rounds):  # alternate the order: drift cancels in pairs
                for name, loop in order if index % 2 == 0 else order[::-1]:
                    samples[name].append(loop(self.n) / self.n)
        finally:
            if enabled:
                gc.enable()
        return Samples(samples)


@dataclasses.dataclass
class Samples:
    """Per-loop ns per call, one value per round."""

    by_name: dict[str, list[float]]

    def __getitem__(self, name: str) -> float:
        return statistics.median(self.by_name[name])

    def diff(self, a: str, b: str) -> float:
        """Median over rounds of `a - b` measured in the same round (paired, not medians)."""
        pairs = zip(self.by_name[a], self.by_name[b], strict=True)
        return statistics.median(x - y for x, y in pairs)


def _functions() -> dict[str, tuple[Callable[..., Any], tuple[Any, ...]]]:
    x, y = torch.ones(4), torch.ones(4)
    return {
        "x + y": (add, (x, y)),
        "(x*2).sin() + y": (sin_add, (x, y)),
        "loop over 3": (loop3, ([x, y, x],)),
        "frozen dataclass": (frozen, (Point(x, 0.5),)),
        "nested calls": (nested, (x, y)),
        "dict input": (dict_input, ({"a": x, "b": y},)),
    }


def run(quick: bool = False, rounds: int | None = None) -> dict[str, Any]:
    """Measure, print the tables, return the figures (for `python -m benchmarks`)."""
    rounds = rounds or (7 if quick else 31)
    n = 1_000 if quick else 3_000
    tracer.reset()
    bench = Bench(n, rounds)
    bench.add("noop", noop)
    details: dict[str, dict[str, Any]] = {}
    for name, (fn, args) in _functions().items():
        compiled = tracer.compile(fn)
        bench.add(f"{name}/eager", fn, *args)
        bench.add(f"{name}/compiled", compiled, *args)
        [entry] = compiled.entries
        frame_locals = compiled._bind(*args)
        bench.add(f"{name}/check", entry.check, frame_locals)
        bench.add(f"{name}/run", entry.run, *args)
        details[name] = {
            "guards": len(entry.guard_manager.guards),
            "fallback": entry.is_fallback,
        }
    hits: dict[int, Any] = {}
    for fn in (one, first_dim):
        for count in NS:
            compiled = tracer.compile(fn, recompile_limit=16)
            tensors = [torch.ones(size) for size in range(4, 4 + count)]
            for t in tensors:
                compiled(t)
            assert len(compiled.entries) == count, compiled.last_miss_reasons
            newest, oldest = compiled.entries[0], compiled.entries[-1]
            tag = f"{fn.__name__} N={count}"
            bench.add(f"{tag}/newest", compiled, tensors[-1])
            bench.add(f"{tag}/oldest", compiled, tensors[0])
            bench.add(f"{tag}/newest run", newest.run, tensors[-1])
            bench.add(f"{tag}/oldest run", oldest.run, tensors[0])
            hits[count] = compiled.dispatch_plan.describe()
    medians = bench.run()
    return _report(medians, details, hits, rounds, n)


def _report(
    m: Samples,
    details: dict[str, dict[str, Any]],
    plans: dict[int, str],
    rounds: int,
    n: int,
) -> dict[str, Any]:
    base = m["noop"]
    print(
        f"guards benchmark: median of {rounds} interleaved rounds x {n} calls "
        f"({_clock[0].__name__}); no-op call {base:.1f} ns; 'x' = multiple of it"
    )
    print(
        f"{'function':<18}{'eager ns':>10}{'comp ns':>10}{'ovh ns':>9}{'ovh x':>7}"
        f"{'dispatch ns':>12}{'check ns':>9}{'chk x':>7}{'guards':>7}{'ns/guard':>9}"
    )
    out: dict[str, Any] = {"noop_ns": base, "functions": {}, "hits": {}}
    for name, info in details.items():
        eager, comp = m[f"{name}/eager"], m[f"{name}/compiled"]
        check = m[f"{name}/check"]
        overhead = m.diff(f"{name}/compiled", f"{name}/eager")
        dispatch = m.diff(f"{name}/compiled", f"{name}/run")
        row = {
            "eager_ns": eager,
            "compiled_ns": comp,
            "overhead_ns": overhead,
            "overhead_x_noop": overhead / base,
            "dispatch_ns": dispatch,
            "dispatch_x_noop": dispatch / base,
            "check_ns": check,
            "check_x_noop": check / base,
            "guards": info["guards"],
            "ns_per_guard": check / info["guards"],
            "fallback": info["fallback"],
        }
        out["functions"][name] = row
        print(
            f"{name:<18}{eager:>10.0f}{comp:>10.0f}{overhead:>9.0f}{row['overhead_x_noop']:>7.1f}"
            f"{dispatch:>12.0f}{check:>9.0f}{row['check_x_noop']:>7.1f}{info['guards']:>7}"
            f"{row['ns_per_guard']:>9.0f}" + ("  (fallback)" if info["fallback"] else "")
        )
    print("ovh = compiled - eager; dispatch = compiled - the entry's code called directly;")
    print("check = the entry's check(L) on a prebuilt dict")
    out["ratios"] = {}
    for fn, what in ((one, "x + 1"), (first_dim, "x.shape[0], no graph: dispatch-bound")):
        out["hits"][fn.__name__], ratios = _hits(m, fn.__name__, plans)
        out["ratios"][fn.__name__] = ratios
        print(f"\nhit cost with N entries (N shapes) of {fn.__name__}(x) = {what}")
        columns = ("newest ns", "oldest ns", "disp newest", "disp oldest")
        print(f"{'N':>3}" + "".join(f"{c:>12}" for c in columns) + "  plan")
        for count, row in out["hits"][fn.__name__].items():
            cells = [row[k] for k in ("newest_ns", "oldest_ns")]
            cells += [row[k] for k in ("dispatch_newest_ns", "dispatch_oldest_ns")]
            print(f"{count:>3}" + "".join(f"{c:>12.0f}" for c in cells) + f"  {row['plan']}")
        print("ratios N=16 / N=1: " + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()))
    ratios = out["ratios"]["first_dim"]
    worst = max(r["overhead_x_noop"] for r in out["functions"].values())
    check_add = out["functions"]["x + y"]["check_x_noop"]
    print(
        f"targets: overhead <= 40x ({'met' if worst <= 40 else 'MISSED'}, worst {worst:.1f}x); "
        f"check x + y <= 10x ({'met' if check_add <= 10 else 'MISSED'}, {check_add:.1f}x); "
        f"hit N=16 <= 1.25x N=1 "
        f"({'met' if max(ratios['hit_newest'], ratios['hit_oldest']) <= 1.25 else 'MISSED'}"
        f" for first_dim: {ratios['hit_newest']:.2f}x newest, {ratios['hit_oldest']:.2f}x oldest)"
    )
    return out


def _hits(
    m: Samples, fn: str, plans: dict[int, str]
) -> tuple[dict[int, dict[str, Any]], dict[str, float]]:
    rows: dict[int, dict[str, Any]] = {}
    for count in NS:
        tag = f"{fn} N={count}"
        rows[count] = {
            "newest_ns": m[f"{tag}/newest"],
            "oldest_ns": m[f"{tag}/oldest"],
            "dispatch_newest_ns": m.diff(f"{tag}/newest", f"{tag}/newest run"),
            "dispatch_oldest_ns": m.diff(f"{tag}/oldest", f"{tag}/oldest run"),
            "plan": plans[count],
        }
    first, last = rows[NS[0]], rows[NS[-1]]
    ratios = {
        "hit_newest": last["newest_ns"] / first["newest_ns"],
        "hit_oldest": last["oldest_ns"] / first["oldest_ns"],
        "dispatch_newest": last["dispatch_newest_ns"] / first["dispatch_newest_ns"],
        "dispatch_oldest": last["dispatch_oldest_ns"] / first["dispatch_oldest_ns"],
    }
    return rows, ratios


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.guards", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter loops")
    parser.add_argument(
        "--cpu", action="store_true", help="thread CPU time instead of perf_counter_ns"
    )
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 31, quick 7)")
    args = parser.parse_args(argv)
    if args.cpu:
        _clock[0] = time.thread_time_ns
    run(quick=args.quick, rounds=args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
