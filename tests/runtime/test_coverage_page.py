"""notes/runtime-coverage.md is what the op tables generate, and the README links it."""

from __future__ import annotations

from pathlib import Path

from tracer.runtime import coverage

ROOT = Path(__file__).resolve().parents[2]


def test_coverage_page_is_current() -> None:
    assert coverage.PAGE.read_text() == coverage.render(), (
        "regenerate it: python -m tracer.runtime.coverage"
    )


def test_coverage_page_lists_the_model_code_ops() -> None:
    page = coverage.render()
    for name in ("`softmax`", "`add_`", "`Linear`", "`layer_norm`", "`_version`", "`no_grad`"):
        assert name in page


def test_readme_links_the_coverage_page() -> None:
    assert "notes/runtime-coverage.md" in (ROOT / "README.md").read_text()
