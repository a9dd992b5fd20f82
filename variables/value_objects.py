"""Immutable value objects of classes with their own `__new__`: dates, times, timedeltas,
timezones, `fractions.Fraction` and `struct.Struct`.

An object of one of these classes, made in the frame from constants (`date(2024, 2, 29)`,
`Fraction(n, d)` with n and d known, `struct.Struct('!4I')`), is a real object made by CPython
and held as a constant (`ValueObjectVariable`): its attributes are read, and its methods and the
operators and builtins applied to it are computed by CPython, on constant arguments only, and
what they return is wrapped like any folded result. This is exact because each class is
immutable and its code (C for datetime and struct, the stdlib's Python for Fraction) depends on
nothing but its arguments, which are constants: no user code can run. Exact types only (a
subclass's methods could be user code). What depends on more than the arguments falls back with
its reason: the clock (`date.today()`), the local timezone (`datetime.timestamp()`,
`astimezone()` without a zone), the locale (`strftime`, `format(date, spec)`), a user `tzinfo`.

A value object is a constant: returned or stored, it is loaded as one (its identity is that
of the object made while tracing, which no caller can tell from a new equal one, as for any
constant of an immutable type). Objects of these classes passed in from outside are not
wrapped here.
"""

from __future__ import annotations

import datetime
import fractions
import struct
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, KnownObjectVariable, NotConstantError, VariableTracker
from variables.constant import is_constant_value

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_DATE_METHODS = frozenset(
    {
        "ctime", "isocalendar", "isoformat", "isoweekday", "replace", "strftime", "toordinal",
        "weekday",
    }
)  # fmt: skip
_TIME_OF_DAY = frozenset({"dst", "tzname", "utcoffset", "isoformat", "replace", "strftime"})
_DATETIME_ATTRIBUTES = frozenset(
    {"year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"}
)

METHODS: dict[type, frozenset[str]] = {
    datetime.date: _DATE_METHODS,
    datetime.datetime: _DATE_METHODS | _TIME_OF_DAY | {"date", "time", "timetz"},
    datetime.time: _TIME_OF_DAY,
    datetime.timedelta: frozenset({"total_seconds"}),
    datetime.timezone: frozenset({"dst", "tzname", "utcoffset", "fromutc"}),
    fractions.Fraction: frozenset({"as_integer_ratio", "conjugate", "limit_denominator"}),
    struct.Struct: frozenset({"pack", "unpack", "unpack_from"}),
}
"""Per class, the methods computed by CPython on constant arguments (`strftime` only with a
format that does not depend on the locale). Left out, so that they fall back: `timestamp` and
`astimezone` (the local timezone), `timetuple` (a struct_time), `iter_unpack` (an iterator),
`pack_into` (writes a buffer)."""

ATTRIBUTES: dict[type, frozenset[str]] = {
    datetime.date: frozenset({"year", "month", "day", "min", "max", "resolution"}),
    datetime.datetime: _DATETIME_ATTRIBUTES | {"min", "max", "resolution"},
    datetime.time: _DATETIME_ATTRIBUTES - {"year", "month", "day"} | {"min", "max", "resolution"},
    datetime.timedelta: frozenset({"days", "seconds", "microseconds", "min", "max", "resolution"}),
    datetime.timezone: frozenset({"utc", "min", "max"}),
    fractions.Fraction: frozenset({"numerator", "denominator", "real", "imag"}),
    struct.Struct: frozenset({"format", "size"}),
}
"""Per class, the data attributes read from an object (or from the class itself)."""

CLASS_METHODS: dict[type, frozenset[str]] = {
    datetime.date: frozenset({"fromisoformat", "fromordinal", "fromisocalendar"}),
    datetime.datetime: frozenset({"fromisoformat", "fromordinal", "fromisocalendar", "combine"}),
    datetime.time: frozenset({"fromisoformat"}),
    fractions.Fraction: frozenset({"from_float", "from_decimal"}),
}
"""Per class, the alternative constructors computed by CPython on constants. Left out: the
clock (`today`, `now`, `utcnow`), the local timezone (`fromtimestamp`), `strptime` (the
locale)."""

VALUE_CLASSES: frozenset[type] = frozenset(METHODS)


def is_value_object(value: Any) -> bool:
    return type(value) in VALUE_CLASSES


_DATE_TIME_CLASSES = (datetime.date, datetime.time)  # datetime.datetime is a date
_LOCALE_FREE_DIRECTIVES = frozenset("dmyYHIMSfjUWwuVGzZCeDFTRnt%")
"""strftime directives whose text does not depend on the locale (nor on the local timezone:
`%Z` and `%z` read the object's own tzinfo). `%a %A %b %B %c %p %x %X` name days, months and
formats in the locale's words; anything not listed is left to eager Python."""


def locale_free(fmt: Any) -> bool:
    """Does `strftime(fmt)` give the same text under any locale? (False for a non-str.)"""
    if type(fmt) is not str:
        return False
    i = fmt.find("%")
    while i != -1:
        if i + 1 >= len(fmt) or fmt[i + 1] not in _LOCALE_FREE_DIRECTIVES:
            return False
        i = fmt.find("%", i + 2)
    return True


