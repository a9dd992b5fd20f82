"""`python -m benchmarks` (`make bench`): every benchmark, one table, one JSON file.

    python -m benchmarks [--quick] [--out results.json] [--rounds N] [--only NAME ...] [--no-torch]
                         [--no-real-torch | --only-real-torch]

1. Compile time and per-call overhead of every workload on modetrace; side by side with Dynamo
   (`torch.compile(backend="eager")`) when torch is installed, skipped with a message when not.
   Figures are medians over interleaved rounds, each also as a multiple of a no-op Python call
   measured in the same rounds.
2. The deterministic compile-time instruction counts (a fresh interpreter), written to
   `benchmarks/instruction_counts.csv` and compared with the running Python version's expected
   counts (`check_instruction_counts.expected_path`).
3. `benchmarks/guards.py` when it exists (imported lazily; skipped with a message if it fails).
4. The backend section (`benchmarks/backends.py`): backend="fused" next to backend="eager" on
   a pointwise chain, a row softmax and a transposed pointwise + reduction; then the graph
   cache across processes (`benchmarks/graph_cache.py`).
5. The real-torch section (`benchmarks/real_torch.py`): modetrace on real torch
   (`tracer.compile`) next to Dynamo on the same functions, modules and tensors: first call and
   per-call overhead, side by side (`--only-real-torch` runs this section alone).

No figure here is asserted on: the test suite checks only the deterministic counts.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import backends, graph_cache, instruction_count, real_torch
from benchmarks.check_instruction_counts import EXPECTED, compare
from benchmarks.compile_time import (
    STORE_BATCH,
    DynamoBench,
    ModetraceBench,
    Samples,
    noop_us,
    torch_or_none,
)
from benchmarks.timing import calibrate, caller, clock_name, median, noop, ratio, use_wall_clock

HERE = Path(__file__).resolve().parent
DEFAULT_JSON = HERE / "results.json"
ROUNDS = 15
QUICK_ROUNDS = 3


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    use_wall_clock(args.wall)
    started = time.perf_counter()
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    target_ns = 2_000_000 if args.quick else 8_000_000
    results: dict[str, Any] = {"meta": _meta(rounds, args.quick)}
    if args.only_real_torch:
        return _real_torch_only(args, results, rounds, target_ns, started)

    torch = None if args.no_torch else torch_or_none()
    benches: list[Any] = [ModetraceBench(target_ns, args.only)]
    if torch is None:
        why = "--no-torch given" if args.no_torch else _no_torch_reason()
        print(f"Dynamo comparison skipped: {why}. The tables show modetrace's figures only.")
        results["dynamo"] = {"skipped": why}
    else:
        results["meta"]["torch_version"] = torch.__version__
        benches.append(DynamoBench(torch, target_ns, args.only))

    for bench in benches:
        bench.first_compile()
    noop_call = caller(noop, (1, 2))
    n_noop = calibrate(noop_call, target_ns)
    samples = {bench.name: Samples() for bench in benches}
    noops = []
    for index in range(rounds):
        noops.append(noop_us(n_noop))
        for bench in benches:
            bench.round(samples[bench.name], index)
    benches[0].close()

    base = median(noops)
    results["noop_us"] = base
    for bench in benches:
        results[bench.name] = {
            "first_compile_in_process_us": bench.first_compile_in_process_us,
            "workloads": samples[bench.name].summary(base),
        }
    if torch is not None:
        results["comparison"] = _comparison(results["modetrace"], results["dynamo"])
    print_tables(results)

    if not args.no_counts:
        results["instruction_counts"] = _instruction_counts(args.only)
    if not args.no_guards:
        results["guards"] = _guards_benchmark(args.quick)
    if not args.no_backends:
        results["backends"] = backends.run(rounds=3 if args.quick else 5)
        backends.print_table(results["backends"])
        results["graph_cache"] = graph_cache.run(rounds=1 if args.quick else 3)
        graph_cache.print_table(results["graph_cache"])
    if not args.no_real_torch and not args.no_torch:
        results["real_torch"] = real_torch.run(rounds, target_ns, args.only)
        real_torch.print_table(results["real_torch"])
    return _write(args.out, results, results["meta"], started)


def _no_torch_reason() -> str:
    """Why torch is absent: on 3.12 and 3.13 that is expected (`make` installs the pinned torch
    on 3.11 only, the one version its wheel here is built for)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    if version == "3.11":
        return "torch is not installed"
    return (
        f"torch is not installed on Python {version} (make installs the pinned torch on 3.11 only)"
    )


def _write(out: Path, results: dict[str, Any], meta: dict[str, Any], started: float) -> int:
    meta["elapsed_s"] = round(time.perf_counter() - started, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"\nwrote {out} in {meta['elapsed_s']} s")
    return 0


