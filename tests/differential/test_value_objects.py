"""Objects of immutable value classes with their own `__new__`, made in the frame from
constants: dates, times, timedeltas, timezones, Fraction and struct.Struct are real objects
computed by CPython and held as constants (variables/value_objects.py). Before, each creation
fell back ("creating date, which customizes __new__"). `check` compiles with fullgraph=True,
so each of these traces whole; what depends on the locale or the clock still falls back, with
its reason."""

from __future__ import annotations

import base64
import calendar
import datetime
import dis
import statistics
import struct
import time
from fractions import Fraction

import pytest

import tracer
from tests.differential.helpers import check


def dates(days):
    d = datetime.date(2024, 2, 29)
    e = d + datetime.timedelta(days=days)
    return (
        d.weekday(),
        e,
        (e - d).days,
        str(e),
        repr(e),
        d.isoformat(),
        d < e,
        e.year,
        d.replace(year=2025 if days else 2028),
        datetime.date.fromisoformat("2020-01-02").toordinal(),
        d.strftime("%Y/%m/%d %j"),
        f"{e:%d.%m.%Y}",
        {d: "leap day"}.get(e, "other"),
    )


def bad_date(day):
    return datetime.date(2023, 2, day)


def times():
    t = datetime.time(13, 5, 7, 25)
    utc2 = datetime.timezone(datetime.timedelta(hours=2))
    dt = datetime.datetime.combine(datetime.date(2020, 5, 17), t, tzinfo=utc2)
    span = datetime.timedelta(hours=36, seconds=5)
    return (
        t.isoformat(),
        dt.isoformat(),
        dt.utcoffset(),
        dt.tzname(),
        dt.date(),
        span.total_seconds(),
        span // 2,
        -span,
        dt + span,
        dt.strftime("%H:%M:%S.%f %z"),
        datetime.datetime(2020, 1, 1) - datetime.datetime(2019, 1, 1),
    )


def fractions_(n):
    a = Fraction(3, 4)
    b = Fraction("1/6")
    return (
        a + b,
        a * n,
        a / b,
        a**2,
        a < b,
        float(a),
        round(Fraction(7, 2)),
        Fraction(3141592653589793, 10**15).limit_denominator(100),
        Fraction.from_float(0.25),
        a.numerator + b.denominator,
        str(b),
        sum(Fraction(1, k) for k in range(1, n + 1)),
    )


def zero_denominator():
    return Fraction(1, 0)


def structs(count):
    s = struct.Struct(f"!{count}I")
    packed = s.pack(*range(count))
    return s.size, s.format, packed, s.unpack(packed), s.unpack_from(b"\1" * (4 * count + 4))


def bad_pack():
    return struct.Struct("!2I").pack(1)


def time_tuple(year):
    return time.strftime("%Y-%m-%d %H:%M:%S %j %%Z", (year, 2, 29, 13, 5, 7, 3, 60, 0))


def bad_time_tuple():
    return time.strftime("%Y", (2024, 13, 29, 13, 5, 7, 3, 60, 0))


def escapes(out):
    d = datetime.date(2001, 1, 1)
    out.append(d)
    out.append(Fraction(1, 3))
    return d


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (dates, (3,)),
        (dates, (0,)),
        (bad_date, (30,)),
        (bad_date, (28,)),
        (times, ()),
        (fractions_, (3,)),
        (zero_denominator, ()),
        (structs, (2,)),
        (bad_pack, ()),
        (escapes, ([],)),
        (time_tuple, (2024,)),
        (bad_time_tuple, ()),
    ],
)
def test_value_objects_trace_whole(fn, args) -> None:
    check(fn, *args)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (calendar.weekday, (2024, 2, 29)),
        (calendar.monthrange, (2023, 2)),
        (statistics.mean, ([1, 2, 3, 4, 4],)),
        (statistics.harmonic_mean, ([40, 60],)),
        (base64.b85encode, (b"www.python.org",)),
        (base64.a85decode, (b"GB\\6`E-ZP=Df.1GEb>",)),
    ],
)
def test_stdlib_functions_that_make_them(fn, args) -> None:
    check(fn, *args)


def test_the_stdlib_functions_create_them() -> None:
    assert "date" in {i.argval for i in dis.get_instructions(calendar.weekday)}


def day_name():
    return datetime.date(2024, 2, 29).strftime("%A")


def month_format():
    return f"{datetime.date(2024, 2, 29):%B}"


def month_str_format():
    return "{:%b}".format(datetime.date(2024, 2, 29))  # noqa: UP032 (str.format on purpose)


def today():
    return datetime.date.today()


def time_now():
    return time.strftime("%Y")


def time_day_name():
    return time.strftime("%A", (2024, 2, 29, 13, 5, 7, 3, 60, 0))


@pytest.mark.parametrize(
    ("fn", "reason"),
    [
        (day_name, "formatting a date with '%A' depends on the locale"),
        (month_format, "formatting a date with '%B' depends on the locale"),
        (month_str_format, "str.format of a date (its spec may use the locale)"),
        (today, "today"),
        (time_now, "time.strftime without a time tuple (the current time)"),
        (time_day_name, "time.strftime('%A') depends on the locale or timezone"),
    ],
)
def test_the_locale_and_the_clock_fall_back_with_a_reason(fn, reason) -> None:
    explanation = tracer.explain(fn)()
    assert explanation.graph_break_count >= 1
    assert reason in str(explanation.break_reasons[0])
