"""The shared text views: wrapping to 80 columns and when colour is used."""

from __future__ import annotations

import io

import pytest

from tracer.cli import Style, wrap


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_short_lines_are_kept() -> None:
    assert wrap("  short") == ["  short"]


def test_guard_tree_lines_continue_under_their_prefix() -> None:
    line = "| | +- TENSOR_MATCH: " + "x and " * 20 + "end"
    wrapped = wrap(line)
    assert all(len(w) <= 80 for w in wrapped)
    assert wrapped[0].startswith("| | +- TENSOR_MATCH:")
    assert all(w.startswith("| |    ") for w in wrapped[1:])
    words = " ".join(wrapped).replace("+-", "").replace("|", "").split()
    assert words == line.replace("+-", "").replace("|", "").split()


def test_colour_only_on_a_tty_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style.for_stream(FakeTty()).enabled
    assert not Style.for_stream(io.StringIO()).enabled
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(FakeTty()).enabled


def test_plain_style_adds_no_escapes() -> None:
    assert Style(False).title("x") == "x"
    assert Style(True).title("x").startswith("\x1b[")
