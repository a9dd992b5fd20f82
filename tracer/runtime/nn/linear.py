"""Linear layers: `Identity` and `Linear`."""

from __future__ import annotations

import math
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime import factories
from tracer.runtime.nn import functional as F
from tracer.runtime.nn import init
from tracer.runtime.nn.module import Module
from tracer.runtime.nn.parameter import Parameter
from tracer.runtime.tensor import Tensor


def _empty(*shape: int, dtype: dt.dtype | None = None) -> Tensor:
    return factories.zeros(*shape, dtype=dtype)


class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """y = x @ weight.T + bias; weight and bias uniform on ±1/sqrt(in_features), as torch's
    (kaiming-uniform with a = sqrt(5))."""

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, dtype: Any = None
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features else 0.0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )
