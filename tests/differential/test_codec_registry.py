"""`str.encode` and `bytes.decode` look their codec and error handler up in CPython's
registries when they run. Folded on constants while tracing, they ran a user's error handler
once, at trace time, and kept a LookupError for a codec registered later (found by an audit).
Only the standard library's codecs and handlers are folded now; any other breaks the frame, so
the call runs, and looks them up, on every call."""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter

_names = itertools.count()


def test_a_user_error_handler_runs_on_every_call() -> None:
    tracer.reset()
    handler = f"modetrace_test_handler_{next(_names)}"
    replacement = ["A"]
    codecs.register_error(handler, lambda e: (replacement[0], e.end))

    def decode(x: str) -> str:
        return b"\xff".decode("ascii", errors=handler) + x

    compiled = tracer.compile(decode)
    assert compiled("!") == decode("!") == "A!"
    replacement[0] = "B"
    assert compiled("!") == decode("!") == "B!"


@pytest.fixture
def codec_name() -> Iterator[str]:
    yield f"modetrace_test_codec_{next(_names)}"


def test_a_codec_registered_after_the_compile_is_found(codec_name: str) -> None:
    tracer.reset()

    def encode(x: str) -> Any:
        try:
            return "abc".encode(codec_name) + x.encode()
        except LookupError:
            return "unknown codec"

    compiled = tracer.compile(encode)
    assert compiled("!") == encode("!") == "unknown codec"
    info = codecs.CodecInfo(lambda s, errors="strict": (b"ENC", len(s)), lambda b: ("", 0))

    def search(name: str) -> codecs.CodecInfo | None:
        return info if name == codec_name else None

    codecs.register(search)
    try:
        assert compiled("!") == encode("!") == b"ENC!"
    finally:
        codecs.unregister(search)


def test_standard_codecs_still_fold() -> None:
    tracer.reset()

    def text(x: bytes) -> bytes:
        return "héllo".encode() + b"abc" + "ü".encode("latin-1", "replace") + x

    with CompileCounter() as counter:
        assert tracer.compile(text)(b"!") == text(b"!")
    assert counter.graph_breaks == 0
