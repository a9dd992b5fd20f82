"""BuiltinVariable: Python builtins, `operator` and `math` functions while tracing.

On constants they are folded by calling the real function (C code with no user hooks); on
tensors they become graph ops; on containers created in the frame they are modeled here.
Builtins are dispatched by name to `call_<name>` handlers; every other C function must be on the
explicit table of pure functions (`variables/pure_calls.py`) or it breaks the graph.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import Unsupported, unimplemented
from variables.arguments import attribute_name, call_handler, super_class
from variables.base import KnownObjectVariable, NotConstantError, VariableTracker
from variables.bytearrays import (
    byte_values,
    bytearray_binary_op,
    iterable_object,
    make_bytearray,
)
from variables.class_protocols import guard_class_operand, guard_folded_classes, type_of
from variables.collection_dicts import counter_binary_op
from variables.constant import ConstantVariable
from variables.deques import DequeVariable, deque_binary_op
from variables.dicts import ConstDictVariable, pairs_of
from variables.instance_checks import guard_issubclass, object_instance_of
from variables.iterators import (
    IteratorVariable,
    iterate,
    iterator_contains,
    make_enumerate,
    make_filter,
    make_iter,
    make_map,
    make_reversed,
    make_zip,
    next_of,
)
from variables.length_hint import operator_length_hint, sized_iterate
from variables.lists import BaseListVariable, ListVariable, RangeVariable, TupleVariable, contains
from variables.min_max import needs_min_max_polyfill, traced_min_max
from variables.misc import ExceptionVariable, make_exception
from variables.operator_functions import call_operator_function
from variables.operators import identical, lacks_special_method, raise_on_stand_ins, user_binary_op
from variables.protocol_results import hash_result, len_result
from variables.pure_calls import OPERATOR_FUNCTIONS, fold
from variables.sentinels import SentinelVariable, id_of
from variables.sets import (
    SET_OPERATORS,
    SetVariable,
    compare_sets_of_objects,
    is_set_like,
    reads_input,
    real_operand,
    set_binary_op,
    set_operation,
)
from variables.sum_builtin import SUMPROD, fsum_of, sum_of, sumprod_of
from variables.super_calls import SuperVariable
from variables.sym import GRAPH_ARITHMETIC, SymNumberVariable, record_scalar_op
from variables.tensor import TensorVariable
from variables.type_methods import missing_attribute, type_method
from variables.user_defined import (
    ObjectNewVariable,
    UserDefinedClassVariable,
    UserDefinedObjectVariable,
)
from variables.value_objects import check_format

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

BINARY_OPERATORS: frozenset[Callable[..., Any]] = frozenset(
    {
        operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
        operator.mod, operator.pow, operator.matmul, operator.lshift, operator.rshift,
        operator.and_, operator.or_, operator.xor,
        operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
        operator.imod, operator.ipow, operator.imatmul, operator.ilshift, operator.irshift,
        operator.iand, operator.ior, operator.ixor,
        operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge,
    }
)  # fmt: skip
UNARY_OPERATORS: frozenset[Callable[..., Any]] = frozenset(
    {operator.neg, operator.pos, operator.invert, operator.not_, operator.abs, operator.truth}
)
INPLACE_TO_PLAIN: dict[Callable[..., Any], Callable[..., Any]] = {
    operator.iadd: operator.add, operator.isub: operator.sub, operator.imul: operator.mul,
    operator.itruediv: operator.truediv, operator.ifloordiv: operator.floordiv,
    operator.imod: operator.mod, operator.ipow: operator.pow, operator.imatmul: operator.matmul,
    operator.ilshift: operator.lshift, operator.irshift: operator.rshift,
    operator.iand: operator.and_, operator.ior: operator.or_, operator.ixor: operator.xor,
}  # fmt: skip


class BuiltinVariable(KnownObjectVariable):
    """`BuiltinVariable(len)`: a builtin, operator or math function."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        fn = self.fn
        if fn in BINARY_OPERATORS and len(args) == 2 and not kwargs:
            return binary_op(tx, fn, args[0], args[1])
        if fn in UNARY_OPERATORS and len(args) == 1 and not kwargs:
            return unary_op(tx, fn, args[0])
        if fn is operator.getitem:
            return getitem(tx, args[0], args[1])
        if fn in OPERATOR_FUNCTIONS:
            routed = call_operator_function(tx, fn, args, kwargs)
            if routed is not None:
                return routed
        if fn is operator.contains:
            return args[0].realize().call_method(tx, "__contains__", [args[1]], {})
        if fn is object.__setattr__:
            return self.call___setattr__(tx, *args)
        if fn is object.__delattr__:
            user_object(args[0], "object.__delattr__").object_delattr(
                tx, args[1].as_python_constant()
            )
            return ConstantVariable(None)
        if isinstance(fn, type) and issubclass(fn, BaseException):
            return make_exception(tx, fn, args, kwargs)
        if (
            fn is operator.length_hint
            and args
            and isinstance(args[0].realize(), UserDefinedObjectVariable)
        ):
            return call_handler(
                operator_length_hint, tx, args, kwargs, lambda: fold(tx, fn, args, kwargs)
            )
        if fn is math.fsum and len(args) == 1 and not kwargs:
            if args[0].realize().is_python_constant():
                return fold(tx, fn, args, kwargs)
            return fsum_of(tx, args[0])
        if fn is SUMPROD and len(args) == 2 and not kwargs:
            return sumprod_of(tx, args[0], args[1])
        if fn is tuple.__new__:  # a namedtuple's `_make`, or a tuple subclass's own __new__
            from variables.structured import tuple_new

            return tuple_new(tx, args, kwargs)
        name = getattr(fn, "__name__", "")
        handler = (
            getattr(self, f"call_{name}", None) if getattr(builtins, name, None) is fn else None
        )
        if handler is not None:
            try:
                # arguments the handler (CPython's signature) cannot take: CPython decides
                return call_handler(handler, tx, args, kwargs, lambda: fold(tx, fn, args, kwargs))
            except NotConstantError:
                pass
        return fold(tx, fn, args, kwargs)

    # -- builtins with tracing-specific behaviour ----------------------------------------------
    def call_len(self, tx: TranslatorBase, obj: VariableTracker, /) -> VariableTracker:
        obj = obj.realize()
        if isinstance(obj, TensorVariable):  # `Tensor.__len__`, which a mode sees
            return len_result(tx, tx.output.call_tensor_method(tx, "__len__", [obj], {}))
        if isinstance(obj, UserDefinedClassVariable) and obj.metaclass_special(tx, "__len__"):
            return len_result(tx, obj.call_method(tx, "__len__", [], {}))  # traced, not folded
        if getattr(obj, "method___len__", None) is None and obj.is_python_constant():
            return fold(tx, len, [obj], {})
        if isinstance(obj, UserDefinedObjectVariable):
            if obj.special_method(tx, "__len__")[1] is None:  # looked up on the type
                tx.raise_user_error(TypeError(f"object of type '{obj.cls.__name__}' has no len()"))
            return len_result(tx, obj.call_method(tx, "__len__", [], {}))
        kind = obj.python_type()
        if kind.__module__ == "builtins" and not hasattr(kind, "__len__"):  # map, zip, a generator
            tx.raise_user_error(TypeError(f"object of type '{kind.__name__}' has no len()"))
        return obj.call_method(tx, "__len__", [], {})

    def call_isinstance(
        self, tx: TranslatorBase, obj: VariableTracker, classes: VariableTracker, /
    ) -> VariableTracker:
        spec = classes.realize().as_python_constant()
        return ConstantVariable(object_instance_of(tx, obj, spec, classes))

    def call_issubclass(
        self, tx: TranslatorBase, cls: VariableTracker, classes: VariableTracker, /
    ) -> VariableTracker:
        guard_issubclass(tx, cls, classes)
        return fold(tx, issubclass, [cls, classes], {})

    def call_range(self, tx: TranslatorBase, *args: VariableTracker) -> VariableTracker:
        bounds = [a.realize().as_python_constant() for a in args]
        guard_folded_classes(tx, range, args, bounds)
        return RangeVariable(tx.run_user_operation(range, *bounds))

    # -- iterators (variables/iterators.py): lazy, over live objects --------------------------
    def call_enumerate(
        self, tx: TranslatorBase, iterable: VariableTracker, start: VariableTracker | None = None
    ) -> VariableTracker:
        return make_enumerate(tx, iterable, start)

    def call_zip(
        self, tx: TranslatorBase, *iterables: VariableTracker, strict: VariableTracker | None = None
    ) -> VariableTracker:
        return make_zip(tx, iterables, strict)

    def call_map(
        self, tx: TranslatorBase, fn: VariableTracker, *iterables: VariableTracker
    ) -> VariableTracker:
        return make_map(tx, fn, iterables)

    def call_filter(
        self, tx: TranslatorBase, fn: VariableTracker, iterable: VariableTracker
    ) -> VariableTracker:
        return make_filter(tx, fn, iterable)

    def call_reversed(self, tx: TranslatorBase, seq: VariableTracker) -> VariableTracker:
        return make_reversed(tx, seq)

    def call_iter(
        self, tx: TranslatorBase, obj: VariableTracker, sentinel: VariableTracker | None = None
    ) -> VariableTracker:
        return make_iter(tx, obj, sentinel)

    def call_next(
        self, tx: TranslatorBase, it: VariableTracker, default: VariableTracker | None = None
    ) -> VariableTracker:
        return next_of(tx, it, default)

    def call_sorted(
        self,
        tx: TranslatorBase,
        iterable: VariableTracker,
        /,
        *,
        key: VariableTracker | None = None,
        reverse: VariableTracker | None = None,
    ) -> VariableTracker:
        result = ListVariable(sized_iterate(tx, iterable).unpack(tx))
        result.method_sort(tx, key=key, reverse=reverse)
        return result

    def call_sum(
        self,
        tx: TranslatorBase,
        iterable: VariableTracker,
        /,
        start: VariableTracker | None = None,
    ) -> VariableTracker:
        if start is not None and start.is_python_constant():
            # CPython refuses some starts (strings, bytes) whatever the iterable: ask it
            tx.run_user_operation(sum, (), start.as_python_constant())
        return sum_of(tx, iterable, start, lambda a, b: binary_op(tx, operator.add, a, b))

    def call_all(self, tx: TranslatorBase, iterable: VariableTracker, /) -> VariableTracker:
        """Pulls until a false item, leaving the rest of an iterator unconsumed."""
        it = iterate(tx, iterable)
        while (item := it.next_item(tx)) is not None:
            if not item.realize().truthy(tx):
                return ConstantVariable(False)
        return ConstantVariable(True)

    def call_any(self, tx: TranslatorBase, iterable: VariableTracker, /) -> VariableTracker:
        """Pulls until a true item, leaving the rest of an iterator unconsumed."""
        it = iterate(tx, iterable)
        while (item := it.next_item(tx)) is not None:
            if item.realize().truthy(tx):
                return ConstantVariable(True)
        return ConstantVariable(False)

    def call_abs(self, tx: TranslatorBase, x: VariableTracker, /) -> VariableTracker:
        return unary_op(tx, operator.abs, x)

    def call_bool(self, tx: TranslatorBase, x: VariableTracker | None = None, /) -> VariableTracker:
        return ConstantVariable(False if x is None else x.realize().truthy(tx))

    def call_min(
        self, tx: TranslatorBase, *args: VariableTracker, **kwargs: VariableTracker
    ) -> VariableTracker:
        return self._min_max(tx, min, args, kwargs)

    def call_max(
        self, tx: TranslatorBase, *args: VariableTracker, **kwargs: VariableTracker
    ) -> VariableTracker:
        return self._min_max(tx, max, args, kwargs)

    def _min_max(
        self,
        tx: TranslatorBase,
        fn: Any,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if args and set(kwargs) <= {"key", "default"} and needs_min_max_polyfill(args, kwargs):
            return traced_min_max(tx, fn, args, kwargs)
        items = iterate(tx, args[0]).unpack(tx) if len(args) == 1 else list(args)
        if any(isinstance(item.realize(), TensorVariable) for item in items):
            unimplemented(
                "data-dependent-op", f"{fn.__name__}() over tensors compares their values"
            )
        if len(args) == 1:  # one iterable: its items, as a tuple CPython can take
            return fold(tx, fn, [TupleVariable(items)], kwargs)
        return fold(tx, fn, args, kwargs)  # the call as written: CPython checks its shape

    def call_getattr(
        self,
        tx: TranslatorBase,
        obj: VariableTracker,
        name: VariableTracker,
        default: VariableTracker | None = None,
        /,
    ) -> VariableTracker:
        attr = attribute_name(tx, getattr, name)
        if default is None:
            return obj.realize().var_getattr(tx, attr)
        try:
            return obj.realize().var_getattr(tx, attr)
        except Unsupported as e:
            if isinstance(e.user_exception, AttributeError):
                return default
            raise

    def call_hasattr(
        self, tx: TranslatorBase, obj: VariableTracker, name: VariableTracker, /
    ) -> VariableTracker:
        try:
            obj.realize().var_getattr(tx, attribute_name(tx, hasattr, name))
        except Unsupported as e:
            if isinstance(e.user_exception, AttributeError):
                return ConstantVariable(False)
            raise
        return ConstantVariable(True)

    def call_object(self, tx: TranslatorBase, /) -> VariableTracker:
        """`object()`: a new sentinel (any argument: CPython's TypeError, by folding)."""
        return SentinelVariable()

    def call_super(self, tx: TranslatorBase, *args: VariableTracker) -> VariableTracker:
        if args:
            cls = super_class(tx, args)  # CPython's TypeError for a call it refuses
            return SuperVariable(cls, args[1])
        cell = tx.cells.get("__class__")
        first = tx.code.co_varnames[0] if tx.code.co_argcount else None
        if cell is None or first is None:
            unimplemented("super", "super() outside a method")
        obj = tx.symbolic_locals.get(first)
        if obj is None and first in tx.cells:  # a first argument a nested function captures
            captured = tx.cells[first]
            obj = captured.contents if captured.is_new else captured.load(tx, first)
        if obj is None:  # `del self` before the call
            tx.raise_user_error(RuntimeError("super(): arg[0] deleted"))
        return SuperVariable(cell.load(tx, "__class__").realize().as_python_constant(), obj)

    def call_setattr(
        self,
        tx: TranslatorBase,
        obj: VariableTracker,
        name: VariableTracker,
        value: VariableTracker,
        /,
    ) -> VariableTracker:
        user_object(obj, "setattr").store_attr(tx, attribute_name(tx, setattr, name), value)
        return ConstantVariable(None)

    def call_delattr(
        self, tx: TranslatorBase, obj: VariableTracker, name: VariableTracker, /
    ) -> VariableTracker:
        user_object(obj, "delattr").delete_attr(tx, attribute_name(tx, delattr, name))
        return ConstantVariable(None)

    def call_hash(self, tx: TranslatorBase, obj: VariableTracker, /) -> VariableTracker:
        target = obj.realize()
        if isinstance(target, UserDefinedObjectVariable):
            if target.special_method(tx, "__hash__")[0] is None:
                tx.raise_user_error(TypeError(f"unhashable type: '{target.cls.__name__}'"))
            return hash_result(tx, target.call_method(tx, "__hash__", [], {}))
        if isinstance(target, TensorVariable):
            unimplemented("builtin-nondeterministic", "hash() of a tensor is its identity")
        return fold(tx, hash, [target], {})

    def call_tuple(
        self, tx: TranslatorBase, iterable: VariableTracker | None = None, /
    ) -> VariableTracker:
        if iterable is not None and type(iterable.realize()) is TupleVariable:
            return iterable.realize()  # CPython: `tuple(t)` of an exact tuple is t
        return TupleVariable([] if iterable is None else sized_iterate(tx, iterable).unpack(tx))

    def call_list(
        self, tx: TranslatorBase, iterable: VariableTracker | None = None, /
    ) -> VariableTracker:
        return ListVariable([] if iterable is None else sized_iterate(tx, iterable).unpack(tx))

    def call_set(
        self, tx: TranslatorBase, iterable: VariableTracker | None = None, /
    ) -> VariableTracker:
        if iterable is None:
            return set_operation(tx, set, ())
        from_input = reads_input(iterable)  # then the set made has no recipe
        operand = real_operand(tx, iterable, any_iterable=True, inputs=from_input)
        return set_operation(tx, set, (operand,), None, from_input)

    def call_frozenset(
        self, tx: TranslatorBase, iterable: VariableTracker | None = None, /
    ) -> VariableTracker:
        if iterable is None:
            return set_operation(tx, frozenset, ())
        from_input = reads_input(iterable)  # then the set made has no recipe
        operand = real_operand(tx, iterable, any_iterable=True, inputs=from_input)
        return set_operation(tx, frozenset, (operand,), None, from_input, (operand, iterable))

    def call_bytes(
        self, tx: TranslatorBase, *args: VariableTracker, **kwargs: VariableTracker
    ) -> VariableTracker:
        """`bytes(x)` of an iterator or a user iterable: its items (after its length hint, as
        CPython's bytes() asks it); anything else is folded on constants."""
        if len(args) == 1 and not kwargs and iterable_object(tx, args[0]):
            return ConstantVariable(bytes(byte_values(tx, args[0], bytes, hint=True)))
        return fold(tx, bytes, args, kwargs)

    def call_bytearray(
        self, tx: TranslatorBase, *args: VariableTracker, **kwargs: VariableTracker
    ) -> VariableTracker:
        return make_bytearray(tx, args, kwargs)

    def call_dict(
        self,
        tx: TranslatorBase,
        iterable: VariableTracker | None = None,
        /,
        **kwargs: VariableTracker,
    ) -> VariableTracker:
        items = pairs_of(tx, iterable) if iterable is not None else {}
        items.update(kwargs)
        return ConstDictVariable(items)

    def call_type(self, tx: TranslatorBase, *args: VariableTracker) -> VariableTracker:
        if len(args) == 1:
            return type_of(tx, args[0].realize())
        if len(args) == 3:
            unimplemented("call", "type() with three arguments makes a new class on every call")
        return fold(tx, type, args, {})  # CPython's TypeError for the count

    def call_float(
        self, tx: TranslatorBase, x: VariableTracker | None = None, /
    ) -> VariableTracker:
        return self._scalar_conversion(tx, float, x)

    def call_int(self, tx: TranslatorBase, x: VariableTracker | None = None, /) -> VariableTracker:
        return self._scalar_conversion(tx, int, x)

    def call_str(self, tx: TranslatorBase, x: VariableTracker | None = None, /) -> VariableTracker:
        if x is not None and isinstance(x.realize(), ExceptionVariable):
            return x.realize().call_method(tx, "__str__", [], {})
        return self._scalar_conversion(tx, str, x)

    def call_format(
        self, tx: TranslatorBase, value: VariableTracker, spec: VariableTracker | None = None, /
    ) -> VariableTracker:
        """`format(value, spec)`: a date's spec may depend on the locale (value_objects)."""
        if spec is not None:
            check_format(value.realize().as_python_constant(), spec.realize().as_python_constant())
        return fold(tx, format, [value] if spec is None else [value, spec], {})

    def call_repr(self, tx: TranslatorBase, x: VariableTracker, /) -> VariableTracker:
        if isinstance(x.realize(), ExceptionVariable):
            return x.realize().call_method(tx, "__repr__", [], {})
        return fold(tx, repr, [x], {})

    def _scalar_conversion(
        self, tx: TranslatorBase, fn: Any, x: VariableTracker | None
    ) -> VariableTracker:
        if x is not None and isinstance(x.realize(), TensorVariable):
            unimplemented("data-dependent-op", f"{fn.__name__}() of a tensor needs its data")
        return fold(tx, fn, [] if x is None else [x], {})

    def call_print(
        self, tx: TranslatorBase, *args: VariableTracker, **kw: VariableTracker
    ) -> VariableTracker:
        unimplemented("builtin-side-effect", "call to builtin print is not supported")

    def call_open(
        self, tx: TranslatorBase, *args: VariableTracker, **kw: VariableTracker
    ) -> VariableTracker:
        unimplemented("builtin-side-effect", "call to builtin open is not supported")

    def call_id(self, tx: TranslatorBase, obj: VariableTracker, /) -> VariableTracker:
        return id_of(tx, obj)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if self.fn is object and name in ("__setattr__", "__delattr__"):
            return BuiltinVariable(getattr(object, name))
        if self.fn is object and name == "__new__":
            return ObjectNewVariable()
        if isinstance(self.fn, type) and name in ("__name__", "__qualname__"):
            return ConstantVariable(getattr(self.fn, name))
        method = type_method(self.fn, name)
        if method is not None:
            return method
        if (missing := missing_attribute(self.fn, name)) is not None:
            tx.raise_user_error(missing)
        return super().var_getattr(tx, name)

    def call___setattr__(
        self,
        tx: TranslatorBase,
        obj: VariableTracker,
        name: VariableTracker,
        value: VariableTracker,
    ) -> VariableTracker:
        user_object(obj, "object.__setattr__").object_setattr(tx, name.as_python_constant(), value)
        return ConstantVariable(None)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.load_const(self.fn)

    def __repr__(self) -> str:
        name = getattr(self.fn, "__qualname__", repr(self.fn))
        module = getattr(self.fn, "__module__", None)
        prefix = f"{module}." if module not in (None, "builtins") else ""
        return f"BuiltinVariable({prefix}{name})"


def user_object(vt: VariableTracker, what: str) -> UserDefinedObjectVariable:
    """The user object `vt` stands for; attribute stores and deletes only trace on those."""
    target = vt.realize()
    if not isinstance(target, UserDefinedObjectVariable):
        unimplemented(what.split(".")[-1].strip("_"), f"{what} on {target!r}")
    return target


_CONTAINERS = frozenset({list, tuple, dict, set, frozenset, range, str})
"""Builtin container types: two of different types never compare equal, except a set and a
frozenset, which compare by their elements."""
_SET_TYPES = frozenset({set, frozenset})


_BY_IDENTITY = (ExceptionVariable, ConstantVariable)
"""Operands that `==` compares by identity when one is an exception (no __eq__ answers)."""


def _tuple_operands(
    a: VariableTracker, b: VariableTracker
) -> tuple[TupleVariable, TupleVariable] | None:
    """Two plain tuples, one a tracker of items and the other a constant (a tuple of
    constants), both as trackers of items; else None."""
    if a.python_type() is not tuple or b.python_type() is not tuple:
        return None
    if not (isinstance(a, TupleVariable) or isinstance(b, TupleVariable)):
        return None
    return _items_of(a), _items_of(b)


def _items_of(vt: VariableTracker) -> TupleVariable:
    if isinstance(vt, TupleVariable):
        return vt
    return TupleVariable([ConstantVariable(item) for item in vt.as_python_constant()])


def _plain_kind(seq: BaseListVariable) -> type[BaseListVariable]:
    """The tracker of what `+` and `*` on a list or tuple give: a plain list or tuple."""
    return ListVariable if isinstance(seq, ListVariable) else TupleVariable


def binary_op(
    tx: TranslatorBase, fn: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> VariableTracker:
    """One binary operator (`a + b`, `a < b`, `a += b`) with Python's semantics."""
    a, b = a.realize(), b.realize()
    if isinstance(a, TensorVariable) or isinstance(b, TensorVariable):
        if fn in INPLACE_TO_PLAIN and isinstance(a, TensorVariable):
            written = tx.output.call_inplace_operator(tx, fn, a, b)
            if written is not None:
                return written
        return tx.output.call_operator(tx, INPLACE_TO_PLAIN.get(fn, fn), [a, b])
    if isinstance(a, SymNumberVariable) or isinstance(b, SymNumberVariable):
        plain_op = INPLACE_TO_PLAIN.get(fn, fn)
        other = b if isinstance(a, SymNumberVariable) else a
        numeric = isinstance(other, SymNumberVariable) or (
            other.is_python_constant() and type(other.as_python_constant()) in (int, float)
        )
        if plain_op in GRAPH_ARITHMETIC and numeric:
            return record_scalar_op(tx, plain_op, [a, b])
        a, b = (v.specialize(tx) if isinstance(v, SymNumberVariable) else v for v in (a, b))
    collection_result = (
        counter_binary_op(tx, fn, a, b)
        or deque_binary_op(tx, fn, a, b)
        or bytearray_binary_op(tx, fn, a, b)
    )
    if collection_result is not None:
        return collection_result
    if fn is operator.iadd and isinstance(a, ListVariable):
        a.method_extend(tx, b)
        return a
    plain = INPLACE_TO_PLAIN.get(fn, fn)
    same_kind = isinstance(a, BaseListVariable) and type(a) is type(b)
    if same_kind and plain is operator.add:  # (a list subclass's `+` gives a plain list)
        assert isinstance(a, BaseListVariable) and isinstance(b, BaseListVariable)
        return _plain_kind(a)(a.items + b.items)
    if isinstance(a, BaseListVariable) and plain is operator.mul and b.is_python_constant():
        guard_class_operand(tx, b, ("__index__",), "a repeat")  # (the count's `__index__`)
        if fn is operator.imul and isinstance(a, ListVariable):
            a._check_mutable(tx, "*=")
            a.items[:] = tx.run_user_operation(operator.mul, a.items, b.as_python_constant())
            return a
        return _plain_kind(a)(tx.run_user_operation(operator.mul, a.items, b.as_python_constant()))
    if plain in (operator.eq, operator.ne) and same_kind:
        equal = sequences_equal(tx, a, b)  # type: ignore[arg-type]
        return ConstantVariable(equal if plain is operator.eq else not equal)
    types_ab = {a.python_type(), b.python_type()}
    unequal_types = len(types_ab) == 2 and types_ab <= _CONTAINERS and types_ab != _SET_TYPES
    if plain in (operator.eq, operator.ne) and unequal_types:
        return ConstantVariable(plain is operator.ne)
    if plain in SET_OPERATORS and set_algebra_operands(a, b):
        return set_binary_op(tx, fn, a, b)
    if (compared := compare_sets_of_objects(tx, plain, a, b)) is not None:
        return compared
    if (
        plain is operator.or_
        and type(a) is ConstDictVariable  # an OrderedDict's `|` makes an OrderedDict
        and type(b) is ConstDictVariable
    ):
        if fn is operator.ior:  # `d |= x` updates `d` itself
            a.method_update(tx, b)
            return a
        merged = ConstDictVariable(a.items)
        merged.items.update(b.items)
        return merged
    if plain is operator.add and (tuples := _tuple_operands(a, b)) is not None:
        return TupleVariable(tuples[0].items + tuples[1].items)  # (`(lst,) + (1,)`: lst itself)
    if a.is_python_constant() and b.is_python_constant():
        mutable = isinstance(a, ListVariable | ConstDictVariable | SetVariable)
        if fn is not plain and mutable:
            unimplemented("operator", f"in-place {plain.__name__} on {a!r}")
        return fold(tx, plain if mutable else fn, [a, b], {})

    if isinstance(a, UserDefinedObjectVariable) or isinstance(b, UserDefinedObjectVariable):
        return user_binary_op(tx, fn, plain, a, b)
    exceptions = isinstance(a, ExceptionVariable) or isinstance(b, ExceptionVariable)
    by_identity = isinstance(a, _BY_IDENTITY) and isinstance(b, _BY_IDENTITY)
    if plain in (operator.eq, operator.ne) and exceptions and by_identity:
        # neither side's __eq__ answers for the other: CPython compares identities
        return ConstantVariable((a is b) == (plain is operator.eq))
    sentinel = isinstance(a, SentinelVariable) or isinstance(b, SentinelVariable)
    if plain in (operator.eq, operator.ne) and sentinel and _sentinel_or_constant(a, b):
        # object's __eq__ (and a constant's) answer NotImplemented: CPython compares identities
        return ConstantVariable(identical(a, b, tx) == (plain is operator.eq))
    unimplemented("operator", f"operator {plain.__name__} on {a!r} and {b!r} is not supported")


def _sentinel_or_constant(*values: VariableTracker) -> bool:
    return all(isinstance(v, SentinelVariable) or v.is_python_constant() for v in values)


def set_algebra_operands(a: VariableTracker, b: VariableTracker) -> bool:
    """Do `a` and `b` go to set algebra: a set or dict view and a constant, or two of them?"""
    if not (is_set_like(a) or is_set_like(b)):
        return False
    return all(is_set_like(v) or v.is_python_constant() for v in (a, b))


def sequences_equal(tx: TranslatorBase, a: BaseListVariable, b: BaseListVariable) -> bool:
    """Tuple/list `==` as CPython does it: lengths, then item by item (identity first) while
    both still have an item there, as an item's `__eq__` may change either list; when one
    ran out, the lengths decide."""
    if len(a.items) != len(b.items):
        return False
    i = 0
    while i < len(a.items) and i < len(b.items):
        x, y = a.items[i], b.items[i]
        same = x is y or x.realize() is y.realize() or _same_nan(x, y)
        if not same and not binary_op(tx, operator.eq, x, y).truthy(tx):
            break
        i += 1
    if i >= len(a.items) or i >= len(b.items):
        return len(a.items) == len(b.items)
    return False


def _same_nan(x: VariableTracker, y: VariableTracker) -> bool:
    """Do two trackers hold the very same NaN (equal to nothing, itself included, so CPython's
    identity test decides)? Their identity holds at run time too: a NaN input is guarded by
    identity, and one made while tracing is the constant the compiled code uses."""
    if not (x.is_python_constant() and y.is_python_constant()):
        return False
    value = x.as_python_constant()
    return value is y.as_python_constant() and value != value  # noqa: PLR0124 - NaN


def unary_op(tx: TranslatorBase, fn: Callable[..., Any], a: VariableTracker) -> VariableTracker:
    a = a.realize()
    if isinstance(a, SymNumberVariable) and fn in GRAPH_ARITHMETIC:
        return record_scalar_op(tx, fn, [a])
    if fn in (operator.not_, operator.truth):
        value = a.truthy(tx)
        return ConstantVariable(not value if fn is operator.not_ else value)
    if isinstance(a, TensorVariable):
        return tx.output.call_operator(tx, fn, [a])
    return fold(tx, fn, [a], {})


def getitem(tx: TranslatorBase, obj: VariableTracker, index: VariableTracker) -> VariableTracker:
    """`obj[index]` for every tracker family."""
    obj = obj.realize()
    if isinstance(obj, TensorVariable):
        return tx.output.call_operator(tx, operator.getitem, [obj, index.realize()])
    if isinstance(obj, BaseListVariable | ConstDictVariable | DequeVariable):
        return obj.getitem(tx, index)
    if obj.is_python_constant():
        return fold(tx, operator.getitem, [obj, index], {})
    if lacks_special_method(tx, obj, "__getitem__"):
        raise_on_stand_ins(tx, operator.getitem, obj, index)
    return obj.call_method(tx, "__getitem__", [index], {})


def in_op(tx: TranslatorBase, item: VariableTracker, container: VariableTracker) -> bool:
    container = container.realize()
    if isinstance(container, BaseListVariable):
        return contains(tx, container.items, item)
    if isinstance(container, IteratorVariable):
        return iterator_contains(tx, container, item)
    if lacks_special_method(tx, container, "__contains__"):
        if lacks_special_method(tx, container, "__iter__") and lacks_special_method(
            tx, container, "__getitem__"
        ):
            raise_on_stand_ins(tx, operator.contains, container, item)  # not iterable
        unimplemented("operator", f"`in` on {container!r}, which has no __contains__")
    result = container.call_method(tx, "__contains__", [item], {})
    return bool(result.as_python_constant())
