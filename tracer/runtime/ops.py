"""The public, mode-overridable op functions (`torch.add`...) and the `OPS` registry.

Each is `function_op(impl)` over the mode-free implementation in `aten` or `factories`, so
`OPS[name].__modetrace_op__.impl` is what a compiled graph calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.runtime import aten, aten_nn, factories
from tracer.runtime.overridable import function_op

add = function_op(aten.add)
sub = function_op(aten.sub)
mul = function_op(aten.mul)
div = function_op(aten.div)
pow = function_op(aten.pow)
maximum = function_op(aten.maximum)
minimum = function_op(aten.minimum)
eq = function_op(aten.eq)
ne = function_op(aten.ne)
lt = function_op(aten.lt)
le = function_op(aten.le)
gt = function_op(aten.gt)
ge = function_op(aten.ge)
where = function_op(aten.where)
floor_divide = function_op(aten.floor_divide)
remainder = function_op(aten.remainder)
bitwise_and = function_op(aten.bitwise_and)
bitwise_or = function_op(aten.bitwise_or)
bitwise_xor = function_op(aten.bitwise_xor)
bitwise_left_shift = function_op(aten.bitwise_left_shift)
bitwise_right_shift = function_op(aten.bitwise_right_shift)
bitwise_not = function_op(aten.bitwise_not)
positive = function_op(aten.positive)

neg = function_op(aten.neg)
abs = function_op(aten.abs)
relu = function_op(aten.relu)
exp = function_op(aten.exp)
log = function_op(aten.log)
sqrt = function_op(aten.sqrt)
sin = function_op(aten.sin)
cos = function_op(aten.cos)
tanh = function_op(aten.tanh)
sigmoid = function_op(aten.sigmoid)

sum = function_op(aten.sum)
mean = function_op(aten.mean)
amax = function_op(aten.amax)
matmul = function_op(aten.matmul)

reshape = function_op(aten.reshape)
transpose = function_op(aten.transpose)
permute = function_op(aten.permute)
unsqueeze = function_op(aten.unsqueeze)
squeeze = function_op(aten.squeeze)
cat = function_op(aten.cat)
stack = function_op(aten.stack)
clone = function_op(aten.clone)
detach = function_op(aten.detach)

softmax = function_op(aten_nn.softmax)
log_softmax = function_op(aten_nn.log_softmax)
einsum = function_op(aten_nn.einsum)
bmm = function_op(aten_nn.bmm)
clamp = function_op(aten_nn.clamp)
clip = function_op(aten_nn.clip)
max = function_op(aten_nn.max)
min = function_op(aten_nn.min)
amin = function_op(aten_nn.amin)
argmax = function_op(aten_nn.argmax)
argmin = function_op(aten_nn.argmin)
masked_fill = function_op(aten_nn.masked_fill)
flatten = function_op(aten_nn.flatten)
chunk = function_op(aten_nn.chunk)
split = function_op(aten_nn.split)
var = function_op(aten_nn.var)
std = function_op(aten_nn.std)
rsqrt = function_op(aten_nn.rsqrt)
erf = function_op(aten_nn.erf)

tensor = function_op(factories.tensor)
zeros = function_op(factories.zeros)
ones = function_op(factories.ones)
full = function_op(factories.full)
arange = function_op(factories.arange)
zeros_like = function_op(factories.zeros_like)
ones_like = function_op(factories.ones_like)
empty_like = function_op(factories.empty_like)
rand = function_op(factories.rand)
randn = function_op(factories.randn)
rand_like = function_op(factories.rand_like)
randn_like = function_op(factories.randn_like)

OPS: dict[str, Callable[..., Any]] = {
    name: fn
    for name, fn in list(globals().items())
    if getattr(fn, "__modetrace_op__", None) is not None
}
