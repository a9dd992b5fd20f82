"""A user class's `__getattr__` is traced: when the ordinary lookup finds nothing (the instance
dict and the classes guarded to still lack the name), the compiled code does what CPython does,
`type(obj).__getattr__(obj, name)`, inlined like any method, with its side effects replayed and
an AttributeError it raises seen by `hasattr`, `getattr(o, n, default)` and `try`. It used to
break the frame ("defines __getattr__"). A special name is not asked of it (the tracer looks
those up for CPython's implicit lookups, which skip `__getattr__`): that read still breaks.
Later changes recompile: the attribute set on the instance or a class, `__getattr__` replaced,
removed, or added to a subclass."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import CompileCounter, assert_same_behavior


class Namespace:
    """Missing names read as their upper case and are recorded; names starting with `x` are
    missing for good (AttributeError, after being recorded)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)
        self.log: list[str] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Namespace:
        """(The test harness copies inputs; copying asks nothing of `__getattr__`.)"""
        copied = Namespace(**{k: v for k, v in self.__dict__.items() if k != "log"})
        copied.log = list(self.log)
        return copied

    def __getattr__(self, name: str) -> Any:
        self.log.append(name)
        if name.startswith("x"):
            raise AttributeError(f"no {name}")
        return name.upper()


def reads(o: Namespace) -> Any:
    return o.a, o.k, o.log


def asks(o: Namespace) -> Any:
    return hasattr(o, "b"), hasattr(o, "xb"), getattr(o, "xz", "default"), o.log


def catches(o: Namespace) -> Any:
    try:
        return o.xq
    except AttributeError as e:
        return str(e), o.log


def raises(o: Namespace) -> Any:
    return o.xq


def with_a_tensor(o: Namespace, t: Any) -> Any:
    return t * len(o.abc), o.log


class Forwarding:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __deepcopy__(self, memo: dict[int, Any]) -> Forwarding:
        return Forwarding(self.inner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def forwards(f: Forwarding) -> Any:
    return f.real, f.imag, f.bit_length()


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (reads, lambda: (Namespace(k=1),)),
        (asks, lambda: (Namespace(),)),
        (catches, lambda: (Namespace(),)),
        (raises, lambda: (Namespace(),)),
        (with_a_tensor, lambda: (Namespace(), torch.ones(2))),
        (forwards, lambda: (Forwarding(5),)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_getattr_is_traced_whole(fn: Any, args: Any) -> None:
    check(fn, *args())


def reads_a_special_name(o: Namespace) -> Any:
    try:
        return o.__missing_thing__
    except AttributeError as e:
        return str(e), o.log


def test_a_special_name_still_breaks() -> None:
    with CompileCounter() as counter:
        assert_same_behavior(reads_a_special_name, Namespace(), compile_options={})
    assert any("defines __getattr__" in r for r in counter.graph_break_reasons)


class Plain:
    pass


class Base:
    def __getattr__(self, name: str) -> Any:
        return "base " + name


class Derived(Base):
    pass


def read_z(o: Any) -> Any:
    try:
        return o.z
    except AttributeError as e:
        return "error: " + str(e)


@pytest.mark.parametrize(
    ("make", "change"),
    [
        (Namespace, lambda o: setattr(o, "z", "set on the instance")),
        (Namespace, lambda o: setattr(Namespace, "z", "set on the class")),
        (Derived, lambda o: setattr(Derived, "__getattr__", lambda self, n: "derived " + n)),
        (Derived, lambda o: setattr(Base, "__getattr__", lambda self, n: "replaced " + n)),
        (Plain, lambda o: setattr(Plain, "__getattr__", lambda self, n: "added " + n)),
    ],
)
def test_a_change_after_the_compile_is_seen(make: Any, change: Any) -> None:
    saved = {cls: dict(vars(cls)) for cls in (Namespace, Base, Derived, Plain)}
    try:
        tracer.reset()
        compiled = tracer.compile(read_z)
        obj = make()
        assert compiled(obj) == read_z(obj)
        change(obj)
        assert compiled(obj) == read_z(obj)
    finally:
        for cls, attrs in saved.items():
            for name in set(vars(cls)) - set(attrs):
                delattr(cls, name)
            for name in ("__getattr__", "z"):
                if name in attrs and vars(cls).get(name) is not attrs[name]:
                    setattr(cls, name, attrs[name])