def _real_torch_only(
    args: argparse.Namespace, results: dict[str, Any], rounds: int, target_ns: int, started: float
) -> int:
    """`--only-real-torch`: the real-torch section alone, written into the results file under
    `real_torch` (the other sections' figures already there are kept)."""
    meta = results["meta"]
    if args.out.exists():
        results = json.loads(args.out.read_text(encoding="utf-8"))
    results["real_torch"] = real_torch.run(rounds, target_ns, args.only)
    results["real_torch"]["meta"] = meta
    real_torch.print_table(results["real_torch"])
    return _write(args.out, results, meta, started)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter loops")
    parser.add_argument(
        "--rounds", type=int, help=f"rounds per figure (default {ROUNDS}, quick {QUICK_ROUNDS})"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_JSON, help="JSON results file")
    parser.add_argument("--only", nargs="*", default=[], help="run only these workloads")
    parser.add_argument("--no-torch", action="store_true", help="skip Dynamo even if installed")
    parser.add_argument("--no-counts", action="store_true", help="skip the instruction counts")
    parser.add_argument("--no-guards", action="store_true", help="skip benchmarks/guards.py")
    parser.add_argument(
        "--no-backends", action="store_true", help="skip the fused/eager backend section"
    )
    parser.add_argument("--wall", action="store_true", help="wall time, not thread CPU time")
    sections = parser.add_mutually_exclusive_group()
    sections.add_argument(
        "--no-real-torch", action="store_true", help="skip modetrace-on-torch against Dynamo"
    )
    sections.add_argument(
        "--only-real-torch", action="store_true", help="run only modetrace-on-torch vs Dynamo"
    )
    return parser.parse_args(argv)


