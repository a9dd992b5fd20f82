"""A deterministic compile-time figure: bytecode instructions the tracer executes to compile.

Like Dynamo's `compile_time_instruction_count` benchmarks, but counted in Python bytecode rather
than CPU instructions, so it needs no perf counters and is the same on every machine and run.

What is counted, for each workload (`count_workload`):
- `tracer.reset()`, a fresh `tracer.compile(fn)`, then exactly its first call, which compiles it;
- only while `CompiledFunction._recompile` is on the stack: the compile (`convert_frame`), the
  new entry's compiled check and the install of the new dispatch table (guards.dispatch), but
  not the binder, the guard check or the run of the compiled code after it;
- only frames whose code lives under `tracer/`, `guards/` or `variables/` (tracer/runtime included,
  since fake-tensor propagation is compile work), so the standard library, the `bytecode` package
  and the user's own code (a mode's `__torch_function__`, say) are out. The count then depends only
  on our code and on the Python minor version, not on other packages' versions;
- one count per instruction executed, as the running Python reports them (`count_instructions`,
  the one place that asks which version runs): on 3.11 `sys.settrace` with
  `frame.f_trace_opcodes = True`, one count per "opcode" event; on 3.12 and later
  `sys.monitoring`'s INSTRUCTION events (3.12 rebuilt `sys.settrace` on top of sys.monitoring,
  and an `f_trace_opcodes` turned on from the trace function there yields no opcode event).
  The two report the same instructions but each version compiles our code to other bytecode, so
  every version has its own expected counts (`check_instruction_counts.expected_path`).

What keeps it deterministic:
- everything is imported and every workload compiled once before counting, so first-import work,
  lazily built tables and first-use caches are not counted;
- the garbage collector is off while counting (no finalizer or weakref callback runs mid-compile);
- `run_subprocess` starts a fresh interpreter with `PYTHONHASHSEED=0` (string hashing decides set
  iteration order; no effect was seen so far, but nothing then depends on luck) and without any
  `MODETRACE_*` variable (trace log, logs, breakpoints and the debug checks the test suite turns
  on all change what a compile does). `python -m benchmarks` and the checker both count that way.

CSV rows are `name,metric,value` with metric `compile_time_instruction_count`.
Run directly: `python -m benchmarks.instruction_count [--out PATH] [--only NAME ...]`.
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

METRIC = "compile_time_instruction_count"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_OUT = HERE / "instruction_counts.csv"
COUNTED_PACKAGES = ("tracer", "guards", "variables")
ENV_PREFIX = "MODETRACE_"

Row = tuple[str, str, int]


class _Counter:
    """Instructions of our packages' code executed while a call of `entry` is on the stack."""

    def __init__(self, entry: CodeType, roots: Iterable[Path]) -> None:
        self.entry = entry
        self.prefixes = tuple(f"{root}{os.sep}" for root in roots)
        self.count = 0
        self.depth = 0  # calls of `entry` running
        self._counted: dict[str, bool] = {}

    def is_ours(self, code: CodeType) -> bool:
        filename = code.co_filename
        ours = self._counted.get(filename)
        if ours is None:
            ours = self._counted[filename] = os.path.realpath(filename).startswith(self.prefixes)
        return ours


def count_instructions(entry: CodeType, roots: Iterable[Path], run: Callable[[], object]) -> int:
    """Instructions of code under `roots` executed inside calls of `entry` while `run()` runs.

    The one version-aware step of the count: each Python's own per-instruction event."""
    counter = _Counter(entry, roots)
    if sys.version_info >= (3, 12):
        _count_with_monitoring(counter, run)
    else:
        _count_with_settrace(counter, run)
    return counter.count


