"""Module attribute lookups and calls that the tracker decides from the module's real dicts
(found by a differential hunt on real torch):

- a module class with a `__getattr__` of its own (or a `__getattribute__`): CPython asks it
  for a name held in `_modules`; the tracker read `_modules` directly (also after the class
  gained one, a stale hit);
- the module's dicts, or its hook dicts, changed in the frame and then looked in (`del m.fc`
  then `hasattr(m, "fc")`: an InternalError; a hook put in `m._forward_hooks`, then `m(x)`:
  skipped): the frame breaks there now;
- an OrderedDict subclass in place of `_parameters` (DeepSpeed's ZeRO-3 puts one): falls back
  (was an InternalError);
- a Parameter's missing attribute names `Parameter` in the error;
- `Tensor.__deepcopy__(memo)` fills the caller's memo and keeps a Parameter's class: it runs
  eagerly (it was recorded as a graph op).
"""

from __future__ import annotations

import collections
import copy
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


def outcome(fn: Any, *args: Any) -> Any:
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return ("raised", type(e).__name__, str(e))
    torch = real_torch()
    return ("returned", result.tolist() if isinstance(result, torch.Tensor) else result)


def read_fc(m: Any, x: Any) -> Any:
    return m.fc(x)


def test_a_module_class_with_its_own_getattr() -> None:
    torch = real_torch()
    nn = torch.nn

    class Answers(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def __getattr__(self, name: str) -> Any:
            if name == "fc":
                return torch.neg
            return super().__getattr__(name)

    class Plain(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)

    x = torch.ones(1, 2)
    m = Answers()
    assert outcome(tracer.compile(read_fc), m, x) == outcome(read_fc, m, x)
    plain = Plain()
    compiled = tracer.compile(read_fc)
    assert outcome(compiled, plain, x) == outcome(read_fc, plain, x)
    Plain.__getattr__ = lambda self, name: torch.neg  # type: ignore[assignment,method-assign]
    assert outcome(compiled, plain, x) == outcome(read_fc, plain, x) == ("returned", [[-1.0, -1.0]])


def delete_then_ask(m: Any, x: Any) -> Any:
    del m.fc
    return hasattr(m, "fc")


def add_then_call(m: Any, x: Any) -> Any:
    m.add_module("g", real_torch().nn.Identity())
    return m.g(x)


def hook_then_call(m: Any, x: Any) -> Any:
    m._forward_hooks[7] = lambda module, args, out: out * 100
    return m.fc(x)


@pytest.mark.parametrize("fn", [delete_then_ask, add_then_call, hook_then_call])
def test_module_dicts_changed_in_the_frame(fn: Any) -> None:
    torch = real_torch()

    def make() -> Any:
        torch.manual_seed(0)
        m = torch.nn.Module()
        m.fc = torch.nn.Linear(2, 2)
        if fn is hook_then_call:
            m = m.fc  # a hook on the Linear itself
            m.fc = m  # (so `m.fc(x)` calls it)
        return m

    x = torch.ones(2)
    assert outcome(tracer.compile(fn), make(), x) == outcome(fn, make(), x)


def test_an_ordered_dict_subclass_as_parameters() -> None:
    torch = real_torch()

    class Tracked(collections.OrderedDict):  # type: ignore[type-arg]
        pass

    m = torch.nn.Linear(2, 2)
    m._parameters = Tracked(m._parameters)
    x = torch.ones(2)
    assert outcome(tracer.compile(lambda m, x: m.weight @ x), m, x) == outcome(
        lambda m, x: m.weight @ x, m, x
    )


def test_a_parameters_missing_attribute() -> None:
    torch = real_torch()
    p = torch.nn.Parameter(torch.ones(2))

    def fn(p: Any) -> Any:
        return p.nonexistent

    assert outcome(tracer.compile(fn), p) == outcome(fn, p)
    assert "'Parameter' object" in outcome(fn, p)[2]


def test_deepcopy_of_a_tensor_fills_the_memo() -> None:
    torch = real_torch()

    def fn(x: Any, memo: dict[int, Any]) -> Any:
        return type(x.__deepcopy__(memo)).__name__

    # (torch warns once per process on the first fake `__deepcopy__`, which the trace's warning
    # filters turn into a break: warmed up here so that the call below is traced)
    tracer.compile(lambda t: t.__deepcopy__({}))(torch.ones(1))
    tracer.reset()
    p = torch.nn.Parameter(torch.ones(2))
    eager_memo: dict[int, Any] = {}

    compiled_memo: dict[int, Any] = {}
    assert tracer.compile(fn)(p, compiled_memo) == fn(p, eager_memo) == "Parameter"
    assert len(compiled_memo) == len(eager_memo)
    assert copy.deepcopy(p) is not p


def test_compiling_a_module_whose_forward_is_no_plain_method() -> None:
    """The error said the module "has no forward method"; it names what forward is."""
    torch = real_torch()

    class Static(torch.nn.Module):
        @staticmethod
        def forward(x: Any) -> Any:
            return x

    with pytest.raises(tracer.UserError, match=r"Static\.forward is a staticmethod"):
        tracer.compile(Static())
