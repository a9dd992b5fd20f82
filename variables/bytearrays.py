"""`bytearray`: a real bytearray does the work.

`BytearrayVariable.value` is a real bytearray with the modeled one's contents (its items are
ints, constants, so the real object is the whole model). Every method runs on it, by CPython:
one that changes it (`append`, `extend`, `b[i] = x`, `del b[i:j]`, `+=`, ...) changes the model,
and any other returns what CPython returns; iteration is CPython's iterator over it, which sees
later changes.

An input bytearray is guarded on its exact type and its contents (`tuple(L['b']) == (...)`), a
copy is modeled, and a change to it is replayed as `b[:] = <final contents>`. A change that
resizes it breaks the graph: a memoryview of it may exist, and CPython then refuses to resize.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, NotConstantError, VariableTracker
from variables.class_protocols import guard_folded_classes
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

CHANGING = frozenset(
    {
        "append", "extend", "insert", "pop", "remove", "reverse", "clear",
        "__setitem__", "__delitem__", "__iadd__", "__imul__",
    }
)  # fmt: skip
"""The methods of bytearray that change it."""


class BytearrayVariable(VariableTracker):
    """`BytearrayVariable(bytearray(b'ab'))` (see the module doc)."""

    __slots__ = ("value",)

    def __init__(self, value: bytearray, source: Source | None = None) -> None:
        super().__init__(source)
        self.value = value

    @property
    def is_new(self) -> bool:
        return self.source is None

    def python_type(self) -> type:
        return bytearray

    def as_python_constant(self) -> Any:
        return bytearray(self.value)  # a copy: what folds on it can't change the model

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return [ConstantVariable(b) for b in self.value]

    def truthy(self, tx: TranslatorBase) -> bool:
        return bool(self.value)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        attr = tx.run_user_operation(getattr, self.value, name)  # CPython's AttributeError
        if callable(attr):
            return GetAttrVariable(self, name)
        return builder.wrap_constant_result(attr)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name == "extend" and len(args) == 1 and not kwargs and iterable_object(tx, args[0]):
            # its items, asked after its length hint and checked one at a time
            args = [ConstantVariable(bytes(byte_values(tx, args[0], bytearray, hint=True)))]
        real_args = [_operand(a, self, name) for a in args]
        real_kwargs = {k: _operand(v, self, name) for k, v in kwargs.items()}
        method = tx.run_user_operation(getattr, self.value, name)
        # a class argument may be converted (`__index__`), iterated, compared or read as a
        # buffer by the method: with a changeable metaclass the frame breaks (not in CONSULTED)
        guard_folded_classes(
            tx, method, [*args, *kwargs.values()], [*real_args, *real_kwargs.values()]
        )
        if name in CHANGING:
            if not self.is_new:
                tx.output.side_effects.mutate_existing(tx, self, name)
            before = bytes(self.value)
            try:
                result = method(*real_args, **real_kwargs)
            except Exception as e:  # noqa: BLE001 - CPython's error is the user's
                if bytes(self.value) != before:
                    unimplemented("bytearray", f"bytearray.{name} changed it, then raised {e!r}")
                tx.raise_user_error(e)
            if not self.is_new and len(self.value) != len(before):
                unimplemented(
                    "bytearray",
                    f"bytearray.{name} resizes a bytearray from outside the frame: CPython "
                    "refuses that while a buffer of it is exported (a memoryview), and the "
                    "trace cannot see its exports",
                )
        else:
            result = tx.run_user_operation(partial(method, *real_args, **real_kwargs))
        if result is self.value:
            return self
        return builder.wrap_constant_result(result)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return

        def build() -> None:
            cg.load_function(bytearray)
            cg.load_const(bytes(self.value))
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"BytearrayVariable({self.value!r}){self._src()}"


def _operand(vt: VariableTracker, owner: BytearrayVariable, method: str) -> Any:
    """The real argument: the model's own bytearray for itself (`b.extend(b)`), else the
    constant."""
    vt = vt.realize()
    if vt is owner:
        return owner.value
    if isinstance(vt, BytearrayVariable):
        return vt.value
    try:
        return vt.as_python_constant()
    except NotConstantError:
        unimplemented("bytearray", f"bytearray.{method} with {vt!r}, which is not a constant")


def iterable_object(tx: TranslatorBase, vt: VariableTracker) -> bool:
    """An iterator, or a user object whose class defines `__iter__` and neither `__bytes__`
    nor `__index__` (guarded): `bytes(vt)` and `bytearray.extend(vt)` take its items one at a
    time."""
    from variables.iterators import IteratorVariable, user_iterator_class
    from variables.user_defined import UserDefinedObjectVariable

    vt = vt.realize()
    if isinstance(vt, IteratorVariable):
        return True
    if user_iterator_class(vt) is None or not isinstance(vt, UserDefinedObjectVariable):
        return False
    return not any(vt.special_method(tx, name)[1] for name in ("__bytes__", "__index__"))


def byte_values(
    tx: TranslatorBase, vt: VariableTracker, kind: type[bytes | bytearray], *, hint: bool
) -> list[int]:
    """The items of an iterable that is not a constant, pulled one at a time (after its length
    hint when the consumer asks one: `bytes()` and `bytearray.extend` do, `bytearray()` does
    not): an item that is not a byte raises `kind`'s own error at once, before the next item
    is pulled."""
    from variables.iterators import iterate_or_refuse
    from variables.length_hint import length_hint

    refused = f"cannot convert '{vt.python_type().__name__}' object to {kind.__name__}"
    it = iterate_or_refuse(tx, vt, refused)
    if hint:
        length_hint(tx, vt)  # (after `iter()`, as `sized_iterate` asks it)

    values = []
    while (item := it.next_item(tx)) is not None:
        try:
            value = item.realize().as_python_constant()
        except NotConstantError:
            unimplemented("bytearray", f"{kind.__name__}() of an item known only at run time")
        tx.run_user_operation(kind, (value,))  # CPython's TypeError or ValueError for it
        values.append(value)
    return values


def bytearray_binary_op(
    tx: TranslatorBase, fn: Any, a: VariableTracker, b: VariableTracker
) -> VariableTracker | None:
    """`b += x`, `b *= n`: the bytearray changes in place (every reference sees it); None for
    any other operation (a fold on copies gives CPython's result)."""
    a = a.realize()
    if isinstance(a, BytearrayVariable) and fn in _IN_PLACE:
        return a.call_method(tx, _IN_PLACE[fn], [b], {})
    return None


_IN_PLACE = {operator.iadd: "__iadd__", operator.imul: "__imul__"}


def make_bytearray(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`bytearray(...)`, made by CPython from the constant arguments (an iterable of ints that
    is not a constant gives its items)."""
    real_args: list[Any] = []
    for a in args:
        a = a.realize()
        if isinstance(a, BytearrayVariable):
            real_args.append(a.value)
        elif a.is_python_constant():
            real_args.append(a.as_python_constant())
        else:
            real_args.append(byte_values(tx, a, bytearray, hint=False))
    real_kwargs = {
        k: _operand(v, BytearrayVariable(bytearray()), "__init__") for k, v in kwargs.items()
    }
    # (`bytearray(C)` converts, iterates or reads a buffer of a class: see call_method)
    guard_folded_classes(
        tx, bytearray, [*args, *kwargs.values()], [*real_args, *real_kwargs.values()]
    )
    return BytearrayVariable(tx.run_user_operation(partial(bytearray, *real_args, **real_kwargs)))
