"""Which tensor world a compile uses (tracer/torch_adapter/__init__.py `world_for`): real
torch's when a torch tensor comes in, also held in an object's attributes (a dataclass, a plain
object), not only as an argument or inside a list, tuple or dict."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


@dataclasses.dataclass(frozen=True)
class Scaled:
    t: Any
    s: float


class Box:
    def __init__(self, value: Any) -> None:
        self.value = value


def scaled(p: Scaled) -> Any:
    return p.t * p.s + 1


def boxed(box: Box) -> Any:
    return box.value.sin() * 2


@pytest.mark.parametrize("kind", ["frozen dataclass", "plain object"])
def test_a_tensor_in_an_objects_attributes_is_traced_in_the_torch_world(kind: str) -> None:
    torch = real_torch()
    fn, arg = (
        (scaled, Scaled(torch.arange(3.0), 0.5))
        if kind == "frozen dataclass"
        else (
            boxed,
            Box(torch.arange(3.0)),
        )
    )
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(fn)(arg)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons


class ClassTrap:
    """An object whose `__class__` is user code (a property that raises)."""

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise RuntimeError("user __class__")


def kind_of(obj: Any) -> Any:
    return type(obj).__name__


def test_choosing_the_world_asks_no_object_its_class() -> None:
    """`world_for` looks at every argument once torch is imported: it told a class from an
    object with `isinstance`, which reads `__class__`, so a resume function handed such an
    object raised the user's error (tests/resume/test_dropped_references.py, in the full
    suite)."""
    real_torch()
    from tracer.torch_adapter import world_for

    assert world_for(kind_of, {"obj": ClassTrap()}) is None
