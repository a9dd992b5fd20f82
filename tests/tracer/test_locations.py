"""Recorded ops store their location as text, built without reading the source line; it must
be exactly `str()` of the full location."""

from __future__ import annotations

import tracer
import tracer.runtime as torch
from tracer.exc import UserLocation


def test_text_is_str_of_the_location() -> None:
    for function in ("", "f", "<lambda>"):
        location = UserLocation.at(__file__, 3, function)
        assert UserLocation.text(__file__, 3, function) == str(location)
    assert UserLocation.text("noslash.py", 7) == "noslash.py:7"


def test_recorded_nodes_carry_their_line() -> None:
    def f(x: torch.Tensor) -> torch.Tensor:
        y = x + 1
        return y * 2

    graphs = []
    compiled = tracer.compile(f, backend=lambda gm, example_inputs: graphs.append(gm) or gm)
    compiled(torch.ones(3))
    first_line = f.__code__.co_firstlineno
    texts = [
        node.meta["user_location"] for node in graphs[0].graph.nodes if node.op == "call_function"
    ]
    expected = [
        str(UserLocation.at(__file__, first_line + offset, f.__code__.co_name)) for offset in (1, 2)
    ]
    assert texts == expected
