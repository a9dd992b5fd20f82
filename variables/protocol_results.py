"""What CPython's `len`, `hash`, `bool` and `operator.length_hint` make of the value a user's
special method returned (`__len__` returning -1 or 2.0, `__hash__` returning 2**70 or -1,
`__bool__` returning 0): computed by CPython itself, on a stand-in object whose protocol
method returns that value, so the conversion and its errors are exactly CPython's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


class StandIn:
    """Returns a given value from its protocol method (a subclass names the method)."""

    def __init__(self, value: object) -> None:
        self.value = value


class Sized(StandIn):
    def __len__(self) -> Any:
        return self.value


class Hashed(StandIn):
    def __hash__(self) -> Any:
        return self.value


class Truthy(StandIn):
    def __bool__(self) -> Any:
        return self.value


class Hinted(StandIn):
    def __length_hint__(self) -> Any:
        return self.value


def protocol_result(
    tx: TranslatorBase,
    builtin: Any,
    stand_in: type[StandIn],
    result: VariableTracker,
    *default: int,
) -> Any:
    """What `builtin` (len, hash, bool, or `operator.length_hint` with its `default`) makes of
    a user method's `result`, computed by CPython on a stand-in; its error is the user's."""
    try:
        value = result.realize().as_python_constant()
    except NotConstantError:
        unimplemented("protocol", f"{builtin.__name__}() of a value known only at run time")
    return tx.run_user_operation(builtin, stand_in(value), *default)


def len_result(tx: TranslatorBase, result: VariableTracker) -> VariableTracker:
    """`len(obj)` from what `obj.__len__()` returned."""
    return ConstantVariable(protocol_result(tx, len, Sized, result))


def hash_result(tx: TranslatorBase, result: VariableTracker) -> VariableTracker:
    """`hash(obj)` from what `obj.__hash__()` returned."""
    return ConstantVariable(protocol_result(tx, hash, Hashed, result))
