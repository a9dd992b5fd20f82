"""Compare fresh compile-time instruction counts with the checked-in expectation.

    python -m benchmarks.check_instruction_counts            # exit 1 if any count grew > 5%
    python -m benchmarks.check_instruction_counts --update   # rewrite the expected file

Each Python version has its own expected file (`expected_path`), and the check compares the
running version's; run it with each version's interpreter to update that version's file.

The fresh counts come from `benchmarks.instruction_count` in a separate interpreter (fixed hash
seed); `--actual FILE` compares an existing CSV instead. Every row is printed with its delta. A
count more than 5% above the expectation fails; one more than 5% below passes with a note to run
`--update` so the improvement is locked in. Rows only on one side are reported, never fatal.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmarks.instruction_count import HERE, counts_in_subprocess, read_csv, write_csv


def expected_path(
    version: tuple[int, int] = (sys.version_info.major, sys.version_info.minor),
) -> Path:
    """The expected counts of one Python version: each compiles our code to its own bytecode.

    3.11's file keeps the name it had before 3.12 and 3.13 were counted."""
    if version == (3, 11):
        return HERE / "expected_instruction_counts.csv"
    return HERE / f"expected_instruction_counts_{version[0]}.{version[1]}.csv"


EXPECTED = expected_path()
"""The running version's expected counts: what `--update` writes and the check reads."""
TOLERANCE = 0.05

Key = tuple[str, str]


@dataclasses.dataclass(frozen=True)
class Comparison:
    """One row of the comparison: expected and actual (None when the row is missing)."""

    name: str
    metric: str
    expected: int | None
    actual: int | None
    tolerance: float = TOLERANCE

    @property
    def delta(self) -> float | None:
        """Relative change, actual over expected minus one."""
        if self.expected is None or self.actual is None or self.expected == 0:
            return None
        return self.actual / self.expected - 1

    @property
    def status(self) -> str:
        if self.expected is None:
            return "new"
        if self.actual is None:
            return "missing"
        if self.expected == 0:
            return "ok" if self.actual == 0 else "regressed"
        allowed = self.tolerance * self.expected  # in counts, so exactly 5% is still ok
        if self.actual - self.expected > allowed:
            return "regressed"
        if self.expected - self.actual > allowed:
            return "improved"
        return "ok"

    def line(self) -> str:
        expected = "-" if self.expected is None else str(self.expected)
        actual = "-" if self.actual is None else str(self.actual)
        delta = "" if self.delta is None else f"{self.delta:+.2%}"
        return (
            f"{self.name:<16} {self.metric:<32} {expected:>10} {actual:>10} {delta:>8}  "
            f"{self.status.upper()}"
        )


def compare(
    expected: Mapping[Key, int], actual: Mapping[Key, int], tolerance: float = TOLERANCE
) -> list[Comparison]:
    """Every row of either side, expected file order first."""
    keys = list(expected) + [k for k in actual if k not in expected]
    return [
        Comparison(
            name, metric, expected.get((name, metric)), actual.get((name, metric)), tolerance
        )
        for name, metric in keys
    ]


def report(rows: Sequence[Comparison], expected_path: Path) -> int:
    """Print the rows and the verdict; the exit code (1 if anything regressed)."""
    print(f"{'name':<16} {'metric':<32} {'expected':>10} {'actual':>10} {'delta':>8}  status")
    for row in rows:
        print(row.line())
    regressed = [r for r in rows if r.status == "regressed"]
    improved = [r for r in rows if r.status == "improved"]
    one_sided = [r for r in rows if r.status in ("new", "missing")]
    if improved:
        print(
            f"note: {len(improved)} count(s) dropped more than {TOLERANCE:.0%}; lock the gain in "
            "with `python -m benchmarks.check_instruction_counts --update`"
        )
    if one_sided:
        print(f"note: {len(one_sided)} row(s) on one side only; run with --update to sync")
    if regressed:
        names = ", ".join(f"{r.name}/{r.metric}" for r in regressed)
        print(
            f"FAIL: compile-time instruction count grew more than {TOLERANCE:.0%} "
            f"against {expected_path.name}: {names}"
        )
        return 1
    print(f"OK: no count grew more than {TOLERANCE:.0%}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.check_instruction_counts", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--update", action="store_true", help="write fresh counts as expected")
    parser.add_argument(
        "--expected",
        type=Path,
        default=EXPECTED,
        help="the expected CSV (default: the running version's)",
    )
    parser.add_argument("--actual", type=Path, help="compare this CSV instead of counting afresh")
    parser.add_argument("--only", nargs="*", default=[], help="check only these workloads")
    args = parser.parse_args(argv)

    if args.actual is not None:
        actual = read_csv(args.actual)
    else:
        actual = counts_in_subprocess(args.only)
    if args.update:
        if args.only:
            parser.error("--update rewrites the whole file; do not combine it with --only")
        write_csv(
            [(name, metric, value) for (name, metric), value in actual.items()], args.expected
        )
        print(f"wrote {len(actual)} rows to {args.expected}")
        return 0
    if not args.expected.exists():
        print(
            f"FAIL: {args.expected} is missing (no expected counts for this Python version); "
            "write it with `python -m benchmarks.check_instruction_counts --update`"
        )
        return 1
    expected = read_csv(args.expected)
    if args.only:
        expected = {k: v for k, v in expected.items() if k[0] in args.only}
    return report(compare(expected, actual), args.expected)


if __name__ == "__main__":
    sys.exit(main())
