"""The conformance report: per-module counts, every mismatch, and why tests fell back.

`ModuleReport` holds one module's verdicts (one JSON line per test from its subprocess) and
how the subprocess ended; `markdown` renders the table the README shows, `as_json` the same
for machines.
"""

from __future__ import annotations

import collections
import dataclasses
import json
from pathlib import Path
from typing import Any

from tracer.testing.conformance.exclusions import EXCLUDED_TESTS, LEFT_OUT_MODULES

COLUMNS = (
    "module",
    "tests",
    "equal",
    "traced whole",
    "fell back",
    "not compiled",
    "mismatches",
    "timeouts",
    "unstable",
    "status",
)


@dataclasses.dataclass
class ModuleReport:
    """One module: its verdicts (dicts, as the subprocess wrote them) and how it ended:
    `ok`, `missing` (not importable), `timeout after N s`, or `crashed (exit N)`."""

    module: str
    verdicts: list[dict[str, Any]]
    status: str = "ok"
    seconds: float = 0.0

    @classmethod
    def read(cls, module: str, path: Path, status: str, seconds: float) -> ModuleReport:
        lines = path.read_text().splitlines() if path.exists() else []
        return cls(module, [json.loads(line) for line in lines if line.strip()], status, seconds)

    def count(self, key: str, value: str) -> int:
        return sum(1 for v in self.verdicts if v[key] == value)

    def row(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "tests": len(self.verdicts),
            "equal": self.count("verdict", "equal"),
            "traced whole": self.count("compiled_as", "whole"),
            "fell back": self.count("compiled_as", "fallback"),
            "not compiled": self.count("compiled_as", "not compiled"),
            "mismatches": self.count("verdict", "mismatch"),
            "timeouts": self.count("verdict", "timeout"),
            "unstable": self.count("verdict", "unstable"),
            "status": self.status if self.status != "ok" else f"ok ({self.seconds:.0f} s)",
        }

    def problems(self) -> list[dict[str, Any]]:
        return [v for v in self.verdicts if v["verdict"] != "equal"]


def _describe(outcome: dict[str, Any]) -> str:
    text = " | ".join(outcome["details"]) or str(outcome["status"])
    if outcome["stdout"]:
        text += f" (stdout {outcome['stdout'][:200]!r})"
    return text


def _cell(text: str, limit: int = 300) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def table(reports: list[ModuleReport]) -> str:
    """The per-module table with a total row, in markdown."""
    rows = [r.row() for r in reports]
    total: dict[str, Any] = {c: sum(r[c] for r in rows) for c in COLUMNS[1:-1]}
    total |= {"module": "**total**", "status": ""}
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(str(r[c]) for c in COLUMNS) + " |" for r in [*rows, total]]
    return "\n".join(lines)


def top_reasons(reports: list[ModuleReport], limit: int = 15) -> list[tuple[str, int]]:
    """The most common first fallback reasons, with the file:line prefix dropped."""
    counter: collections.Counter[str] = collections.Counter()
    for report in reports:
        for verdict in report.verdicts:
            if verdict["compiled_as"] == "fallback" and verdict["fallback_reasons"]:
                reason = verdict["fallback_reasons"][0]
                counter[reason.split(": ", 1)[-1]] += 1
    return counter.most_common(limit)


def left_out(reports: list[ModuleReport]) -> list[str]:
    """The lines saying which tests of the run's modules are not run, and which modules were
    tried and left out of the default list, with the reasons (exclusions.py)."""
    ran = {f"test.{r.module}." for r in reports} | {f"{r.module}." for r in reports}
    tests = [(t, why) for t, why in EXCLUDED_TESTS.items() if any(t.startswith(m) for m in ran)]
    lines = [f"### Left out ({len(tests)} tests; modules not in the default list)", ""]
    lines += [f"- {test}: {why}" for test, why in tests]
    lines += [f"- module {module}: {why}" for module, why in LEFT_OUT_MODULES.items()]
    return [*lines, ""]


def markdown(reports: list[ModuleReport]) -> str:
    """The whole report: the table, every test whose verdict is not `equal`, the top reasons
    for falling back."""
    parts = ["## Conformance: CPython's tests, eager vs compiled", "", table(reports), ""]
    problems = [(r.module, v) for r in reports for v in r.problems()]
    parts.append(f"### Not equal ({len(problems)})")
    parts.append("")
    if problems:
        parts.append("| test | verdict | eager | compiled |")
        parts.append("|---|---|---|---|")
        for _, v in problems:
            eager, compiled = _describe(v["eager"]), _describe(v["compiled"])
            cells = [v["test"], v["verdict"], _cell(eager), _cell(compiled)]
            parts.append("| " + " | ".join(cells) + " |")
    else:
        parts.append("None.")
    parts += ["", *left_out(reports)]
    parts += ["### Why tests fell back (first reason, most common)", ""]
    parts += [f"- {count} x {_cell(reason, 200)}" for reason, count in top_reasons(reports)]
    return "\n".join(parts) + "\n"


def as_json(reports: list[ModuleReport]) -> str:
    data = {
        "modules": [
            {**r.row(), "seconds": round(r.seconds, 1), "verdicts": r.verdicts} for r in reports
        ],
        "top_fallback_reasons": top_reasons(reports),
    }
    return json.dumps(data, indent=1)