def _meta(rounds: int, quick: bool) -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": platform.machine(),
        "nproc": os.cpu_count(),
        "python": sys.version.split()[0],
        "rounds": rounds,
        "quick": quick,
        "clock": clock_name(),
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def _comparison(mine: dict[str, Any], dynamo: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per workload: modetrace over Dynamo for compile time and per-call overhead."""
    out = {}
    for name, row in mine["workloads"].items():
        theirs = dynamo["workloads"].get(name, {})
        out[name] = {
            "compile_ratio": _positive_ratio(row.get("compile_us"), theirs.get("compile_us")),
            "overhead_ratio": _positive_ratio(row.get("overhead_us"), theirs.get("overhead_us")),
            "wrapper_overhead_ratio": _positive_ratio(
                row.get("wrapper_overhead_us"), theirs.get("overhead_us")
            ),
        }
    return out


def _positive_ratio(mine: float | None, theirs: float | None) -> float | None:
    """A ratio only when both sides are positive (an overhead at or below 0 is noise or a win)."""
    if mine is None or mine <= 0:
        return None
    return ratio(mine, theirs)


def _instruction_counts(only: Sequence[str]) -> dict[str, Any]:
    print("\nCompile-time instruction counts (deterministic; fresh interpreter, PYTHONHASHSEED=0)")
    out = instruction_count.DEFAULT_OUT
    try:
        actual = instruction_count.run_subprocess(out, only)
    except (RuntimeError, OSError) as exc:  # the timing results are still worth writing
        print(f"  skipped: counting failed: {exc}")
        return {"skipped": str(exc)}
    if EXPECTED.exists():
        expected = instruction_count.read_csv(EXPECTED)
        print(f"  compared with {EXPECTED.name} (this Python version's expected counts)")
    else:
        expected = {}
        print(f"  {EXPECTED.name} is missing: nothing to compare with on this Python version")
    expected = {k: v for k, v in expected.items() if k in actual}
    rows = compare(expected, actual)
    print(f"  {'workload':<16} {'count':>10} {'expected':>10} {'delta':>8}")
    for row in rows:
        delta = "" if row.delta is None else f"{row.delta:+.1%}"
        shown = "-" if row.expected is None else row.expected
        print(f"  {row.name:<16} {row.actual or 0:>10} {shown:>10} {delta:>8}  {row.status}")
    print(f"  written to {out}; check with `python -m benchmarks.check_instruction_counts`")
    return {f"{name}/{metric}": value for (name, metric), value in actual.items()}


def _guards_benchmark(quick: bool) -> Any:
    """Run `benchmarks/guards.py` (another benchmark's module) if it is there.

    Its entry point is `run(quick=...)` if it has one, else `main()` reading `--quick` from
    `sys.argv`; whatever it returns goes into the JSON. Any failure is reported and skipped.
    """
    if not (HERE / "guards.py").exists():
        return {"skipped": "benchmarks/guards.py not present"}
    print("\nGuard benchmarks (benchmarks/guards.py)")
    saved = sys.argv
    try:
        module = importlib.import_module("benchmarks.guards")
        if hasattr(module, "run"):
            return module.run(quick=quick)
        sys.argv = ["python -m benchmarks.guards", *(["--quick"] if quick else [])]
        return module.main()
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (someone else's module: report, go on)
        print(f"  skipped: benchmarks.guards failed: {type(exc).__name__}: {exc}")
        return {"skipped": f"{type(exc).__name__}: {exc}"}
    finally:
        sys.argv = saved


# --- the printed tables


def _fmt(value: Any, spec: str = ".1f", suffix: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:{spec}}{suffix}"


def _pct(part: Any, whole: Any) -> str:
    share = ratio(part, whole)
    return "-" if share is None else f"{share:.0%}"


def print_tables(results: dict[str, Any]) -> None:
    meta = results["meta"]
    print(
        f"\nmodetrace benchmarks, {meta['date']}, {meta['machine']}, {meta['nproc']} cpu, "
        f"Python {meta['python']}, {meta['rounds']} rounds (medians of {meta['clock']}), "
        f"load average {meta['load_average']}"
    )
    print(f"no-op Python call: {results['noop_us'] * 1000:.1f} ns; 'x' columns are multiples of it")
    mt = results["modetrace"]
    print(
        f"first compile in this process (apart): {mt['first_compile_in_process_us'] / 1000:.1f} ms"
    )
    header = (
        f"{'workload':<15}{'eager µs':>9}{'comp µs':>9}{'ovh µs':>8}{'ovh x':>7}{'wrap µs':>8}"
        f"{'chk µs':>7}"
        f"{'compile ms':>11}{'trace':>6}{'guard':>6}{'bknd':>5}{'cgen':>5}{'instr':>6}"
        f"{'µs/ins':>7}{'grds':>5}{'met on/off':>11}{'log':>6}"
    )
    print("\n" + header)
    for name, row in mt["workloads"].items():
        d = row.get("duration_us")
        print(
            f"{name:<15}{_fmt(row.get('eager_us')):>9}{_fmt(row.get('compiled_us')):>9}"
            f"{_fmt(row.get('overhead_us')):>8}{_fmt(row.get('overhead_x_noop'), '.0f'):>7}"
            f"{_fmt(row.get('wrapper_overhead_us')):>8}{_fmt(row.get('guard_check_us'), '.2f'):>7}"
            f"{_fmt(_div(row.get('compile_us'), 1000), '.2f'):>11}"
            f"{_pct(row.get('tracing_us'), d):>6}{_pct(row.get('guards_us'), d):>6}"
            f"{_pct(row.get('backend_us'), d):>5}{_pct(row.get('codegen_us'), d):>5}"
            f"{_fmt(row.get('traced_instructions'), '.0f'):>6}"
            f"{_fmt(row.get('us_per_traced_instruction'), '.0f'):>7}"
            f"{_fmt(row.get('guard_count'), '.0f'):>5}{_fmt(row.get('metrics_on_off'), '.2f'):>11}"
            f"{_pct(row.get('log_overhead'), 1):>6}"
        )
    for name, row in mt["workloads"].items():
        for note in row["notes"]:
            print(f"  note {name}: {note}")
    for name, row in mt["workloads"].items():
        if row.get("store_on_off") is not None:
            print(
                f"metrics store on ({name}, {STORE_BATCH} first calls and the one transaction "
                f"that writes them): {row['store_on_off']:.3f}x the same with the store off"
            )
    print(
        "ovh = compiled - eager per call; wrap = compiled - the cache entry's code called directly "
        "(binding + guard check); chk = the guard check alone; trace/guard/bknd/cgen = share of "
        "duration_us; met on/off = first-call time with metrics on / inside "
        "tracer.metrics.disabled(); log = structured_logging_overhead_us / duration_us with "
        "the trace log on"
    )
    if "comparison" in results:
        _print_dynamo(results)


def _print_dynamo(results: dict[str, Any]) -> None:
    dyn = results["dynamo"]
    print(
        f"\nSide by side with Dynamo (torch {results['meta'].get('torch_version')}, "
        f"backend='eager'); Dynamo's first compile in this process (apart): "
        f"{dyn['first_compile_in_process_us'] / 1000:.1f} ms"
    )
    print(
        f"{'workload':<15}{'eager µs':>9}{'comp µs':>9}{'ovh µs':>8}{'ovh x':>7}{'compile ms':>11}"
        f"{'grds':>5}{'compile mt/dyn':>15}{'ovh mt/dyn':>11}{'wrap mt/dyn':>12}"
    )
    for name, row in dyn["workloads"].items():
        cmp = results["comparison"].get(name, {})
        print(
            f"{name:<15}{_fmt(row.get('eager_us')):>9}{_fmt(row.get('compiled_us')):>9}"
            f"{_fmt(row.get('overhead_us')):>8}{_fmt(row.get('overhead_x_noop'), '.0f'):>7}"
            f"{_fmt(_div(row.get('compile_us'), 1000), '.2f'):>11}"
            f"{_fmt(row.get('guard_count'), '.0f'):>5}"
            f"{_fmt(cmp.get('compile_ratio'), '.2f', 'x'):>15}"
            f"{_fmt(cmp.get('overhead_ratio'), '.2f', 'x'):>11}"
            f"{_fmt(cmp.get('wrapper_overhead_ratio'), '.2f', 'x'):>12}"
        )
    for name, row in dyn["workloads"].items():
        for note in row["notes"]:
            print(f"  note {name}: {note}")


def _div(value: float | None, by: float) -> float | None:
    return None if value is None else value / by


if __name__ == "__main__":
    sys.exit(main())
