"""A name the trace found undefined, or defined and handed on unread, is guarded so: a global
or builtin defined after the compile, or deleted after it, gives what plain Python gives.

A NameError the trace raised (caught in the frame or not) had no guard that the name stays
undefined, and a global returned unread was read again by the compiled code outside the user's
`try`: both kept the first call's answer. A free variable whose cell is empty while tracing
sends the frame to plain Python (the cell may be filled before the next call)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import tracer


def outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("returned", fn())
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return ("raised", type(e).__name__, str(e))


def caught() -> Any:
    try:
        return LATER  # type: ignore[name-defined]
    except NameError as e:
        return f"caught: {e}"


def uncaught() -> Any:
    return LATER * 2  # type: ignore[name-defined]  # noqa: F821 - defined by the test


def caught_builtin() -> Any:
    try:
        return LATER_BUILTIN  # type: ignore[name-defined]
    except NameError as e:
        return f"caught: {e}"


@pytest.fixture(autouse=True)
def _undefined() -> Iterator[None]:
    globals().pop("LATER", None)
    yield
    globals().pop("LATER", None)
    if hasattr(builtins, "LATER_BUILTIN"):
        del builtins.LATER_BUILTIN


def define_global() -> None:
    globals()["LATER"] = 5


def define_builtin() -> None:
    builtins.LATER_BUILTIN = 6  # type: ignore[attr-defined]


def delete_both() -> None:
    globals().pop("LATER", None)
    if hasattr(builtins, "LATER_BUILTIN"):
        del builtins.LATER_BUILTIN


@pytest.mark.parametrize(
    ("fn", "change"),
    [(caught, define_global), (uncaught, define_global), (caught_builtin, define_builtin)],
)
def test_name_defined_after_the_compile(fn: Any, change: Any) -> None:

    compiled = tracer.compile(fn)
    assert outcome(compiled) == outcome(fn)  # undefined: NameError
    change()
    assert outcome(compiled) == outcome(fn)
    assert outcome(compiled)[0] == "returned"


@pytest.mark.parametrize("fn", [caught, caught_builtin])
def test_name_deleted_after_the_compile_is_caught_by_the_frame(fn: Any) -> None:
    define_global()
    define_builtin()
    compiled = tracer.compile(fn)
    assert outcome(compiled) == outcome(fn) == ("returned", 5 if fn is caught else 6)
    delete_both()
    assert outcome(compiled) == outcome(fn)
    assert outcome(compiled)[1].startswith("caught: name ")


def test_a_global_read_needs_no_presence_guard() -> None:
    define_global()

    def read() -> Any:
        return LATER + 1  # type: ignore[name-defined]  # noqa: F821

    guards = [str(g) for g in tracer.explain(read)().guards]
    assert not any(" in G" in g and "not in" not in g for g in guards), guards


def make_closure() -> tuple[Callable[[], Any], Callable[[Any], None]]:
    def read() -> Any:
        try:
            return bound_later
        except NameError:
            return "unbound"

    def bind(value: Any) -> None:
        nonlocal bound_later
        bound_later = value

    if False:
        bound_later = 0
    return read, bind


def test_free_variable_bound_after_the_compile() -> None:
    read, bind = make_closure()
    compiled = tracer.compile(read)
    assert compiled() == read() == "unbound"
    bind(7)
    assert compiled() == read() == 7
