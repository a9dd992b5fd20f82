"""Builtins and container methods called with arguments CPython refuses (wrong count, wrong
keyword, wrong type, wrong value) raise CPython's own exception in compiled code, never
InternalError; and odd calls CPython accepts give CPython's result (issue 20 cases 8 and 10,
and "no InternalError for any exception that plain Python raises in the same place").

Each entry is one line run eagerly and compiled (`assert_same_behavior`: same value or same
exception type and message, same arguments afterwards). Most trace whole (fullgraph); the few
in FALLS_BACK are frames the tracer hands to Python on purpose (the reason is the point).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tracer.testing import assert_same_behavior

Args = tuple[list[int], dict[str, int], str, tuple[int, ...], int]


def _slice_assign(xs: list[int]) -> list[int]:
    xs[::2] = [1]
    return xs


def _setitem(xs: list[int], index: Any) -> list[int]:
    xs[index] = 0
    return xs


def _delitem(xs: list[int], index: Any) -> list[int]:
    del xs[index]
    return xs


def _unpack_two(value: Any) -> Any:
    a, b = value
    return a, b


def _unpack_star(value: Any) -> Any:
    a, *b, c = value
    return a, b, c


def _update(d: dict[str, int], *args: Any, **kwargs: Any) -> dict[str, int]:
    d.update(*args, **kwargs)
    return d


CALLS: dict[str, Callable[[list[int], dict[str, int], str, tuple[int, ...], int], Any]] = {
    # builtins
    "sorted with a positional key": lambda xs, d, s, t, n: sorted(xs, None),
    "sorted of incomparable items": lambda xs, d, s, t, n: sorted([3, "a"]),
    "sorted with a key returning None": lambda xs, d, s, t, n: sorted(xs, key=lambda v: None),
    "sorted with reverse=None": lambda xs, d, s, t, n: sorted(xs, reverse=None),
    "sorted with reverse=1": lambda xs, d, s, t, n: sorted(xs, reverse=1),
    "sorted with an unknown keyword": lambda xs, d, s, t, n: sorted(xs, cmp=None),
    "sum of strings": lambda xs, d, s, t, n: sum(["a", "b"], ""),
    "sum with a keyword start": lambda xs, d, s, t, n: sum(xs, start=n),
    "sum with no arguments": lambda xs, d, s, t, n: sum(),
    "max with default and two args": lambda xs, d, s, t, n: max(n, 2, default=0),
    "min of nothing": lambda xs, d, s, t, n: min([]),
    "str of bytes with an encoding": lambda xs, d, s, t, n: str(b"ab", "ascii"),
    "str with keywords": lambda xs, d, s, t, n: str(object=b"ab", encoding="ascii"),
    "int with a base": lambda xs, d, s, t, n: int("ff", 16),
    "int of a bad literal": lambda xs, d, s, t, n: int("x1"),
    "int with a keyword x": lambda xs, d, s, t, n: int(x=3),
    "float with a keyword": lambda xs, d, s, t, n: float(x=1.0),
    "float of a bad string": lambda xs, d, s, t, n: float("one"),
    "type with two arguments": lambda xs, d, s, t, n: type("N", ()),
    "isinstance with an int": lambda xs, d, s, t, n: isinstance(xs, 5),
    "isinstance with a tuple holding an int": lambda xs, d, s, t, n: isinstance(n, (int, 5)),
    "isinstance of three arguments": lambda xs, d, s, t, n: isinstance(n, int, int),
    "len of two arguments": lambda xs, d, s, t, n: len(xs, xs),
    "len of an int": lambda xs, d, s, t, n: len(n),
    "abs of a string": lambda xs, d, s, t, n: abs(s),
    "bool with a keyword": lambda xs, d, s, t, n: bool(x=1),
    "list with a keyword": lambda xs, d, s, t, n: list(iterable=xs),
    "list of two arguments": lambda xs, d, s, t, n: list(xs, xs),
    "tuple of two arguments": lambda xs, d, s, t, n: tuple(xs, xs),
    "dict of two arguments": lambda xs, d, s, t, n: dict(d, d),
    "dict of a triple": lambda xs, d, s, t, n: dict([(1, 2, 3)]),
    "dict of a pair after a triple": lambda xs, d, s, t, n: dict([(1, 2), (3,)]),
    "dict of strings of two": lambda xs, d, s, t, n: dict(["ab", "cd"]),
    "getattr of a missing name": lambda xs, d, s, t, n: getattr(n, "foo"),  # noqa: B009
    "getattr with a default": lambda xs, d, s, t, n: getattr(n, "foo", 7),
    "an int's missing attribute": lambda xs, d, s, t, n: (3).foo,  # type: ignore[attr-defined]
    "a string's missing attribute": lambda xs, d, s, t, n: s.foo,  # type: ignore[attr-defined]
    "None's missing attribute": lambda xs, d, s, t, n: None.foo,  # type: ignore[attr-defined]
    "repeat a list by a float": lambda xs, d, s, t, n: xs * 2.0,  # type: ignore[operator]
    "repeat a tuple by a string": lambda xs, d, s, t, n: t * "a",  # type: ignore[operator]
    # list methods
    "list.index with a start": lambda xs, d, s, t, n: [1, 2, 3].index(2, 1),
    "list.index missing after the start": lambda xs, d, s, t, n: [1, 2, 3].index(1, 1),
    "list.index with a window": lambda xs, d, s, t, n: xs.index(3, -2, 3),
    "list.index with a None start": lambda xs, d, s, t, n: xs.index(1, None),
    "list.index with four arguments": lambda xs, d, s, t, n: xs.index(1, 0, 3, 4),
    "list.index of a missing item": lambda xs, d, s, t, n: xs.index(9),
    "list.count of two arguments": lambda xs, d, s, t, n: xs.count(1, 2),
    "list.insert at a float": lambda xs, d, s, t, n: list(xs).insert(1.0, 5),  # type: ignore
    "list.insert of one argument": lambda xs, d, s, t, n: list(xs).insert(1),  # type: ignore
    "list.pop at a string": lambda xs, d, s, t, n: list(xs).pop("a"),  # type: ignore
    "list.pop with a keyword": lambda xs, d, s, t, n: list(xs).pop(index=0),  # type: ignore
    "list.pop from an empty list": lambda xs, d, s, t, n: [].pop(),
    "list.pop out of range": lambda xs, d, s, t, n: list(xs).pop(7),
    "list.append of two": lambda xs, d, s, t, n: list(xs).append(1, 2),  # type: ignore
    "list.sort with a positional key": lambda xs, d, s, t, n: list(xs).sort(None),  # type: ignore
    "list.sort of incomparable items": lambda xs, d, s, t, n: [3, "a", 1].sort(),
    "list.remove of a missing item": lambda xs, d, s, t, n: list(xs).remove(9),
    "list.clear with an argument": lambda xs, d, s, t, n: list(xs).clear(1),  # type: ignore
    "a list slice of the wrong size": lambda xs, d, s, t, n: _slice_assign(list(xs)),
    "a list item at a float": lambda xs, d, s, t, n: _setitem(list(xs), 1.0),
    "a list item out of range": lambda xs, d, s, t, n: _setitem(list(xs), 9),
    "delete a list item at a string": lambda xs, d, s, t, n: _delitem(list(xs), "a"),
    "a list indexed by a string": lambda xs, d, s, t, n: xs["a"],  # type: ignore[call-overload]
    "a tuple index out of range": lambda xs, d, s, t, n: (1, 2)[5],  # noqa: PLE0643
    "tuple.index of a missing item": lambda xs, d, s, t, n: (1, 2).index(3),
    "tuple.count with a keyword": lambda xs, d, s, t, n: (1, 2).count(value=1),  # type: ignore
    # dict methods
    "dict.update with a triple": lambda xs, d, s, t, n: _update({}, [(1, 2, 3)]),
    "dict.update of two arguments": lambda xs, d, s, t, n: _update({}, {}, {}),
    "dict.update with keywords": lambda xs, d, s, t, n: _update({"a": 1}, b=2),
    "dict.get with a keyword": lambda xs, d, s, t, n: {"a": 1}.get(key="a"),  # type: ignore
    "dict.get of three arguments": lambda xs, d, s, t, n: {"a": 1}.get("a", 1, 2),  # type: ignore
    "dict.pop of a missing key": lambda xs, d, s, t, n: {"a": 1}.pop("b"),
    "dict.pop of no arguments": lambda xs, d, s, t, n: {"a": 1}.pop(),  # type: ignore
    "dict.keys with an argument": lambda xs, d, s, t, n: {"a": 1}.keys(1),  # type: ignore
    # str methods
    "str.split with a bad separator": lambda xs, d, s, t, n: s.split(1),  # type: ignore
    "str.join of ints": lambda xs, d, s, t, n: ",".join(xs),  # type: ignore[arg-type]
    "str.index of a missing substring": lambda xs, d, s, t, n: s.index("z"),
    "str.startswith of an int": lambda xs, d, s, t, n: s.startswith(1),  # type: ignore
    "str.replace of one argument": lambda xs, d, s, t, n: s.replace("a"),  # type: ignore
    # unpacking
    "unpack an int": lambda xs, d, s, t, n: _unpack_two(5),
    "unpack too many": lambda xs, d, s, t, n: _unpack_two(xs),
    "unpack too few": lambda xs, d, s, t, n: _unpack_two([1]),
    "unpack a string of two": lambda xs, d, s, t, n: _unpack_two("ab"),
    "unpack a constant dict": lambda xs, d, s, t, n: _unpack_two({"a": 1, "b": 2}),
    "starred unpack of too few": lambda xs, d, s, t, n: _unpack_star([1]),
    "starred unpack of a string": lambda xs, d, s, t, n: _unpack_star("abcd"),
    "starred unpack of an int": lambda xs, d, s, t, n: _unpack_star(n),
}

FALLS_BACK = {
    # A try/except around the raise makes eager Python raise it (the frame falls back).
}


@pytest.mark.parametrize("name", list(CALLS))
def test_argument_errors(name: str) -> None:
    call = CALLS[name]

    def f(xs: list[int], d: dict[str, int], s: str, t: tuple[int, ...], n: int) -> Any:
        return call(xs, d, s, t, n)

    options = {} if name in FALLS_BACK else {"fullgraph": True}
    assert_same_behavior(f, [1, 2, 3], {"a": 1}, "abc", (1, 2), 3, compile_options=options)
