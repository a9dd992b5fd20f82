"""Calls that a modeled builtin or method cannot take, decided the way CPython decides them.

A handler (`BuiltinVariable.call_sorted`, `ListVariable.method_pop`) is written with CPython's
signature: the same parameters, positional-only and keyword-only where CPython has them. So
when Python cannot bind a call's arguments to the handler, CPython would refuse the call too
(or the model covers less than CPython takes). Either way the model does not guess: CPython
runs the call on the real function, its result or its error is the answer, and where it cannot
run on real values the frame falls back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker


def call_handler(
    handler: Callable[..., VariableTracker],
    tx: TranslatorBase,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
    refused: Callable[[], VariableTracker],
) -> VariableTracker:
    """`handler(tx, *args, **kwargs)`; `refused()` when the arguments do not bind to it."""
    try:
        return handler(tx, *args, **kwargs)
    except TypeError as e:
        if not raised_by_binding(e):
            raise
    return refused()


def raised_by_binding(error: TypeError) -> bool:
    """Was `error` raised while Python bound a call's arguments, not inside the callee? A
    binding error's traceback ends in the calling frame (the callee never started), so it has
    exactly one entry when it is caught in the frame that made the call."""
    tb = error.__traceback__
    return tb is not None and tb.tb_next is None


def refused_method_call(
    tx: TranslatorBase,
    receiver: Any,
    name: str,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """A method call whose arguments do not bind to its handler: CPython's own TypeError, from
    the real method called on `receiver` (the value itself, or a stand-in of the same type and
    length) with the same arguments (constants, or None in place of traced values). Handlers
    take CPython's whole signature, so what fails here is the shape of the call (how many
    arguments, which keywords), which CPython checks before it looks at any value."""
    const_args = [_stand_in(a) for a in args]
    const_kwargs = {k: _stand_in(v) for k, v in kwargs.items()}
    method = getattr(receiver, name)
    tx.run_user_operation(method, *const_args, **const_kwargs)
    unimplemented(
        "call-method",
        f"{type(receiver).__name__}.{name}() with these arguments is not modeled",
    )


def _stand_in(vt: VariableTracker) -> Any:
    vt = vt.realize()
    return vt.as_python_constant() if vt.is_python_constant() else None


def attribute_name(tx: TranslatorBase, fn: Callable[..., Any], name: VariableTracker) -> Any:
    """The name argument of `getattr`, `setattr`, `delattr` or `hasattr` (`fn`): a str, else
    CPython's TypeError (`attribute name must be string, not 'int'`), which it raises before
    it looks at the object: got from `fn` on a plain object with that name."""
    value = name.realize().as_python_constant()
    if not isinstance(value, str):
        tx.run_user_operation(fn, object(), value, *([None] if fn is setattr else []))
        unimplemented("attribute-name", f"{fn.__name__} with the name {value!r}")
    return value


def super_class(tx: TranslatorBase, args: Sequence[VariableTracker]) -> type:
    """The class of `super(cls, obj)`; for a call CPython refuses (`super(1, int)`, three
    arguments, an `obj` that is neither an instance nor a subclass of `cls`) its TypeError,
    from `super` itself on the constant arguments. One-argument (unbound) super, and an
    object known only by its type that is not an instance of `cls`, are not modeled."""
    first = args[0].realize()
    if first.is_python_constant():
        cls = first.as_python_constant()
        if len(args) == 2 and isinstance(cls, type):
            obj = args[1].realize()
            if obj.is_python_constant():  # a class, say: CPython checks it
                tx.run_user_operation(super, cls, obj.as_python_constant())
            elif not issubclass(obj.python_type(), cls):
                unimplemented("super", f"super({cls.__name__}, {obj!r}): not an instance of it")
            return cls
    if all(a.realize().is_python_constant() for a in args):
        tx.run_user_operation(super, *(a.realize().as_python_constant() for a in args))
    unimplemented("super", f"super() with these {len(args)} arguments")
