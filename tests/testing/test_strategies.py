"""The strategies draw what they promise, and every perturbation changes exactly one guarded
property at the path it names while every variant keeps all of them."""

from __future__ import annotations

import copy
import math
import pickle

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import Mismatch, compare, describe
from tracer.testing.strategies import (
    CONTAINER_TYPES,
    DTYPES,
    broadcastable_pairs,
    list_perturbations,
    mode_stacks,
    nested_inputs,
    perturbations,
    scalars,
    tensors,
    variants,
)
from tracer.testing.values import flat_values, spec_of, tensor_of

FEW = settings(max_examples=40)


def test_tensors_reach_zero_dim_empty_and_every_dtype():
    assert find(tensors(), lambda t: t.dim() == 0).shape == ()
    assert find(tensors(), lambda t: t.numel() == 0).numel() == 0
    for dtype in DTYPES:
        assert find(tensors(), lambda t, d=dtype: t.dtype is d).dtype is dtype


def test_edge_values_are_opt_in():
    def has_edge(t):
        return any(isinstance(v, float) and (not math.isfinite(v) or str(v) == "-0.0")
                   for v in flat_values(t))  # fmt: skip

    edgy = tensors(shapes=(3,), dtypes=torch.float32, edge_values=True)
    for want in ("nan", "inf", "-inf", "-0.0"):
        found = find(edgy, lambda t, w=want: w in [str(v) for v in flat_values(t)])
        assert want in [str(v) for v in flat_values(found)]
    assert find(scalars(edge_values=True), lambda v: isinstance(v, float) and math.isnan(v))

    @FEW
    @given(tensors(dtypes=torch.float64))
    def plain(t):
        assert not has_edge(t) or -0.0 in flat_values(t)  # -0.0 may come from the range

    plain()


def test_fixed_and_sampled_arguments():
    t = find(tensors(shapes=(2, 3), dtypes=torch.int64, elements=st.just(7)), lambda t: True)
    assert spec_of(t) == "int64[2, 3]" and set(flat_values(t)) == {7}
    t = find(tensors(shapes=[(1,), (2,)], dtypes=(torch.bool,)), lambda t: t.shape == (2,))
    assert spec_of(t) == "bool[2]"


@FEW
@given(broadcastable_pairs())
def test_broadcastable_pairs_broadcast(pair):
    a, b = pair
    out = torch.zeros(tuple(a.shape)) + torch.zeros(tuple(b.shape))
    assert out.dim() == max(a.dim(), b.dim())


@FEW
@given(nested_inputs())
def test_nested_inputs_copy_and_pickle(value):
    compare(value, copy.deepcopy(value), "value")
    compare(value, pickle.loads(pickle.dumps(value)), "value")


# `find` renders the strategy's repr for its messages; nested_inputs' is tens of kB, which
# hypothesis warns about. The repr is never shown when the test passes.
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
def test_nested_inputs_reach_every_container_type():
    for cls in CONTAINER_TYPES:
        found = find(nested_inputs(), lambda v, c=cls: isinstance(v, c))
        assert type(found) is cls


class ModeA(TorchFunctionMode):
    pass


class ModeB(TorchFunctionMode):
    pass


@FEW
@given(mode_stacks([ModeA, ModeB]))
def test_mode_stacks_are_short_lists_of_fresh_modes(modes):
    assert len(modes) <= 3
    assert all(type(m) in (ModeA, ModeB) for m in modes)
    assert len({id(m) for m in modes}) == len(modes)


def _path_root(path):
    for suffix in (".dtype", ".shape", ".requires_grad"):
        path = path.removesuffix(suffix)
    return path


@FEW
@given(nested_inputs())
def test_each_perturbation_differs_exactly_at_its_path(value):
    for p in list_perturbations(value):
        try:
            compare(value, p.value, "value")
        except Mismatch as e:
            assert e.path.startswith(_path_root(p.path)), (p, e)
        else:
            raise AssertionError(f"{p!r} changed nothing")


@FEW
@given(st.tuples(tensors(), scalars()), st.data())
def test_argument_perturbations_keep_the_arity(args, data):
    new = data.draw(perturbations(args, arguments=True))
    assert type(new) is tuple and len(new) == 2


def reads_both(x, k):
    return x * 1, k + 0


@FEW
@given(st.tuples(tensors(), scalars(bools=True, edge_values=True)))
def test_every_perturbation_of_read_inputs_fails_their_guards(args):
    """A function that reads a tensor and a scalar guards every property a perturbation of
    them changes (dtype, shape, requires_grad; value, type, sign of zero)."""
    entry = tracer.trace(reads_both)(*args)
    assert entry.check(*args)
    for p in list_perturbations(args, arguments=True):
        assert not entry.check(*p.value), p


@FEW
@given(st.tuples(nested_inputs()), st.data())
def test_variants_keep_every_guarded_property(args, data):
    new = data.draw(variants(args))
    try:
        compare(args, new, "args")
    except Mismatch as e:
        assert "element" in e.detail, e  # only tensor values may differ


def test_variants_keep_aliasing():
    t = tensor_of("float32[2]", [1.0, 2.0])
    xs = [t]
    new = find(variants(((xs, xs, t),)), lambda v: True)
    ((a, b, u),) = new
    assert a is b and a[0] is u


def test_describe_shows_dtype_and_shape():
    assert describe((tensor_of("float64[]", [0.5]),)) == "(tensor(float64[]: [0.5]),)"
    assert repr(list_perturbations(tensor_of("int64[1]", [1]))[0]) == (
        "Perturbation(value.dtype: int64 -> float32)"
    )
