"""Turning a plain implementation into a public, mode-overridable callable.

Every public op is `wrapper(impl)`: with no mode to call (the common case) the wrapper costs one
truth test on the thread's dispatch view and a call; otherwise the top mode is popped for the
duration of its `__torch_function__` (as torch's `_pop_mode_temporarily`) and pushed back in
`finally`. The wrapper carries `__modetrace_op__ = OpInfo(...)` so the tracer can call `impl`
directly and print `name`.

Most Tensor operators are not ops of their own: as in torch, `x + y`, `2 + x` and `x.__add__(y)`
all hand a mode `Tensor.add` with the tensor first. `operator_method(add, "__add__")` builds such
a dunder; it carries `__modetrace_operator__ = add` so the tracer dispatches and records `add`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, Literal, ParamSpec, TypeGuard, TypeVar

from tracer.runtime import _C

P = ParamSpec("P")
R = TypeVar("R")

OpKind = Literal["function", "method"]


@dataclasses.dataclass(frozen=True, slots=True)
class OpInfo:
    """What the tracer needs to know about a public op.

    `name` is the attribute name under the package (kind "function", e.g. "add") or under
    `Tensor` (kind "method", e.g. "add" or "__rsub__"); `impl` computes the same result without
    looking at the mode stack and accepts the same arguments as the public callable.

    >>> OpInfo("add", print, "function").qualname
    'torch.add'
    """

    name: str
    impl: Callable[..., Any]
    kind: OpKind

    @property
    def qualname(self) -> str:
        return f"torch.{self.name}" if self.kind == "function" else f"Tensor.{self.name}"

    def __repr__(self) -> str:
        return f"OpInfo({self.qualname}, kind={self.kind!r})"


def op_info(fn: object) -> OpInfo | None:
    """The OpInfo of a public op, or None for anything that is not one."""
    info = getattr(fn, "__modetrace_op__", None)
    return info if isinstance(info, OpInfo) else None


def _tensor_types(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[type, ...]:
    """The distinct Tensor types among the arguments, looking one level into lists and tuples
    (so `cat([a, b])` reports them), in order of first appearance."""
    found: dict[type, None] = {}
    for arg in (*args, *kwargs.values()):
        items = arg if isinstance(arg, list | tuple) else (arg,)
        found.update((type(x), None) for x in items if isinstance(x, _tensor.Tensor))
    return tuple(found)


def _call_top_mode(
    public: Callable[..., Any],
    impl: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    mode = _C._pop_torch_function_stack()
    try:
        result = mode.__torch_function__(public, _tensor_types(args, kwargs), args, kwargs)
    finally:
        _C._push_on_torch_function_stack(mode)
    if result is NotImplemented:
        return impl(*args, **kwargs)
    return result


def _overridable(impl: Callable[P, R], name: str, kind: OpKind) -> Callable[P, R]:
    state = _C._STATE

    @functools.wraps(impl)
    def public(*args: P.args, **kwargs: P.kwargs) -> R:
        if state.dispatch:
            result: R = _call_top_mode(public, impl, args, kwargs)
            return result
        return impl(*args, **kwargs)

    setattr(public, "__modetrace_op__", OpInfo(name, impl, kind))  # noqa: B010
    return public


def function_op(impl: Callable[P, R]) -> Callable[P, R]:
    """Make `impl` the public function `torch.<impl.__name__>`."""
    return _overridable(impl, impl.__name__, "function")


def method_op(impl: Callable[P, R]) -> Callable[P, R]:
    """Make `impl` (defined in the Tensor class body) the public method of the same name."""
    return _overridable(impl, impl.__name__, "method")


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
