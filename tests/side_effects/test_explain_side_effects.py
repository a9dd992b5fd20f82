"""`explain()` lists the side effects a compiled call replays, by source; the replay bytecode can
be printed; `MODETRACE_LOGS=side_effects` logs the same list."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

import tracer
import tracer.runtime as torch
from tracer.observability import logs
from tracer.runtime.overrides import TorchFunctionMode

COUNTER = 0


class Obj:
    def __init__(self) -> None:
        self.a = 1
        self.b = 2


class PassMode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def list_append(xs, x):
    xs.append(x * 2)
    return x


def store_attr(obj):
    obj.a = 5
    return obj.b


def delete_attr(obj):
    del obj.b
    return 0


def dict_store(d):
    d["k"] = 1
    return len(d)


def global_store(k):
    global COUNTER
    COUNTER = k + 1
    return k


def push_mode(x):
    torch._C._push_on_torch_function_stack(PassMode())
    return x + 1


def with_mode_only(x):
    with PassMode():
        y = x + 1
    return y


def no_side_effects(xs, x):
    return len(xs) + x


def everything(xs, obj, d, x):
    global COUNTER
    xs.append(x * 2)
    obj.a = 5
    d["k"] = 1
    COUNTER = 7
    torch._C._push_on_torch_function_stack(PassMode())
    return x


def list_setitem(xs):
    xs[0] = 9
    return 0


@pytest.fixture
def empty_stack_after() -> Iterator[None]:
    yield
    torch._C._set_torch_function_mode_stack([])


@pytest.fixture
def side_effects_logging() -> Iterator[None]:
    logs.set_logs("side_effects")
    yield
    logs.set_logs()


def _listing(explanation: tracer.Explanation) -> str:
    assert len(explanation.entries) == 1
    return explanation.entries[0].bytecode_listing()


def test_list_mutation_is_listed_by_source() -> None:
    e = tracer.explain(list_append)(["a"], torch.ones(2))
    assert e.graph_break_count == 0
    (effect,) = e.side_effects
    assert "L['xs']" in effect
    assert "append" in effect


def test_list_mutation_replays_with_a_store_subscr() -> None:
    e = tracer.explain(list_setitem)([1, 2])
    assert "L['xs']" in e.side_effects[0]
    assert "STORE_SUBSCR" in _listing(e)


def test_attribute_store_is_listed_by_source_and_replayed_with_store_attr() -> None:
    e = tracer.explain(store_attr)(Obj())
    (effect,) = e.side_effects
    assert "L['obj'].a" in effect
    assert "5" in effect
    listing = _listing(e)
    assert "STORE_ATTR" in listing
    assert "'a'" in listing


def test_attribute_delete_is_listed_and_replayed_with_delete_attr() -> None:
    e = tracer.explain(delete_attr)(Obj())
    (effect,) = e.side_effects
    assert "del" in effect
    assert "L['obj'].b" in effect
    assert "DELETE_ATTR" in _listing(e)


def test_dict_store_is_listed_by_source() -> None:
    e = tracer.explain(dict_store)({})
    (effect,) = e.side_effects
    assert "L['d']" in effect
    assert "'k'" in effect


def test_global_store_is_listed_and_replayed_with_store_global() -> None:
    global COUNTER
    saved = COUNTER
    try:
        e = tracer.explain(global_store)(4)
        (effect,) = e.side_effects
        assert "COUNTER" in effect
        assert "5" in effect
        listing = _listing(e)
        assert "STORE_GLOBAL" in listing
        assert "COUNTER" in listing
        assert COUNTER == 5  # explain runs the compiled call
    finally:
        COUNTER = saved


@pytest.mark.usefixtures("empty_stack_after")
def test_mode_stack_change_is_listed_and_replayed_with_set_mode_stack() -> None:
    e = tracer.explain(push_mode)(torch.ones(2))
    (effect,) = e.side_effects
    assert "mode stack" in effect
    assert "PassMode" in effect
    assert "_set_torch_function_mode_stack" in _listing(e)
    assert torch._C._len_torch_function_stack() == 1


def test_balanced_with_mode_leaves_no_side_effect() -> None:
    """Entering and exiting a mode inside the frame changes nothing outside it."""
    e = tracer.explain(with_mode_only)(torch.ones(2))
    assert e.side_effects == []
    assert "_set_torch_function_mode_stack" not in _listing(e)


def test_no_side_effects_means_no_replay() -> None:
    e = tracer.explain(no_side_effects)([1], 2)
    assert e.side_effects == []
    listing = _listing(e)
    for opname in ("STORE_ATTR", "STORE_SUBSCR", "STORE_GLOBAL", "DELETE_ATTR"):
        assert opname not in listing


@pytest.mark.usefixtures("empty_stack_after")
def test_all_kinds_listed_in_program_order_and_in_str() -> None:
    global COUNTER
    saved = COUNTER
    try:
        e = tracer.explain(everything)([], Obj(), {}, torch.ones(2))
    finally:
        COUNTER = saved
    assert len(e.side_effects) == 5
    xs, attr, d, g, modes = e.side_effects
    assert "L['xs']" in xs
    assert "L['obj'].a" in attr
    assert "L['d']" in d
    assert "COUNTER" in g
    assert "mode stack" in modes
    text = str(e)
    assert "Side Effects:" in text
    for effect in e.side_effects:
        assert effect in text
    listing = _listing(e)
    for opname in ("STORE_SUBSCR", "STORE_ATTR", "STORE_GLOBAL", "_set_torch_function_mode_stack"):
        assert opname in listing


def test_stores_happen_after_all_loads_in_the_listing() -> None:
    """NOTE [two-phase replay]: every store comes after the last load of a replay temporary."""
    global COUNTER
    saved = COUNTER
    try:
        e = tracer.explain(everything)([], Obj(), {}, torch.ones(2))
    finally:
        COUNTER = saved
        torch._C._set_torch_function_mode_stack([])
    lines = _listing(e).splitlines()
    first_store = min(
        i for i, line in enumerate(lines) if "STORE_ATTR" in line or "STORE_GLOBAL" in line
    )
    last_temp_store = max(
        i for i, line in enumerate(lines) if "STORE_FAST" in line and "___tmp_" in line
    )
    assert last_temp_store < first_store


@pytest.mark.usefixtures("side_effects_logging")
def test_side_effects_logged_when_topic_is_on(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("modetrace.side_effects")
    logger.addHandler(caplog.handler)
    try:
        tracer.compile(store_attr)(Obj())
    finally:
        logger.removeHandler(caplog.handler)
    messages = [r.getMessage() for r in caplog.records if r.name == "modetrace.side_effects"]
    assert messages
    assert any("L['obj'].a" in m for m in messages)


@pytest.mark.usefixtures("side_effects_logging")
def test_side_effects_log_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    tracer.compile(dict_store)({})
    err = capsys.readouterr().err
    assert "[modetrace.side_effects]" in err
    assert "L['d']" in err


def test_side_effects_not_logged_when_topic_is_off(capsys: pytest.CaptureFixture[str]) -> None:
    logs.set_logs()
    tracer.compile(store_attr)(Obj())
    assert "modetrace.side_effects" not in capsys.readouterr().err


@pytest.mark.usefixtures("side_effects_logging")
def test_no_log_line_without_side_effects(capsys: pytest.CaptureFixture[str]) -> None:
    tracer.compile(no_side_effects)([1], 2)
    assert "modetrace.side_effects" not in capsys.readouterr().err
