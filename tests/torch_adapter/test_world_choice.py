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
