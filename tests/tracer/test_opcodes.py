"""One test per handled opcode family: each first asserts the opcode really occurs in the sample
function's bytecode, then checks compiled == eager with no graph break (fullgraph)."""

import dis
import operator
from typing import NamedTuple

import pytest

import tracer.runtime as torch
from tests.tracer.opcode_samples import f_raise
from tracer import config
from tracer.testing import assert_same_behavior
from tracer.translator.instructions import decode

G_COUNTER = 0


class Pair(NamedTuple):
    a: object
    b: object


class Box:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


def f_fast(x):
    y = x + 1
    del y
    y = x * 2
    return y


def f_global(x):
    global G_COUNTER
    G_COUNTER = G_COUNTER + 1
    return x * len([1, 2])


def f_attr(b, x):
    b.w = x
    return b.get() + b.w


def f_calls(x):
    def inner(a, *, k=1, **kw):
        return a * k + len(kw)

    first, extra = {"k": 3}, {"z": 3}
    return inner(x, k=2, z=3), inner(*[x], **first, **extra)


def f_binary(a, b):
    r = [a + b, a - b, a * b, a / b, a // b, a % b, a**2, a & 3, a | 4, a ^ 5, a << 1, a >> 1]
    c = a
    c += 1
    c -= 2
    c *= 3
    c //= 2
    c %= 7
    c **= 2
    c &= 255
    c |= 1
    c ^= 2
    c <<= 1
    c >>= 1
    d = float(a)
    d /= 2
    return r, c, d


def f_matmul(w, x):
    y = w @ x
    y2 = w
    y2 @= w
    return y, y2


def f_compare(a, b, xs):
    return (a < b, a <= b, a == b, a != b, a > b, a >= b, a is None, a is not None, a in xs,
            a not in xs, -a, +a, ~a, not a)  # fmt: skip


def f_subscr(xs, d, x):
    xs = list(xs)
    xs[0] = 9
    del xs[1]
    d = dict(d)
    d["k"] = 1
    del d["k"]
    return xs, d, x[0], x[1:], xs[::2]


def f_builders(a, b, x):
    t = (a, b)
    lst = [a, b]
    s = {a, b}
    m = {"a": a, "b": b}
    m2 = {str(a): b}
    sl = lst[0:1]
    st = f"{a}-{b!r}-{a:>4}"
    return t, lst, s, m, m2, sl, st, x


def f_extend(xs, d):
    lst = [*xs, *xs]
    tup = (*xs, 1)
    s = {*xs}
    m = {**d, "z": 1}
    squares = [v * v for v in xs]
    odd = {v for v in xs if v % 2}
    return lst, tup, s, m, squares, odd, {v: v for v in xs}


def f_unpack(t):
    a, b = t
    c, *rest = [1, 2, 3]
    *head, last = t
    return a, b, c, rest, head, last


def f_loops(xs, x):
    acc = x
    for i, v in enumerate(xs):
        if i == 1:
            continue
        acc = acc + v
        if i > 5:
            break
    n = 0
    while n < 3:
        n += 1
    return acc, n


def f_jumps(a, b):
    r = a and b
    s = a or b
    if a is None:
        return 0
    if b is not None:
        r = r or 1
    return r, s


def f_closure(x):
    k = 2

    def inner(y):
        return y * k

    k = 3
    return inner(x)


def f_nonlocal_inner(x):
    total = 0

    def bump():
        nonlocal total
        total += 1

    bump()
    bump()
    return x + total


def f_with(x):
    class Ctx:
        def __enter__(self):
            return 1

        def __exit__(self, *exc):
            return False

    return x


class Ctx:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("in")
        return self

    def __exit__(self, *exc):
        self.log.append("out")
        return False


def f_with_block(x):
    c = Ctx()
    with c as entered:
        y = x * 2
    return y, entered.log


def f_swap_copy(a, b):
    a, b = b, a
    return a, b, (a < b < 10)


def f_namedtuple(p):
    return Pair(p.a + 1, p.b), p[0]


def f_operator_module(a, b):
    return operator.add(a, b), operator.getitem([a, b], 1)


CASES = [
    (f_fast, ("LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_CONST", "RESUME", "RETURN_VALUE"),
     lambda: (torch.ones(2),)),
    (f_global, ("LOAD_GLOBAL", "STORE_GLOBAL", "PRECALL", "CALL", "BUILD_LIST"),
     lambda: (torch.ones(2),)),
    (f_attr, ("STORE_ATTR", "LOAD_ATTR", "LOAD_METHOD"),
     lambda: (Box(torch.ones(2)), torch.ones(2))),
    (f_calls, ("MAKE_FUNCTION", "KW_NAMES", "CALL_FUNCTION_EX", "BUILD_CONST_KEY_MAP",
               "DICT_MERGE", "PUSH_NULL"),
     lambda: (torch.ones(2),)),
    (f_binary, ("BINARY_OP",), lambda: (7, 3)),
    (f_matmul, ("BINARY_OP",), lambda: (torch.ones(2, 2), torch.ones(2))),
    (f_compare, ("COMPARE_OP", "IS_OP", "CONTAINS_OP", "UNARY_NEGATIVE", "UNARY_POSITIVE",
                 "UNARY_INVERT", "UNARY_NOT"),
     lambda: (3, 4, [1, 3])),
    (f_subscr, ("BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BUILD_SLICE"),
     lambda: ([1, 2, 3], {"a": 1}, torch.arange(4.0))),
    (f_builders, ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP",
                  "BUILD_STRING", "FORMAT_VALUE"),
     lambda: (1, 2, torch.ones(1))),
    (f_extend, ("LIST_EXTEND", "LIST_TO_TUPLE", "SET_UPDATE", "DICT_UPDATE", "LIST_APPEND",
                "SET_ADD", "MAP_ADD", "GET_ITER", "FOR_ITER"),
     lambda: ([1, 2], {"a": 1})),
    (f_unpack, ("UNPACK_SEQUENCE", "UNPACK_EX"), lambda: ((1, 2),)),
    (f_loops, ("FOR_ITER", "JUMP_BACKWARD", "JUMP_FORWARD", "POP_JUMP_FORWARD_IF_FALSE"),
     lambda: ([torch.ones(2), torch.ones(2), torch.ones(2)], torch.ones(2))),
    (f_jumps, ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "POP_JUMP_FORWARD_IF_NOT_NONE"),
     lambda: (1, 2)),
    (f_closure, ("MAKE_CELL", "LOAD_CLOSURE", "LOAD_DEREF", "STORE_DEREF", "COPY_FREE_VARS"),
     lambda: (torch.ones(2),)),
    (f_nonlocal_inner, ("MAKE_CELL", "STORE_DEREF"), lambda: (torch.ones(2),)),
    (f_with_block, ("BEFORE_WITH", "POP_TOP"), lambda: (torch.ones(2),)),
    (f_raise, ("LOAD_ASSERTION_ERROR", "RAISE_VARARGS"), lambda: (torch.ones(2),)),
    (f_raise, ("LOAD_ASSERTION_ERROR",), lambda: (torch.ones(3),)),
    (f_swap_copy, ("SWAP", "COPY"), lambda: (1, 2)),
    (f_namedtuple, ("BINARY_SUBSCR",), lambda: (Pair(torch.ones(2), 3),)),
    (f_operator_module, ("LOAD_ATTR",), lambda: (1, 2)),
]  # fmt: skip


