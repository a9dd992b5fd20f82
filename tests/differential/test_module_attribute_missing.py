"""A module attribute found missing while tracing (`hasattr(plugin, "fast_path")`, a
`getattr` default, `except AttributeError`) was answered for good: nothing guarded that the
module still lacked it, so feature detection kept its first answer after the module got the
name. The module's dict is now guarded to lack the name and a `__getattr__` (PEP 562); a name a
module's own `__getattr__` computes is not asked of it while tracing (the frame falls back,
and the user's `__getattr__` runs on each call, as in plain Python)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter


@pytest.fixture
def plugin() -> Iterator[types.ModuleType]:
    module = types.ModuleType("modetrace_test_plugin")
    sys.modules[module.__name__] = module
    try:
        yield module
    finally:
        del sys.modules[module.__name__]


def test_a_name_the_module_gets_later_is_seen(plugin: types.ModuleType) -> None:
    tracer.reset()

    def detect(x: int) -> Any:
        try:
            level = plugin.LEVEL
        except AttributeError:
            level = -1
        return hasattr(plugin, "fast_path"), getattr(plugin, "scale", 1) * x, level

    compiled = tracer.compile(detect)
    with CompileCounter() as counter:
        assert compiled(2) == detect(2) == (False, 2, -1)
        assert compiled(2) == detect(2)
    assert counter.compiles == 1, "the module unchanged: the entry hits"
    plugin.fast_path = True
    plugin.scale = 10
    plugin.LEVEL = 3
    assert compiled(2) == detect(2) == (True, 20, 3)


def test_a_module_getattr_added_later_is_seen(plugin: types.ModuleType) -> None:
    tracer.reset()

    def read(x: int) -> Any:
        return getattr(plugin, "lazy", None), x

    compiled = tracer.compile(read)
    assert compiled(1) == read(1) == (None, 1)
    plugin.__getattr__ = lambda name: f"computed {name}"  # type: ignore[attr-defined]
    assert compiled(1) == read(1) == ("computed lazy", 1)


def test_a_name_a_module_getattr_computes_runs_it_on_every_call(
    plugin: types.ModuleType,
) -> None:
    tracer.reset()
    calls: list[str] = []

    def module_getattr(name: str) -> Any:
        calls.append(name)
        if name == "lazy":
            return 5
        raise AttributeError(name)

    plugin.__getattr__ = module_getattr  # type: ignore[attr-defined]

    def read(x: int) -> Any:
        return plugin.lazy + x

    compiled = tracer.compile(read)
    assert [compiled(1), compiled(2)] == [read(1), read(2)] == [6, 7]
    assert calls == ["lazy"] * 4, "once per call, compiled or not, and never while tracing"
