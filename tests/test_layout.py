"""The team's size budget: no file in the core packages passes 800 lines."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 800


def test_no_core_file_over_800_lines() -> None:
    too_big = {
        str(path.relative_to(ROOT)): n
        for package in ("tracer", "guards", "variables")
        for path in (ROOT / package).rglob("*.py")
        if (n := len(path.read_text().splitlines())) > LIMIT
    }
    assert not too_big, f"split these by concept: {too_big}"


def test_layout_check_sees_files() -> None:
    """Guard against the check above passing because it found nothing."""
    assert list((ROOT / "tracer").rglob("*.py"))
