"""OutputGraph.plain_operator records `x + y`, `x * 2`, `2 * x` in one step; whatever it
answers must be what the general operator path (call_operator, _operator_call, _record) gives:
the same graphs (names, targets, arguments), the same node meta (fake value, location), the same
results, guards, breaks and errors. Each case is traced twice, once with the shortcut turned off.
"""

import math
from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.graph.node import describe_value
from tracer.output_graph import OutputGraph

SYMBOLS = ["+", "-", "*", "/", "@", "//", "%", "**", "<", "==", "&"]
DTYPES = [torch.float32, torch.float32, torch.float64, torch.int64, torch.bool]
SHAPES = [(3,), (3,), (2, 3), (3, 3), (1, 3), (), (3, 2)]
CONSTANTS = st.one_of(
    st.sampled_from([1, 2, 0, -1, 0.5, -0.0, math.inf, math.nan, True, False, 2**70]),
    st.floats(allow_nan=True, allow_infinity=True),
)


@st.composite
def tensors(draw: st.DrawFn) -> Any:
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from(SHAPES))
    grad = dtype.is_floating_point and draw(st.booleans())
    values = [draw(st.integers(-3, 3)) for _ in range(math.prod(shape))]
    flat = torch.tensor(values, dtype=dtype)
    return type(flat)._make(flat._data, shape, dtype, grad)


def make_function(template: str, constant: Any) -> Any:
    namespace: dict[str, Any] = {"C": constant}
    exec(f"def f(x, y):\n    {template}\n    return x", namespace)  # noqa: S102
    return namespace["f"]


def outcome(fn: Any, args: tuple[Any, ...], shortcut: bool) -> Any:
    """Everything observable about compiling and running `fn` once."""
    tracer.reset()
    patch = mock.patch.object(OutputGraph, "plain_operator", lambda *a: None)
    with patch if not shortcut else mock.MagicMock():
        try:
            explained = tracer.explain(fn)(*args)
        except Exception as e:  # noqa: BLE001
            return ("raises", type(e).__name__, str(e))
    graphs = [
        (
            str(gm.graph),
            [
                (n.name, describe_value(n.meta.get("val")), n.meta.get("user_location"),
                 getattr(n.meta.get("val"), "requires_grad", None))
                for n in gm.graph.nodes
            ],
        )
        for gm in explained.graphs
    ]  # fmt: skip
    result = explained.result
    shown = (repr(result), result.dtype, result.requires_grad) if result is not None else None
    return (graphs, [str(r) for r in explained.break_reasons], explained.guards, shown)


@given(
    st.sampled_from(SYMBOLS),
    st.sampled_from(["x = x {} y", "x = x {} C", "x = C {} x", "x {}= y", "x = x {} x"]),
    tensors(),
    tensors(),
    CONSTANTS,
)
def test_shortcut_records_what_the_general_path_records(
    symbol: str, shape: str, x: Any, y: Any, constant: Any
) -> None:
    if symbol in ("<", "==") and shape == "x {}= y":
        shape = "x = x {} y"  # no `x <= y` / `x === y` augmented forms
    fn = make_function(shape.format(symbol), constant)
    assert outcome(fn, (x, y), shortcut=True) == outcome(fn, (x, y), shortcut=False)


def test_shortcut_is_taken_for_the_plain_cases() -> None:
    """It must not silently answer nothing: `x + y`, `x * 2`, `2 * x` go through it."""
    x = torch.ones(3)
    for template in ["x = x + y", "x = x * C", "x = C * x", "x += y", "x = x @ x.T"]:
        fn = make_function(template, 2)
        with mock.patch.object(
            OutputGraph, "plain_operator", autospec=True, side_effect=OutputGraph.plain_operator
        ) as spy:
            tracer.reset()
            tracer.explain(fn)(x, x)
        assert any(call.args[0] is not None for call in spy.call_args_list), template
        assert spy.call_args_list, template


def test_shortcut_inside_try_breaks_like_the_general_path() -> None:
    def f(x: Any, y: Any) -> Any:
        try:
            z = x + y
        except ValueError:
            z = x
        return z

    x = torch.ones(3)
    with_shortcut = outcome(f, (x, x), shortcut=True)
    assert with_shortcut == outcome(f, (x, x), shortcut=False)
    assert "try/except around a tensor op" in str(with_shortcut[1])


class _StubTx:
    """The two questions `_record` asks its translator when nothing goes wrong."""

    def in_try_block(self) -> bool:
        return False

    def location_text(self) -> str:
        return "here"


def test_record_takes_an_unhashable_callable() -> None:
    """`_record` keeps one plan per callable per trace, but a callable that cannot be a dict
    key is still recorded (its plan worked out for the one call)."""

    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, x: Any) -> Any:
            return x

    from guards.sources import LocalSource

    output = OutputGraph({})
    x = output.add_graph_input(torch.ones(3), LocalSource("x"))
    fn = Unhashable()
    for _ in range(2):
        result = output._record(_StubTx(), "call_function", fn, fn, [x], {})  # type: ignore[arg-type]
        assert result.node.target is fn and result.node.args == (x.node,)
    assert [n.name for n in output.graph.nodes] == ["x", "Unhashable", "Unhashable_1"]
