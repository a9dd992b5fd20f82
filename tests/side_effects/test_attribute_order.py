"""Attributes and globals the trace sets land in the order CPython's dicts keep them: a name
set again keeps the place of its first setting (issue 20 case 18)."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch


class Obj:
    def __init__(self) -> None:
        self.v = 0


def set_attributes(obj: Obj, t: Any) -> Any:
    obj.z = 1
    obj.y = 2
    obj.z = 3
    return t + 1


def set_globals(t: Any) -> Any:
    global NEW_Z, NEW_Y
    NEW_Z = 1
    NEW_Y = 2
    NEW_Z = 3
    return t + 1


def test_a_reassigned_attribute_keeps_its_first_place() -> None:
    eager = Obj()
    set_attributes(eager, torch.ones(2))
    compiled = tracer.compile(set_attributes)
    for _ in range(2):
        obj = Obj()
        compiled(obj, torch.ones(2))
        assert (
            list(vars(obj).items())
            == list(vars(eager).items())
            == [
                ("v", 0),
                ("z", 3),
                ("y", 2),
            ]
        )
    assert len(compiled.entries) == 1


def test_a_reassigned_global_keeps_its_first_place() -> None:
    g = globals()
    for name in ("NEW_Z", "NEW_Y"):
        g.pop(name, None)
    set_globals(torch.ones(2))
    eager_order = [k for k in g if k in ("NEW_Z", "NEW_Y")]
    for name in ("NEW_Z", "NEW_Y"):
        g.pop(name)
    tracer.compile(set_globals)(torch.ones(2))
    assert [k for k in g if k in ("NEW_Z", "NEW_Y")] == eager_order == ["NEW_Z", "NEW_Y"]
    assert (g["NEW_Z"], g["NEW_Y"]) == (3, 2)