def _count_with_settrace(counter: _Counter, run: Callable[[], object]) -> None:
    """3.11: a `sys.settrace` hook asks for opcode events in the frames it counts."""

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code is counter.entry:
            counter.depth += 1
            frame.f_trace_opcodes = counter.is_ours(code)
            return in_entry
        if counter.depth and counter.is_ours(code):
            frame.f_trace_opcodes = True
            return in_frame
        return None

    def in_frame(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            counter.count += 1
        return in_frame

    def in_entry(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            counter.count += 1
        elif event == "return":
            counter.depth -= 1
        return in_entry

    sys.settrace(on_call)
    try:
        run()
    finally:
        sys.settrace(None)


if sys.version_info >= (3, 12):

    def _count_with_monitoring(counter: _Counter, run: Callable[[], object]) -> None:
        """3.12 and later: sys.monitoring's INSTRUCTION event, switched off (DISABLE) for good
        at each instruction of code that is not ours; the entry's start, return and unwind
        keep the depth."""
        monitoring = sys.monitoring
        events = monitoring.events
        tool = monitoring.PROFILER_ID
        holder = monitoring.get_tool(tool)
        if holder is not None:
            raise RuntimeError(f"sys.monitoring's profiler slot is taken by {holder!r}")

        def on_instruction(code: CodeType, offset: int) -> Any:
            if not counter.is_ours(code):
                return monitoring.DISABLE
            if counter.depth:
                counter.count += 1
            return None

        def on_start(code: CodeType, offset: int) -> None:
            if code is counter.entry:
                counter.depth += 1

        def on_exit(code: CodeType, offset: int, value: object) -> None:
            if code is counter.entry:
                counter.depth -= 1

        callbacks: dict[int, Callable[..., object]] = {
            events.INSTRUCTION: on_instruction,
            events.PY_START: on_start,
            events.PY_RETURN: on_exit,
            events.PY_UNWIND: on_exit,
        }
        monitoring.use_tool_id(tool, "modetrace instruction count")
        try:
            for event, callback in callbacks.items():
                monitoring.register_callback(tool, event, callback)
            monitoring.restart_events()  # a DISABLE left by an earlier count is undone
            monitoring.set_local_events(tool, counter.entry, events.PY_START | events.PY_RETURN)
            monitoring.set_events(tool, events.INSTRUCTION | events.PY_UNWIND)
            run()
        finally:
            monitoring.set_events(tool, events.NO_EVENTS)
            monitoring.set_local_events(tool, counter.entry, events.NO_EVENTS)
            for event in callbacks:
                monitoring.register_callback(tool, event, None)
            monitoring.free_tool_id(tool)


def count_workload(workload: Any) -> int:
    """Instructions our packages execute while the first call of `workload` compiles it."""
    import tracer
    from tracer.api import CompiledFunction

    tracer.reset()
    compiled = tracer.compile(workload.fn)
    args = workload.make_args()
    with workload.call_context():
        gc.collect()
        gc.disable()
        try:
            count = count_instructions(
                CompiledFunction._recompile.__code__, _package_roots(), lambda: compiled(*args)
            )
        finally:
            gc.enable()
    if count == 0:
        raise RuntimeError(f"counted no instruction while compiling {workload.name}")
    return count


def count_all(only: Sequence[str] = ()) -> list[Row]:
    """Warm up every selected workload, then count each one's compile."""
    import tracer
    import tracer.runtime as torch
    from benchmarks.workloads import make_workloads

    selected = [w for w in make_workloads(torch) if not only or w.name in only]
    unknown = set(only) - {w.name for w in selected}
    if unknown:
        raise SystemExit(f"unknown workloads: {sorted(unknown)}")
    for workload in selected:  # warm-up: imports, lazy tables, first-use caches
        tracer.reset()
        with workload.call_context():
            tracer.compile(workload.fn)(*workload.make_args())
    rows = [(w.name, METRIC, count_workload(w)) for w in selected]
    tracer.reset()
    return rows


def _package_roots() -> list[Path]:
    """The directories of the imported packages (not of this checkout, should they differ)."""
    roots = []
    for name in COUNTED_PACKAGES:
        module = importlib.import_module(name)
        assert module.__file__ is not None, name
        roots.append(Path(module.__file__).resolve().parent)
    return roots


def write_csv(rows: Iterable[Row], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(("name", "metric", "value"))
        writer.writerows(rows)


def read_csv(path: Path) -> dict[tuple[str, str], int]:
    """`{(name, metric): value}` from a `name,metric,value` file."""
    with path.open(newline="", encoding="utf-8") as f:
        return {(r["name"], r["metric"]): int(r["value"]) for r in csv.DictReader(f)}


def run_subprocess(out: Path, only: Sequence[str] = ()) -> dict[tuple[str, str], int]:
    """Count in a fresh interpreter (fixed hash seed, no trace/log env) and read the result."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX)}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "benchmarks.instruction_count", "--out", str(out)]
    if only:
        command += ["--only", *only]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return read_csv(out)


def counts_in_subprocess(only: Sequence[str] = ()) -> dict[tuple[str, str], int]:
    """`run_subprocess` into a temporary file."""
    with tempfile.TemporaryDirectory(prefix="modetrace-counts-") as tmp:
        return run_subprocess(Path(tmp) / "counts.csv", only)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.instruction_count", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="CSV to write")
    parser.add_argument("--only", nargs="*", default=[], help="count only these workloads")
    args = parser.parse_args(argv)
    stray = sorted(k for k in os.environ if k.startswith(ENV_PREFIX))
    if os.environ.get("PYTHONHASHSEED") != "0" or stray:
        print(
            f"note: PYTHONHASHSEED is not 0 or {stray} are set; counts may differ from the "
            "checker's (it runs without them: see run_subprocess)",
            file=sys.stderr,
        )
    rows = count_all(args.only)
    write_csv(rows, args.out)
    for name, metric, value in rows:
        print(f"{name:<16} {metric} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
