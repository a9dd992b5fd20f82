"""Methods of constants are folded by calling the real method (ConstantVariable.call_method):
positional and keyword arguments, errors raised as the user's, and a non-constant argument
sent to the base protocol (a graph break) after asking every argument in order."""

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.exc import Unsupported
from tracer.testing import assert_same_behavior
from variables.base import VariableTracker
from variables.constant import ConstantVariable


def folds(x: Any) -> Any:
    words = "a b  c".split(sep=" ", maxsplit=2)  # noqa: SIM905 (the method call is the test)
    hits = len([w for w in ("pa", "qb", "pc") if w.startswith("p")])
    return x * hits + len(words) + int("7".zfill(3)) + (2.5).real


def raises(x: Any) -> Any:
    return x + int("seven".index("z"))


def test_constant_methods_fold_like_python() -> None:
    assert_same_behavior(folds, torch.ones(3))
    assert_same_behavior(raises, torch.ones(3))
    assert tracer.explain(folds)(torch.ones(3)).graph_break_count == 0


class _Asked(VariableTracker):
    """A tracker that records being asked whether it is a constant."""

    __slots__ = ("answer", "asked")

    def __init__(self, asked: list[str], answer: bool) -> None:
        super().__init__()
        self.asked = asked
        self.answer = answer

    def is_python_constant(self) -> bool:
        self.asked.append(repr(self.answer))
        return self.answer


def test_a_non_constant_argument_is_the_base_protocol_after_asking_in_order() -> None:
    asked: list[str] = []
    args = [_Asked(asked, True), _Asked(asked, False), _Asked(asked, True)]
    with pytest.raises(Unsupported, match="str.startswith"):
        ConstantVariable("x").call_method(None, "startswith", args, {"k": _Asked(asked, True)})  # type: ignore[arg-type]
    assert asked == ["True", "False"]
