"""Every public op carries an OpInfo whose `impl` computes the same result without modes."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.runtime import OpInfo
from tracer.runtime.overridable import operator_target
from tracer.runtime.overrides import BaseTorchFunctionMode, op_info

METHOD_OPS = sorted(
    name for name, value in vars(torch.Tensor).items() if op_info(value) is not None
)
METADATA = [
    "__repr__",
    "__hash__",
]


class Refuse(BaseTorchFunctionMode):
    def __torch_function__(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("impl must not dispatch to modes")


def test_registry_holds_every_public_function() -> None:
    assert torch.OPS["add"] is torch.add and len(torch.OPS) >= 45
    for name, fn in torch.OPS.items():
        info = op_info(fn)
        assert isinstance(info, OpInfo) and info.name == name and info.kind == "function"
        assert getattr(torch, name) is fn and info.qualname == f"torch.{name}"


def test_methods_and_operators_carry_op_info() -> None:
    expected = {
        "add",
        "sin",
        "reshape",
        "view",
        "__rsub__",
        "__rdiv__",
        "__getitem__",
        "__rpow__",
        "__eq__",
        "float",
        "bool",
        "to",
        "sum",
    }
    assert expected <= set(METHOD_OPS)
    for name in METHOD_OPS:
        method = getattr(torch.Tensor, name)
        info = op_info(method)
        assert info is not None and info.kind == "method"
        assert getattr(torch.Tensor, info.name) is method  # `__rtruediv__` is `__rdiv__`
    for name in METADATA:
        assert op_info(getattr(torch.Tensor, name, None)) is None, name
    for name in ("shape", "dtype", "device", "ndim", "T"):  # a mode sees `Tensor.shape.__get__`
        getter = getattr(torch.Tensor, name).__get__
        info = op_info(getter)
        assert info is not None and info.kind == "property" and info.name == name
        assert getter is getattr(torch.Tensor, name).__get__
    for name in ("__len__", "__bool__", "__float__", "__int__", "__index__", "__complex__"):
        assert name in METHOD_OPS


def test_operators_call_the_public_method() -> None:
    tensor = torch.Tensor
    pairs = {"__add__": tensor.add, "__radd__": tensor.add, "__mul__": tensor.mul}
    pairs |= {"__rmul__": tensor.mul, "__truediv__": tensor.div, "__neg__": tensor.neg}
    pairs |= {"__matmul__": tensor.matmul, "__ne__": tensor.ne, "__gt__": tensor.gt}
    for name, method in pairs.items():
        dunder = getattr(tensor, name)
        assert op_info(dunder) is None and operator_target(dunder) is method, name
        assert dunder.__name__ == name and dunder.__qualname__ == f"Tensor.{name}"


@pytest.mark.parametrize("name", ["add", "__rsub__", "__getitem__", "sum", "reshape"])
def test_method_impl_skips_modes_and_matches(name: str) -> None:
    x = torch.arange(6).reshape(2, 3)
    arg = {
        "add": (x,),
        "__rsub__": (1,),
        "__getitem__": ((slice(None), 1),),
        "sum": (0,),
        "reshape": (3, 2),
    }[name]
    public = getattr(torch.Tensor, name)
    info = op_info(public)
    assert info is not None
    expected = public(x, *arg)
    with Refuse():
        got = info.impl(x, *arg)
    assert got.tolist() == expected.tolist() and got.shape == expected.shape


def test_function_impl_skips_modes() -> None:
    a, b = torch.ones(2, 2), torch.ones(2)
    with Refuse():
        out = op_info(torch.matmul).impl(a, b)  # type: ignore[union-attr]
    assert out.tolist() == [2.0, 2.0]
    assert repr(op_info(torch.add)) == "OpInfo(torch.add, kind='function')"
