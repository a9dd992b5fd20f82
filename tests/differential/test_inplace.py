"""In-place tensor ops compiled: `x += y` and `x.add_(y)` write the tensor (and every view of
its storage) as eagerly, the graph keeps writes whose results nobody reads, and no pass merges
or folds across a write. Each traces whole, assignment into a tensor (`x[i] = v`) included.
`x._version` and grad mode changes fall back (the frame runs eagerly)."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


def augmented_assignment_writes_the_input(x: Any, y: Any) -> Any:
    z = x
    z += y
    z -= 1
    z *= y
    z /= 2
    return z, x, z is x


def write_with_unused_result(x: Any) -> Any:
    x.add_(1)
    return x * 2


def equal_reads_around_a_write(x: Any) -> Any:
    before = x.sum()
    x.add_(1)
    after = x.sum()
    return before, after


def write_to_a_new_tensor(x: Any) -> Any:
    t = torch.ones(3)
    t.add_(x)
    t.mul_(2)
    return t


def writes_through_views(x: Any) -> Any:
    x[0].mul_(3)
    x.T[1].sub_(1)
    x.detach().clamp_(-1, 4)
    x.view(6)[5:].zero_()
    return x.sum(), x


def chained_inplace_methods(x: Any, y: Any) -> Any:
    return x.relu_().exp_().copy_(y).fill_(2.5), x


def failing_write_raises_the_same(x: Any) -> Any:
    x.add_(torch.ones(2, 3))  # a [3] tensor cannot hold a [2, 3] result
    return x


def test_augmented_assignment_writes_the_input() -> None:
    check(augmented_assignment_writes_the_input, torch.ones(2, 3), torch.tensor([1.0, 2.0, 3.0]))


def test_write_with_unused_result_runs() -> None:
    check(write_with_unused_result, torch.ones(3))


def test_no_merging_across_a_write() -> None:
    check(equal_reads_around_a_write, torch.tensor([1.0, 2.0]))


def test_no_folding_a_tensor_that_is_written() -> None:
    check(write_to_a_new_tensor, torch.tensor([1.0, 2.0, 3.0]))


def test_writes_through_views_reach_the_base() -> None:
    check(writes_through_views, torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


def test_chained_inplace_methods() -> None:
    check(chained_inplace_methods, torch.tensor([-1.0, 2.0]), torch.tensor([3.0, 4.0]))


def test_failing_write_raises_the_same() -> None:
    check(failing_write_raises_the_same, torch.ones(3))


def assign_item(x: Any) -> Any:
    x[0] = 5.0
    x[1:] = torch.tensor([7.0, 8.0])
    return x * 2


def assign_into_a_new_tensor_and_a_view(x: Any) -> Any:
    t = torch.zeros(2, 3)
    t[1] = x  # broadcast along the row
    row = x.view(1, 3)[0]
    row[2] = -1.0  # through a view: the input sees it
    return t, x


def assign_between_equal_reads(x: Any) -> Any:
    before = x.sum()
    x[0] = 10.0  # unused result (None); no merging of the two sums across it
    return before, x.sum()


def assign_in_a_loop(x: Any) -> Any:
    for i in range(3):
        x[i] = float(i) * 2
    return x


def assign_of_a_wrong_shape(x: Any) -> Any:
    x[0] = torch.ones(4)  # a row of 3 cannot hold 4 values
    return x


def assign_around_a_break(x: Any) -> Any:
    x[0] = 1.0
    print("between the writes")
    x[1] = 2.0
    return x


def test_assignment_into_a_tensor_traces_whole() -> None:
    check(assign_item, torch.ones(3))
    check(assign_into_a_new_tensor_and_a_view, torch.tensor([1.0, 2.0, 3.0]))
    check(assign_between_equal_reads, torch.tensor([1.0, 2.0]))
    check(assign_in_a_loop, torch.zeros(4))
    check(assign_of_a_wrong_shape, torch.ones(2, 3))
    explanation = tracer.explain(assign_item)(torch.ones(3))
    assert explanation.graph_count == 1 and explanation.break_reasons == []
    assert explanation.ops_per_graph == [["__setitem__", "__setitem__", "mul"]]


def test_assignment_before_and_after_a_break_runs_in_order() -> None:
    assert_same_behavior(assign_around_a_break, torch.zeros(3))
    assert tracer.explain(assign_around_a_break)(torch.zeros(3)).graph_count == 2


def read_version(x: Any) -> Any:
    x.add_(1)
    return x._version


def under_no_grad(x: Any) -> Any:
    with torch.no_grad():
        y = x * 2
    return y.requires_grad, torch.is_grad_enabled(), y


def test_untraced_effects_fall_back_and_match_eager() -> None:
    assert_same_behavior(read_version, torch.ones(3))
    assert_same_behavior(under_no_grad, torch.ones(2, requires_grad=True))
    x = torch.ones(3)
    x.add_(1)
    assert tracer.compile(read_version)(x) == 2


def max_along_a_dim(x: Any) -> Any:
    return x.max(1)


def fields_of_named_results(x: Any) -> Any:
    values, indices = x.min(0)
    top = x.max(1)
    return top.values * 2, top.indices, top[0], values + indices, len(top)


def test_named_tuple_results_are_traced_and_keep_their_type() -> None:
    """`max(x, dim)` returns torch.return_types.max, a struct sequence as torch's is: its
    items are graph values, read by field, index or unpacking, and the frame traces whole; a
    result returned is made again of its type (a plain tuple would lose the `values` and
    `indices` fields)."""
    check(max_along_a_dim, torch.tensor([[1.0, 3.0], [4.0, 2.0]]))
    check(fields_of_named_results, torch.tensor([[1.0, 3.0], [4.0, 2.0]]))
    result = tracer.compile(max_along_a_dim)(torch.tensor([[1.0, 3.0], [4.0, 2.0]]))
    assert type(result) is torch.return_types.max
