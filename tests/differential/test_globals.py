"""Global reads (constants, tensors, containers, functions) and global writes via `global`
(STORE_GLOBAL), including a counter incremented on every call."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

import tracer
import tracer.runtime as torch
from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensors

SCALE = 3
OFFSET = 0.5
NAMES = ("a", "b")
TABLE = {"w": 2, "b": -1}
WEIGHT = torch.tensor([1.0, 2.0, 3.0])
CALLS = 0
LAST = None
HISTORY = []


def helper_uses_global(x):
    return x * SCALE + OFFSET


def read_globals(x):
    return x * SCALE + OFFSET, NAMES[1], TABLE["w"] * len(NAMES), helper_uses_global(x)


def read_global_tensor(x):
    return x * WEIGHT.sum() + WEIGHT[0]


def global_counter(x):
    global CALLS
    CALLS += 1
    return x + CALLS


def global_rebind(x, k):
    global LAST, SCALE
    LAST = (k, "seen")
    SCALE = SCALE + k
    return x * SCALE


def global_list_append(x):
    HISTORY.append(x.ndim)
    return len(HISTORY)


def new_global_created(k):
    global CREATED_INSIDE
    CREATED_INSIDE = k * 2
    return CREATED_INSIDE + 1


@FAST
@given(x=tensors())
def test_read_globals(x):
    check(read_globals, x)


@FAST
@given(x=tensors(dtype=torch.float32, shape=(3,)))
def test_read_global_tensor(x):
    check(read_global_tensor, x)


@FAST
@given(x=tensors())
def test_global_counter(x):
    check(global_counter, x)


@FAST
@given(x=tensors(), k=small_ints)
def test_global_rebind(x, k):
    check(global_rebind, x, k)


@FAST
@given(x=tensors())
def test_global_list_append(x):
    check(global_list_append, x)


@pytest.mark.filterwarnings("ignore:modetrace.*recompile_limit:RuntimeWarning")
def test_global_counter_counts_every_compiled_call():
    import tracer

    global CALLS
    saved = CALLS
    try:
        CALLS = 0
        compiled = tracer.compile(global_counter, fullgraph=True)
        x = torch.tensor([1.0])
        # CALLS's value is guarded, so calls recompile (up to the limit, then run eagerly):
        # every call must still see and bump the current counter.
        results = [compiled(x).tolist() for _ in range(12)]
        assert results == [[float(i + 2)] for i in range(12)]
        assert CALLS == 12
    finally:
        CALLS = saved


@FAST
@given(k=small_ints)
def test_new_global_created(k):
    globals().pop("CREATED_INSIDE", None)
    check(new_global_created, k)


def call_foreign_method(scaler, x):
    return scaler.scale(x)


def test_a_method_from_another_module_reads_that_modules_globals():
    """The method's globals are read through its function's source
    (`type(L['scaler']).scale.__globals__['FACTOR']`), not refused as foreign."""
    from tests.differential.foreign_module import Scaler

    x = torch.arange(3.0)
    check(call_foreign_method, Scaler(), x)
    assert tracer.explain(call_foreign_method)(Scaler(), x).graph_break_count == 0


def test_a_global_of_another_module_returned_unread_is_read_at_the_call() -> None:
    """The compiled code loads it where the trace found it, `sys.modules['...'].__dict__`
    (before: "cannot load sys.modules[...] in compiled code", and the frame ran eagerly); it
    was never guarded, as the trace did not look at it, so a new value is what returns."""
    from tests.differential import foreign_module

    def returns_flag(x: Any) -> Any:
        return foreign_module.flag(), x + 1

    compiled = tracer.compile(returns_flag, fullgraph=True)
    assert compiled(1) == (False, 2)
    foreign_module.FLAG = True
    try:
        assert compiled(1) == (True, 2)
        assert compiled.compile_count == 1
    finally:
        foreign_module.FLAG = False
