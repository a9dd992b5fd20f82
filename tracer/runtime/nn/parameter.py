"""`nn.Parameter`: a Tensor that a Module registers as a parameter when assigned to it."""

from __future__ import annotations

from tracer.runtime import dtypes as dt
from tracer.runtime.tensor import Tensor


class Parameter(Tensor):
    """Shares `data`'s storage (as torch's does) and requires grad by default. Ops on a
    Parameter return plain Tensors.

    >>> Parameter(Tensor([1.0], (1,), dt.float32))
    Parameter containing:
    tensor([1.], requires_grad=True)
    """

    __slots__ = ()
    _keeps_class = False

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        source = data if data is not None else Tensor._make([], (0,), dt.float32)
        self._storage = source._storage
        self._view = source._view
        self._shape = source._shape
        self._dtype = source._dtype
        self.requires_grad = requires_grad

    def __repr__(self) -> str:
        return f"Parameter containing:\n{super().__repr__()}"
