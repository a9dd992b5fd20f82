"""Turning a plain implementation into a public, mode-overridable callable.

Every public op is `wrapper(impl)`: with no mode to call (the common case) the wrapper costs one
truth test on the thread's dispatch view and a call; otherwise the top mode is popped for the
duration of its `__torch_function__` (as torch's `_pop_mode_temporarily`) and pushed back in
`finally`. The wrapper carries `__modetrace_op__ = OpInfo(...)` so the tracer can call `impl`
directly and print `name`.

Most Tensor operators are not ops of their own: as in torch, `x + y`, `2 + x` and `x.__add__(y)`
all hand a mode `Tensor.add` with the tensor first. `operator_method(add, "__add__")` builds such
a dunder; it carries `__modetrace_operator__ = add` so the tracer dispatches and records `add`.
Torch's C operators of their own name (`__and__`, `__lshift__`) are `operator_op`s.

A Tensor property (`shape`, `dtype`, `T`...) is an `overridable_property`: as in torch, a mode
is handed its getter, `Tensor.shape.__get__`, called with the tensor alone.

`types`, the second argument of `__torch_function__`, follows torch's rule: torch passes the
tensor types (`(Tensor,)`) for what it hands a mode straight from the tensor (a property's
getter, a conversion like `__bool__` or `__len__`, a method that takes the tensor alone like
`neg` or `dim`, and the operators torch writes in Python like `__rsub__` or `__floordiv__`:
`TENSOR_TYPE_METHODS`), and `()` for every op whose arguments it parses against a signature
(`add`, `sum`, `__getitem__`, `__and__`, every `torch.<function>`), where a plain Tensor is not
an overloaded argument. A Tensor subclass among the arguments is listed in both cases.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, Generic, Literal, ParamSpec, TypeGuard, TypeVar, overload

from tracer.runtime import _C

P = ParamSpec("P")
R = TypeVar("R")

OpKind = Literal["function", "method", "property", "nn.functional"]

TENSOR_TYPE_METHODS = frozenset(
    {
        # methods that take the tensor alone
        *("neg", "abs", "relu", "exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt"),
        *("detach", "positive", "bitwise_not", "__invert__"),
        *("dim", "numel", "is_floating_point", "item", "tolist"),
        # conversions
        *("__bool__", "__float__", "__int__", "__index__", "__complex__", "__len__"),
        # the operators torch defines in Python
        *("__rsub__", "__rdiv__", "__pow__", "__rpow__", "__floordiv__", "__rfloordiv__"),
        *("__rmod__", "__rlshift__", "__rrshift__"),
        # more methods that take the tensor alone, and `split` (written in Python in torch)
        *("rsqrt", "erf", "relu_", "exp_", "zero_", "_version", "split"),
    }
)
"""The Tensor methods for which torch hands a mode the tensor types as `types` (see above)."""

PYTHON_FUNCTIONS = frozenset({"einsum", "split"})
"""`torch.<function>`s torch writes in Python, which hand a mode the tensor types as `types`."""

C_FUNCTIONALS = frozenset({"gelu", "linear"})
"""`torch.nn.functional.<function>`s that are C functions in torch, which hand a mode `()` as
`types` (the others are written in Python, and hand it the tensor types)."""


@dataclasses.dataclass(frozen=True, slots=True)
class OpInfo:
    """What the tracer needs to know about a public op.

    `name` is the attribute name under the package (kind "function", e.g. "add") or under
    `Tensor` (kind "method", e.g. "add" or "__rsub__"; kind "property", e.g. "shape", whose
    public callable is the getter `Tensor.shape.__get__`); `impl` computes the same result without
    looking at the mode stack and accepts the same arguments as the public callable.

    >>> OpInfo("add", print, "function").qualname
    'torch.add'
    """

    name: str
    impl: Callable[..., Any]
    kind: OpKind

    @property
    def qualname(self) -> str:
        if self.kind == "property":
            return f"Tensor.{self.name}.__get__"
        if self.kind == "nn.functional":
            return f"torch.nn.functional.{self.name}"
        return f"torch.{self.name}" if self.kind == "function" else f"Tensor.{self.name}"

    @property
    def passes_tensor_types(self) -> bool:
        """Whether torch hands a mode every tensor type among the arguments as `types`, or
        only the Tensor subclasses (see the module docstring)."""
        if self.kind == "nn.functional":
            return self.name not in C_FUNCTIONALS
        if self.kind == "function":
            return self.name in PYTHON_FUNCTIONS
        return self.kind == "property" or self.name in TENSOR_TYPE_METHODS

    def __repr__(self) -> str:
        return f"OpInfo({self.qualname}, kind={self.kind!r})"


def op_info(fn: object) -> OpInfo | None:
    """The OpInfo of a public op (a property's getter `Tensor.shape.__get__` included), or
    None for anything that is not one."""
    info = getattr(fn, "__modetrace_op__", None)
    return info if isinstance(info, OpInfo) else None


def _tensor_types(
    args: tuple[Any, ...], kwargs: Mapping[str, Any], plain_tensor: bool
) -> tuple[type, ...]:
    """The distinct Tensor types among the arguments, looking one level into lists and tuples
    (so `cat([a, b])` reports them), in order of first appearance; `Tensor` itself only if
    `plain_tensor`."""
    found: dict[type, None] = {}
    for arg in (*args, *kwargs.values()):
        items = arg if isinstance(arg, list | tuple) else (arg,)
        found.update((type(x), None) for x in items if isinstance(x, _tensor.Tensor))
    if not plain_tensor:
        found.pop(_tensor.Tensor, None)
    return tuple(found)


def _call_top_mode(
    public: Callable[..., Any],
    info: OpInfo,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    types = _tensor_types(args, kwargs, info.passes_tensor_types)
    mode = _C._pop_torch_function_stack()
    try:
        result = mode.__torch_function__(public, types, args, kwargs)
    finally:
        _C._push_on_torch_function_stack(mode)
    if result is NotImplemented:
        return info.impl(*args, **kwargs)
    return result


def _overridable(impl: Callable[P, R], name: str, kind: OpKind) -> Callable[P, R]:
    state = _C._STATE
    info = OpInfo(name, impl, kind)

    @functools.wraps(impl)
    def public(*args: P.args, **kwargs: P.kwargs) -> R:
        if state.dispatch:
            result: R = _call_top_mode(public, info, args, kwargs)
            return result
        return impl(*args, **kwargs)

    setattr(public, "__modetrace_op__", info)  # noqa: B010
    return public


def operator_op(impl: Callable[..., Any]) -> Callable[..., Any]:
    """Make `impl` (a binary operator dunder in the Tensor class body, e.g. `__and__`) a public
    method that a mode sees under its own name, as torch's C operators `__and__`, `__lshift__`:
    an operand that is neither a tensor nor a Python number gets NotImplemented before any mode
    sees the call. It is its own `operator_target`, so the tracer checks the operand too."""

    @functools.wraps(impl)
    def operator(self: Any, other: Any) -> Any:
        if not accepts_operand(other):
            return NotImplemented
        if _C._STATE.dispatch:
            return _call_top_mode(operator, info, (self, other), {})
        return impl(self, other)

    info = OpInfo(impl.__name__, impl, "method")
    setattr(operator, "__modetrace_op__", info)  # noqa: B010
    setattr(operator, "__modetrace_operator__", operator)  # noqa: B010
    return operator


def function_op(impl: Callable[P, R]) -> Callable[P, R]:
    """Make `impl` the public function `torch.<impl.__name__>`."""
    return _overridable(impl, impl.__name__, "function")


def functional_op(impl: Callable[P, R]) -> Callable[P, R]:
    """Make `impl` the public function `torch.nn.functional.<impl.__name__>`."""
    return _overridable(impl, impl.__name__, "nn.functional")


def method_op(impl: Callable[P, R]) -> Callable[P, R]:
    """Make `impl` (defined in the Tensor class body) the public method of the same name."""
    return _overridable(impl, impl.__name__, "method")


class overridable_property(Generic[R]):
    """A Tensor property whose reads a mode sees, as torch's: the mode is handed the getter
    `Tensor.<name>.__get__` (its `__name__` is `__get__`) with the tensor as the only argument.

    That getter is a function of each property's own (an instance attribute, so
    `Tensor.shape.__get__` is the same object on every read, and it carries the OpInfo);
    `fget` is the mode-free getter, which a graph calls."""

    def __init__(self, fget: Callable[[Any], R]) -> None:
        self.fget = fget
        self.info = info = OpInfo(fget.__name__, fget, "property")
        self.__doc__ = fget.__doc__
        setattr(fget, "__modetrace_op__", info)  # noqa: B010

        def getter(instance: Any, owner: type | None = None) -> R:
            if _C._STATE.dispatch:
                result: R = _call_top_mode(getter, info, (instance,), {})
                return result
            return fget(instance)

        getter.__name__ = "__get__"
        getter.__qualname__ = f"Tensor.{info.name}.__get__"
        setattr(getter, "__modetrace_op__", info)  # noqa: B010
        self.getter = getter
        vars(self)["__get__"] = getter  # what `Tensor.shape.__get__` reads

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> overridable_property[R]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> R: ...

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return self.getter(instance)

    def __repr__(self) -> str:
        return f"<overridable property Tensor.{self.info.name}>"


def named(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator giving a public op the `__name__` torch gives it: torch's `Tensor.__pow__` is
    a function of its own named `pow`, and a mode that checks `func.__name__` sees `pow`."""

    def rename(fn: Callable[P, R]) -> Callable[P, R]:
        setattr(fn, "__name__", name)  # noqa: B010
        return fn

    return rename


