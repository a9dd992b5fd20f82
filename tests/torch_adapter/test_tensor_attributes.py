"""A torch tensor has an attribute dict of its own (`p._is_sharded = True`, as libraries mark
parameters): an attribute read on an input tensor looks there before the methods of its class,
as eagerly. Before, the trace looked at the class only: `getattr(x, "tag", None)` was None for
a tensor carrying a `tag`, and a method shadowed on the instance was the class's."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter


def tag_of(x: Any) -> Any:
    return getattr(x, "tag", "none"), x * 1


def has_flag(p: Any) -> Any:
    return p * 2 if hasattr(p, "_is_sharded") else p * 3


def sine(x: Any) -> Any:
    return x.sin()


def test_an_attribute_of_the_tensor_is_read_and_guarded() -> None:
    torch = real_torch()
    compiled = tracer.compile(tag_of)
    tagged, plain = torch.randn(3), torch.randn(3)
    tagged.tag = "A"
    with CompileCounter() as counter:
        for x in (tagged, plain, tagged, plain):
            assert compiled(x)[0] == tag_of(x)[0]
        tagged.tag = "B"  # the value read is guarded too
        assert compiled(tagged)[0] == "B"
    assert counter.compiles == 3 and len(compiled.entries) == 3


def test_hasattr_on_a_parameter() -> None:
    torch = real_torch()
    compiled = tracer.compile(has_flag)
    p = torch.nn.Parameter(torch.ones(2))
    assert torch.equal(compiled(p), p * 3)
    p._is_sharded = True
    assert torch.equal(compiled(p), p * 2)
    assert any("__dict__" in r for r in compiled.last_miss_reasons or [])


def test_a_method_shadowed_on_the_instance_is_the_instance_s() -> None:
    torch = real_torch()
    compiled = tracer.compile(sine)
    x = torch.randn(3)
    assert torch.equal(compiled(x), x.sin())
    x.sin = lambda: "shadowed"
    assert compiled(x) == "shadowed"


def test_a_missing_attribute_raises_as_eagerly() -> None:
    torch = real_torch()

    def reads(x: Any) -> Any:
        return x.no_such_attribute

    with pytest.raises(
        AttributeError, match="'Tensor' object has no attribute 'no_such_attribute'"
    ):
        tracer.compile(reads)(torch.randn(2))


def grad_or_zero(x: Any) -> Any:
    if x.grad is None:
        return x * 0
    return x.grad * 2


def sgd_step(model: Any, lr: float) -> None:
    for p in model.parameters():
        if p.grad is not None:
            p.data.add_(p.grad, alpha=-lr)


def test_the_grad_of_an_input_is_read_at_its_source() -> None:
    """`backward()` fills `.grad` between calls: `x.grad` is guarded (None, or a tensor input
    with its TENSOR_MATCH). Before, the fake's None was folded, and the entry kept answering
    None after a backward."""
    torch = real_torch()
    compiled = tracer.compile(grad_or_zero)
    x = torch.ones(3, requires_grad=True)
    assert torch.equal(compiled(x), grad_or_zero(x))
    (x * 5).sum().backward()
    assert torch.equal(compiled(x), torch.full((3,), 10.0))
    x.grad = None
    assert torch.equal(compiled(x), torch.zeros(3))
    assert len(compiled.entries) == 2


def test_a_hand_written_sgd_step() -> None:
    torch = real_torch()
    torch.manual_seed(0)
    eager_model = torch.nn.Linear(4, 2)
    model = torch.nn.Linear(4, 2)
    model.load_state_dict(eager_model.state_dict())
    compiled = tracer.compile(sgd_step)
    x = torch.randn(3, 4)
    for _ in range(3):
        for m in (eager_model, model):
            m.zero_grad(set_to_none=False)
            m(x).pow(2).sum().backward()
        sgd_step(eager_model, 0.1)
        compiled(model, 0.1)
        for a, b in zip(model.parameters(), eager_model.parameters(), strict=True):
            assert torch.allclose(a, b)


def autograd_facts(x: Any) -> Any:
    return x.is_leaf, x.grad_fn is None, x.retains_grad, x * 1


def test_leafness_of_an_input_is_guarded() -> None:
    """A leaf and a non-leaf tensor that requires grad pass the same TENSOR_MATCH: `is_leaf`,
    `retains_grad` and a None `grad_fn` are read at their sources and guarded."""
    torch = real_torch()
    compiled = tracer.compile(autograd_facts)
    leaf = torch.randn(3, requires_grad=True)
    inner = leaf * 2
    for x in (leaf, inner, leaf):
        assert compiled(x)[:3] == autograd_facts(x)[:3]
    inner.retain_grad()
    assert compiled(inner)[:3] == autograd_facts(inner)[:3] == (False, False, True)


@pytest.mark.parametrize(
    "name", ["__hash__", "__repr__", "__str__", "data_ptr", "const_data_ptr", "_use_count"]
)
def test_what_a_method_says_of_the_tensor_object_is_eager_s(name: str) -> None:
    """Run on the fake, these answered for it: `FakeTensor(..., size=(3,))`, a data pointer of
    0, the fake's hash. They break the graph and run eagerly."""
    torch = real_torch()

    def asks(x: Any) -> Any:
        return getattr(x, name)()

    compiled = tracer.compile(asks)
    for x in (torch.randn(3), torch.randn(3), torch.randn(2, 2)):
        got, expected = compiled(x), asks(x)
        assert got == expected or name == "_use_count", (got, expected)
    assert tracer.explain(asks)(x).graph_count == 0


