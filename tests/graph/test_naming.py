"""Node names: a call target's name hint, sanitized, split from its counter and made unique."""

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tracer.graph import Graph
from tracer.graph.naming import sanitize, split_name

CANDIDATES = st.one_of(
    st.sampled_from(["add", "add_1", "add_2", "mul", "x", "lambda", "_x", "add_", "0", ""]),
    st.text(max_size=5),
)


def test_split_name() -> None:
    assert [split_name(c) for c in ("add_3", "add", "x-y", "if")] == [
        ("add_3", "add"), ("add", "add"), ("x_y", "x_y"), ("if_", "if_")
    ]  # fmt: skip


@given(st.one_of(CANDIDATES, st.text(max_size=8)))
def test_sanitize_is_idempotent(candidate: str) -> None:
    """A node's name is a valid name hint again: sanitizing it changes nothing."""
    once = sanitize(candidate)
    assert sanitize(once) == once


def test_runtime_op_nodes_are_named_after_the_op() -> None:
    ops = [torch.add, torch.matmul, torch.Tensor.__add__, torch.Tensor.__radd__]
    g = Graph()
    x = g.placeholder("add")  # a parameter already named like the op's nodes
    names = [g.call_function(op, (x, x)).name for op in ops]
    assert names == ["add_1", "matmul", "add_2", "add_3"]  # `__radd__` computes `add`
