"""Tensor metadata, Python conversions, printing and factories."""

from __future__ import annotations

import copy
import operator
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.runtime.strategies import DTYPES, arrays, from_numpy, scaled, shapes, to_numpy


@pytest.mark.parametrize(
    ("make", "text"),
    [
        (lambda: torch.tensor([1.0, 2.0]), "tensor([1., 2.])"),
        (lambda: torch.tensor([[1, 2], [3, 4]]), "tensor([[1, 2],\n        [3, 4]])"),
        (lambda: torch.tensor(3.5), "tensor(3.5000)"),
        (lambda: torch.tensor(3), "tensor(3)"),
        (
            lambda: torch.tensor([1.0, 2.0], dtype=torch.float64),
            "tensor([1., 2.], dtype=torch.float64)",
        ),
        (lambda: torch.tensor([1.0], requires_grad=True), "tensor([1.], requires_grad=True)"),
        (lambda: torch.tensor([True, False]), "tensor([ True, False])"),
        (lambda: torch.tensor([-1.0, 2.5]), "tensor([-1.0000,  2.5000])"),
        (lambda: torch.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
        (lambda: torch.tensor([float("nan"), 1.0, float("-inf")]), "tensor([nan, 1., -inf])"),
        (lambda: torch.zeros(2, 0), "tensor([], size=(2, 0))"),
        (lambda: torch.tensor([], dtype=torch.int64), "tensor([], dtype=torch.int64)"),
        (lambda: torch.ones(2, 1, 2, dtype=torch.int64), "tensor([[[1, 1]],\n\n        [[1, 1]]])"),
        (lambda: torch.arange(1001) * 0 + 7, "tensor([7, 7, 7,  ..., 7, 7, 7])"),
    ],
)
def test_repr(make: object, text: str) -> None:
    assert repr(make()) == text  # type: ignore[operator]


def test_size_device_and_metadata() -> None:
    x = torch.zeros(2, 3)
    assert repr(x.shape) == "torch.Size([2, 3])" and x.shape == (2, 3)
    assert isinstance(x.size(), torch.Size) and x.size(-1) == 3 and x.size(0) == 2
    assert repr(x.device) == "device(type='cpu')" and x.device == "cpu"
    assert x.ndim == x.dim() == 2 and x.numel() == 6 and x.is_floating_point()
    assert repr(torch.float32) == "torch.float32" and torch.float is torch.float32
    assert torch.double is torch.float64 and torch.long is torch.int64
    assert (torch.bool.itemsize, torch.float64.itemsize, torch.bool.is_floating_point) == (
        1,
        8,
        False,
    )
    with pytest.raises(IndexError, match=r"\[-2, 1\], but got 2"):
        x.size(2)


def test_python_conversions() -> None:
    assert torch.tensor([2.5]).item() == 2.5 and float(torch.tensor(2)) == 2.0
    assert int(torch.tensor([3.9])) == 3 and operator.index(torch.tensor(4)) == 4
    assert torch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert torch.zeros(2, 0).tolist() == [[], []] and torch.tensor(1.5).tolist() == 1.5
    assert bool(torch.tensor([1])) and not bool(torch.tensor(0.0))
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        bool(torch.ones(2))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1.0))
    with pytest.raises(TypeError, match="only integer tensors"):
        operator.index(torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="2 elements cannot be converted to Scalar"):
        torch.ones(2).item()
    assert [r.tolist() for r in torch.tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]


def test_identity_hash_and_elementwise_eq() -> None:
    a, b = torch.ones(2), torch.ones(2)
    assert len({a, b, a}) == 2 and hash(a) == object.__hash__(a)
    assert (a == b).tolist() == [True, True] and (a == b).dtype is torch.bool
    assert (a == None) is False  # noqa: E711
    assert weakref.ref(a)() is a
    a[0] = 5
    assert a.tolist() == [5.0, 1.0] and a._version == 1 and b._version == 0


def test_dtype_conversions_and_copies() -> None:
    x = torch.tensor([1.7, -2.2, 0.0])
    assert x.long().tolist() == [1, -2, 0] and x.bool().tolist() == [True, True, False]
    assert x.double().dtype is torch.float64 and x.to(torch.float32) is x
    assert x.to(torch.int64).dtype is torch.int64 and x.contiguous() is x
    assert x.clone().tolist() == x.tolist() and x.clone() is not x
    assert copy.deepcopy(x).dtype is torch.float32
    assert torch.tensor([0.1]).tolist() == [0.10000000149011612]  # stored as float32


