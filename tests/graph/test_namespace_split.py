"""Graph.create_node hands the Namespace a call target's name already split (`split_name`,
kept per target); the names it gets must be the ones `create` gives for the same requests."""

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tracer import backends  # noqa: F401 - fills TARGET_NAMES
from tracer.graph import Graph
from tracer.graph.naming import (
    TARGET_NAMES,
    Namespace,
    base_name,
    sanitize,
    split_name,
    split_sanitized,
)

CANDIDATES = st.one_of(
    st.sampled_from(["add", "add_1", "add_2", "mul", "x", "lambda", "_x", "add_", "0", ""]),
    st.text(max_size=5),
)


@given(st.lists(st.tuples(CANDIDATES, st.booleans()), max_size=30))
def test_create_split_names_as_create(requests: list[tuple[str, bool]]) -> None:
    by_create, mixed = Namespace(), Namespace()
    for candidate, pre_split in requests:
        expected = by_create.create(candidate)
        got = mixed.create_split(*split_name(candidate)) if pre_split else mixed.create(candidate)
        assert got == expected


def test_split_name() -> None:
    assert [split_name(c) for c in ("add_3", "add", "x-y", "if")] == [
        ("add_3", "add"), ("add", "add"), ("x_y", "x_y"), ("if_", "if_")
    ]  # fmt: skip


@given(st.one_of(CANDIDATES, st.text(max_size=8)))
def test_sanitize_is_idempotent(candidate: str) -> None:
    """Graph names a call target by `split_sanitized(base_name(target))`, which relies on a
    sanitized name staying as it is when sanitized again."""
    once = sanitize(candidate)
    assert sanitize(once) == once
    assert split_sanitized(once) == split_name(candidate)


def test_runtime_op_node_names_worked_out_at_import_are_the_computed_ones() -> None:
    ops = [torch.add, torch.matmul, torch.Tensor.__add__, torch.Tensor.__radd__]
    for op in ops:
        assert TARGET_NAMES[id(op)] == (op, *split_sanitized(base_name(op)))
    g = Graph()
    x = g.placeholder("add")  # a parameter already named like the op's nodes
    names = [g.call_function(op, (x, x)).name for op in ops]
    assert names == ["add_1", "matmul", "add_2", "radd"]
