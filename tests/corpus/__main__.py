"""`python -m tests.corpus [-k TEXT] [--output DIR]` (`make corpus`): run every corpus case
eagerly and compiled, print the table, and write DIR/report.md and DIR/report.json. It fails
on a mismatch, an internal error, or a break or fallback whose reason names no file:line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.corpus.sources import all_cases
from tracer.testing.corpus import CaseResult, as_json, markdown, run_cases
from tracer.testing.corpus.report import LOCATED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus")
    parser.add_argument("--output", default="corpus", help="directory for the reports")
    parser.add_argument("-k", dest="only", default="", help="keep cases whose id contains this")
    args = parser.parse_args(argv)
    cases = [c for c in all_cases() if args.only in c.id]

    def progress(result: CaseResult) -> None:
        mark = {"whole": ".", "breaks": "b", "fallback": "f"}.get(result.mode, "?")
        if result.verdict != "equal":
            mark = "X"
        sys.stderr.write(mark)
        sys.stderr.flush()

    results = run_cases(cases, progress)
    sys.stderr.write("\n")
    text = markdown(results)
    print(text)
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    (output / "report.md").write_text(text)
    (output / "report.json").write_text(as_json(results) + "\n")
    bad = [r for r in results if r.verdict in ("mismatch", "internal error")]
    unexplained = [r for r in results if r.mode in ("breaks", "fallback") and not explained(r)]
    for r in unexplained:
        print(f"no file:line in a reason of {r.source}:{r.module} {r.call}: {r.reasons}")
    return 1 if bad or unexplained else 0


def explained(result: CaseResult) -> bool:
    """Every break or fallback reason of the call names the user's file and line."""
    return bool(result.reasons) and all(LOCATED.search(r) for r in result.reasons)


if __name__ == "__main__":
    sys.exit(main())