def operator_method(method: Callable[..., R], name: str) -> Callable[..., Any]:
    """A Tensor operator dunder that calls the public `method` with the tensor first, the way
    torch's C operators do: `__radd__(x, 2)` is `Tensor.add(x, 2)`, `__gt__` serves `2 < x` as
    `Tensor.gt(x, 2)`. An operand that is neither a tensor nor a Python number gets
    NotImplemented before any mode sees the call, so Python goes on with its operator protocol
    (the other operand's method, then its TypeError) as it does for torch."""

    def operator(self: Any, *other: Any) -> Any:
        if other and not accepts_operand(other[0]):
            return NotImplemented
        return method(self, *other)

    operator.__name__ = name
    operator.__qualname__ = f"Tensor.{name}"
    operator.__doc__ = f"`{name}` computes with the public `Tensor.{method.__name__}`."
    setattr(operator, "__modetrace_operator__", method)  # noqa: B010
    return operator


def accepts_operand(other: object) -> TypeGuard[_tensor.Tensor | int | float]:
    """Whether a Tensor operator made by `operator_method` computes with `other` (a tensor or
    a Python number) rather than answering NotImplemented."""
    return isinstance(other, _tensor.Tensor | int | float)


def operator_target(fn: object) -> Any:
    """The public op an operator dunder made by `operator_method` calls, else None."""
    return getattr(fn, "__modetrace_operator__", None)


# At the bottom, as a module: tensor.py imports this module's names at its top, and this
# module reads the Tensor class only when an op is called.
from tracer.runtime import tensor as _tensor  # noqa: E402