def check_format(value: Any, spec: Any) -> None:
    """`format(value, spec)`: for a date or time a non-empty spec is a strftime format, which
    falls back where its text depends on the locale (the locale can change between calls)."""
    if spec and isinstance(value, _DATE_TIME_CLASSES) and not locale_free(spec):
        unimplemented(
            "value-object",
            f"formatting a {type(value).__name__} with {spec!r} depends on the locale",
        )


def check_str_format(args: Sequence[Any]) -> None:
    """`str.format(*args)`: a date or time among the arguments may meet a strftime spec in
    the template (`"{:%A}"`), which depends on the locale: eager Python formats it."""
    for value in args:
        if isinstance(value, _DATE_TIME_CLASSES):
            unimplemented(
                "value-object",
                f"str.format of a {type(value).__name__} (its spec may use the locale)",
            )


def _real(what: str, vt: VariableTracker) -> Any:
    """The real argument: a constant of the builtin immutable types or a value object."""
    vt = vt.realize()
    try:
        value = vt.as_python_constant()
    except NotConstantError:
        unimplemented("value-object", f"{what} with the non-constant argument {vt!r}")
    if not (is_constant_value(value) or is_value_object(value)):
        unimplemented("value-object", f"{what} with an argument of type {type(value).__name__}")
    return value


def compute(
    tx: TranslatorBase,
    what: str,
    fn: Any,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`fn(*args, **kwargs)` by CPython on the real (constant) arguments, its result wrapped;
    its exception is the user's."""
    real_args = [_real(what, a) for a in args]
    real_kwargs = {k: _real(what, v) for k, v in kwargs.items()}
    return builder.wrap_constant_result(tx.run_user_operation(fn, *real_args, **real_kwargs))


def construct(
    tx: TranslatorBase,
    cls: type,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`cls(*args, **kwargs)` for a value class: made by CPython from constants."""
    return compute(tx, f"creating {cls.__name__}", cls, args, kwargs)


def class_attribute(cls: type, name: str) -> VariableTracker | None:
    """`cls.name` read from a value class: a data attribute (`date.min`) or an alternative
    constructor; None for anything else (read as for any class)."""
    if name in ATTRIBUTES[cls] and not isinstance(getattr(cls, name, None), property):
        value = getattr(cls, name)
        if is_value_object(value):
            return ValueObjectVariable(value)
    if name in CLASS_METHODS.get(cls, ()):
        return ValueClassMethodVariable(getattr(cls, name))
    return None


class ValueClassMethodVariable(KnownObjectVariable):
    """`ValueClassMethodVariable(date.fromisoformat)`: computed by CPython on constants."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return compute(tx, self.fn.__qualname__, self.fn, args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"ValueClassMethodVariable({self.fn.__qualname__})"


class ValueObjectVariable(KnownObjectVariable):
    """`ValueObjectVariable(datetime.date(2024, 2, 29))`: a real immutable value object."""

    __slots__ = ()

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        kind = type(self.fn)
        if name in ATTRIBUTES[kind]:
            return builder.wrap_constant_result(getattr(self.fn, name))
        if name in METHODS[kind]:
            return GetAttrVariable(self, name)
        if not hasattr(self.fn, name):  # CPython's AttributeError
            tx.run_user_operation(getattr, self.fn, name)
        unimplemented(
            "value-object", f"attribute {kind.__name__}.{name} is not supported while tracing"
        )

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        kind = type(self.fn)
        if name not in METHODS[kind]:
            return super().call_method(tx, name, args, kwargs)
        if name == "strftime" and len(args) == 1 and not kwargs:
            check_format(self.fn, _real("strftime", args[0]))
        return compute(tx, f"{kind.__name__}.{name}", getattr(self.fn, name), args, kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"ValueObjectVariable({self.fn!r})"


def _time_strftime(
    tx: TranslatorBase, args: Sequence[VariableTracker], kwargs: dict[str, VariableTracker]
) -> VariableTracker:
    """`time.strftime(fmt, t)` with a constant format and a constant time tuple, computed by
    CPython where the text depends on neither the locale nor the local timezone. Without `t`
    it formats the current time: that falls back, as does a struct_time."""
    if len(args) != 2 or kwargs:
        unimplemented("value-object", "time.strftime without a time tuple (the current time)")
    fmt, moment = _real("time.strftime", args[0]), _real("time.strftime", args[1])
    if type(moment) is not tuple:
        unimplemented("value-object", f"time.strftime of a {type(moment).__name__}")
    # a plain tuple has no zone: `%Z` and `%z` would come from the local timezone (TZ)
    zone = type(fmt) is str and any(f"%{d}" in fmt.replace("%%", "") for d in "Zz")
    if not locale_free(fmt) or zone:
        unimplemented("value-object", f"time.strftime({fmt!r}) depends on the locale or timezone")
    return builder.wrap_constant_result(tx.run_user_operation(time.strftime, fmt, moment))


FUNCTIONS: list[tuple[Any, Any]] = [(time.strftime, _time_strftime)]
"""C functions of value modules computed here, for the polyfill registry (by identity)."""
