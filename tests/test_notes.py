"""The notes stay true: the unsupported list matches the translator, file names they cite exist,
the sample output pasted in how-a-trace-works.md is still what the sample produces, and the
notes stand alone (no file outside the repository, invariants cited from notes/design.md)."""

from __future__ import annotations

import dis
import re
from pathlib import Path

import pytest

from tracer.translator.base import EXPLICITLY_UNSUPPORTED

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "notes"
OWN_NOTES = (
    "design.md",
    "design-decisions.md",
    "testing.md",
    "how-a-trace-works.md",
    "adding-an-opcode.md",
    "adding-a-variable-tracker.md",
    "side-effects.md",
    "metrics-and-events.md",
    "graph-breaks.md",
    "unsupported.md",
    "resume-functions.md",
    "fused-backend.md",
    "graph-cache.md",
    "debugging.md",
    "python-versions.md",
)
TABLE_ROW = re.compile(r"^\|\s*`([A-Z_]+)`\s*\|\s*(.+?)\s*\|\s*$", re.MULTILINE)


def _unsupported_table() -> dict[str, str]:
    text = (NOTES / "unsupported.md").read_text()
    section = text.split("## Opcodes without a handler", 1)[1].split("\n## ", 1)[0]
    rows = TABLE_ROW.findall(section)
    table = dict(rows)
    assert len(table) == len(rows), "an opcode is listed twice"
    return table


def test_unsupported_md_lists_exactly_the_explicitly_unsupported_opcodes() -> None:
    table = _unsupported_table()
    missing = {op: c for op, c in EXPLICITLY_UNSUPPORTED.items() if op not in table}
    extra = sorted(set(table) - set(EXPLICITLY_UNSUPPORTED))
    assert missing == {}, f"add these rows to notes/unsupported.md: {missing}"
    assert extra == [], f"these have handlers now; delete their rows: {extra}"
    wrong = {op: (table[op], c) for op, c in EXPLICITLY_UNSUPPORTED.items() if table[op] != c}
    assert wrong == {}, "construct differs (notes, code)"


def test_unsupported_md_names_no_other_opcode() -> None:
    text = (NOTES / "unsupported.md").read_text()
    named = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", text)) & set(dis.opmap)
    assert sorted(named - set(EXPLICITLY_UNSUPPORTED)) == []


@pytest.mark.parametrize("note", OWN_NOTES)
def test_files_cited_in_notes_exist(note: str) -> None:
    text = (NOTES / note).read_text()
    known = {p.name for p in ROOT.rglob("*.py") if ".venv" not in p.parts}
    missing = []
    for cited in re.findall(r"`([\w/.]+\.(?:py|md))`", text):
        if "/" in cited:
            exists = (ROOT / cited).exists()
        else:
            exists = cited in known or (NOTES / cited).exists()
        if not exists:
            missing.append(cited)
    assert missing == []


def test_pasted_sample_graph_is_current() -> None:
    import tracer
    from samples import SAMPLES

    [sample] = [s for s in SAMPLES if s.name == "global counter"]
    text = (NOTES / "how-a-trace-works.md").read_text()
    explanation = tracer.trace(sample.fn)(*sample.inputs())
    assert explanation.graph is not None
    pasted = "\n".join("  " + line for line in explanation.graph.code.strip().splitlines())
    assert pasted in text, f"update the pasted demo output; the graph is now:\n{pasted}"


def _readable_docs() -> list[Path]:
    return [*sorted(NOTES.glob("*.md")), ROOT / "README.md", ROOT / "benchmarks" / "README.md"]


@pytest.mark.parametrize("doc", _readable_docs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_cite_nothing_outside_the_repository(doc: Path) -> None:
    text = doc.read_text()
    outside = re.findall(r"\.\./shared|DESIGN(?:\.md| invariant)", text)
    assert outside == [], "cite notes/design.md and its numbered invariants instead"


def test_cited_invariants_exist() -> None:
    design = (NOTES / "design.md").read_text()
    section = design.split("## Invariants", 1)[1].split("\n## ", 1)[0]
    numbered = {int(n) for n in re.findall(r"^(\d+)\. ", section, re.MULTILINE)}
    assert numbered == set(range(1, len(numbered) + 1)) and len(numbered) >= 8
    for doc in _readable_docs():
        cited = {int(n) for n in re.findall(r"invariant (\d+) of `design\.md`", doc.read_text())}
        assert cited <= numbered, f"{doc.name} cites an invariant design.md does not have"
