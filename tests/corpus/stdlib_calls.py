"""Calls of pure-Python functions of the standard library, imported from the standard library,
with arguments like those of CPython's own tests of each module (`Lib/test/test_<module>.py`).

Each row is (module, function name, args) or (module, function name, args, kwargs); a name
with a dot is an attribute path inside the module (`JSONEncoder.encode` is called with the
instance first).
"""

from __future__ import annotations

import _pydecimal
import base64
import calendar
import colorsys
import difflib
import fnmatch
import fractions
import graphlib
import heapq
import html
import json.decoder
import json.encoder
import ntpath
import posixpath
import pprint
import shlex
import statistics
import string
import textwrap
from typing import Any

_ENCODER = json.encoder.JSONEncoder(sort_keys=True)

CALLS: list[tuple[Any, ...]] = [
    # heapq: the Python functions (heapq's C accelerator replaces some; these are the pure ones)
    (heapq, "_siftdown", ([1, 3, 5, 7, 0], 0, 4)),
    (heapq, "_siftup", ([9, 1, 2, 3, 4, 5], 0)),
    (heapq, "_siftdown_max", ([9, 7, 5, 3, 10], 0, 4)),
    (heapq, "_siftup_max", ([1, 9, 8, 7, 6], 0)),
    (heapq, "nsmallest", (3, [5, 1, 4, 2, 8, 7])),
    (heapq, "nsmallest", (1, [5, 1, 4, 2, 8, 7])),
    (heapq, "nsmallest", (2, [5, 1, 4]), {"key": abs}),
    (heapq, "nlargest", (3, [5, 1, 4, 2, 8, 7])),
    (heapq, "nlargest", (1, [5, 1, 4, 2, 8, 7])),
    (heapq, "nlargest", (2, [-5, 1, 4]), {"key": abs}),
    (heapq, "nlargest", (10, [3, 1, 2])),
    # textwrap
    (textwrap, "wrap", ("The quick brown fox jumps over the lazy dog.", 12)),
    (textwrap, "fill", ("Hello there, how are you this fine day?  I'm glad to hear it!", 20)),
    (textwrap, "shorten", ("Hello  world!", 12)),
    (textwrap, "dedent", ("    hello\n      world\n",)),
    (textwrap, "dedent", ("  a\n\n  b\n",)),
    (textwrap, "indent", ("hello\n\nworld\n", "  ")),
    (textwrap, "indent", ("hi\nthere", "> ")),
    # colorsys
    (colorsys, "rgb_to_hsv", (0.2, 0.4, 0.4)),
    (colorsys, "hsv_to_rgb", (0.5, 0.5, 0.4)),
    (colorsys, "rgb_to_hls", (1.0, 0.0, 0.0)),
    (colorsys, "hls_to_rgb", (0.0, 0.5, 1.0)),
    (colorsys, "rgb_to_yiq", (0.5, 0.25, 0.75)),
    (colorsys, "yiq_to_rgb", (0.3, 0.1, -0.1)),
    (colorsys, "hsv_to_rgb", (0.0, 0.0, 0.7)),
    (colorsys, "rgb_to_hls", (0.3, 0.3, 0.3)),
    # fnmatch
    (fnmatch, "fnmatch", ("abc", "a?c")),
    (fnmatch, "fnmatchcase", ("abc", "*c")),
    (fnmatch, "filter", (["a.py", "b.txt", "c.py"], "*.py")),
    (fnmatch, "translate", ("*.py",)),
    (fnmatch, "translate", ("[!a-c]?x*",)),
    # posixpath / ntpath
    (posixpath, "join", ("/usr", "lib", "python3")),
    (posixpath, "split", ("/usr/lib/python3",)),
    (posixpath, "splitext", ("archive.tar.gz",)),
    (posixpath, "basename", ("/usr/lib/",)),
    (posixpath, "dirname", ("/usr/lib/python3",)),
    (posixpath, "normpath", ("/usr//lib/../bin/./python",)),
    (posixpath, "isabs", ("/usr",)),
    (posixpath, "commonprefix", (["/usr/lib", "/usr/local", "/usr/lib64"],)),
    (posixpath, "commonpath", (["/usr/lib", "/usr/local"],)),
    (posixpath, "relpath", ("/usr/lib/python3", "/usr/local")),
    (ntpath, "splitdrive", ("c:\\foo\\bar",)),
    (ntpath, "join", ("c:", "foo", "bar")),
    (ntpath, "normpath", ("A//B/./C/../D",)),
    # shlex
    (shlex, "split", ("a 'b c' \"d e\" f\\ g",)),
    (shlex, "quote", ("it's here",)),
    (shlex, "join", (["ls", "-l", "my file"],)),
    # string
    (string, "capwords", ("hello  wonderful world",)),
    (string, "capwords", ("a-b-c", "-")),
    (
        string.Template,
        "substitute",
        (string.Template("$who likes $what"),),
        {"who": "tim", "what": "ham"},
    ),
    (string.Template, "safe_substitute", (string.Template("$who likes $what"),), {"who": "tim"}),
    (string.Formatter, "format", (string.Formatter(), "{0}-{x}", 1), {"x": 2}),
    (string.Formatter, "vformat", (string.Formatter(), "{a!r:>6}", (), {"a": "b"})),
    # statistics
    (statistics, "mean", ([1, 2, 3, 4, 4],)),
    (statistics, "mean", ([1.5, 2.5, 3.25],)),
    (statistics, "fmean", ([3.5, 4.0, 5.25],)),
    (statistics, "median", ([1, 3, 5, 7],)),
    (statistics, "median_low", ([1, 3, 5, 7],)),
    (statistics, "median_high", ([1, 3, 5, 7],)),
    (statistics, "median_grouped", ([52, 52, 53, 54],)),
    (statistics, "mode", ([1, 1, 2, 3, 3, 3, 3, 4],)),
    (statistics, "multimode", ("aabbbbccddddeeffffgg",)),
    (statistics, "variance", ([2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5],)),
    (statistics, "pvariance", ([0.0, 0.25, 0.25, 1.25, 1.5, 1.75, 2.75, 3.25],)),
    (statistics, "stdev", ([1.5, 2.5, 2.5, 2.75, 3.25, 4.75],)),
    (statistics, "pstdev", ([1.5, 2.5, 2.5, 2.75, 3.25, 4.75],)),
    (statistics, "geometric_mean", ([54, 24, 36],)),
    (statistics, "harmonic_mean", ([40, 60],)),
    (statistics, "quantiles", ([105, 129, 87, 86, 111, 111, 89, 81, 108, 92],)),
    (statistics, "correlation", ([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])),
    (statistics, "covariance", ([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])),
    (statistics, "linear_regression", ([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])),
    (statistics, "mean", ([],)),
    (statistics, "_sum", ([3, 2.25, 4.5, -0.5, 0.25],)),
    # fractions
    (fractions.Fraction, "__new__", (fractions.Fraction, 3, 4)),
    (fractions.Fraction, "__new__", (fractions.Fraction, "3/4")),
    (fractions.Fraction, "__new__", (fractions.Fraction, 1, 0)),
    (fractions.Fraction, "limit_denominator", (fractions.Fraction(3141592653589793, 10**15), 100)),
    (fractions.Fraction, "__add__", (fractions.Fraction(1, 3), fractions.Fraction(1, 6))),
    (fractions.Fraction, "__mul__", (fractions.Fraction(2, 3), 3)),
    (fractions.Fraction, "__floordiv__", (fractions.Fraction(7, 2), 1)),
    (fractions.Fraction, "__repr__", (fractions.Fraction(5, 7),)),
    (fractions.Fraction, "as_integer_ratio", (fractions.Fraction(6, 4),)),
    (fractions.Fraction, "__round__", (fractions.Fraction(7, 2),)),
    (fractions.Fraction, "__lt__", (fractions.Fraction(1, 2), 0.6)),
    # difflib
    (difflib, "get_close_matches", ("appel", ["ape", "apple", "peach", "puppy"])),
    (difflib.SequenceMatcher, "ratio", (difflib.SequenceMatcher(None, "abcd", "bcde"),)),
    (
        difflib.SequenceMatcher,
        "get_matching_blocks",
        (difflib.SequenceMatcher(None, "abxcd", "abcd"),),
    ),
    (difflib.SequenceMatcher, "get_opcodes", (difflib.SequenceMatcher(None, "qabxcd", "abycdf"),)),
    (
        difflib.SequenceMatcher,
        "find_longest_match",
        (difflib.SequenceMatcher(None, " abcd", "abcd abcd"), 0, 5, 0, 9),
    ),
    # graphlib
    (graphlib.TopologicalSorter, "prepare", (graphlib.TopologicalSorter({2: {1}, 3: {2}}),)),
    (graphlib.TopologicalSorter, "add", (graphlib.TopologicalSorter(), "x", "y", "z")),
    # calendar
    (calendar, "isleap", (2000,)),
    (calendar, "isleap", (1900,)),
    (calendar, "leapdays", (1900, 2024)),
    (calendar, "weekday", (2024, 2, 29)),
    (calendar, "monthrange", (2023, 2)),
    (calendar, "_monthlen", (2024, 2)),
    (calendar, "_prevmonth", (2024, 1)),
    (calendar, "_nextmonth", (2024, 12)),
    (calendar.Calendar, "monthdays2calendar", (calendar.Calendar(), 2024, 2)),
    (calendar.TextCalendar, "formatweekday", (calendar.TextCalendar(), 0, 3)),
    (calendar.TextCalendar, "formatmonth", (calendar.TextCalendar(), 2024, 2)),
    (calendar.HTMLCalendar, "formatweekheader", (calendar.HTMLCalendar(),)),
    # html
    (html, "escape", ("<a href=\"x\">'&'</a>",)),
    (html, "escape", ("<b>", False)),
    (html, "unescape", ("&lt;p&gt; &amp;amp; &#39;x&#x27; &notanentity;",)),
    # json: the pure-Python encoder and decoder
    (json.encoder, "py_encode_basestring", ('caf\u00e9 "q"\n',)),
    (json.encoder, "py_encode_basestring_ascii", ("caf\u00e9 \u2603\n",)),
    (json.encoder.JSONEncoder, "encode", (_ENCODER, {"b": [1, 2.5, None, True], "a": "x"})),
    (json.encoder.JSONEncoder, "encode", (_ENCODER, [1, [2, [3, {}]], "s"])),
    (json.decoder, "py_scanstring", ('"abc\\n\\u00e9" rest', 1)),
    (json.decoder, "py_scanstring", ('"unterminated', 1)),
    (json.decoder, "py_scanstring", ('"tab\tinside"', 1, False)),
    # _pydecimal
    (_pydecimal.Decimal, "__new__", (_pydecimal.Decimal, "3.14")),
    (_pydecimal.Decimal, "__add__", (_pydecimal.Decimal("1.1"), _pydecimal.Decimal("2.2"))),
    (_pydecimal.Decimal, "__str__", (_pydecimal.Decimal("-1.50E+3"),)),
    (_pydecimal.Decimal, "quantize", (_pydecimal.Decimal("7.325"), _pydecimal.Decimal(".01"))),
    (_pydecimal.Decimal, "sqrt", (_pydecimal.Decimal(2),)),
    (_pydecimal.Decimal, "to_integral_value", (_pydecimal.Decimal("2.5"),)),
    (_pydecimal.Decimal, "as_tuple", (_pydecimal.Decimal("-12.34"),)),
    (_pydecimal.Decimal, "__lt__", (_pydecimal.Decimal("1.5"), 2)),
    (
        _pydecimal,
        "_normalize",
        (
            _pydecimal._WorkRep(_pydecimal.Decimal(12)),
            _pydecimal._WorkRep(_pydecimal.Decimal("0.5")),
            5,
        ),
    ),
    (_pydecimal, "_sqrt_nearest", (1000000, 1)),
    (_pydecimal, "_div_nearest", (17, 5)),
    (_pydecimal, "_dexp", (5, 1, 0)),
    (_pydecimal, "_ilog", (12345, 0, 3)),
    # base64: the pure-Python parts
    (base64, "b32encode", (b"abcdef",)),
    (base64, "b32decode", (b"MFRGGZDFMY======",)),
    (base64, "b32hexencode", (b"hello",)),
    (base64, "b16encode", (b"\x01\xab",)),
    (base64, "b16decode", (b"01AB",)),
    (base64, "b85encode", (b"www.python.org",)),
    (base64, "a85encode", (b"www.python.org",)),
    (base64, "a85decode", (b"GB\\6`E-ZP=Df.1GEb>",)),
    (base64, "b64encode", (b"data", b"-_")),
    (base64, "_bytes_from_decode_data", ("abc",)),
    # pprint
    (pprint, "pformat", ({"b": [1, 2, 3] * 10, "a": ("x", {"y": None})},)),
    (pprint, "pformat", (list(range(40)),), {"width": 30}),
    (pprint, "pprint", ([[1, 2], {"k": "v"}],)),
    (pprint, "saferepr", ({"z": 1, "a": [2, 3]},)),
    (pprint, "isreadable", ([1, "a", (2.5,)],)),
    (pprint, "isrecursive", ([1, 2],)),
]
