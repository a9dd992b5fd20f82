"""An object whose C type keeps an instance dict with no `__dict__` attribute: 3.12's
`typing.TypeVar`, `ParamSpec` and `TypeVarTuple` store there the `__module__` their
constructor finds in the calling frame, over the class's `__module__` ('typing'). The trace
can't read that dict nor guard it, so reading an attribute of such an object falls back; it
had read the class's value (CPython's test_typing `TypeVarTupleTests.test_module`).
`TypeAliasType` has a `__module__` descriptor instead (a break of its own)."""

from __future__ import annotations

import sys
import typing
from typing import Any

import pytest

import tracer
from tracer.testing import assert_same_behavior

DICT_KEEPERS: list[Any] = [typing.TypeVar, typing.ParamSpec, typing.TypeVarTuple]
MAKERS = list(DICT_KEEPERS)
if sys.version_info >= (3, 12):
    MAKERS.append(lambda name: typing.TypeAliasType(name, int))  # type: ignore[attr-defined]


def module_of(obj: Any) -> Any:
    return obj.__module__


def made_here(make: Any) -> Any:
    return make("Ts").__module__


@pytest.mark.parametrize("make", MAKERS)
def test_module_of_a_typing_object_matches_eager(make: Any) -> None:
    assert_same_behavior(module_of, make("T"))
    assert_same_behavior(made_here, make)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="3.12 made these C types")
@pytest.mark.parametrize("make", DICT_KEEPERS)
def test_reading_an_unexposed_instance_dict_falls_back(make: Any) -> None:
    with pytest.raises(tracer.Unsupported) as info:
        tracer.compile(module_of, fullgraph=True)(make("T"))
    assert "keep an unexposed __dict__" in str(info.value), info.value
