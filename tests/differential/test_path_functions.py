"""posixpath and ntpath call the C functions `os.fspath` and `posix._path_normpath` first
thing; on str and bytes constants they are folded, so the stdlib path functions trace whole
(the corpus's stdlib posixpath and ntpath cases all fell back on them before)."""

from __future__ import annotations

import dis
import ntpath
import os
import posixpath

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def join_and_split(a, b):
    path = posixpath.join(a, "lib", b)
    return posixpath.split(path), posixpath.splitext(path), posixpath.normpath(path + "/../x")


def windows(a):
    return ntpath.splitdrive(a), ntpath.normpath(a + "\\\\..\\y")


def fspath_of(x):
    return os.fspath(x)


class HasFspath:
    def __fspath__(self):
        return "/from/object"


def test_the_stdlib_calls_the_c_functions() -> None:
    names = {i.argval for i in dis.get_instructions(posixpath.normpath)}
    assert "_path_normpath" in names or "fspath" in names


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (join_and_split, ("/usr", "python3.tar.gz")),
        (join_and_split, (b"/usr", b"x")),
        (windows, ("c:\\foo\\bar",)),
        (fspath_of, ("/a",)),
        (fspath_of, (1,)),
    ],
)
def test_path_functions_trace_whole(fn, args) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)


def test_join_of_str_and_bytes_raises_the_same_error() -> None:
    assert_same_behavior(join_and_split, "/usr", b"x")


def test_an_object_with_fspath_still_behaves() -> None:
    assert_same_behavior(fspath_of, HasFspath())
    with tracer.testing.CompileCounter() as counter:
        tracer.compile(fspath_of)(HasFspath())
    assert counter.records