def test_factories() -> None:
    assert torch.zeros(2, 3).shape == torch.zeros((2, 3)).shape == (2, 3)
    assert torch.full((2,), 7).dtype is torch.int64 and torch.full((1,), 1.5).tolist() == [1.5]
    assert torch.full((1,), True).dtype is torch.bool
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4] and torch.arange(5).dtype is torch.int64
    assert torch.arange(1, 2, 0.25).tolist() == [1.0, 1.25, 1.5, 1.75]
    assert torch.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert torch.ones_like(torch.zeros(2, dtype=torch.int64)).tolist() == [1, 1]
    assert torch.empty_like(torch.ones(3)).shape == (3,)
    assert torch.tensor([True, 2]).dtype is torch.int64
    assert torch.tensor([1, 2.0]).dtype is torch.float32 and torch.tensor([]).dtype is torch.float32
    assert torch.randn(2, 2).shape == (2, 2) and torch.rand((3,)).dtype is torch.float32
    with pytest.raises(ValueError, match="expected sequence of length 2 at dim 1 \\(got 3\\)"):
        torch.tensor([[1, 2], [1, 2, 3]])
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.zeros(-1)


@scaled
@given(a=st.sampled_from(DTYPES).flatmap(lambda d: arrays(d, shapes)))
def test_numpy_round_trip(a: object) -> None:
    t = from_numpy(a)  # type: ignore[arg-type]
    back = to_numpy(t)
    assert back.shape == a.shape and back.dtype == a.dtype  # type: ignore[attr-defined]
    assert back.tobytes() == a.tobytes()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: torch.ones(6).view(4, 2), "shape '[4, 2]' is invalid for input of size 6"),
        (
            lambda: torch.ones(2, 3) @ torch.ones(4, 5),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
        ),
        (
            lambda: torch.ones(3) @ torch.ones(4, 5),
            "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)",
        ),
        (
            lambda: torch.ones(3) + torch.ones(4),
            (
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                "dimension 0"
            ),
        ),
        (
            lambda: torch.tensor([1, 2]).mean(),
            (
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                "point or complex dtype. Got: Long"
            ),
        ),
        (lambda: torch.ones(3)[5], "index 5 is out of bounds for dimension 0 with size 3"),
        (
            lambda: torch.ones(2, 3).sum(2),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        ),
        (lambda: torch.tensor([True]) - torch.tensor([True]), "with two bool tensors"),
        (lambda: -torch.tensor([True]), "Negation, the `-` operator, on a bool tensor"),
        (
            lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]),
            (
                "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 "
                "for tensor number 1 in the list."
            ),
        ),
        (
            lambda: torch.stack([torch.ones(2), torch.ones(3)]),
            "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1",
        ),
        (lambda: torch.ones(2).view(-1, -1), "only one dimension can be inferred"),
        (lambda: torch.where(torch.ones(2), 1, 2), "where expected condition to be a boolean"),
    ],
)
def test_error_messages(call: object, message: str) -> None:
    with pytest.raises((RuntimeError, IndexError)) as info:
        call()  # type: ignore[operator]
    assert message in str(info.value)


PROMOTIONS = [
    # (left, right, expected): "t" = tensor with dims, "z" = 0-dim tensor, python scalars as is
    (("t", torch.int64), 2.5, torch.float32),
    (("t", torch.int64), ("z", torch.float64), torch.float64),
    (("t", torch.float32), ("z", torch.float64), torch.float32),
    (("t", torch.float32), ("t", torch.float64), torch.float64),
    (("t", torch.bool), 1, torch.int64),
    (("t", torch.bool), True, torch.bool),
    (("t", torch.int64), True, torch.int64),
    (("z", torch.int64), 2.5, torch.float32),
    (("z", torch.float64), 2.5, torch.float64),
    (("t", torch.bool), ("z", torch.int64), torch.int64),
    (("t", torch.int64), ("t", torch.bool), torch.int64),
    (("t", torch.float32), 2, torch.float32),
]


@pytest.mark.parametrize(("left", "right", "expected"), PROMOTIONS)
def test_promotion_table(left: object, right: object, expected: torch.dtype) -> None:
    def make(spec: object) -> object:
        if not isinstance(spec, tuple):
            return spec
        kind, dtype = spec
        return torch.ones(2, dtype=dtype) if kind == "t" else torch.ones((), dtype=dtype)

    a, b = make(left), make(right)
    assert torch.result_type(a, b) is expected  # type: ignore[arg-type]
    assert torch.add(a, b).dtype is expected  # type: ignore[arg-type]
    assert torch.mul(b, a).dtype is expected  # type: ignore[arg-type]


def test_promote_types_and_division_dtypes() -> None:
    assert torch.promote_types(torch.int64, torch.float32) is torch.float32
    assert torch.promote_types(torch.bool, torch.int64) is torch.int64
    assert torch.promote_types(torch.float64, torch.float32) is torch.float64
    assert (torch.tensor([1, 2]) / torch.tensor([2, 2])).dtype is torch.float32
    assert (torch.tensor([True]) / 2).tolist() == [0.5]
    assert torch.tensor([True, True]).sum().dtype is torch.int64
    assert (torch.ones(2, dtype=torch.float64) < 1).dtype is torch.bool
    assert torch.cat([torch.ones(1), torch.ones(1, dtype=torch.float64)]).dtype is torch.float64
