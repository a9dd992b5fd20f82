"""The builder takes a plain Python function straight to its tracker (variables/builder.py,
`_wrap`): a special function is modeled, a runtime op or factory (is_runtime_callable) is an
identity-guarded TorchOpVariable, anything else an inlined UserFunctionVariable pinned by
FUNCTION_MATCH. The shortcut must agree with the generic rules for every kind of function."""

import types
from typing import Any

import tracer.runtime as torch
from guards.guard import FunctionSpec, GuardKind
from guards.sources import LocalSource
from variables.builder import VariableBuilder, is_runtime_callable
from variables.functions import UserFunctionVariable
from variables.tensor import TorchOpVariable


class _Output:
    """What wrapping a function needs of an OutputGraph: somewhere to put its guards."""

    def __init__(self) -> None:
        self.guards: list[tuple[GuardKind, object, object]] = []

    def add_guard(self, kind: GuardKind, source: object, expected: object) -> None:
        self.guards.append((kind, source, expected))


def _helper(x: Any) -> Any:
    return x


def _factory_named() -> None:
    """A plain function claiming the factories module: is_runtime_callable says op."""


_factory_named.__module__ = "tracer.runtime.factories"


def _marked() -> None:
    """A plain function carrying the op marker."""


_marked.__modetrace_op__ = object()  # type: ignore[attr-defined]


def test_functions_wrap_as_the_generic_rules_say() -> None:
    for fn in (_helper, torch.relu, torch.matmul, torch.ones, _factory_named, _marked):
        assert type(fn) is types.FunctionType
        output = _Output()
        source = LocalSource("f")
        vt = VariableBuilder(output)._wrap(fn, source)  # type: ignore[arg-type]
        assert vt.source is source
        if is_runtime_callable(fn):
            assert type(vt) is TorchOpVariable, fn
            assert output.guards == [(GuardKind.ID_MATCH, source, fn)]
        else:
            assert type(vt) is UserFunctionVariable, fn
            [(kind, where, spec)] = output.guards
            assert (kind, where) == (GuardKind.FUNCTION_MATCH, source)
            assert type(spec) is FunctionSpec
            assert spec.fn is fn and spec.code is fn.__code__
