"""README.md names every public entry point (each name `tracer/__init__.py` exports, each
command and flag of `python -m tracer`) in its list of entry points, once there, and repeats
no paragraph."""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

import tracer
from tracer.cli import build_parser

README = Path(__file__).resolve().parent.parent / "README.md"


def entry_point_list() -> str:
    text = README.read_text()
    start = text.index("Every public entry point, once")
    return text[start : text.index("```sh", start)]


def test_every_exported_name_is_in_the_entry_point_list() -> None:
    listed = entry_point_list()
    missing = [
        name
        for name in tracer.__all__
        if not re.search(rf"`(tracer\.)?{re.escape(name)}[`(.\[]", listed)
    ]
    assert missing == []


def test_each_function_is_described_once_in_the_list() -> None:
    named = re.findall(r"`tracer\.(\w+)\(", entry_point_list())
    repeated = [name for name, n in collections.Counter(named).items() if n > 1]
    assert repeated == []


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    [subparsers] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subparsers.choices)


def test_every_command_and_flag_is_in_the_entry_point_list() -> None:
    listed = entry_point_list()
    missing = []
    for name, command in _commands().items():
        if f"`{name} " not in listed:
            missing.append(name)
        for action in command._actions:
            flags = [f for f in action.option_strings if f not in ("-h", "--help")]
            missing += [f"{name} {f}" for f in flags if not re.search(rf"{f}\b", listed)]
            if action.choices and not action.option_strings:
                missing += [f"{name} {c}" for c in action.choices if c not in listed]
    assert missing == []


def test_no_paragraph_is_repeated() -> None:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", README.read_text()) if p.strip()]
    repeated = [p[:80] for p, n in collections.Counter(paragraphs).items() if n > 1]
    assert repeated == []
