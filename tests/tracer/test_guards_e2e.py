"""Guards end to end, through `tracer.compile` and the dispatch table, with hypothesis.

(a) a guard set passes on the frame it was built from; (b) soundness: whenever a cached entry
runs, its result equals eager, across random changes to values, dtypes, shapes, list lengths,
dict keys, globals, attributes, class attributes and the mode stack; (c) precision: inputs equal
in every guarded property never recompile; (d) the printouts are deterministic. Plus the
per-call path's own contract: fn's signature and TypeErrors, the key, newest-first order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.runtime import _C
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import compare

GAIN = 1.0


class Cfg:
    def __init__(self, scale: float) -> None:
        self.scale = scale


class Holder:
    factor = 2


class PassThroughMode(TorchFunctionMode):
    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


class OtherMode(PassThroughMode):
    pass


def target(x, xs, d, cfg, n):
    t = x * n + GAIN
    for v in xs:
        t = t + v.sum()
    for k in d:
        t = t + d[k]
    return t * cfg.scale * Holder.factor


DTYPES = [torch.float32, torch.float64]


@dataclasses.dataclass(frozen=True)
class State:
    """Every property of one call that a guard may pin, and nothing else."""

    dtype: Any
    shape: tuple[int, ...]
    xs_len: int
    keys: tuple[str, ...]
    values: tuple[float | int, ...]
    n: int | float
    gain: float
    scale: float
    factor: int
    modes: tuple[type, ...]


states = st.builds(
    State,
    dtype=st.sampled_from(DTYPES),
    shape=st.sampled_from([(2,), (3,), (2, 2)]),
    xs_len=st.integers(0, 3),
    keys=st.sampled_from([("a",), ("a", "b"), ("b", "a")]),
    values=st.tuples(st.sampled_from([1, 2, 1.0, 0.5]), st.sampled_from([1, 2.0])),
    n=st.sampled_from([1, 2, 1.0, True]),
    gain=st.sampled_from([1.0, 2.0, -0.0, 0.0]),
    scale=st.sampled_from([0.5, 1.0]),
    factor=st.sampled_from([2, 3]),
    modes=st.sampled_from([(), (PassThroughMode,), (OtherMode,), (PassThroughMode, OtherMode)]),
)


def inputs(state: State, fill: float) -> tuple[Any, ...]:
    x = torch.full(state.shape, fill, dtype=state.dtype)
    xs = [torch.full(state.shape, fill + i, dtype=state.dtype) for i in range(state.xs_len)]
    d = dict(zip(state.keys, state.values, strict=False))
    return x, xs, d, Cfg(state.scale), state.n


@pytest.fixture(autouse=True)
def _restore_globals() -> Iterator[None]:
    yield
    globals()["GAIN"] = 1.0
    Holder.factor = 2


def call_in(state: State, fn: Any, args: tuple[Any, ...]) -> Any:
    """Call under the state's globals, class attribute and mode stack (fresh mode objects)."""
    globals()["GAIN"] = state.gain
    Holder.factor = state.factor
    for mode_type in state.modes:
        _C._push_on_torch_function_stack(mode_type())
    try:
        return fn(*args)
    finally:
        for _ in state.modes:
            _C._pop_torch_function_stack()


@settings(max_examples=30)
@given(state=states, fill=st.sampled_from([0.0, 1.5, -2.0]))
def test_guards_pass_on_the_frame_they_were_built_from(state: State, fill: float) -> None:
    compiled = tracer.compile(target)
    args = inputs(state, fill)
    call_in(state, compiled, args)
    [entry] = compiled.entries
    frame_locals = compiled._bind(*args)
    globals()["GAIN"] = state.gain
    Holder.factor = state.factor
    for mode_type in state.modes:
        _C._push_on_torch_function_stack(mode_type())
    try:
        assert entry.check(frame_locals), entry.guard_manager.failure_reason(frame_locals)
        assert entry.failure(frame_locals) is None
    finally:
        for _ in state.modes:
            _C._pop_torch_function_stack()
    call_in(state, compiled, args)  # the per-call path agrees: a hit
    assert compiled.compile_count == 1


