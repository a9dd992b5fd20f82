"""`python -m benchmarks.long_loops`: how long loops near the instruction budget take to trace.

Issue 22 (point 6) asks that a loop running up to the default budget of 1,000,000 traced
instructions compile in a time proportional to its length (about 5 s at most on the project's
machine). Each case below is one function whose first call traces a long loop whole; the table
shows its traced instructions, graph nodes and guards, the first call in all (the compile, then
the compiled code's run), the second call (which compiles the guard check, built lazily on first
use, and runs it), and how the compile's time splits into its phases (tracing, guard building,
backend, codegen; from its CompilationMetrics, in percent of the compile).

The calls are timed in thread CPU time (as `make bench` does: on the shared machine wall time
mostly measures the neighbours), `--repeat N` keeps the fastest of N; never asserted on.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

import tracer
import tracer.runtime as torch


class Particle:
    def __init__(self, x: float, v: float) -> None:
        self.x = x
        self.v = v


def constant_loop(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * 2
    return total


def objects_loop(particles: list[Particle], steps: int) -> float:
    for _ in range(steps):
        for p in particles:
            p.x = p.x + p.v
    return sum(p.x for p in particles)


def dict_loop(table: dict[str, int], rounds: int) -> int:
    total = 0
    for _ in range(rounds):
        for key, value in table.items():
            total += value if key < "k50" else -value
    return total


def tensor_loop(x: Any, n: int) -> Any:
    for _ in range(n):
        x = x + 1
    return x


def repeated_op_loop(x: Any, n: int) -> Any:
    acc = x
    for _ in range(n):
        acc = acc + x.sin()  # the graph passes merge the 10,000 `x.sin()` nodes into one
    return acc


def nested_loops(n: int) -> int:
    count = 0
    for i in range(n):
        for j in range(n):
            if (i ^ j) & 1:
                count += 1
    return count


def cases() -> dict[str, tuple[Callable[..., Any], Callable[[], tuple[Any, ...]]]]:
    """Name -> (function, fresh arguments). Each traces close to 1,000,000 instructions except
    the tensor loops, 10,000 iterations recording one op each (two in the second, one of which
    the graph passes merge)."""
    return {
        "constants (range 110,000)": (constant_loop, lambda: (110_000,)),
        "user objects (100 x 900)": (
            objects_loop,
            lambda: ([Particle(float(i), 0.5) for i in range(100)], 900),
        ),
        "dict items (100 x 700)": (dict_loop, lambda: ({f"k{i}": i for i in range(100)}, 700)),
        "nested (300 x 300)": (nested_loops, lambda: (300,)),
        "tensor ops (10,000)": (tensor_loop, lambda: (torch.ones(4), 10_000)),
        "tensor ops, merged (10,000)": (repeated_op_loop, lambda: (torch.ones(4), 10_000)),
    }


def measure(fn: Callable[..., Any], make_args: Callable[[], tuple[Any, ...]]) -> dict[str, Any]:
    tracer.reset()
    compiled = tracer.compile(fn, fullgraph=True)
    args = make_args()
    start = time.thread_time()
    compiled(*args)
    first = time.thread_time() - start
    args = make_args()
    start = time.thread_time()
    compiled(*args)
    second = time.thread_time() - start
    m = tracer.get_compilation_metrics()[-1]
    whole = (m.duration_us or 1) / 100
    return {
        "instructions": m.traced_instruction_count,
        "nodes": m.graph_node_count,
        "guards": m.guard_count,
        "first_call_s": first,
        "second_call_s": second,
        "tracing_%": (m.bytecode_tracing_time_us or 0) / whole,
        "guards_%": (m.build_guards_time_us or 0) / whole,
        "backend_%": (m.backend_compile_time_us or 0) / whole,
        "codegen_%": (m.codegen_time_us or 0) / whole,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=1, help="keep the fastest of N runs")
    args = parser.parse_args(argv)
    columns = "instructions nodes guards first_call_s second_call_s"
    columns += " tracing_% guards_% backend_% codegen_%"
    header = f"| case | {' | '.join(columns.split())} |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for name, (fn, make_args) in cases().items():
        runs = [measure(fn, make_args) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["first_call_s"])
        cells = [f"{v:,}" if isinstance(v, int) else f"{v:.2f}" for v in best.values()]
        cells[-4:] = [f"{float(c):.0f}" for c in cells[-4:]]
        print(f"| {name} | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
