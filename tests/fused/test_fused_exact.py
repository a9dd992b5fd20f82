"""A bool from the fused backend is eager's bool, bit for bit, where a compared value sits one
rounding away from a tie: a comparison (or `where`'s condition) reads only values the kernel
holds exactly as eager stores them (lowering.holds_eager_values). A float32 reduction is
rounded once per output element in the kernel, as eager stores it, so a comparison of a
reduction of inputs still fuses; a comparison of a value computed in double (a pointwise chain,
or a reduction of one) stays a runtime call."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tracer.fused import plan_of
from tracer.testing import assert_same_behavior


def same(fn: Any, *args: Any) -> Any:
    """Fused == eager (values, exceptions, mutated arguments); bools compared exactly."""
    tracer.reset()
    expected = fn(*args)
    assert_same_behavior(fn, *args, backend="fused", compile_options={"fullgraph": True})
    compiled = tracer.compile(fn, backend="fused", fullgraph=True)
    actual = compiled(*args)
    for e, a in zip(expected, actual, strict=True):
        if e._dtype.name == "bool":
            assert a.tolist() == e.tolist()
    return expected


def lowered(fn: Any, *args: Any) -> set[str]:
    """The names of the graph's nodes the fused backend lowered into kernels."""
    explanation = tracer.explain(fn, backend="fused")(*args)
    plan = plan_of(explanation.graphs[0])
    assert plan is not None
    return {name for kernel in plan.kernels for name in kernel.nodes}


def near_tie() -> Any:
    """A column summing to 1 + 1e-12: 1.0 once rounded to float32, as eager stores it."""
    a = torch.zeros(3, 4, 2)
    a[1, 2, 1] = 1.0
    a[0, 2, 1] = 1e-12
    return a


def test_comparison_with_a_float32_sum_is_eager_bool() -> None:
    def f(a0: Any) -> Any:
        t0 = a0.sum(0, keepdim=False)
        return (a0 < t0,)

    a = near_tie()
    (expected,) = same(f, a)
    assert expected[1][2][1].item() is False
    assert "lt" in lowered(f, a)  # the rounded sum is eager's: the comparison still fuses


def test_where_on_a_comparison_with_a_float32_sum_is_eager() -> None:
    def f(a0: Any) -> Any:
        t0 = a0.sum(0, keepdim=False)
        return (torch.where(a0 < t0, a0, a0.sin()),)

    same(f, near_tie())


def test_comparisons_with_mean_and_amax_near_a_tie() -> None:
    def f(x: Any, y: Any) -> Any:
        mean = x.mean(0)
        return y < mean, y >= mean, y == x.amax(0), x.amax(0, keepdim=True) != y

    x = torch.tensor([[3.0, 1.0], [1e-12, 1.0], [0.0, 1.0]])
    y = torch.tensor([1.0, 1.0])
    expected = same(f, x, y)
    assert expected[0].tolist() == [False, False]


def test_reductions_of_computed_values_compared_near_a_tie() -> None:
    """0.1f * 3 is 0.30000000447 in double, 0.3f once rounded: a reduction of the unrounded
    values is not eager's reduction of the rounded ones, whatever its own rounding."""

    def f(x: Any, y: Any) -> Any:
        tripled = x * 3
        return (
            tripled.amax(0) == y,
            tripled.sum(0) == y,
            tripled.mean(0, keepdim=True) <= y,
            torch.where(tripled.amax(0) > y, 1.0, 0.0),
        )

    x = torch.tensor([[0.1, 0.1], [-1.0, 0.1]])
    y = torch.tensor([0.3, 0.6])
    expected = same(f, x, y)
    assert expected[0].tolist() == [True, False]


def test_runtime_calls_on_pointwise_chains_read_eager_values() -> None:
    """`x * 3 + y` in double, rounded once when stored, is not eager's `x * 3` rounded and
    then `+ y` rounded: a comparison (a runtime call, as it reads a computed value), `.long()`
    or `.item()` of it turned that last bit into another answer."""

    def f(x: Any, y: Any, z: Any) -> Any:
        chain = x * 3 + y
        return (
            chain == z,
            (chain * 7).long(),
            chain.T < z.T,
            torch.where(chain != z, chain, -chain),
            (chain * 2).sum(0) == z.sum(0) * 2,
        )

    x = torch.tensor([[0.1, 0.7], [1.3, -2.9]])
    y = torch.tensor([[0.7, 0.3], [-0.1, 2.3]])
    z = x * 3 + y
    expected = same(f, x, y, z)
    assert expected[0].tolist() == [[True, True], [True, True]]
    assert "mul" in lowered(f, x, y, z)  # one op on the inputs is eager's once rounded


def test_float64_reductions_compare_unrounded() -> None:
    def f(a0: Any) -> Any:
        return (a0 < a0.sum(0), a0.mean(0) > a0)

    same(f, near_tie().double())


def test_generated_comparison_with_a_stored_chain() -> None:
    """Found by the property test: `log(abs(a0) + 1)` is returned, so stored rounded once, and
    compared by a runtime `<=`; at 2 ** -24 eager's per-op rounding gives a different bool."""

    def f(a0: Any) -> Any:
        t0 = torch.log((a0).abs() + 1)
        t1 = (a0) <= (t0)
        return (t0, t1)

    a0 = torch.zeros(2, 4)
    a0[1, 3] = 2.0**-24
    expected = same(f, a0)
    assert expected[1].tolist()[1][3] is False


def test_a_float64_scalar_tensor_in_a_float32_op_is_rounded_first() -> None:
    """A 0-d float64 tensor takes part in a float32 op as a float32: eager rounds 1e-119 to
    0.0, so 0.0 / 0.0 is nan; the kernel read the double and gave inf."""

    def f(x: Any, y: Any) -> Any:
        return (x / y, y * x - y, torch.maximum(y, x))

    same(f, torch.tensor(1.1782e-119, dtype=torch.float64), torch.tensor([0.0, 2.0]))
