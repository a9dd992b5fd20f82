"""CPython calls a special method implicitly (`len(o)`, `bool(o)`, `o()`, `with o:`) through
the object's type only: an instance attribute of that name is not seen. The trace read such
calls through the object's attributes, so an instance attribute `__call__`, `__len__`,
`__bool__`, `__enter__` or `__exit__` took over (a `__exit__` returning True swallowed the
exception). And `with` on an object lacking `__enter__` or `__exit__` raises CPython's
TypeError, with its "(missed __exit__ method)" for the second."""

from __future__ import annotations

from typing import Any

import pytest

from tracer.testing import assert_same_behavior


class Full:
    def __call__(self) -> str:
        return "class call"

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        return 3

    def __enter__(self) -> str:
        return "class enter"

    def __exit__(self, *exc: object) -> bool:
        return False


def shadowed() -> Full:
    obj = Full()
    obj.__call__ = lambda: "instance call"  # type: ignore[method-assign]
    obj.__bool__ = lambda: False  # type: ignore[method-assign]
    obj.__len__ = lambda: 9  # type: ignore[method-assign]
    obj.__enter__ = lambda: "instance enter"  # type: ignore[method-assign]
    obj.__exit__ = lambda *exc: True  # type: ignore[method-assign]
    return obj


def implicit_calls(obj: Any) -> Any:
    return obj(), bool(obj), len(obj), 1 if obj else 2, obj.__len__()


def with_raising(obj: Any) -> Any:
    with obj as entered:
        raise KeyError(entered)


def test_implicit_calls_use_the_class() -> None:
    assert_same_behavior(implicit_calls, shadowed())


def test_with_uses_the_class() -> None:
    assert_same_behavior(with_raising, shadowed())


class OnlyExit:
    def __exit__(self, *exc: object) -> None:
        return None


class OnlyEnter:
    def __enter__(self) -> None:
        return None


def with_block(obj: Any) -> Any:
    with obj:
        return "inside"


@pytest.mark.parametrize("cls", [OnlyExit, OnlyEnter])
def test_with_an_incomplete_context_manager(cls: type) -> None:
    assert_same_behavior(with_block, cls(), compile_options={"fullgraph": True})
