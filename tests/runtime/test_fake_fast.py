"""`FAST_FAKE` answers the commonest ops on plain FakeTensors without running their impl; every
answer it gives must be the impl's own (shape, dtype, requires_grad, type), and where the impl
raises it must give no answer at all."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.runtime import dtypes as dt
from tracer.runtime.fake import FakeTensor
from tracer.runtime.fake_fast import FAST_FAKE, PAIRS

FAKE_SHAPES = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)


@st.composite
def fakes(draw: st.DrawFn, shape: tuple[int, ...] | None = None) -> FakeTensor:
    dtype = draw(st.sampled_from(dt.ALL_DTYPES))
    shape = draw(FAKE_SHAPES) if shape is None else shape
    grad = dtype.is_floating_point and draw(st.booleans())
    return FakeTensor(shape, dtype, grad)


SCALARS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.just(1),
    st.just(0.5),
)


def outcome(fn: Any, args: tuple[Any, ...]) -> Any:
    """What the impl does: its result's metadata, or the type and text of its error."""
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001
        return ("raises", type(e), str(e))
    if result is NotImplemented:
        return NotImplemented
    return (type(result), result._shape, result._dtype, result.requires_grad)


def check(impl: Any, args: tuple[Any, ...]) -> bool:
    """The fast answer (if any) agrees with the impl; True if the fast path answered."""
    fast = FAST_FAKE[impl](args)
    if fast is None:
        return False
    assert outcome(impl, args) == (type(fast), fast._shape, fast._dtype, fast.requires_grad)
    assert type(fast.requires_grad) is bool
    return True


IMPLS = sorted(FAST_FAKE, key=lambda f: f.__qualname__ + f.__module__)


@pytest.mark.parametrize("impl", IMPLS, ids=lambda f: f"{f.__module__}.{f.__qualname__}")
@given(data=st.data())
def test_fast_answers_are_the_impl_answers(impl: Any, data: st.DataObject) -> None:
    first = data.draw(fakes())
    same = data.draw(fakes(first._shape))
    second = data.draw(st.one_of(st.just(same), fakes(), SCALARS))
    arity = data.draw(st.sampled_from([1, 2, 2, 3]))
    args = (first, second, second)[:arity]
    if data.draw(st.booleans()):
        args = args[::-1]
    check(impl, args)


@pytest.mark.parametrize("impl", IMPLS, ids=lambda f: f"{f.__module__}.{f.__qualname__}")
def test_fast_path_answers_the_plain_cases(impl: Any) -> None:
    """It must not silently answer nothing: the cases a trace records most are answered."""
    x, y = FakeTensor((2, 3), dt.float32, True), FakeTensor((2, 3), dt.float32, False)
    w = FakeTensor((3, 4), dt.float32, False)
    answered = [check(impl, args) for args in [(x,), (x, y), (x, 2.5), (x, w)]]
    assert any(answered)


def test_fast_path_is_not_taken_for_real_tensors_or_other_types() -> None:
    add = torch.Tensor.__add__.__modetrace_op__.impl  # type: ignore[attr-defined]
    real = torch.ones(2)
    fake = FakeTensor((2,), dt.float32, False)
    assert FAST_FAKE[add]((real, real)) is None
    assert FAST_FAKE[add]((fake, True)) is None
    assert FAST_FAKE[add]((fake, FakeTensor((2,), dt.int64, False))) is None
    assert FAST_FAKE[add]((FakeTensor((2,), dt.int64, False), 1)) is None
    assert FAST_FAKE[add]((fake, FakeTensor((1,), dt.float32, False))) is None


def test_traced_ops_match_eager_through_the_fast_path() -> None:
    """End to end: graphs recorded through the fast path compute what eager code computes."""

    def fn(x: Any, y: Any, w: Any) -> Any:
        h = (x + y) * 2 - x / 3
        h = torch.relu(h @ w).tanh() + 1
        return -h, torch.add(2, y), y.sin().sub(x), torch.matmul(x, w)

    x = torch.ones(2, 3) * 0.5
    y = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    w = torch.ones(3, 4, requires_grad=True)
    tracer.reset()
    got = tracer.compile(fn)(x, y, w)
    want = fn(x, y, w)
    for g, e in zip(got, want, strict=True):
        assert g.shape == e.shape and g.dtype == e.dtype and g.requires_grad == e.requires_grad
        assert g.tolist() == e.tolist()


@pytest.mark.parametrize("fast", sorted(PAIRS, key=lambda f: f.__name__), ids=lambda f: f.__name__)
@given(data=st.data())
def test_pairs_answer_as_their_tuple_functions(fast: Any, data: st.DataObject) -> None:
    """`PAIRS[fast](a, b)` is `fast((a, b))` for a tensor first (OutputGraph.plain_operator)."""
    first = data.draw(fakes())
    same = data.draw(fakes(first._shape))
    second = data.draw(st.one_of(st.just(same), fakes(), SCALARS))
    pair = PAIRS[fast](first, second)
    whole = fast((first, second))
    assert (pair is None) == (whole is None)
    if pair is not None:
        assert (type(pair), pair._data, pair._shape, pair._dtype, pair.requires_grad) == (
            type(whole),
            whole._data,
            whole._shape,
            whole._dtype,
            whole.requires_grad,
        )
        assert type(pair.requires_grad) is bool
