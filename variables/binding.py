"""Binding an inlined call's arguments straight from the callee's code object.

`bind_with_signature` (variables/functions.py) binds through `inspect.signature`, which builds a
stand-in function, a Signature and a Parameter per argument on every inlined call: a tenth of the
tracing time of call-heavy code. The calls that succeed mostly have plain shapes (positional and
keyword arguments, defaults, `*args`, `**kwargs`), which `bind_fast` binds here with the same
result, in the same order, as the inspect route.

`bind_fast` gives up (returns None) on every call inspect would reject and on every shape where
inspect's own rules are subtle (a keyword naming a positional-only parameter, parameter names
inspect would refuse or rename); the caller then takes the inspect route, so error messages come
from exactly the code that produced them before. A property test compares both routes on
generated signatures and calls.
"""

from __future__ import annotations

import dataclasses
import inspect
import keyword
import types
from collections.abc import Mapping, Sequence
from typing import Any

_DOT_DIGITS_PREFIX = "."
_KEYWORDS = frozenset(keyword.kwlist)


@dataclasses.dataclass(frozen=True, slots=True)
class ParameterShape:
    """A code object's parameters as `bind_fast` needs them, or the reason it cannot use them."""

    positional: tuple[str, ...]
    """Positional parameters' local names (a comprehension's `.0` included), in order."""
    keywords: frozenset[str]
    """Parameters a keyword binds: positional ones that are neither positional-only nor a
    `.N`, and keyword-only ones. Any other keyword goes to `**kwargs`."""
    reserved: frozenset[str]
    """Names under which inspect knows the positional-only parameters (`.0` as `implicit0`):
    a keyword with one of these names follows inspect rules `bind_fast` leaves to inspect."""
    varargs: str | None
    kwonly: tuple[str, ...]
    varkw: str | None
    plain: bool = dataclasses.field(init=False, repr=False, compare=False)
    """Only positional parameters (no `*args`, keyword-only or `**kwargs`)."""

    def __post_init__(self) -> None:
        plain = self.varargs is None and not self.kwonly and self.varkw is None
        object.__setattr__(self, "plain", plain)


_COMPREHENSION = ParameterShape((".0",), frozenset(), frozenset({"implicit0"}), None, (), None)
"""A comprehension's one parameter, `.0` (the iterator), which inspect knows as `implicit0`."""


def parameter_shape(code: types.CodeType) -> ParameterShape | None:
    """`code`'s parameters, or None where inspect would refuse or reorder them.

    inspect renames a comprehension's implicit `.N` parameter to `implicitN` and makes it
    positional-only; it rejects `.N` anywhere that would break parameter order, keywords and
    non-identifiers as names, and duplicates. Those shapes go to inspect, which raises its own
    error for them.
    """
    argcount, posonly = code.co_argcount, code.co_posonlyargcount
    kwonly_count = code.co_kwonlyargcount
    names = code.co_varnames
    positional = names[:argcount]
    kwonly = names[argcount : argcount + kwonly_count]
    index = argcount + kwonly_count
    varargs = varkw = None
    if code.co_flags & inspect.CO_VARARGS:
        varargs = names[index]
        index += 1
    if code.co_flags & inspect.CO_VARKEYWORDS:
        varkw = names[index]
    if not posonly:  # the usual shapes: a comprehension's, or none positional-only nor `.N`
        signature = names[:index] if varkw is None else names[: index + 1]
        if positional == signature == _COMPREHENSION.positional:
            return _COMPREHENSION
        if (
            all(map(str.isidentifier, signature))  # a `.N` is not an identifier
            and _KEYWORDS.isdisjoint(signature)
            and len(set(signature)) == len(signature)
        ):
            return ParameterShape(
                positional, frozenset(positional + kwonly), frozenset(), varargs, kwonly, varkw
            )
    return _general_shape(positional, posonly, kwonly, varargs, varkw)


def _general_shape(
    positional: tuple[str, ...],
    posonly: int,
    kwonly: tuple[str, ...],
    varargs: str | None,
    varkw: str | None,
) -> ParameterShape | None:
    """`parameter_shape` for any parameters (it answers the usual shapes itself, sooner)."""
    signature_names: list[str] = []
    reserved: set[str] = set()
    by_keyword: set[str] = set()
    leading_posonly = True
    for i, name in enumerate(positional):
        if _is_implicit(name):
            if i < posonly or not leading_posonly:
                return None  # inspect: ValueError (wrong kind, or wrong parameter order)
            name = "implicit" + name[1:]
            reserved.add(name)
        elif i < posonly:
            reserved.add(name)
        else:
            leading_posonly = False
            by_keyword.add(name)
        signature_names.append(name)
    others = [*kwonly, *(n for n in (varargs, varkw) if n is not None)]
    signature_names += others
    if not all(_plain_name(n) for n in signature_names if n not in reserved):
        return None
    if len(set(signature_names)) != len(signature_names):
        return None
    return ParameterShape(
        positional,
        frozenset(by_keyword) | frozenset(kwonly),
        frozenset(reserved),
        varargs,
        kwonly,
        varkw,
    )


def _is_implicit(name: str) -> bool:
    return name.startswith(_DOT_DIGITS_PREFIX) and name[1:].isdigit()


def _plain_name(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def bind_fast(
    shape: ParameterShape,
    defaults: Sequence[Any],
    kwdefaults: Mapping[str, Any],
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
) -> dict[str, Any] | None:
    """Bind like `inspect.signature(f).bind(*args, **kwargs)` followed by `apply_defaults()`.

    Returns every parameter by local name in signature order, `*args` as a tuple and
    `**kwargs` as a dict (inspect's `bound.arguments`, with `.0` kept as `.0`); or None where
    the call is an error or inspect's rules are subtle (the caller asks inspect instead).
    """
    positional, keywords = shape.positional, shape.keywords
    npos, nargs, ndefaults = len(positional), len(args), len(defaults)
    if ndefaults > npos or (nargs > npos and shape.varargs is None):
        return None  # too many positional arguments
    if kwargs and not shape.reserved.isdisjoint(kwargs):
        return None
    if shape.plain and nargs == npos and not kwargs:  # the commonest call: all passed by position
        return dict(zip(positional, args))  # noqa: B905 (same lengths; strict= is slow)
    bound: dict[str, Any] = {}
    first_default = npos - ndefaults
    for i, name in enumerate(positional):
        if i < nargs:
            if name in kwargs:
                return None  # multiple values for the argument
            bound[name] = args[i]
        elif name in keywords and name in kwargs:
            bound[name] = kwargs[name]
        elif i >= first_default:
            bound[name] = defaults[i - first_default]
        else:
            return None  # missing a required argument
    if shape.varargs is not None:
        bound[shape.varargs] = tuple(args[npos:])
    for name in shape.kwonly:
        if name in kwargs:
            bound[name] = kwargs[name]
        elif name in kwdefaults:
            bound[name] = kwdefaults[name]
        else:
            return None  # missing a required keyword-only argument
    rest = {key: value for key, value in kwargs.items() if key not in keywords}
    if shape.varkw is not None:
        bound[shape.varkw] = rest
    elif rest:
        return None  # an unexpected keyword argument
    return bound
