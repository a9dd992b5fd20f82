"""`match` statements traced whole (before, every one fell back: "match statements
(MATCH_CLASS) are not supported"): class patterns on builtin and user classes, sequence and
mapping patterns, guards, and CPython's errors for bad class patterns. Each opcode is first
checked to appear in the function's bytecode; `check` compiles with fullgraph=True, so a break
fails the test."""

from __future__ import annotations

import dataclasses
import dis

import pytest

from tests.differential.helpers import check


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Plain:
    def __init__(self, a: int) -> None:
        self.a = a


class BadArgs:
    __match_args__ = ["a"]  # noqa: RUF012 (a list on purpose: CPython refuses it)


class NotStrings:
    __match_args__ = (1,)


class IntChild(int):
    pass


def number_kind(number):
    match number:
        case int(n) if n == 1:
            return "one"
        case int(n) if n > 0:
            return ("positive", n)
        case float(f):
            return ("float", f)
        case bool() | str():
            return "other"
        case _:
            return None


def points(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(x, 0):
            return ("x-axis", x)
        case Point(x=0, y=y):
            return ("y-axis", y)
        case Plain(a=a):
            return ("plain", a)
        case Plain(b=b):  # no attribute b: the pattern fails, no error
            return ("b", b)
        case _:
            return "elsewhere"


def sequences(s):
    match s:
        case []:
            return "empty"
        case [x]:
            return ("one", x)
        case [x, y, *rest]:
            return ("many", x, y, rest)
        case _:
            return "not a sequence"


def mappings(m):
    match m:
        case {"op": "add", "args": [a, b]}:
            return a + b
        case {"op": op, **rest}:
            return (op, rest)
        case {}:
            return "a mapping"
        case _:
            return "no"


def bad_pattern(kind):
    match 5:
        case kind(a, b):
            return a, b
    return None


def int_child(v):
    match v:
        case IntChild(n):
            return n
    return None


@pytest.mark.parametrize(
    ("fn", "opcodes"),
    [
        (number_kind, {"MATCH_CLASS"}),
        (points, {"MATCH_CLASS"}),
        (sequences, {"MATCH_SEQUENCE", "GET_LEN"}),
        (mappings, {"MATCH_MAPPING", "MATCH_KEYS", "GET_LEN"}),
    ],
)
def test_the_opcodes_appear(fn, opcodes) -> None:
    assert opcodes <= {i.opname for i in dis.get_instructions(fn)}


@pytest.mark.parametrize("value", [1, 7, -3, 2.5, True, "s", None, [1]])
def test_class_patterns_on_builtins(value) -> None:
    check(number_kind, value)


@pytest.mark.parametrize("value", [Point(0, 0), Point(3, 0), Point(0, 4), Point(1, 2), Plain(5), 3])
def test_class_patterns_on_user_classes(value) -> None:
    check(points, value)


@pytest.mark.parametrize("value", [[], [1], [1, 2, 3, 4], (5, 6), "ab", 3, {"a": 1}])
def test_sequence_patterns(value) -> None:
    check(sequences, value)


@pytest.mark.parametrize(
    "value",
    [
        {"op": "add", "args": [1, 2]},
        {"op": "mul", "args": [1, 2], "k": 3},
        {"x": 1},
        {},
        [1],
        "op",
    ],
)
def test_mapping_patterns(value) -> None:
    check(mappings, value)


@pytest.mark.parametrize("kind", [int, Point, BadArgs, NotStrings, 3])
def test_class_pattern_errors_are_cpythons(kind) -> None:
    check(bad_pattern, kind)


@pytest.mark.parametrize("value", [IntChild(4), 4])
def test_a_builtin_subclass_matches_itself(value) -> None:
    check(int_child, value)