def test_grad_dtype_of_a_non_leaf_raises_as_eagerly() -> None:
    torch = real_torch()

    def reads(x: Any) -> Any:
        return x.grad_dtype

    compiled = tracer.compile(reads)
    leaf = torch.randn(2, requires_grad=True)
    assert compiled(leaf) == torch.float32
    with pytest.raises(RuntimeError, match="grad_dtype can only be accessed on leaf tensors"):
        compiled(leaf * 2)


def l2_penalty(model: Any) -> Any:
    return sum(p.pow(2).sum() for p in model.parameters())


def test_the_parameters_of_a_module_inside_a_compiled_function() -> None:
    """`Module.parameters()` keeps a set of the tensors it met (`memo.add(p)`): a tensor input
    in a set or as a dict key is itself, hashed by identity and pinned by ID_MATCH, as an
    object of the inputs is. Before, the frame ran eagerly (Dynamo: 1 graph). A weight tied to
    another is met twice and counted once, and tying or untying it later misses."""
    torch = real_torch()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(l2_penalty)(model)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons
    compiled = tracer.compile(l2_penalty)
    assert torch.allclose(compiled(model), l2_penalty(model))
    model[1].weight = model[0].weight  # tied: counted once
    assert torch.allclose(compiled(model), l2_penalty(model))
    model[1].weight = torch.nn.Parameter(torch.ones(4, 4))
    assert torch.allclose(compiled(model), l2_penalty(model))


def _doubled(grad: Any) -> Any:
    return grad * 2


def hooks_its_input(x: Any) -> Any:
    x.register_hook(_doubled)
    return (x * 3).sum()


def test_a_hook_registered_in_the_frame_is_on_the_real_tensor() -> None:
    """Run on the fake, `register_hook` hooked the fake: the real tensor's gradient was not
    doubled."""
    torch = real_torch()
    x = torch.ones(2, requires_grad=True)
    tracer.compile(hooks_its_input)(x).backward()
    assert torch.equal(x.grad, torch.full((2,), 6.0))


def test_is_set_to_between_inputs_is_eager_s() -> None:
    torch = real_torch()

    def same_storage(x: Any, y: Any) -> Any:
        return x.is_set_to(y)

    compiled = tracer.compile(same_storage)
    a, c = torch.randn(3), torch.randn(3)
    assert [compiled(a, c), compiled(a, a)] == [False, True]


def zero_grad_then_call(model: Any, x: Any) -> Any:
    model.zero_grad()
    return model(x), [p.grad is None for p in model.parameters()]


def test_setting_an_input_s_grad_to_none() -> None:
    """`p.grad = None` (`Module.zero_grad()`) is a side effect the compiled code replays, and
    later reads of `p.grad` in the trace are None. Before, the store broke the graph."""
    torch = real_torch()
    model = torch.nn.Linear(3, 2)
    x = torch.randn(4, 3)
    compiled = tracer.compile(zero_grad_then_call)
    for _ in range(3):
        model(x).sum().backward()
        got, nones = compiled(model, x)
        assert nones == [True, True] and all(p.grad is None for p in model.parameters())
        assert torch.equal(got, model(x))
    model(x).sum().backward()
    assert not tracer.explain(zero_grad_then_call)(model, x).break_reasons

    def sets_a_grad(t: Any) -> Any:
        t.grad = t * 0
        return t

    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(sets_a_grad)(torch.ones(2, requires_grad=True))
    assert comparison.results_agree, comparison  # any other store runs eagerly


def test_a_grad_set_to_none_then_read_under_a_mode_runs_eagerly() -> None:
    """A mode pushed after `p.grad = None` would be handed `Tensor.grad.__get__`, which sees
    the real gradient: the read breaks, and the frame gives eager's answer."""
    torch = real_torch()
    from tests.torch_adapter.grad_programs import Names

    def clears_then_reads(p: Any) -> Any:
        p.grad = None
        with Names() as mode:
            seen = p.grad
        return seen, mode.names

    p = torch.ones(2, requires_grad=True)
    (p * 2).sum().backward()
    got = tracer.compile(clears_then_reads)(p)
    (p * 2).sum().backward()
    assert got == clears_then_reads(p) == (None, ["__get__"])
