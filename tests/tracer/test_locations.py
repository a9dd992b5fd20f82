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


def test_line_tables_build_each_line_once_and_read_none_as_the_first_line() -> None:
    from tracer.exc import LocationsByLine, LocationTextsByLine

    def f() -> None:
        pass

    code = f.__code__
    locations, texts = LocationsByLine(code), LocationTextsByLine(code)
    first = UserLocation.at(__file__, code.co_firstlineno, "f")
    assert locations[None] == first and texts[None] == str(first)
    assert locations[code.co_firstlineno + 1] is locations[code.co_firstlineno + 1]
    assert texts[code.co_firstlineno + 1] == str(locations[code.co_firstlineno + 1])
    nameless = compile("x = 1\n", "noslash.py", "exec").replace(co_name="")
    assert (
        LocationTextsByLine(nameless)[None] == UserLocation.text("noslash.py", 1) == "noslash.py:1"
    )


def test_a_translator_before_its_first_step_is_at_the_first_line() -> None:
    from tracer.output_graph import OutputGraph
    from tracer.translator import InstructionTranslator

    def f(x: torch.Tensor) -> torch.Tensor:
        return x

    output = OutputGraph(f.__globals__)
    tx = InstructionTranslator(f.__code__, f.__globals__, {}, [], output)
    expected = UserLocation.at(__file__, f.__code__.co_firstlineno, "f")
    assert tx.current_inst is None
    assert tx.location() == expected and tx.location_text() == str(expected)
