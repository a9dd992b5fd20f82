"""`python -m tracer.testing.conformance [MODULE ...]`: run, print the table, write the report.

`--child MODULE --out FILE` is how the runner starts one module's subprocess.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracer.testing.conformance import report, runner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracer.testing.conformance")
    parser.add_argument("modules", nargs="*", help="test modules (default: issue 20's list)")
    parser.add_argument("--output", default="conformance", help="directory for the reports")
    parser.add_argument("--module-timeout", type=float, default=1800, help="seconds per module")
    parser.add_argument("--test-timeout", type=float, default=60, help="seconds per test run")
    parser.add_argument("-k", dest="only", default="", help="keep test ids containing this")
    parser.add_argument(
        "--unittest-asserts",
        action="store_true",
        help="keep unittest's assertions (most tests then fall back at the first one)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        from tracer.testing.conformance.module import run_module

        with open(args.out, "w") as out:
            run_module(
                args.child,
                out,
                plain_asserts=not args.unittest_asserts,
                timeout=args.test_timeout,
                only=args.only,
            )
        return 0

    problem = runner.missing_test_package()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    extra = ["-k", args.only] if args.only else []
    extra += ["--unittest-asserts"] if args.unittest_asserts else []
    modules = args.modules or list(runner.MODULES)
    reports = runner.run_modules(modules, args.module_timeout, args.test_timeout, extra)
    text = report.markdown(reports)
    print(text)
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    (output / "report.md").write_text(text)
    (output / "report.json").write_text(report.as_json(reports) + "\n")
    print(f"wrote {output / 'report.md'} and {output / 'report.json'}", file=sys.stderr)
    mismatches = sum(r.row()["mismatches"] for r in reports)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
