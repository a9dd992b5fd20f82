"""The corpus report: a row per source (calls, traced whole, with breaks, fell back, mismatches,
internal errors), the most frequent reasons for not tracing whole, and every mismatch.

A case's reason is its first break or fallback reason with the location (`file.py:12 in f: `)
taken off, so calls that stop at the same construct in different places count together.
"""

from __future__ import annotations

import collections
import json
import re
from typing import Any

from tracer.testing.corpus.case import CaseResult

COLUMNS = (
    "source",
    "calls",
    "equal",
    "traced whole",
    "with breaks",
    "fell back",
    "mismatches",
    "internal errors",
    "timeouts",
    "eager errors",
)

_LOCATION = re.compile(r"^(?:\S*?\.py|<frozen [\w.]+>):\d+(?: in [^:]+)?: ")
LOCATED = re.compile(r"(?:\S+\.py|<frozen [\w.]+>):\d+")
"""What a reason must contain: the user's file and line."""


def reason_kind(reason: str) -> str:
    """The reason without its location prefix, cut at 160 characters; '' stays ''."""
    return _LOCATION.sub("", reason, count=1)[:160]


def row(source: str, results: list[CaseResult]) -> dict[str, Any]:
    def count(key: str, value: str) -> int:
        return sum(1 for r in results if getattr(r, key) == value)

    return {
        "source": source,
        "calls": len(results),
        "equal": count("verdict", "equal"),
        "traced whole": count("mode", "whole"),
        "with breaks": count("mode", "breaks"),
        "fell back": count("mode", "fallback"),
        "mismatches": count("verdict", "mismatch"),
        "internal errors": count("verdict", "internal error"),
        "timeouts": count("verdict", "timeout"),
        "eager errors": count("verdict", "eager error"),
    }


def rows(results: list[CaseResult]) -> list[dict[str, Any]]:
    by_source: dict[str, list[CaseResult]] = collections.defaultdict(list)
    for result in results:
        by_source[result.source].append(result)
    table = [row(source, found) for source, found in by_source.items()]
    return [*table, row("total", results)]


def top_reasons(results: list[CaseResult], n: int = 25) -> list[tuple[str, int]]:
    """The first reason of each call that did not trace whole, grouped, most frequent first."""
    counts = collections.Counter(
        reason_kind(r.reasons[0]) if r.reasons else "" for r in results if r.mode != "whole"
    )
    return counts.most_common(n)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def table(results: list[CaseResult]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows(results):
        cells = [str(r[c]) for c in COLUMNS]
        cells[2] = f"{r['equal']}"
        cells[3] = f"{r['traced whole']} ({_percent(r['traced whole'], r['calls'])})"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(results: list[CaseResult]) -> str:
    parts = [
        "# The corpus of real code: eager vs compiled",
        "",
        "Written by `make corpus` (`python -m tests.corpus`); the cases are in `tests/corpus/`.",
        "",
        table(results),
        "",
        "## Why calls did not trace whole (first reason per call)",
        "",
        "| calls | reason |",
        "|---|---|",
        *(f"| {n} | {kind or '(empty reason)'} |" for kind, n in top_reasons(results)),
    ]
    bad = [r for r in results if r.verdict not in ("equal",)]
    if bad:
        parts += ["", "## Mismatches, internal errors, timeouts and eager errors", ""]
        parts += [f"- `{r.source}:{r.module}` `{r.call}`: {r.verdict}: {r.detail}" for r in bad]
    return "\n".join(parts) + "\n"


def as_json(results: list[CaseResult]) -> str:
    return json.dumps(
        {"rows": rows(results), "cases": [r.to_json() for r in results]}, indent=1, default=str
    )