@settings(max_examples=500)
@given(calls=st.lists(st.tuples(states, st.sampled_from([0.0, 1.5, -2.0])), min_size=2, max_size=3))
def test_soundness_cached_entries_match_eager(calls: list[tuple[State, float]]) -> None:
    compiled = tracer.compile(target)
    for step, (state, fill) in enumerate(calls):
        eager = call_in(state, target, inputs(state, fill))
        got = call_in(state, compiled, inputs(state, fill))
        compare(eager, got, f"call {step} return", {}, {})


@settings(max_examples=500)
@given(
    calls=st.lists(st.tuples(states, st.sampled_from([0.0, 1.5])), min_size=2, max_size=2),
    repeat=st.integers(0, 1),
)
def test_soundness_after_revisiting_old_entries(
    calls: list[tuple[State, float]], repeat: int
) -> None:
    """Hits on older entries (not only the newest) also match eager."""
    compiled = tracer.compile(target)
    for state, fill in [*calls, calls[repeat]]:
        eager = call_in(state, target, inputs(state, fill))
        compare(eager, call_in(state, compiled, inputs(state, fill)), "return", {}, {})


@settings(max_examples=600)
@given(state=states, fills=st.tuples(st.floats(-4, 4, width=32), st.floats(-4, 4, width=32)))
def test_precision_equal_guarded_properties_never_recompile(
    state: State, fills: tuple[float, float]
) -> None:
    compiled = tracer.compile(target)
    call_in(state, compiled, inputs(state, fills[0]))
    call_in(state, compiled, inputs(state, fills[1]))  # new tensors, new Cfg, new modes
    assert compiled.compile_count == 1, compiled.last_miss_reasons


@settings(max_examples=500)
@given(first=states, second=states)
def test_precision_each_state_compiles_once(first: State, second: State) -> None:
    """Alternating between two states compiles at most twice, whatever the order."""
    compiled = tracer.compile(target)
    for state in (first, second, first, second):
        call_in(state, compiled, inputs(state, 1.0))
    same = _exact(first) == _exact(second)
    assert compiled.compile_count == (1 if same else 2), compiled.last_miss_reasons


def _exact(state: State) -> tuple[str, ...]:
    """Field reprs: 1, 1.0 and True (or 0.0 and -0.0) are different states to a guard."""
    # only as many values as there are keys reach the dict (`inputs` zips them)
    used = dataclasses.replace(state, values=state.values[: len(state.keys)])
    return tuple(repr(getattr(used, f.name)) for f in dataclasses.fields(used))


@settings(max_examples=20)
@given(state=states)
def test_printouts_are_deterministic(state: State) -> None:
    texts = []
    for _ in range(2):
        compiled = tracer.compile(target)
        call_in(state, compiled, inputs(state, 1.0))
        entry = compiled.entries[0]
        texts.append(
            (
                str(entry.guard_manager),
                entry.guards,
                entry.guard_manager.source,
                compiled.dispatch_plan.describe(),
            )
        )
    first, second = texts
    assert first == second


# ------------------------------------------------------------------ the per-call path itself


def add(x, y=1):
    return x + y


def test_binder_has_fn_signature_and_type_errors() -> None:
    compiled = tracer.compile(add)
    x = torch.ones(4)
    assert compiled(x).tolist() == [2.0] * 4
    assert compiled(y=2, x=x).tolist() == [3.0] * 4
    for bad in [(), (x, 1, 2)]:
        with pytest.raises(TypeError) as eager_error:
            add(*bad)
        with pytest.raises(TypeError) as compiled_error:
            compiled(*bad)
        assert str(compiled_error.value) == str(eager_error.value)


def test_parameters_named_like_generated_names() -> None:
    def shadow(type, len, G, *args, k=2, **kw):
        return type * k + len

    compiled = tracer.compile(shadow)
    x = torch.ones(2)
    for k in (2, 3, 2):
        assert compiled(x, 1.0, None, k=k).tolist() == shadow(x, 1.0, None, k=k).tolist()
    assert compiled.compile_count == 2


