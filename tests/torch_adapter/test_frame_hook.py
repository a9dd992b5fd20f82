"""tracer/torch_adapter/frame_hook.py: the PEP 523 hook a Dynamo compile that raised leaves
installed (torch 2.13), and its removal through Dynamo's own count."""

from __future__ import annotations

import types
from collections.abc import Iterator

import pytest

from tests.real_torch import real_torch


@pytest.fixture
def hook() -> Iterator[types.ModuleType]:
    """frame_hook (it imports torch), with Dynamo reset before and after."""
    torch = real_torch()
    from tracer.torch_adapter import frame_hook

    torch._dynamo.reset()
    yield frame_hook
    torch._dynamo.reset()


def compile_that_raises() -> None:
    torch = real_torch()

    def bad(x: object) -> object:
        return torch.ones(2) + torch.ones(3)  # fails on fake tensors: the compile raises

    with pytest.raises(Exception, match="broadcast"):
        torch.compile(bad, backend="eager")(torch.ones(1))


def test_dynamo_leaves_its_hook_after_a_compile_that_raised_and_it_is_removed(
    hook: types.ModuleType,
) -> None:
    """The assertion inside the block is Dynamo's bug: should a torch release fix it, it
    fails here, and frame_hook.py can go."""
    assert hook.calls_are_inlined()
    with hook.restoring_frame_evaluation():
        compile_that_raises()
        assert not hook.calls_are_inlined()
    assert hook.calls_are_inlined()


def test_dynamos_count_is_right_after_the_removal(hook: types.ModuleType) -> None:
    """Putting the interpreter's evaluator back by hand would leave Dynamo's count one too
    high, and the next compile that succeeds would leave the hook installed again."""
    torch = real_torch()

    def good(x: object) -> object:
        return torch.sin(x) + 1  # type: ignore[call-overload]

    with hook.restoring_frame_evaluation():
        compile_that_raises()
    x = torch.ones(2)
    assert torch.equal(torch.compile(good, backend="eager")(x), good(x))
    assert hook.calls_are_inlined()


def test_a_hook_installed_before_is_left_alone(hook: types.ModuleType) -> None:
    with hook.restoring_frame_evaluation():  # removes it at the end of the test
        compile_that_raises()
        with hook.restoring_frame_evaluation():
            pass
        assert not hook.calls_are_inlined()
    assert hook.calls_are_inlined()


def test_a_hook_that_cannot_be_removed_is_reported(
    hook: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    count_down = hook._count_down
    monkeypatch.setattr(hook, "_count_down", lambda: None)
    with (
        pytest.warns(RuntimeWarning, match="left its frame-evaluation hook installed"),
        hook.restoring_frame_evaluation(),
    ):
        compile_that_raises()
    count_down()  # the test's own clean-up
    assert hook.calls_are_inlined()
