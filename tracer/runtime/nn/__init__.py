"""`torch.nn` for the runtime: Module, Parameter, the common layers, `functional` and `init`.

There is no autograd: parameters carry `requires_grad` (metadata only), and nothing computes
gradients.
"""

from tracer.runtime.nn import functional, init
from tracer.runtime.nn.activation import GELU, ReLU, Sigmoid, SiLU, Tanh
from tracer.runtime.nn.container import ModuleDict, ModuleList, Sequential
from tracer.runtime.nn.dropout import Dropout
from tracer.runtime.nn.linear import Identity, Linear
from tracer.runtime.nn.module import Module
from tracer.runtime.nn.normalization import LayerNorm
from tracer.runtime.nn.parameter import Parameter
from tracer.runtime.nn.sparse import Embedding

__all__ = [
    "GELU",
    "Dropout",
    "Embedding",
    "Identity",
    "LayerNorm",
    "Linear",
    "Module",
    "ModuleDict",
    "ModuleList",
    "Parameter",
    "ReLU",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "Tanh",
    "functional",
    "init",
]
