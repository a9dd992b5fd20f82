from __future__ import annotations

import pytest

from tracer.observability.compile_context import CompileId, compile_context, current_compile_id


def test_compile_id_str_and_parse() -> None:
    assert str(CompileId(0, 1)) == "0/1"
    assert str(CompileId(0, 1, attempt=1)) == "0/1_1"
    assert CompileId.from_string("3/2_1") == CompileId(3, 2, 1)
    assert CompileId(0, 1).with_attempt(2).key == "0/1"
    with pytest.raises(ValueError, match="not a compile id"):
        CompileId.from_string("zero")


def test_compile_context_nests_and_restores() -> None:
    assert current_compile_id() is None
    with compile_context(CompileId(0, 0)):
        with compile_context(CompileId(1, 0)):
            assert current_compile_id() == CompileId(1, 0)
        assert current_compile_id() == CompileId(0, 0)
    assert current_compile_id() is None


def test_compile_context_restores_on_exception() -> None:
    with pytest.raises(KeyError), compile_context(CompileId(0, 0)):
        raise KeyError("x")
    assert current_compile_id() is None