def test_compile_a_lambda() -> None:
    compiled = tracer.compile(lambda t: t * 2)
    assert compiled(torch.ones(2)).tolist() == [2.0, 2.0]


def test_many_shapes_use_a_key() -> None:
    compiled = tracer.compile(add, recompile_limit=16)
    for n in range(1, 17):
        compiled(torch.ones(n))
    assert compiled.dispatch_plan.describe() == (
        "key L['x'] [Tensor:shape]: 16 keys, at most 1 candidate"
    )
    for n in range(1, 17):
        assert compiled(torch.ones(n)).tolist() == [2.0] * n
    assert compiled.compile_count == 16


def test_the_key_picks_candidates_that_still_run_their_whole_check() -> None:
    """NOTE [dispatch key]: the key (the shape) picks the candidates; dtype, requires_grad and
    the mode stack are still checked, and a failure there is a miss."""
    compiled = tracer.compile(add, recompile_limit=16)
    for n in (1, 2, 3):
        compiled(torch.ones(n))
    assert compiled.dispatch_plan.describe().endswith("3 keys, at most 1 candidate")
    x = torch.ones(2, dtype=torch.float64)
    assert compiled(x).tolist() == add(x).tolist()
    assert compiled.compile_count == 4
    assert "dtype" in compiled.last_miss_reasons[1]
    g = torch.ones(3)
    g.requires_grad = True
    assert compiled(g).tolist() == add(g).tolist()
    assert compiled.compile_count == 5
    # two entries for shape (3,) now share a key
    assert compiled.dispatch_plan.describe().endswith("4 keys, at most 2 candidates")
    for n in (1, 2, 3):
        assert compiled(torch.ones(n)).tolist() == [2.0] * n
    assert compiled.compile_count == 5


def test_a_value_of_another_type_has_a_key_no_entry_has() -> None:
    """A value of another type has a key no entry has: a miss, compiled for it."""
    compiled = tracer.compile(add, recompile_limit=16)
    for n in (1, 2):
        compiled(torch.ones(n))
    assert compiled.dispatch_plan.key_sources
    assert compiled(3) == 4
    assert compiled.compile_count == 3
    assert compiled(3) == 4
    assert compiled.compile_count == 3


def test_entries_that_share_nothing_discriminating_are_scanned() -> None:
    compiled = tracer.compile(target)
    state = State(torch.float32, (2,), 1, ("a",), (1, 1), 1, 1.0, 0.5, 2, ())
    for scale in (0.5, 1.0, 2.0):  # an attribute: not a root source, so not in the key
        changed = dataclasses.replace(state, scale=scale)
        call_in(changed, compiled, inputs(changed, 1.0))
    assert compiled.dispatch_plan.describe() == "linear scan of 3 entries"


def test_globals_can_be_the_key() -> None:
    compiled = tracer.compile(target)
    state = State(torch.float32, (2,), 1, ("a",), (1, 1), 1, 1.0, 0.5, 2, ())
    for gain in (1.0, 2.0, 3.0):
        call_in(dataclasses.replace(state, gain=gain), compiled, inputs(state, 1.0))
    assert (
        compiled.dispatch_plan.describe()
        == "key G['GAIN'] [float:value]: 3 keys, at most 1 candidate"
    )


def test_wildcard_entries_are_tried_in_every_bucket() -> None:
    def pick(x, flag):
        if flag:
            return x + 1
        return x - 1

    compiled = tracer.compile(pick)
    for n in (1, 2, 3):
        for flag in (True, False):
            assert compiled(torch.ones(n), flag).tolist() == pick(torch.ones(n), flag).tolist()
    assert compiled.compile_count == 6
    assert compiled.dispatch_plan.key_sources


def test_newest_passing_entry_runs_first() -> None:
    compiled = tracer.compile(add, dynamic=False)  # one entry per value
    x = torch.ones(3)
    compiled(x, 1)
    compiled(x, 2)
    runs = []
    for entry in compiled.entries:
        original = entry.run
        entry.run = lambda *a, _o=original, _id=entry.compile_id, **k: (
            runs.append(_id),
            _o(*a, **k),
        )[1]
    compiled(x, 2)
    compiled(x, 1)
    assert [str(i) for i in runs] == [
        str(compiled.entries[0].compile_id),
        str(compiled.entries[1].compile_id),
    ]


