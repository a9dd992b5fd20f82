"""What convert_frame records about a compile besides the graph: the op count metric and the
`def` line guards point at (both computed with builtins over the nodes / the line table)."""

from __future__ import annotations

import functools
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.convert_frame import _op_count, location_of
from tracer.observability.metrics import clear_compilation_metrics, get_compilation_metrics


def _decorated(fn):  # type: ignore[no-untyped-def]
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        return fn(*args, **kwargs)

    return wrapper


def plain(x):  # type: ignore[no-untyped-def]
    y = x + 1
    return y * 2


@_decorated
@_decorated
def under_decorators(
    x,  # type: ignore[no-untyped-def]
    y=3,
):
    """A docstring, then code."""

    for _ in range(2):
        x = x + y
    return x


def _definition(fn):  # type: ignore[no-untyped-def]
    code = fn.__code__
    lines = [line for _s, _e, line in code.co_lines() if line is not None]
    return min(lines, default=code.co_firstlineno)


def _shapes() -> list[Any]:
    """Functions whose prologue differs: cells, free variables, generator and coroutine starts,
    a body that starts with a nested definition, a lambda spread over lines."""

    def with_cell(x):  # type: ignore[no-untyped-def]
        def inner():  # type: ignore[no-untyped-def]
            return x

        return inner

    def generator(  # type: ignore[no-untyped-def]
        n,
    ):
        yield from range(n)

    async def coroutine(x):  # type: ignore[no-untyped-def]
        return x

    return [
        with_cell,
        with_cell(1),
        generator,
        coroutine,
        _decorated(plain),
        lambda a,  # a lambda spread over lines
        b: a + b,
    ]


def test_location_of_is_the_first_line_with_code() -> None:
    for fn in (plain, under_decorators.__wrapped__.__wrapped__, lambda: None, *_shapes()):
        where = location_of(fn)
        assert where.lineno == _definition(fn), fn
        assert where.filename == fn.__code__.co_filename


def test_op_count_counts_function_and_method_calls_only() -> None:
    def f(x, y):  # type: ignore[no-untyped-def]
        a = torch.add(x, y)
        b = a.sin()
        return a * b + 1.0, x

    compiled = tracer.compile(f)
    clear_compilation_metrics()
    compiled(torch.ones(2), torch.ones(2))
    gm = compiled.entries[0].graph
    nodes = list(gm.graph.nodes)
    expected = sum(1 for n in nodes if n.op in ("call_function", "call_method"))
    assert expected == 4
    assert _op_count(gm) == expected
    assert get_compilation_metrics()[-1].graph_op_count == expected
    assert _op_count(None) == 0


def test_inputs_the_graph_never_reads_are_dropped_in_order() -> None:
    """A tensor read only for its shape is guarded but not passed: its placeholder is erased,
    and the other inputs keep their order (convert_frame._compile_graph)."""

    def f(x, y, z):  # type: ignore[no-untyped-def]
        return x * y.shape[0] + z

    tracer.reset()
    clear_compilation_metrics()
    compiled = tracer.compile(f)
    x, y, z = torch.ones(3), torch.ones(4), torch.ones(3)
    assert compiled(x, y, z).tolist() == [5.0, 5.0, 5.0]
    entry = compiled.entries[0]
    assert entry.graph is not None
    assert [n.name for n in entry.graph.graph.placeholders] == ["x", "z"]
    assert "LOAD_FAST        'z'" in entry.bytecode_listing()
    assert get_compilation_metrics()[-1].graph_input_count == 2
    assert any("L['y']" in line for line in entry.guards)