# The opcodes 3.12 and 3.13 added (tracer/translator/newer_opcodes.py); each sample names the
# ones it exercises on the versions that have them.
class Child(Box):
    def get(self):
        return super().get() + 1

    def total(self, n):
        return super().v + n


def f_slices(a):
    b = a[1:3]
    a[0:1] = [9, 8]
    return b, a


def f_inlined_comprehension(xs):
    y = 5
    squares = [y * y for y in xs if y]
    return squares, y, {k: k for k in xs}


def f_return_const(x):
    if x:
        return None
    return 1


def f_intrinsics(a):
    return +a, (*[a, a],)


def f_to_bool_and_kw(x, y):
    if x:
        z = dict(a=x, b=y)  # noqa: C408 (a call with keywords: CALL_KW)
    else:
        z = None
    return z, not x


def f_fast_pairs(a, b):
    a, b = b, a
    total = a + b
    return total, [total for total in (a, b)]  # noqa: C416 (a comprehension)


def f_make_function(x):
    def inner(y, z=2, *, k=3):
        return x + y + z + k

    return inner(1)


def f_format(x):
    return f"{x!r:>6}|{x}|{x:^5}"


NEWER_CASES = [
    (f_slices, ("BINARY_SLICE", "STORE_SLICE"), lambda: ([1, 2, 3, 4],)),
    (f_inlined_comprehension, ("LOAD_FAST_AND_CLEAR", "END_FOR", "STORE_FAST_LOAD_FAST"),
     lambda: ([0, 1, 2],)),
    (f_return_const, ("RETURN_CONST",), lambda: (0,)),
    (f_return_const, ("RETURN_CONST",), lambda: (1,)),
    (f_intrinsics, ("CALL_INTRINSIC_1",), lambda: (3,)),
    (Child.get, ("LOAD_SUPER_METHOD",), lambda: (Child(torch.ones(2)),)),
    (Child.total, ("LOAD_SUPER_ATTR",), lambda: (Child(2), 3)),
    (f_to_bool_and_kw, ("TO_BOOL", "CALL_KW"), lambda: (1, torch.ones(2))),
    (f_to_bool_and_kw, ("TO_BOOL",), lambda: (0, 2)),
    (f_fast_pairs, ("LOAD_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST"), lambda: (1, 2)),
    (f_make_function, ("SET_FUNCTION_ATTRIBUTE",), lambda: (torch.ones(2),)),
    (f_format, ("CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC"), lambda: ("ab",)),
]  # fmt: skip


def _opnames(fn: object) -> set[str]:
    code = fn.__code__  # type: ignore[attr-defined]
    names = {i.opname for i in decode(code)}
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            names |= {i.opname for i in decode(const)}
    return names


@pytest.mark.parametrize(
    ("fn", "opcodes", "make_args"),
    CASES + NEWER_CASES,
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_opcode(fn, opcodes, make_args) -> None:
    """`opcodes` that this version has (3.12 removed PRECALL, 3.12 and 3.13 added others; a
    method load is LOAD_METHOD on each, see tracer/bytecode_versions.py) must occur."""
    assert config.current().debug_checks, "tests/conftest.py turns the debug checks on here"
    missing = {op for op in opcodes if op in dis.opmap} - _opnames(fn)
    assert not missing, f"{fn.__name__} does not exercise {sorted(missing)}"
    assert_same_behavior(fn, *make_args(), compile_options={"fullgraph": True})
