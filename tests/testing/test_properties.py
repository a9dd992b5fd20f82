"""The guard properties hold on the real system for a gallery of functions, and find planted
bugs within their default example budget: a missing dtype guard (unsound) and an extra guard on
something the trace never read (imprecise)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

import tracer
import tracer.convert_frame
import tracer.runtime as torch
from guards import Guard, GuardKind, ItemSource, LocalSource
from tracer.testing import ImpreciseGuards, UnsoundGuards
from tracer.testing.properties import check_guard_precision, check_guard_soundness
from tracer.testing.strategies import Pair, nested_inputs, scalars, tensors, variants
from tracer.testing.values import tensor_of

EXAMPLES = 30
"""Budget for the properties that should hold (the planted-bug tests use the default)."""


def by_dtype(x):
    if x.dtype == torch.float32:
        return x + 1
    return x - 1


def by_shape(x):
    return x.sum() / x.shape[0] if x.dim() else x * 2


def by_length(xs, k):
    total = k
    for v in xs:
        total = total + v
    return total


def by_key(cfg, x):
    if "scale" in cfg:
        return x * cfg["scale"]
    return x


def by_pair(p):
    return p.first + p.second


def mutates(xs, x):
    xs.append(x * 2)
    return len(xs)


GALLERY = [
    (by_dtype, st.tuples(tensors())),
    (by_shape, st.tuples(tensors(dtypes=torch.float64))),
    (by_length, st.tuples(st.lists(scalars(), max_size=3), scalars())),
    (
        by_key,
        st.tuples(
            st.dictionaries(st.sampled_from(["scale", "a"]), scalars()),
            tensors(dtypes=torch.float32),
        ),
    ),
    (by_pair, st.tuples(st.builds(Pair, scalars(), scalars()))),
    (mutates, st.tuples(st.lists(scalars(), max_size=2), scalars())),
]


@pytest.mark.parametrize(("fn", "inputs"), GALLERY, ids=[f.__name__ for f, _ in GALLERY])
def test_real_guards_are_sound(fn, inputs):
    report = check_guard_soundness(fn, inputs, max_examples=EXAMPLES)
    assert report.examples == EXAMPLES
    assert report.guard_hits + report.guard_misses == EXAMPLES


@pytest.mark.parametrize(("fn", "inputs"), GALLERY, ids=[f.__name__ for f, _ in GALLERY])
def test_real_guards_are_precise(fn, inputs):
    report = check_guard_precision(fn, inputs, max_examples=EXAMPLES)
    assert report.guard_hits == EXAMPLES


def test_soundness_sees_both_hits_and_misses():
    report = check_guard_soundness(by_dtype, st.tuples(tensors()), max_examples=60)
    assert report.guard_hits > 0
    assert report.guard_misses > 0


def uses_nested(v):
    return v


def test_properties_accept_nested_inputs_and_mode_stacks():
    from tracer.runtime.overrides import TorchFunctionMode
    from tracer.testing.strategies import mode_stacks

    class Passthrough(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    check_guard_soundness(uses_nested, st.tuples(nested_inputs()), max_examples=EXAMPLES,
                          modes=mode_stacks([Passthrough]))  # fmt: skip
    check_guard_precision(uses_nested, st.tuples(nested_inputs()), max_examples=EXAMPLES)


# --- planted unsound guard: TENSOR_MATCH replaced by TYPE_MATCH (dtype and shape unguarded)


def drop_dtype_guards(guards, args=()):
    return [
        Guard(GuardKind.TYPE_MATCH, g.source, torch.Tensor)
        if g.kind is GuardKind.TENSOR_MATCH
        else g
        for g in guards
    ]


def test_planted_missing_dtype_guard_is_found_by_the_guard_filter_hook():
    with pytest.raises(UnsoundGuards) as info:
        check_guard_soundness(by_dtype, st.tuples(tensors()), guard_filter=drop_dtype_guards)
    text = str(info.value)
    assert "guards traced on first passed on second" in text
    assert "Guard(TYPE_MATCH L['x']: Tensor)" in text


def test_planted_missing_dtype_guard_in_convert_frame_is_found(monkeypatch):
    """The default path checks the real system: plant the bug where guards are built."""
    real = tracer.convert_frame._build_guards

    def planted(fn, output, compile_id):
        for guard in list(output.guards):
            if guard.kind is GuardKind.TENSOR_MATCH:
                (replacement,) = drop_dtype_guards([guard])
                del output.guards[guard]
                output.guards[replacement] = replacement
        return real(fn, output, compile_id)

    monkeypatch.setattr(tracer.convert_frame, "_build_guards", planted)
    with pytest.raises(UnsoundGuards):
        check_guard_soundness(by_dtype, st.tuples(tensors()))


# --- planted over-guards


def pin_tensor_identity(guards, args):
    """ID_MATCH on the traced tensor: any other tensor, however equal, would recompile."""
    return [*guards, Guard(GuardKind.ID_MATCH, LocalSource("x"), args[0])]


def test_planted_identity_guard_on_a_tensor_is_found():
    with pytest.raises(ImpreciseGuards) as info:
        check_guard_precision(by_dtype, st.tuples(tensors()), guard_filter=pin_tensor_identity)
    assert "L['x'] is" in str(info.value)


def reads_scale(cfg, x):
    return x * cfg["scale"]


def over_guard_unread_key(guards, args):
    return [*guards, Guard(GuardKind.EQUALS_MATCH, ItemSource(LocalSource("cfg"), "unused"), 0)]


def vary_unused(args):
    cfg, x = args
    return st.tuples(st.builds(lambda u: {**cfg, "unused": u}, st.integers(0, 3)), variants(x))


CFG_INPUTS = st.tuples(
    st.fixed_dictionaries({"scale": st.integers(1, 3), "unused": st.just(0)}),
    tensors(dtypes=torch.float32),
)


def test_planted_equals_guard_on_an_unread_value_is_found():
    check_guard_precision(reads_scale, CFG_INPUTS, equivalent=vary_unused, max_examples=EXAMPLES)
    with pytest.raises(ImpreciseGuards) as info:
        check_guard_precision(
            reads_scale, CFG_INPUTS, equivalent=vary_unused, guard_filter=over_guard_unread_key
        )
    assert "L['cfg']['unused'] == 0" in str(info.value)


def test_a_specializing_compile_option_is_visible_to_precision():
    """With specialize_float=True a float argument is a constant; a user who says floats are
    irrelevant (equivalent= draws a new float) sees the recompile."""

    def scale(x, s):
        return x * s

    def new_float(args):
        x, _s = args
        return st.tuples(variants(x), st.floats(0.5, 2.0))

    inputs = st.tuples(tensors(dtypes=torch.float32), st.floats(0.5, 2.0))
    with pytest.raises(ImpreciseGuards):
        check_guard_precision(scale, inputs, equivalent=new_float,
                              compile_options={"specialize_float": True})  # fmt: skip


def test_the_inputs_strategy_must_draw_tuples():
    with pytest.raises(TypeError, match="tuples of arguments"):
        check_guard_soundness(by_dtype, tensors(), max_examples=1)


def test_guards_that_fail_on_their_own_input_are_reported():
    def never(guards, args):
        return [*guards, Guard(GuardKind.EQUALS_MATCH, ItemSource(LocalSource("cfg"), "scale"), -1)]

    with pytest.raises(ImpreciseGuards, match="fail on the very input"):
        check_guard_precision(reads_scale, CFG_INPUTS, guard_filter=never, max_examples=5)


def test_traced_entry_of_a_planted_filter_keeps_the_graph():
    from tracer.testing.properties import traced_entry

    x = tensor_of("float32[2]", [1.0, 2.0])
    entry = traced_entry(by_dtype, (x,), guard_filter=drop_dtype_guards)
    assert entry.check(tensor_of("int64[3]", [1, 2, 3]))
    assert entry.graph is not None
