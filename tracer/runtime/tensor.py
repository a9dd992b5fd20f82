"""`Tensor`: metadata, conversions to Python values, and the op methods torch code calls.

Invariant: a tensor's elements live in a `Storage`, a flat row-major list of Python numbers
already in the dtype's stored form (float32 values rounded to float32). A view (`x[0]`,
`x.view(...)`, `x.T`, `x.detach()`...) shares its base's Storage and lists which storage positions
its elements are (`_view`; None: the whole storage in order), so an in-place op on a view writes
the base, as in torch. A value list is never mutated: an in-place op builds a new list and puts it
in the Storage (`_write`), so plain ops may share lists freely. The Storage also holds the version
counter that `x._version` reads, shared by a base and all its views.
Op methods are thin bodies over `aten` (the mode-free implementations); `method_op` turns each
into the public, mode-overridable method; more of them live in `tensor_methods`.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Iterator, Sequence
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime.dtypes import Scalar
from tracer.runtime.metadata import CPU, Size
from tracer.runtime.metadata import device as _Device
from tracer.runtime.overridable import (
    accepts_operand,
    method_op,
    named,
    operator_method,
    operator_op,
    overridable_property,
)
from tracer.runtime.printing import tensor_repr
from tracer.runtime.tensor_methods import TensorMethods


class Storage:
    """The values a tensor and its views share (None for a FakeTensor), and their version
    counter, which each in-place write increments."""

    __slots__ = ("values", "version")

    def __init__(self, values: list[Any] | None) -> None:
        self.values = values
        self.version = 0

    def __repr__(self) -> str:
        return f"Storage(version={self.version}, size={len(self.values or ())})"


def _nest(data: list[Any], shape: tuple[int, ...]) -> list[Any]:
    if len(shape) == 1:
        return list(data)
    step = len(data) // shape[0] if shape[0] else 0
    return [_nest(data[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


class Tensor(TensorMethods):
    """An n-d array of one dtype. Build one with the factories (`tensor`, `zeros`...).

    >>> Tensor([1.0, 2.0, 3.0, 4.0], (2, 2), dt.float32)
    tensor([[1., 2.],
            [3., 4.]])
    """

    __slots__ = ("__weakref__", "_dtype", "_shape", "_storage", "_view", "requires_grad")

    _storage: Storage
    _view: list[int] | None
    _keeps_class = True
    """Whether views, copies and conversions of an instance are of its own class (a
    Parameter's are plain Tensors, as in torch)."""
    _shape: tuple[int, ...]
    _dtype: dt.dtype
    requires_grad: builtins.bool

    def __init__(
        self,
        data: Sequence[Any],
        shape: Sequence[int],
        dtype: dt.dtype,
        requires_grad: builtins.bool = False,
    ) -> None:
        shape = tuple(shape)
        if len(data) != math.prod(shape):
            raise ValueError(f"{len(data)} values cannot fill a tensor of shape {list(shape)}")
        self._data = _kernels.coerce(data, dtype)
        self._shape = shape
        self._dtype = dtype
        self.requires_grad = requires_grad

    @classmethod
    def _make(
        cls,
        data: list[Any] | None,
        shape: tuple[int, ...],
        dtype: dt.dtype,
        requires_grad: builtins.bool = False,
    ) -> Tensor:
        """Wrap data already in `dtype`'s stored form, without the checks and conversion of
        `__init__` (ops build their results this way)."""
        result: Tensor = object.__new__(cls)
        result._storage = Storage(data)
        result._view = None
        result._shape = shape
        result._dtype = dtype
        result.requires_grad = requires_grad
        return result

    # ------------------------------------------------------------ storage and views

    @property
    def _data(self) -> list[Any] | None:
        """This tensor's elements as a flat row-major list (None for a FakeTensor); do not
        mutate it (see the module docstring)."""
        values = self._storage.values
        if values is None or self._view is None:
            return values
        return [values[i] for i in self._view]

    @_data.setter
    def _data(self, data: list[Any] | None) -> None:
        """Give this tensor a storage of its own holding `data`."""
        self._storage = Storage(data)
        self._view = None

    def _view_as(
        self, shape: tuple[int, ...], order: list[int] | None, requires_grad: builtins.bool
    ) -> Tensor:
        """A view of `shape` sharing this tensor's storage: its elements are this tensor's
        elements at the row-major indices `order` (None: the same elements in the same order)."""
        result: Tensor = object.__new__(self._result_type())
        result._storage = self._storage
        if order is None:
            result._view = self._view
        else:
            mine = self._view
            result._view = order if mine is None else [mine[i] for i in order]
        result._shape = shape
        result._dtype = self._dtype
        result.requires_grad = requires_grad
        return result

    def _result_type(self) -> type[Tensor]:
        return type(self) if self._keeps_class else Tensor

    def _is_contiguous(self) -> builtins.bool:
        """Whether the elements are consecutive storage positions in row-major order."""
        view = self._view
        if not view:
            return True
        return view == list(range(view[0], view[0] + len(view)))

    def _write(self, values: list[Any] | None) -> None:
        """Replace this tensor's elements (already in its dtype's stored form) with `values`,
        through to the storage its base and views share, and count one version."""
        storage = self._storage
        if storage.values is not None and values is not None:
            if self._view is None:
                storage.values = values
            else:
                updated = list(storage.values)
                for position, value in zip(self._view, values, strict=True):
                    updated[position] = value
                storage.values = updated
        storage.version += 1

    @overridable_property
    def _version(self) -> int:
        """How many in-place writes this tensor's storage has seen (shared with its views)."""
        return self._storage.version

    # ------------------------------------------------------------ metadata
    # A mode sees a property read as torch's getter `Tensor.shape.__get__`; the runtime's own
    # code reads the slots (`_shape`, `_dtype`) so that no mode sees it.

    @overridable_property
    def shape(self) -> Size:
        return Size(self._shape)

    @overridable_property
    def dtype(self) -> dt.dtype:
        return self._dtype

    @overridable_property
    def device(self) -> _Device:
        return CPU

    @overridable_property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def is_fake(self) -> builtins.bool:
        """No data: the storage (which views share) holds no values."""
        return self._storage.values is None

    # Metadata methods are ops a mode sees, as in torch.

    @method_op
    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._shape)
        return self._shape[_meta.wrap_dim(dim, len(self._shape))]

    @method_op
    def dim(self) -> int:
        return len(self._shape)

    @method_op
    def numel(self) -> int:
        return math.prod(self._shape)

    @method_op
    def is_floating_point(self) -> builtins.bool:
        return self._dtype.is_floating_point

    @overridable_property
    def T(self) -> Tensor:
        return _aten.permute(self, tuple(range(len(self._shape) - 1, -1, -1)))

    # ------------------------------------------------------------ Python values

    def _values(self) -> list[Any]:
        """The flat data; FakeTensor overrides this to raise DataDependentError."""
        assert self._data is not None
        return self._data

    @method_op
    def item(self) -> Scalar:
        data = self._values()
        if len(data) != 1:
            raise RuntimeError(f"a Tensor with {len(data)} elements cannot be converted to Scalar")
        value: Scalar = data[0]
        return value

    @method_op
    def tolist(self) -> Any:
        data = self._values()
        return data[0] if not self._shape else _nest(data, self._shape)

    def _scalar(self) -> Scalar:
        data = self._values()
        if len(data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        value: Scalar = data[0]
        return value

    def _to_index(self) -> int:
        """`operator.index(t)` where no mode sees it (the runtime's own index arguments)."""
        if self._dtype.is_floating_point or len(self._values()) != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._scalar())

    # Python's conversions and `len` are ops a mode sees, as in torch; the runtime's own code
    # reads `_shape` and calls `_to_index` instead.

    @method_op
    def __bool__(self) -> builtins.bool:
        data = self._values()
        if len(data) != 1:
            what = "no values" if not data else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {what} is ambiguous")
        return builtins.bool(data[0])

    @method_op
    def __float__(self) -> builtins.float:
        return builtins.float(self._scalar())

    @method_op
    def __int__(self) -> int:
        return int(self._scalar())

    @method_op
    def __complex__(self) -> complex:
        return complex(self._scalar())

    @method_op
    def __index__(self) -> int:
        return self._to_index()

    def __format__(self, spec: str) -> str:
        if not self._shape and self._data is not None:
            return format(self._data[0], spec)
        return format(repr(self), spec)

    @method_op
    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        """As torch's (not an op itself): a mode sees `dim`, then `unbind`."""
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    @method_op
    def __setitem__(self, index: Any, value: Any) -> None:
        _inplace.setitem(self, index, value)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return tensor_repr(self._values(), self._shape, self._dtype, self.requires_grad)

    # ------------------------------------------------------------ arithmetic

    @method_op
    def add(self, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor:
        return _aten.add(self, other, alpha=alpha)

    @method_op
    def sub(self, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor:
        return _aten.sub(self, other, alpha=alpha)

    @method_op
    def mul(self, other: Tensor | Scalar) -> Tensor:
        return _aten.mul(self, other)

    @method_op
    def div(self, other: Tensor | Scalar) -> Tensor:
        return _aten.div(self, other)

    @method_op
    def pow(self, exponent: Tensor | Scalar) -> Tensor:
        return _aten.pow(self, exponent)

    @method_op
    def floor_divide(self, other: Tensor | Scalar) -> Tensor:
        return _aten.floor_divide(self, other)

    @method_op
    def remainder(self, other: Tensor | Scalar) -> Tensor:
        return _aten.remainder(self, other)

    @method_op
    def bitwise_and(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_and(self, other)

    @method_op
    def bitwise_or(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_or(self, other)

    @method_op
    def bitwise_xor(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_xor(self, other)

    @method_op
    def bitwise_left_shift(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_left_shift(self, other)

    @method_op
    def bitwise_right_shift(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_right_shift(self, other)

    @method_op
    def bitwise_not(self) -> Tensor:
        return _aten.bitwise_not(self)

    @method_op
    def positive(self) -> Tensor:
        return _aten.positive(self)

    @method_op
    def maximum(self, other: Tensor) -> Tensor:
        return _aten.maximum(self, other)

    @method_op
    def minimum(self, other: Tensor) -> Tensor:
        return _aten.minimum(self, other)

    @method_op
    def matmul(self, other: Tensor) -> Tensor:
        return _aten.matmul(self, other)

    @method_op
    def neg(self) -> Tensor:
        return _aten.neg(self)

    @method_op
    def abs(self) -> Tensor:
        return _aten.abs(self)

    @method_op
    def relu(self) -> Tensor:
        return _aten.relu(self)

    @method_op
    def exp(self) -> Tensor:
        return _aten.exp(self)

    @method_op
    def log(self) -> Tensor:
        return _aten.log(self)

    @method_op
    def sin(self) -> Tensor:
        return _aten.sin(self)

    @method_op
    def cos(self) -> Tensor:
        return _aten.cos(self)

    @method_op
    def tanh(self) -> Tensor:
        return _aten.tanh(self)

    @method_op
    def sigmoid(self) -> Tensor:
        return _aten.sigmoid(self)

    @method_op
    def sqrt(self) -> Tensor:
        return _aten.sqrt(self)

    @method_op
    def where(self, condition: Tensor, other: Tensor | Scalar) -> Tensor:
        return _aten.where(condition, self, other)

    # ------------------------------------------------------------ comparisons

    @method_op
    def eq(self, other: Tensor | Scalar) -> Tensor:
        return _aten.eq(self, other)

    @method_op
    def ne(self, other: Tensor | Scalar) -> Tensor:
        return _aten.ne(self, other)

    @method_op
    def lt(self, other: Tensor | Scalar) -> Tensor:
        return _aten.lt(self, other)

    @method_op
    def le(self, other: Tensor | Scalar) -> Tensor:
        return _aten.le(self, other)

    @method_op
    def gt(self, other: Tensor | Scalar) -> Tensor:
        return _aten.gt(self, other)

    @method_op
    def ge(self, other: Tensor | Scalar) -> Tensor:
        return _aten.ge(self, other)

    # ------------------------------------------------------------ reductions

    @method_op
    def sum(self, dim: int | Sequence[int] | None = None, keepdim: builtins.bool = False) -> Tensor:
        return _aten.sum(self, dim, keepdim)

    @method_op
    def mean(
        self, dim: int | Sequence[int] | None = None, keepdim: builtins.bool = False
    ) -> Tensor:
        return _aten.mean(self, dim, keepdim)

    @method_op
    def amax(self, dim: int | Sequence[int] = (), keepdim: builtins.bool = False) -> Tensor:
        return _aten.amax(self, dim, keepdim)

    # ------------------------------------------------------------ shapes

    @method_op
    def reshape(self, *shape: Any) -> Tensor:
        return _aten.reshape(self, _meta.size_args(shape, "shape"))

    @method_op
    def view(self, *shape: Any) -> Tensor:
        return _aten.reshape(self, _meta.size_args(shape, "shape"))

    @method_op
    def transpose(self, dim0: int, dim1: int) -> Tensor:
        return _aten.transpose(self, dim0, dim1)

    @method_op
    def permute(self, *dims: Any) -> Tensor:
        return _aten.permute(self, _meta.size_args(dims, "dims"))

    @method_op
    def unsqueeze(self, dim: int) -> Tensor:
        return _aten.unsqueeze(self, dim)

    @method_op
    def squeeze(self, dim: int | Sequence[int] | None = None) -> Tensor:
        return _aten.squeeze(self, dim)

    @method_op
    def unbind(self, dim: int = 0) -> tuple[Tensor, ...]:
        return _aten.unbind(self, dim)

    @method_op
    def contiguous(self) -> Tensor:
        """The tensor itself, always: a tracer's fake input does not know whether the real one
        is a view of scattered elements, so `x.contiguous() is x` must not depend on it."""
        return self

    @method_op
    def clone(self) -> Tensor:
        return _aten.clone(self)

    @method_op
    def detach(self) -> Tensor:
        return _aten.detach(self)

    # ------------------------------------------------------------ dtype conversions

    @method_op
    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """`to(dtype)`, `to(other_tensor)`; device arguments are accepted and ignored."""
        target = kwargs.pop("dtype", None)
        for arg in args:
            if isinstance(arg, dt.dtype):
                target = arg
            elif isinstance(arg, Tensor):
                target = arg._dtype
        return self if target is None else _aten.to(self, target)

    @method_op
    def float(self) -> Tensor:
        return _aten.to(self, dt.float32)

    @method_op
    def double(self) -> Tensor:
        return _aten.to(self, dt.float64)

    @method_op
    def long(self) -> Tensor:
        return _aten.to(self, dt.int64)

    @method_op
    def bool(self) -> Tensor:
        return _aten.to(self, dt.bool_)

    # ------------------------------------------------------------ operators
    # A mode sees what torch hands it: the method an operator computes with, the tensor first
    # (`2 + x` is `add(x, 2)`, `2 < x` is `gt(x, 2)`); the reflected operators whose operands
    # do not commute are methods of their own (`2 - x` is `__rsub__(x, 2)`, `2 / x` is
    # `__rdiv__(x, 2)`), `==` stays `__eq__`, and `x ** y` is `__pow__` named `pow`, as in torch.
    # Those see the mode even for an operand they answer NotImplemented to (as torch's do).

    __add__ = operator_method(add, "__add__")
    __radd__ = operator_method(add, "__radd__")
    __sub__ = operator_method(sub, "__sub__")
    __mul__ = operator_method(mul, "__mul__")
    __rmul__ = operator_method(mul, "__rmul__")
    __truediv__ = operator_method(div, "__truediv__")
    __matmul__ = operator_method(matmul, "__matmul__")
    __neg__ = operator_method(neg, "__neg__")
    __pos__ = operator_method(positive, "__pos__")
    __mod__ = operator_method(remainder, "__mod__")
    __rand__ = operator_method(bitwise_and, "__rand__")
    __ror__ = operator_method(bitwise_or, "__ror__")
    __rxor__ = operator_method(bitwise_xor, "__rxor__")
    __abs__ = operator_method(abs, "__abs__")
    __ne__ = operator_method(ne, "__ne__")
    __lt__ = operator_method(lt, "__lt__")
    __le__ = operator_method(le, "__le__")
    __gt__ = operator_method(gt, "__gt__")
    __ge__ = operator_method(ge, "__ge__")

    @method_op
    def __rsub__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.sub(other, self)

    @method_op
    def __rdiv__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.div(other, self)

    __rtruediv__ = __rdiv__

    @named("pow")
    @method_op
    def __pow__(self, exponent: object) -> Any:
        if not accepts_operand(exponent):
            return NotImplemented
        return _aten.pow(self, exponent)

    @method_op
    def __rpow__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.pow(other, self)

    @method_op
    def __floordiv__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.floor_divide(self, other)

    @method_op
    def __rfloordiv__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.floor_divide(other, self)

    @method_op
    def __rmod__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.remainder(other, self)

    @method_op
    def __rlshift__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.bitwise_left_shift(other, self)

    @method_op
    def __rrshift__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        return _aten.bitwise_right_shift(other, self)

    # torch's C operators of their own name: NotImplemented for an operand that is neither a
    # tensor nor a number, before any mode sees the call (`operator_op`)

    @operator_op
    def __and__(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_and(self, other)

    @operator_op
    def __or__(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_or(self, other)

    @operator_op
    def __xor__(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_xor(self, other)

    @operator_op
    def __lshift__(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_left_shift(self, other)

    @operator_op
    def __rshift__(self, other: Tensor | Scalar) -> Tensor:
        return _aten.bitwise_right_shift(self, other)

    @method_op
    def __invert__(self) -> Tensor:
        if self._dtype.is_floating_point:
            raise TypeError(
                "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
            )
        return _aten.bitwise_not(self)

    @method_op
    def __eq__(self, other: object) -> Any:
        if not accepts_operand(other):
            return NotImplemented  # so `t == None` is False, as in torch
        return _aten.eq(self, other)

    @method_op
    def __getitem__(self, index: Any) -> Tensor:
        return _aten.getitem(self, index)


# These build Tensors, so they are imported once the class exists.
from tracer.runtime import aten as _aten  # noqa: E402
from tracer.runtime import aten_inplace as _inplace  # noqa: E402
from tracer.runtime import tensor_methods as _tensor_methods  # noqa: E402

_tensor_methods.load_ops()
from tracer.runtime import kernels as _kernels  # noqa: E402
from tracer.runtime import meta as _meta  # noqa: E402
