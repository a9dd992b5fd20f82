"""`torch.nn.init`: in-place initializers drawing from the generator `manual_seed` seeds.

The distributions are torch's (kaiming-uniform bounds for Linear), but the random streams are
Python's `random`, not torch's: the same seed gives different numbers than torch does.
"""

from __future__ import annotations

import math

from tracer.runtime import aten_inplace, factories, grad_mode, kernels, meta
from tracer.runtime.tensor import Tensor


def _fill(tensor: Tensor, values: list[float]) -> Tensor:
    with grad_mode.no_grad():
        tensor._write(kernels.coerce(values, tensor._dtype))
    return tensor


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    return _fill(tensor, factories.uniform_values(meta.numel(tensor._shape), a, b))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    return _fill(tensor, factories.normal_values(meta.numel(tensor._shape), mean, std))


def zeros_(tensor: Tensor) -> Tensor:
    with grad_mode.no_grad():
        return aten_inplace.fill_(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    with grad_mode.no_grad():
        return aten_inplace.fill_(tensor, 1)


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if len(tensor._shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = meta.numel(tensor._shape[2:])
    return tensor._shape[1] * receptive, tensor._shape[0] * receptive


def kaiming_uniform_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in") -> Tensor:
    """Uniform on ±gain * sqrt(3 / fan), gain sqrt(2 / (1 + a²)) (leaky_relu's)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = math.sqrt(2.0 / (1 + a * a))
    bound = gain * math.sqrt(3.0 / fan) if fan else 0.0
    return uniform_(tensor, -bound, bound)
