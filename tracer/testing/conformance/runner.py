"""Each test module in its own subprocess, with a time limit, then one report.

A module runs as `python -m tracer.testing.conformance --child MODULE --out FILE`; it writes a
JSON line per finished test to FILE, so when it hangs (killed at the limit) or crashes, the
tests it finished still count and the module's status says what happened.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tracer.testing.conformance.report import ModuleReport

MODULES = (
    "test_heapq",
    "test_bisect",
    "test_itertools",
    "test_functools",
    "test_operator",
    "test_list",
    "test_tuple",
    "test_dict",
    "test_set",
    "test_deque",
    "test_sort",
    "test_richcmp",
    "test_bool",
    "test_int",
    "test_float",
    "test_math",
    "test_string",
    "test_enum",
    "test_dataclasses",
    "test_scope",
    "test_class",
    "test_unpack",
    "test_augassign",
    "test_slice",
    "test_range",
    # language and builtin semantics a compiled function meets (branch conf7)
    "test_fstring",
    "test_string_literals",
    "test_format",
    "test_unary",
    "test_binop",
    "test_compare",
    "test_grammar",
    "test_opcodes",
    "test_exceptions",
    "test_raise",
    "test_exception_variations",
    "test_with",
    "test_contextlib",
    "test_generators",
    "test_dictcomps",
    "test_keywordonlyarg",
    "test_positional_only_arg",
    "test_types",
    "test_collections",
    "test_statistics",
    "test_fractions",
    "test_decimal",
    "test_copy",
    "test_textwrap",
    "test_index",
    "test_long",
    "test_complex",
    "test_str" if sys.version_info >= (3, 13) else "test_unicode",  # renamed in 3.13
    "test_bytes",
    "test_super",
    "test_baseexception",
    "test_property",
    "test_isinstance",
    "test_iter",
    "test_dictviews",
    "test_userdict",
    "test_userlist",
    "test_userstring",
    "test_ordered_dict",
    "test_named_expressions",
    "test_patma",
    "test_pow",
    "test_print",
    "test_int_literal",
    "test_global",
    "test_funcattrs",
    "test_call",
    "test_abc",
    "test_descr",
    "test_copyreg",
    "test_genericalias",
    "test_typing",
    "test_builtin",
    "test_memoryview",
    "test_struct",
    "test_array",
    "test_weakref",
)
"""The modules of CPython's `test` package that issue 20 lists, and more that exercise the
language and the builtins; `exclusions.LEFT_OUT_MODULES` says why some are not here."""


HOW_TO_GET_TESTS = (
    "CPython's `test` package is not installed for {python}: install it "
    "(Debian/Ubuntu: `apt install libpython3.11-testsuite`) or use a python.org or pyenv "
    "build of 3.11, which ship it."
)


def missing_test_package() -> str:
    """'' when `test.test_heapq` can be imported, else how to get CPython's test package."""
    try:
        found = importlib.util.find_spec("test.test_heapq") is not None
    except ImportError:
        found = False
    return "" if found else HOW_TO_GET_TESTS.format(python=sys.executable)


def qualified(module: str) -> str:
    """`test_heapq` -> `test.test_heapq`; a dotted name is taken as it is."""
    return module if "." in module else f"test.{module}"


def run_module_in_subprocess(
    module: str, module_timeout: float, test_timeout: float, extra: list[str]
) -> ModuleReport:
    """Run one module's tests in a child interpreter; its JSON lines become the report."""
    name = qualified(module)
    try:
        found = importlib.util.find_spec(name) is not None
    except ImportError:
        found = False
    if not found:
        return ModuleReport(module, [], "missing")
    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        out = Path(tmp) / "verdicts.jsonl"
        command = [sys.executable, "-m", "tracer.testing.conformance", "--child", name]
        command += ["--out", str(out), "--test-timeout", str(test_timeout), *extra]
        start = time.monotonic()
        sys.stderr.write(f"{module}: ")
        sys.stderr.flush()
        try:
            code = subprocess.run(command, timeout=module_timeout, check=False).returncode
            status = "ok" if code == 0 else f"crashed (exit {code})"
        except subprocess.TimeoutExpired:
            status = f"timeout after {module_timeout:g} s"
        seconds = time.monotonic() - start
        report = ModuleReport.read(module, out, status, seconds)
    row = report.row()
    sys.stderr.write(
        f" {row['tests']} tests, {row['equal']} equal, {row['traced whole']} traced whole, "
        f"{row['mismatches']} mismatches [{row['status']}]\n"
    )
    return report


def run_modules(
    modules: list[str], module_timeout: float, test_timeout: float, extra: list[str]
) -> list[ModuleReport]:
    return [run_module_in_subprocess(m, module_timeout, test_timeout, extra) for m in modules]
