"""Test-side helpers: a tensor to guard (the runtime's if present, else a stand-in with the same
slots), a hostile class that counts every user-code call, and `compile_guards`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from guards import CompiledGuards, Guard, GuardKind, LocalSource, Source
from tracer.exc import UserLocation


class _StandInDtype:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class _StandInTensor:
    __slots__ = ("__weakref__", "_data", "_dtype", "_shape", "requires_grad")


def _runtime() -> tuple[type, Any, Any]:
    try:
        tensor_module = importlib.import_module("tracer.runtime.tensor")
        dtypes = importlib.import_module("tracer.runtime.dtypes")
    except ImportError:
        return _StandInTensor, _StandInDtype("float32"), _StandInDtype("float64")
    return tensor_module.Tensor, dtypes.float32, dtypes.float64


Tensor, float32, float64 = _runtime()


def make_tensor(shape: tuple[int, ...], dtype: Any = None, requires_grad: bool = False) -> Any:
    """A tensor with just the guarded slots filled (no data needed to guard it)."""
    tensor = object.__new__(Tensor)
    tensor._data = None
    tensor._shape = shape
    tensor._dtype = float32 if dtype is None else dtype
    tensor.requires_grad = requires_grad
    return tensor


class Hostile:
    """Every hook that is user code counts its calls; guards must leave `calls` at zero."""

    calls = 0

    def __init__(self, **attrs: object) -> None:
        self.__dict__.update(attrs)

    def __eq__(self, other: object) -> bool:
        Hostile.calls += 1
        raise AssertionError("user __eq__ ran")

    def __hash__(self) -> int:
        Hostile.calls += 1
        raise AssertionError("user __hash__ ran")

    def __len__(self) -> int:
        Hostile.calls += 1
        raise AssertionError("user __len__ ran")

    def __getattr__(self, name: str) -> object:
        Hostile.calls += 1
        raise AssertionError(f"user __getattr__({name!r}) ran")

    def __repr__(self) -> str:
        Hostile.calls += 1
        raise AssertionError("user __repr__ ran")

    @property
    def prop(self) -> int:
        Hostile.calls += 1
        raise AssertionError("user property ran")


class HashableHostile(Hostile):
    """Usable as a dict key in a test frame (building the frame hashes it; guards must not)."""

    def __hash__(self) -> int:
        return id(self)


def at(line: int, text: str = "") -> UserLocation:
    return UserLocation("demo.py", line, "f", text)


def guard(kind: GuardKind, source: Source | str, expected: object, line: int = 0) -> Guard:
    src = LocalSource(source) if isinstance(source, str) else source
    return Guard(kind, src, expected, at(line) if line else None)


def compile_guards(
    guards: Iterable[Guard],
    *,
    f_globals: Mapping[str, object] | None = None,
    builtins: Mapping[str, object] | None = None,
    closure: Sequence[object] = (),
    mode_stack: list[object] | None = None,
) -> CompiledGuards:
    stack = [] if mode_stack is None else mode_stack
    fn: Callable[[], Sequence[object]] = lambda: stack  # noqa: E731
    return CompiledGuards(
        guards,
        f_globals={} if f_globals is None else f_globals,
        builtins={} if builtins is None else builtins,
        closure=closure,
        mode_stack_fn=fn,
    )
