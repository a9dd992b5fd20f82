"""Two C corners the stdlib meets: `len()` of an iterator or generator raises CPython's
TypeError (statistics.fmean tries `len(data)` and catches it; before, "method map.__len__ is
not supported"), and binascii's conversions fold on constants (base64's b16encode, b64encode;
before, "call to C function binascii.hexlify is not supported")."""

from __future__ import annotations

import base64
import binascii
import dis
import statistics

import pytest

from tracer.testing import CompileCounter, assert_same_behavior


def lengths(xs):
    out = []
    for it in (map(abs, xs), zip(xs, xs, strict=True), (x for x in xs), iter(xs), filter(None, xs)):
        try:
            out.append(len(it))
        except TypeError as e:
            out.append(str(e))
    return out


def means(xs):
    return statistics.fmean(map(float, xs)), statistics.geometric_mean(xs)


def encodings(data):
    return (
        binascii.hexlify(data, "-"),
        binascii.crc32(data),
        base64.b16encode(data),
        base64.b16decode(b"01AB"),
        base64.b64encode(data, b"-_"),
        base64.urlsafe_b64decode(b"ZGF0YQ=="),
    )


def bad_hex():
    return base64.b16decode(b"0G")


def test_the_functions_use_len_and_binascii() -> None:
    assert "len" in {i.argval for i in dis.get_instructions(lengths)}
    assert "hexlify" in {i.argval for i in dis.get_instructions(encodings)}


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (lengths, ([1, -2],)),
        (means, ([54, 24, 36],)),
        (encodings, (b"\x01\xab data",)),
        (bad_hex, ()),
    ],
)
def test_traces_whole(fn, args) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)
