"""A torch tensor has an attribute dict of its own (`p._is_sharded = True`, as libraries mark
parameters): an attribute read on an input tensor looks there before the methods of its class,
as eagerly. Before, the trace looked at the class only: `getattr(x, "tag", None)` was None for
a tensor carrying a `tag`, and a method shadowed on the instance was the class's."""

from __future__ import annotations

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