def test_hostile_argument_runs_no_user_code() -> None:
    calls = []

    class Hostile:
        def __eq__(self, other: object) -> bool:
            calls.append("eq")
            return False

        def __hash__(self) -> int:
            calls.append("hash")
            return 0

        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            raise AttributeError(name)

    def ident(x, y):
        return x + 1

    compiled = tracer.compile(ident)
    for n in (1, 2, 3):
        compiled(torch.ones(n), 0)
    compiled(torch.ones(1), Hostile())
    compiled(Hostile() if False else torch.ones(2), Hostile())
    assert calls == []


def test_dispatch_when_computing_the_key_raises() -> None:
    """A tensor without its shape slot: reading the key raises, every entry is tried (and
    fails), and the call raises what eager raises."""
    compiled = tracer.compile(add, recompile_limit=16)
    for n in (1, 2):
        compiled(torch.ones(n))
    assert compiled.dispatch_plan.key_sources
    broken = torch.ones(2)
    del broken._shape
    with pytest.raises(AttributeError) as eager_error:
        add(broken)
    with pytest.raises(AttributeError) as compiled_error:
        compiled(broken)
    assert str(compiled_error.value) == str(eager_error.value)


def test_a_check_is_compiled_with_its_entry() -> None:
    """An entry's check is rendered and compiled when the entry is installed (CompiledGuards
    renders it on first need: a standalone CompiledGuards only plans), then runs on every
    call; one line per guard; a miss explains itself with the same guards."""

    def scaled(x, k):
        return x * k

    where = f"test_guards_e2e.py:{scaled.__code__.co_firstlineno + 1}"
    compiled = tracer.compile(scaled)
    compiled(torch.ones(2), 2)
    manager = compiled.entries[0].guard_manager
    assert "check" in vars(manager)
    compiled(torch.ones(2), 2)  # a hit
    compiled(torch.ones(2), 3)  # a miss: the first entry explains itself
    [reason] = compiled.last_miss_reasons
    assert reason.endswith(": L['k'] == 2 (actual 3), from \"return x * k\" at " + where)
    kinds = [
        line.split("  # ")[1].split()[0] for line in manager.source.splitlines() if "  # " in line
    ]
    assert kinds == [g.kind.name for g in manager.guards]


def test_guarded_string_that_looks_like_a_renamed_argument_is_kept() -> None:
    """A guarded string that reads like a generated name is compared as a value."""

    def tag(x, label):
        return x + 1 if label == "___a0" else x - 1

    compiled = tracer.compile(tag)
    x = torch.ones(2)
    for label in ("___a0", "x", "___a0", "label"):
        assert compiled(x, label).tolist() == tag(x, label).tolist()
    assert compiled.compile_count == 3


def many(a, b=2, *args, c, d=4, **kw):
    return a


def posonly(a, /, b, *, c=3):
    return a


def star_only(*args):
    return args


def nothing():
    return 0


@given(
    st.sampled_from([many, posonly, star_only, nothing, add]),
    st.lists(st.integers(0, 3), max_size=4),
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d", "e", "args", "x"]), st.integers(), max_size=3
    ),
)
def test_the_binder_binds_as_python_binds_fn(
    fn: Any, args: list[int], kwargs: dict[str, int]
) -> None:
    """The frame locals, with fn's defaults, or fn's own TypeError on a bad call."""
    import inspect

    from tracer.cache.function import make_binder

    binder = make_binder(fn)
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:
        with pytest.raises(TypeError) as eager_error:
            fn(*args, **kwargs)
        with pytest.raises(TypeError) as bound_error:
            binder(*args, **kwargs)
        assert str(bound_error.value) == str(eager_error.value)
    else:
        bound.apply_defaults()
        assert binder(*args, **kwargs) == dict(bound.arguments)
