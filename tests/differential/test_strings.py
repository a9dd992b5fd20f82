"""Strings and methods of immutable builtin values: split, upper, join, bit_length, is_integer,
tuple.count/index, f-strings with format specs and !r/!s, concatenation."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_floats, small_ints, tensors, words


def string_methods(s):
    return (
        "a,b".split(","),  # noqa: SIM905
        s.split(","),
        s.upper(),
        s.lower(),
        s.strip(),
        s.replace("a", "A"),
        s.startswith("a"),
        s.endswith(("x", "c")),
        s.find("b"),
        s.count("a"),
        "-".join(s.split()),
        s.isdigit(),
        s.title(),
        len(s),
        s[::-1],
        s[1:3],
        "b" in s,
    )


def number_methods(n, p):
    return (
        n.bit_length(),
        (1.5).is_integer(),
        p.is_integer(),
        abs(n).bit_length(),
        (n * 1.0).is_integer(),
        p.hex() if False else p.as_integer_ratio(),
        n.to_bytes(2, "little", signed=True),
    )


def tuple_methods(t, v):
    return t.count(v), t.index(t[0]) if t else -1, (1, 2, 1).count(1), v in t, t + (v,), t * 2


def fstrings(n, p, s):
    return (
        f"{n}",
        f"{n:03d}",
        f"{n:+}",
        f"{p:.2f}",
        f"{p:8.3e}",
        f"{s!r}",
        f"{s!s}",
        f"{s:>6}",
        f"[{n}|{p:.1f}|{s}]",
        f"{n!r:>5}",
        f"{'lit'}{n * 2}",
        f"{n:x}-{n:b}",
    )


def fstring_of_tensor_metadata(x):
    return f"shape={tuple(x.shape)} dtype={x.dtype} ndim={x.ndim:02d}", f"{x.shape!r}"


def string_concatenation(s, n, x):
    prefix = "v" + str(n)
    name = prefix + "_" + s
    name += "!"
    label = "x" * 3 + name
    return label, x * len(name), "%s-%d" % (s, n)  # noqa: UP031


def join_reversed(s):
    return "".join(reversed(s)), "-".join(reversed(s.split(",")))


@FAST
@given(s=words)
def test_string_methods(s):
    check(string_methods, s)


@FAST
@given(n=small_ints, p=small_floats)
def test_number_methods(n, p):
    check(number_methods, n, p)


@FAST
@given(t=st.lists(small_ints, max_size=5).map(tuple), v=small_ints)
def test_tuple_methods(t, v):
    check(tuple_methods, t, v)


@FAST
@given(n=small_ints, p=small_floats, s=words)
def test_fstrings(n, p, s):
    check(fstrings, n, p, s)


@FAST
@given(x=tensors())
def test_fstring_of_tensor_metadata(x):
    check(fstring_of_tensor_metadata, x)


@FAST
@given(s=words, n=small_ints, x=tensors())
def test_string_concatenation(s, n, x):
    check(string_concatenation, s, n, x)


@FAST
@given(s=words)
def test_join_reversed(s):
    check(join_reversed, s)
