"""CPython's own errors for attribute stores and reads that an instance's layout refuses: an
empty `__slots__` member, a new attribute on an instance with no `__dict__`.

The wording of these errors changes between CPython versions, so the tracer does not write it:
it does the same operation on a bare instance of the class (made with `object.__new__`, no
`__init__` run, every slot empty) and raises what CPython raised there as the user's error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from tracer.exc import unimplemented

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


def has_instance_dict(cls: type) -> bool:
    """Do instances of `cls` have a `__dict__` (no `__slots__` without it on some class)?"""
    return cls.__dictoffset__ != 0


def raise_on_bare_instance(
    tx: TranslatorBase, cls: type, what: str, access: Callable[[Any], object]
) -> NoReturn:
    """Raise, as the user's error, what `access(bare)` raises on a bare instance of `cls`.
    `what` names the access in a break reason: a class with `__del__` would see the bare
    instance die, and a class `object.__new__` cannot make has no bare instance."""
    if any("__del__" in klass.__dict__ for klass in cls.__mro__):
        unimplemented("slots", f"{what} of a class with __del__")
    try:
        bare: object = object.__new__(cls)
    except TypeError:
        unimplemented("slots", f"{what}: no bare instance")
    tx.run_user_operation(access, bare)
    raise AssertionError(f"{what} did not raise on a bare {cls.__name__}")
