"""posixpath and ntpath call the C functions `os.fspath` and `posix._path_normpath` first
thing; on str and bytes constants they are folded, so the stdlib path functions trace whole
(the corpus's stdlib posixpath and ntpath cases all fell back on them before)."""

from __future__ import annotations

import dis
import inspect
import ntpath
import os
import posixpath

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior
from variables.pure_calls import PATH_FUNCTIONS

C_PATH_FUNCTIONS = [
    f
    for module in (posixpath, ntpath)
    for f in vars(module).values()
    if callable(f) and not inspect.isfunction(f) and not isinstance(f, type)
]
"""The path functions that are C functions on the running version (3.13: normpath, splitroot)."""


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
    """`posixpath.normpath` calls a C function the tracer folds, or is one (3.13)."""
    normpath = posixpath.normpath
    if inspect.isfunction(normpath):
        names = {i.argval for i in dis.get_instructions(normpath)}
        assert "_path_normpath" in names or "fspath" in names
    else:
        assert normpath in PATH_FUNCTIONS
    assert all(f in PATH_FUNCTIONS for f in C_PATH_FUNCTIONS)


def split_root(a):
    return posixpath.splitroot(a), posixpath.splitroot(a + "//x")


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (join_and_split, ("/usr", "python3.tar.gz")),
        (join_and_split, (b"/usr", b"x")),
        (windows, ("c:\\foo\\bar",)),
        (fspath_of, ("/a",)),
        (fspath_of, (1,)),
        pytest.param(
            split_root,
            ("//usr/lib",),
            marks=pytest.mark.skipif(
                not hasattr(posixpath, "splitroot"), reason="posixpath.splitroot is new in 3.12"
            ),
        ),
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
