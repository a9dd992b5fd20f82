"""Every case of the corpus, from three sources:

- `stdlib`: pure-Python functions of standard-library modules (`stdlib_calls.py`);
- `pyperformance`: benchmark kernels vendored in `vendor/pyperformance/` (calls below, with
  the sizes scaled down from the benchmarks' own);
- `TheAlgorithms`: modules vendored in `vendor/thealgorithms/`; each doctest that calls a
  module-level Python function with literal arguments is a case (at most 4 per module).
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import sys
import time
import types
from functools import cache
from pathlib import Path
from typing import Any

from tests.corpus.stdlib_calls import CALLS
from tracer.testing.corpus import Case

VENDOR = Path(__file__).parent / "vendor"
PER_MODULE = 4


def _import_file(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _resolve(root: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        root = getattr(root, part)
    return root


def _call_text(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= 120 else text[:117] + "..."


def stdlib_cases() -> list[Case]:
    cases = []
    for row in CALLS:
        owner, name, args = row[:3]
        kwargs = row[3] if len(row) > 3 else {}
        fn = getattr(owner, name)
        if isinstance(fn, types.BuiltinFunctionType):
            continue  # written in C on this version (3.13: posixpath.normpath): nothing to trace
        assert isinstance(fn, types.FunctionType), f"{owner}.{name} is not a Python function"
        module = fn.__module__
        cases.append(
            Case("stdlib", module, _call_text(fn.__qualname__, args, kwargs), fn, args, kwargs)
        )
    return cases


def _pyperformance() -> dict[str, types.ModuleType]:
    stand_in = types.ModuleType("pyperf")
    stand_in.perf_counter = time.perf_counter  # type: ignore[attr-defined]
    sys.modules.setdefault("pyperf", stand_in)
    return {
        path.stem: _import_file(path, f"corpus_pyperformance_{path.stem}")
        for path in sorted((VENDOR / "pyperformance").glob("bm_*.py"))
    }


def kernel_cases() -> list[Case]:
    bm = _pyperformance()
    nbody, chaos, hexiom = bm["bm_nbody"], bm["bm_chaos"], bm["bm_hexiom"]
    richards, deltablue, spectral = bm["bm_richards"], bm["bm_deltablue"], bm["bm_spectral_norm"]
    gv = chaos.GVector
    spline = chaos.Spline(
        [gv(1.59735, 3.30446, 0.0), gv(1.57581, 4.12326, 0.0), gv(1.31321, 5.28835, 0.0),
         gv(1.6189, 5.32991, 0.0), gv(2.88994, 5.5027, 0.0)],
        3, [0, 0, 0, 1, 1, 1, 2],
    )  # fmt: skip
    board = hexiom.LEVELS[2][0].strip()
    rows: list[tuple[types.ModuleType, str, tuple[Any, ...]]] = [
        (nbody, "combinations", ([1, 2, 3, 4],)),
        (nbody, "advance", (0.01, 3, nbody.SYSTEM, nbody.PAIRS)),
        (nbody, "report_energy", (nbody.SYSTEM, nbody.PAIRS, 0.0)),
        (nbody, "offset_momentum", (nbody.BODIES["sun"], nbody.SYSTEM)),
        (bm["bm_fannkuch"], "fannkuch", (4,)),
        (bm["bm_fannkuch"], "fannkuch", (5,)),
        (spectral, "eval_A", (3, 4)),
        (spectral, "part_A_times_u", ((2, [1.0, 0.5, 0.25]),)),
        (spectral, "part_At_times_u", ((1, [1.0, 0.5, 0.25]),)),
        (spectral, "eval_AtA_times_u", ([1.0, 1.0, 1.0],)),
        (bm["bm_nqueens"], "bench_n_queens", (4,)),
        (bm["bm_nqueens"], "bench_n_queens", (5,)),
        (bm["bm_float"], "benchmark", (20,)),
        (bm["bm_float"], "maximize", ([bm["bm_float"].Point(i) for i in range(5)],)),
        (chaos, "GVector.linear_combination", (gv(1, 2, 3), gv(4, 5, 6), 0.25)),
        (chaos, "GVector.dist", (gv(1, 2, 3), gv(4, 6, 3))),
        (chaos, "GVector.__add__", (gv(1, 2, 3), gv(4, 6, 3))),
        (chaos, "Spline.GetIndex", (spline, 0.5)),
        (chaos, "Spline.__call__", (spline, 0.75)),
        (chaos, "Spline.__init__", (spline, spline.points, 3, [0, 0, 0, 1, 1, 1, 2])),
        (chaos, "Spline.__init__", (spline, spline.points, 3, [0, 0, 1])),
        (richards, "Richards.run", (richards.Richards(), 1)),
        (deltablue, "delta_blue", (5,)),
        (deltablue, "chain_test", (4,)),
        (deltablue, "projection_test", (4,)),
        (
            deltablue,
            "Strength.weaker",
            (deltablue.Strength.STRONG_DEFAULT, deltablue.Strength.WEAKEST),
        ),
        (hexiom, "read_file", (board,)),
        (hexiom, "solve_file", (board, hexiom.Done.FIRST_STRATEGY, hexiom.DESCENDING, None)),
    ]
    cases = []
    for module, name, args in rows:
        fn = _resolve(module, name)
        if isinstance(fn, types.MethodType):  # a classmethod: its function, the class first
            fn, args = fn.__func__, (fn.__self__, *args)
        if name == "solve_file":  # its output goes to a stream; a fresh one per run
            import io

            args = (*args[:3], io.StringIO())
        label = module.__name__.removeprefix("corpus_pyperformance_")
        cases.append(Case("pyperformance", label, _call_text(name, args, {}), fn, args))
    return cases


def _doctest_calls(
    source: str, functions: set[str]
) -> list[tuple[str, str, tuple[Any, ...], dict[str, Any]]]:
    """(text, function, args, kwargs) of each doctest example `f(literal, ...)` in `source`."""
    found = []
    parser = doctest.DocTestParser()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.Module):
            continue
        docstring = ast.get_docstring(node, clean=False)
        for example in parser.get_examples(docstring or ""):
            try:
                call = ast.parse(example.source.strip(), mode="eval").body
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                    continue
                if call.func.id not in functions:
                    continue
                args = tuple(ast.literal_eval(a) for a in call.args)
                kwargs = {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
            except (SyntaxError, ValueError, TypeError):
                continue
            found.append((example.source.strip(), call.func.id, args, kwargs))
    return found


def algorithm_cases() -> list[Case]:
    root = VENDOR / "thealgorithms"
    cases = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        source = path.read_text()
        tree = ast.parse(source)
        functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        calls = _doctest_calls(source, functions)[:PER_MODULE]
        if not calls:
            continue
        module = _import_file(path, "corpus_thealgorithms_" + relative[:-3].replace("/", "_"))
        for text, name, args, kwargs in calls:
            if not isinstance(getattr(module, name), types.FunctionType):
                continue  # e.g. an lru_cache wrapper: compile takes Python functions
            cases.append(Case("TheAlgorithms", relative, text, getattr(module, name), args, kwargs))
    return cases


@cache
def all_cases() -> tuple[Case, ...]:
    return (*stdlib_cases(), *kernel_cases(), *algorithm_cases())
