"""Tensor inputs that alias on real torch: torch's fake converter gives one real tensor one fake
within a compile, so a tensor reached at two sources is one graph input, guarded to stay one
(OBJECT_ALIASING, Dynamo's DUPLICATE_INPUT); a tensor input an in-place op wrote is guarded to
alias no other tensor input (NO_ALIASING): the trace read the other's metadata from its own fake.
Each case gives eager torch's result, and the identity of what eager returns, on calls that
alias and calls that do not, whichever came first."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter

torch_or_none = importlib.import_module("torch") if importlib.util.find_spec("torch") else None
"""(Read by `_mul_into` as a global; every test asks `real_torch()` first, which skips
without torch.)"""


def _mul_into(a: Any, b: Any) -> Any:
    assert torch_or_none is not None
    return torch_or_none.mul(a, 2, out=b)


def _grow_then_read(a: Any, b: Any) -> Any:
    a.unsqueeze_(0)
    return b.shape


def _write_then_read(a: Any, b: Any) -> Any:
    a.add_(1)
    return b * 2


def test_a_tensor_passed_twice_is_one_input_guarded_to_stay_one() -> None:
    torch = real_torch()
    compiled = tracer.compile(_mul_into)
    x = torch.ones(3)
    with CompileCounter() as counter:
        assert compiled(x, x) is x
        a, b = torch.ones(3), torch.ones(3)
        result = compiled(a, b)
    assert result is b  # `out=b` is returned, as eagerly; before, the trace's `a`
    assert torch.equal(a, torch.ones(3)) and torch.equal(b, torch.full((3,), 2.0))
    assert counter.recompiles == 1
    assert any("L['b'] is L['a']" in r for r in compiled.last_miss_reasons or [])
    graph = tracer.trace(_mul_into)(x, x).graph
    assert graph is not None
    assert len(graph.graph.placeholders) == 1


def test_an_input_written_in_place_is_guarded_to_alias_no_other_input() -> None:
    torch = real_torch()
    compiled = tracer.compile(_grow_then_read)
    with CompileCounter() as counter:
        assert compiled(torch.ones(3), torch.ones(3)) == (3,)
        x = torch.ones(3)
        shape = compiled(x, x)
    y = torch.ones(3)
    assert shape == _grow_then_read(y, y) == (1, 3)  # before, the trace's (3,)
    assert x.shape == (1, 3)
    assert counter.recompiles == 1
    assert any("L['a'] is not L['b']" in r for r in compiled.last_miss_reasons or [])


def test_a_view_of_another_input_sees_the_write() -> None:
    torch = real_torch()
    compiled = tracer.compile(_write_then_read)
    for make in (lambda t: (t, t[0]), lambda t: (t[0], t), lambda t: (t, t)):
        base, expected_base = torch.ones(2, 3), torch.ones(2, 3)
        result = compiled(*make(base))
        expected = _write_then_read(*make(expected_base))
        assert torch.equal(result, expected)
        assert torch.equal(base, expected_base)


def _tied_model() -> Any:
    torch = real_torch()

    class Tied(torch.nn.Module):
        """Two Linear layers sharing one weight (as tied embeddings do)."""

        def __init__(self) -> None:
            super().__init__()
            self.a = torch.nn.Linear(4, 4)
            self.b = torch.nn.Linear(4, 4)
            self.b.weight = self.a.weight

        def forward(self, x: Any) -> Any:
            return self.b(self.a(x))

    torch.manual_seed(0)
    return Tied()


def test_tied_parameters_are_one_input_and_untying_them_recompiles() -> None:
    torch = real_torch()
    model, x = _tied_model(), torch.randn(2, 4)
    compiled = tracer.compile(model)
    with CompileCounter() as counter:
        assert torch.equal(compiled(x), model(x))
        graph = tracer.trace(type(model).forward)(model, x).graph
        assert graph is not None
        # x, the shared weight and the two biases
        assert len(graph.graph.placeholders) == 4
        model.b.weight = torch.nn.Parameter(torch.randn(4, 4))  # untied, same metadata
        assert torch.equal(compiled(x), model(x))
    assert counter.recompiles == 1
    reasons = compiled.last_miss_reasons or []
    assert any("_parameters['weight'] is " in r for r in reasons), reasons


def test_a_parameter_replaced_by_one_like_it_is_read_again() -> None:
    torch = real_torch()
    model, x = torch.nn.Linear(4, 2), torch.randn(3, 4)
    compiled = tracer.compile(model)
    with CompileCounter() as counter:
        assert torch.equal(compiled(x), model(x))
        model.weight = torch.nn.Parameter(torch.randn(2, 4))
        assert torch.equal(compiled(x), model(x))  # read at its source on every call
        model.weight = torch.nn.Parameter(torch.randn(2, 4).t().contiguous().t())
        assert torch.equal(compiled(x), model(x))  # other strides: a recompile
    assert counter.recompiles == 1


def test_attention_asks_whether_query_is_key() -> None:
    """`nn.MultiheadAttention.forward` takes a faster path when `query is key is value`:
    distinct inputs trace with a NO_ALIASING guard (one graph, as Dynamo), and the same tensor
    passed three times misses it and takes the other path, as eagerly."""
    torch = real_torch()
    torch.manual_seed(0)
    attention = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    q, k, v = (torch.randn(2, 5, 8) for _ in range(3))
    compiled = tracer.compile(attention)
    for args in ((q, k, v), (q, q, q), (q, k, v)):
        assert torch.allclose(compiled(*args)[0], attention(*args)[0], atol=1e-6)
    assert compiled.compiled.compile_count == 2
    explanation = tracer.explain(attention)(q, k, v)
    assert explanation.graph_count == 1 and not explanation.break_reasons
