"""Regular expressions: `re` functions, compiled patterns and matches are computed by CPython
on constant arguments (variables/regex.py), so code that parses text with them traces whole.
Before, a pattern method was "descriptor attribute Pattern.sub" and `re.compile` went through
`re._compile`'s cache, "a dict with non-constant keys": both fell back (the corpus's textwrap,
shlex and TheAlgorithms string cases)."""

from __future__ import annotations

import dis
import html
import json.decoder
import json.encoder
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


@pytest.mark.parametrize("fn", [iterate])
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


def upper_vowels(s):
    return re.sub("[aeiou]", lambda m: m.group(0).upper(), s), PAIR.subn(lambda m: None, s)


def with_count_and_empty_matches(s):
    seen = []

    def repl(m):
        seen.append(m.span())
        return "<" + m.group(0) + ">"

    return (
        re.sub("x*", repl, s),
        re.subn("a", repl, s, count=2),
        re.sub("a", repl, s, count=-1),
        seen,
    )


def wrong_result(s):
    return re.sub("a", lambda m: 1, s)


def wrong_bytes_result(s):
    return re.sub(b"a", lambda m: "a", s)


def html_unescape(s):
    return html.unescape(s)  # its replacement function reads a set global: a break for now


@pytest.mark.parametrize(
    ("fn", "arg"),
    [
        (upper_vowels, "banana ab-cd"),
        (with_count_and_empty_matches, "axbxxa"),
        (with_count_and_empty_matches, ""),
        (wrong_result, "xab"),
        (wrong_bytes_result, b"xab"),
        (json.encoder.py_encode_basestring_ascii, 'caf\u00e9 "q" \u2603\n'),
        (json.encoder.py_encode_basestring, 'caf\u00e9 "q"\n'),
    ],
)
def test_sub_with_a_function_traces_whole(fn, arg) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, arg)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)


def test_html_unescape_behaves() -> None:
    assert_same_behavior(html_unescape, "&lt;p&gt; caf&eacute; &#39;x&#x27; &notanentity;")
