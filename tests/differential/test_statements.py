"""Statements inside traced code: `import` and `from ... import` (IMPORT_NAME, IMPORT_FROM),
`del` of a global (DELETE_GLOBAL), and globals of functions defined in another module. Each
test first checks the construct is in the bytecode, then that the function traces whole
(fullgraph) and behaves as plain Python."""

from __future__ import annotations

import sys

import pytest

import tracer
from tests.differential import foreign_module
from tests.differential.helpers import check
from tests.differential.opcodes import assert_traced_whole, assert_uses


# -- import ------------------------------------------------------------------------------------
def import_module(x):
    import math

    return math.sqrt(x) + math.floor(x)


def import_dotted(x):
    import os.path

    return os.path.sep + str(x), os.path.basename is os.path.basename


def from_import(x):
    from math import floor, sqrt

    return sqrt(x) + floor(x)


def from_import_as(x):
    from math import sqrt as root

    return root(x)


def relative_import(x):
    from . import foreign_module as other
    from .foreign_module import SCALE

    return other.scaled(x) + SCALE


@pytest.mark.parametrize(
    "fn", [import_module, import_dotted, from_import, from_import_as, relative_import]
)
def test_import_traced(fn):
    assert_uses(fn, "IMPORT_NAME")
    assert_traced_whole(fn, 4.0)
    check(fn, 4.0)
    check(fn, 2.25)


def test_import_guards_the_module_in_sys_modules():
    guards = tracer.trace(import_module)(4.0).guards
    text = "\n".join(str(g) for g in guards)
    assert "sys.modules['math']" in text
    assert "B['__import__']" in text


def test_import_of_replaced_module_recompiles():
    compiled = tracer.compile(import_module)
    assert compiled(4.0) == import_module(4.0)

    class Fake:
        __name__ = "math"

        @staticmethod
        def sqrt(x):
            return -1.0

        @staticmethod
        def floor(x):
            return -2

    saved = sys.modules["math"]
    sys.modules["math"] = Fake  # type: ignore[assignment]
    try:
        assert compiled(4.0) == import_module(4.0) == -3.0
    finally:
        sys.modules["math"] = saved
    assert compiled(4.0) == 6.0


def from_import_missing(x):
    from math import no_such_name  # type: ignore[attr-defined]

    return no_such_name(x)


def import_missing_module(x):
    import modetrace_no_such_module  # type: ignore[import-not-found]

    return modetrace_no_such_module.f(x)


@pytest.mark.parametrize("fn", [from_import_missing, import_missing_module])
def test_failing_import_is_the_exact_error(fn):
    assert_uses(fn, "IMPORT_NAME")
    tracer.testing.assert_same_behavior(fn, 1.0)
    with pytest.raises(ImportError):
        tracer.compile(fn)(1.0)


# -- globals of functions from another module ----------------------------------------------------
def calls_foreign(x):
    return foreign_module.scaled(x) + foreign_module.via_nested(x) + foreign_module.shadows_len([x])


def test_foreign_globals_traced():
    assert_uses(foreign_module.via_nested, "LOAD_GLOBAL")
    assert_traced_whole(calls_foreign, 2)
    check(calls_foreign, 2)


def test_foreign_globals_are_guarded_on_their_module():
    compiled = tracer.compile(calls_foreign)
    assert compiled(2) == calls_foreign(2)
    saved = foreign_module.SCALE
    foreign_module.SCALE = 10
    try:
        assert compiled(2) == calls_foreign(2)
    finally:
        foreign_module.SCALE = saved
    guards = "\n".join(str(g) for g in tracer.trace(calls_foreign)(2).guards)
    assert "sys.modules['tests.differential.foreign_module'].__dict__['SCALE']" in guards


def test_foreign_builtin_shadowed_later_misses():
    compiled = tracer.compile(calls_foreign)
    assert compiled(2) == calls_foreign(2)
    foreign_module.len = lambda xs: 100  # type: ignore[attr-defined]
    try:
        assert compiled(2) == calls_foreign(2)
    finally:
        del foreign_module.len  # type: ignore[attr-defined]


# -- del of a global ---------------------------------------------------------------------------
VICTIM = 5
OTHER = 1


def delete_global(x):
    global VICTIM, OTHER
    OTHER = x
    del VICTIM
    return x + 1


def delete_then_reassign(x):
    global VICTIM
    old = VICTIM
    del VICTIM
    VICTIM = old + x
    return VICTIM


def delete_missing(x):
    global NEVER_DEFINED
    del NEVER_DEFINED
    return x


def delete_twice(x):
    global VICTIM
    del VICTIM
    del VICTIM  # noqa: F821
    return x


def len_after_delete(xs):
    global len
    len = lambda v: -1  # noqa: E731
    del len
    return len(xs)  # noqa: F821


@pytest.mark.parametrize("fn", [delete_global, delete_then_reassign, delete_missing, delete_twice])
def test_delete_global(fn):
    assert_uses(fn, "DELETE_GLOBAL")
    globals()["VICTIM"] = 5
    try:
        if fn is not delete_missing and fn is not delete_twice:
            assert_traced_whole(fn, 3)
        check(fn, 3)
    finally:
        globals()["VICTIM"] = 5


def test_delete_global_then_builtin():
    assert_uses(len_after_delete, "DELETE_GLOBAL")
    assert_traced_whole(len_after_delete, [1, 2])
    check(len_after_delete, [1, 2])
    assert "len" not in globals()


def test_delete_global_replayed_in_order():
    compiled = tracer.compile(delete_global)
    globals()["VICTIM"] = 5
    try:
        assert compiled(7) == 8
        assert "VICTIM" not in globals() and OTHER == 7
        with pytest.raises(NameError, match="name 'VICTIM' is not defined"):
            compiled(7)
    finally:
        globals()["VICTIM"] = 5
