"""Which operand's method Python asks first, and what NotImplemented does (issue 20 cases 16
and 17): a right operand whose type is a proper subclass of the left's is asked first (for
arithmetic, when it defines its own reflected method; for comparisons, always); an answer of
NotImplemented passes to the other side; `a += b` tries `__iadd__`, then `__add__`/`__radd__`;
`==` falls back to identity and `!=` inverts `__eq__`; with a number as the other operand the
user's methods alone decide. Errors are CPython's own, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class B:
    def __add__(self, other: Any) -> Any:
        return "B.__add__"

    def __lt__(self, other: Any) -> Any:
        return "B.__lt__"


class S(B):
    def __radd__(self, other: Any) -> Any:
        return "S.__radd__"

    def __gt__(self, other: Any) -> Any:
        return "S.__gt__"


class Plain(B):
    """A subclass that overrides nothing: the left operand's method comes first."""


class C(B):
    def __lt__(self, other: Any) -> Any:
        return "C.__lt__"


class N:
    def __add__(self, other: Any) -> Any:
        return NotImplemented

    def __radd__(self, other: Any) -> Any:
        return "N.__radd__"

    def __eq__(self, other: object) -> Any:
        return NotImplemented

    __hash__ = object.__hash__


class R:
    def __radd__(self, other: Any) -> Any:
        return ("R.__radd__", other)

    def __rsub__(self, other: Any) -> Any:
        return NotImplemented


class E:
    def __init__(self, v: int) -> None:
        self.v = v

    def __eq__(self, other: object) -> Any:
        return isinstance(other, E) and self.v == other.v

    __hash__ = object.__hash__


class IAdd:
    def __iadd__(self, other: Any) -> Any:
        return NotImplemented

    def __add__(self, other: Any) -> Any:
        return "IAdd.__add__"


class Accumulates:
    def __iadd__(self, other: Any) -> Any:
        self.got = other
        return self


class P:
    pass


def subclass_reflected_first() -> Any:
    return B() + S(), B() < S(), S() + B(), B() + Plain(), B() < C(), C() < B()


def not_implemented_passes_on() -> Any:
    n = N()
    return n + n, 1 + R(), N() + R(), 2.5 + R()


def equality_defaults() -> Any:
    p, q, e = P(), P(), E(1)
    same = p  # `p == p` as the operator sees it: one object on both sides
    return (
        p == same, p == q, p != q, p != same, e == E(1), e != E(1), e != E(2),
        N() == N(), N() != N(), p == 1, 1 != p, e == 1,
    )  # fmt: skip


def in_place() -> Any:
    i = IAdd()
    i += 1
    a = Accumulates()
    b = a
    b += 5
    return i, b is a, a.got


def add_error() -> Any:
    return P() + 1


def radd_error() -> Any:
    return 1 + P()


def lt_error() -> Any:
    return P() < P()


def mixed_ge_error() -> Any:
    return P() >= 1


def iadd_error() -> Any:
    p = P()
    p += 1
    return p


def rsub_not_implemented_error() -> Any:
    return 2 - R()


def list_concat_error() -> Any:
    return [1] + P()


def tuple_iadd_error() -> Any:
    t = (1,)
    t += P()
    return t


def str_repeat_error() -> Any:
    return "a" * P()


@pytest.mark.parametrize(
    "fn",
    [
        subclass_reflected_first, not_implemented_passes_on, equality_defaults, in_place,
        add_error, radd_error, lt_error, mixed_ge_error, iadd_error, rsub_not_implemented_error,
        list_concat_error, tuple_iadd_error, str_repeat_error,
    ],
)  # fmt: skip
def test_operator_protocol_is_cpythons(fn: Any) -> None:
    check(fn)  # fullgraph: traced whole, same result or same exception and message


class BufferSub(bytearray):
    """A class deriving from a type defined in C: bytes' own methods take its objects through
    the buffer protocol, with no method of theirs asked."""


class NumberSub(int):
    pass


def builtin_takes_a_c_derived_object(a: bytes, b: Any, n: Any) -> Any:
    return a + b, a == b, b"abcd" < b, 3 + n, n < 5, 2**n


def test_a_builtins_method_takes_an_object_of_a_c_derived_class() -> None:
    """`b"ab" + BufferSub(b"cd")` concatenates (the tracer took bytes' method to refuse any
    user object, and raised `can't concat BufferSub to bytes`): such an operation is not
    modeled, and the frame runs as in CPython."""
    assert_same_behavior(builtin_takes_a_c_derived_object, b"ab", BufferSub(b"cd"), NumberSub(3))
