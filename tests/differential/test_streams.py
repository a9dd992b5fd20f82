"""io.StringIO and io.BytesIO made in the frame and kept in it are driven by CPython
(variables/streams.py): before, each fell back ("creating StringIO, which customizes
__new__"). `check` compiles with fullgraph=True, so these trace whole; a stream that leaves the
frame falls back, with its reason."""

from __future__ import annotations

import io

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


def text(n):
    s = io.StringIO("ab\ncd\n")
    first = s.readline()
    s.seek(0, 2)
    s.write("x" * n)
    s.writelines(["1", "2"])
    rest = s.readlines()
    return first, s.getvalue(), s.tell(), s.closed, rest, s.seekable()


def report(rows):
    out = io.StringIO(newline="")
    for name, value in rows:
        out.write(f"{name:<6}|{value:>4}\r\n")
    return out.getvalue()


def binary(data):
    b = io.BytesIO()
    b.write(data)
    b.seek(1)
    return b.read(2), b.getvalue(), b.truncate(2), b.getvalue()


def closed_write():
    s = io.StringIO()
    s.close()
    return s.write("x")


def bad_write():
    return io.StringIO().write(3)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (text, (3,)),
        (report, ([("a", 1), ("bb", 22)],)),
        (binary, (b"xyz",)),
        (closed_write, ()),
        (bad_write, ()),
    ],
)
def test_streams_kept_in_the_frame_trace_whole(fn, args) -> None:
    check(fn, *args)


def returned():
    return io.StringIO("kept")


def stored(out):
    out.append(io.StringIO())


@pytest.mark.parametrize(("fn", "args"), [(returned, ()), (stored, ([],))])
def test_a_stream_that_leaves_the_frame_falls_back(fn, args) -> None:
    reasons = tracer.explain(fn)(*args).break_reasons
    assert "made in the frame leaves it" in str(reasons[0])
    assert_same_behavior(fn, *args)
