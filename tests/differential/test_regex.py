"""Regular expressions: `re` functions, compiled patterns and matches are computed by CPython
on constant arguments (variables/regex.py), so code that parses text with them traces whole.
Before, a pattern method was "descriptor attribute Pattern.sub" and `re.compile` went through
`re._compile`'s cache, "a dict with non-constant keys": both fell back (the corpus's textwrap,
shlex and TheAlgorithms string cases)."""

from __future__ import annotations

import dis
import json.decoder
import re
import textwrap

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior

PAIR = re.compile(r"(?P<left>\w+)-(?P<right>\w+)")


def parse(s):
    m = PAIR.search(s)
    if m is None:
        return None
    return (
        m.group(1),
        m["right"],
        m.groupdict(),
        m.span(),
        m.start(2),
        m.lastgroup,
        m.re.pattern,
        PAIR.sub(r"\g<right>-\g<left>", s),
        PAIR.subn("<>", s),
    )


def module_functions(s):
    return (
        re.split(r",\s*", s),
        re.findall(r"[0-9]+", s),
        re.sub("[aeiou]", "_", s, count=2),
        re.fullmatch(r"[\w, ]*", s) is not None,
        re.match("A", s, re.IGNORECASE) is not None,
        re.escape(s),
        re.compile(r"\d").groups,
    )


def bad_pattern(s):
    return re.compile(s)


def replace_with_function(s):
    return PAIR.sub(lambda m: m.group(2), s)


def iterate(s):
    return [m.group(0) for m in PAIR.finditer(s)]


def scan(s, _m=PAIR.match):
    m = _m(s)
    return m and m.groups()


def uses_regex_ops() -> set[str]:
    return {i.argval for f in (parse, module_functions) for i in dis.get_instructions(f)}


def test_the_functions_call_regex_methods() -> None:
    assert {"search", "group", "sub", "split", "findall", "compile"} <= uses_regex_ops()


@pytest.mark.parametrize(
    ("fn", "arg"),
    [
        (parse, "x ab-cd y"),
        (parse, "nothing here"),
        (module_functions, "a1, b22,c333 and 4"),
        (module_functions, "A"),
        (bad_pattern, "("),
        (bad_pattern, "a+"),
        (scan, "ab-cd"),
        (scan, "-"),
        (json.decoder.py_scanstring, ('"abc\\n\\u00e9" rest', 1)),
        (textwrap.wrap, "The quick brown fox jumps over the lazy dog."),
        (textwrap.dedent, "    hello\n      world\n"),
    ],
)
def test_regex_code_traces_whole(fn, arg) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, arg)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)


@pytest.mark.parametrize("fn", [replace_with_function, iterate])
def test_user_callbacks_and_iterators_still_behave(fn) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, "ab-cd ef-gh")
    reasons = counter.graph_break_reasons + [r.fail_reason or "" for r in counter.records]
    assert any("regex" in r or "finditer" in r or "Pattern" in r for r in reasons), reasons


def test_a_rebound_pattern_global_recompiles() -> None:
    global PAIR
    compiled = tracer.compile(parse)
    assert compiled("ab-cd")[0] == "ab"
    saved, PAIR = PAIR, re.compile(r"(?P<left>\d+)-(?P<right>\d+)")
    try:
        assert compiled("ab-cd 1-2")[0] == "1"
    finally:
        PAIR = saved
