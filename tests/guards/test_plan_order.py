"""guards.tree orders guards by rank, holding a guard back until every guard on its source's
ancestors ran. `_order` keeps the guards waiting for a source in a list of that source's and takes
the ready ones from a heap; it must agree with the definition, written here as a plain scan."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from guards import AttrSource, FunctionSpec, Guard, GuardKind, ItemSource, LocalSource, Source
from guards.tree import _order, plan_guards

K = GuardKind


def reference_order(guards: list[Guard]) -> list[Guard]:
    """The definition: repeatedly take the first guard in rank order none of whose source's
    ancestors still has a guard waiting (rank: kind, depth, name, repr of the expected key)."""

    def rank(g: Guard) -> tuple[Any, ...]:
        return (g.kind.value, g.source.depth, g.source.name, repr(g.expected_key))

    pending = sorted(guards, key=rank)
    ordered: list[Guard] = []
    while pending:
        waiting = {g.source for g in pending}
        ready = next(g for g in pending if not waiting & set(g.source.chain()[:-1]))
        pending.remove(ready)
        ordered.append(ready)
    return ordered


roots = st.sampled_from([LocalSource("a"), LocalSource("b")])


def sources(depth: int = 3) -> st.SearchStrategy[Source]:
    if depth == 0:
        return roots
    inner = sources(depth - 1)
    return st.one_of(
        roots,
        st.builds(AttrSource, inner, st.sampled_from(["x", "y"])),
        st.builds(ItemSource, inner, st.sampled_from([0, 1])),
    )


def _helper() -> None: ...


def _other_helper() -> None: ...


guard_sets = st.lists(
    st.one_of(
        st.builds(Guard, st.just(K.ID_MATCH), sources(), st.sampled_from([None, len, abs])),
        st.builds(
            Guard,
            st.just(K.FUNCTION_MATCH),
            sources(),
            st.sampled_from([FunctionSpec.of(f) for f in (_helper, _other_helper)]),
        ),
        st.builds(Guard, st.just(K.HASATTR), sources(), st.sampled_from(["x", "y"])),
        st.builds(Guard, st.just(K.NO_HASATTR), sources(), st.sampled_from(["z"])),
        st.builds(
            Guard,
            st.just(K.DICT_NOT_CONTAINS),
            sources(),
            st.sampled_from([("k",), ("j",), ("j", "k")]),
        ),
    ),
    max_size=12,
    unique=True,
)


@given(guard_sets)
def test_order_matches_the_definition(guards: list[Guard]) -> None:
    assert _order(guards) == reference_order(guards)


def test_a_child_waits_for_a_costlier_guard_on_its_base() -> None:
    # Rank order alone would put the ID_MATCH on `L['a'].x` (kind 2) before the HASATTR on
    # `L['a']` (kind 7) that makes reading `.x` safe: the waiting path must hold it back.
    base = LocalSource("a")
    child = Guard(K.ID_MATCH, AttrSource(base, "x"), None)
    has = Guard(K.HASATTR, base, "x")
    other = Guard(K.ID_MATCH, LocalSource("b"), None)
    assert _order([child, has, other]) == [other, has, child]
    assert plan_guards([child, has, other]) == [other, has, child]


def test_rank_order_is_kept_when_nothing_waits() -> None:
    base = LocalSource("a")
    guards = [
        Guard(K.DICT_NOT_CONTAINS, LocalSource("b"), ("k",)),
        Guard(K.ID_MATCH, AttrSource(base, "x"), None),
        Guard(K.ID_MATCH, base, len),
    ]
    assert _order(guards) == [guards[2], guards[1], guards[0]]


def test_the_expected_keys_repr_orders_only_ties(monkeypatch: Any) -> None:
    # The repr of a key (a FACTS_MATCH's holds types, a TENSOR_MATCH's long strings) is the
    # rank's costliest part; it only orders guards of one kind on one source, so it is
    # worked out for those alone, and they still come in its order.
    import guards.tree

    seen: list[Any] = []

    def counting_repr(obj: object) -> str:
        seen.append(obj)
        return repr(obj)

    monkeypatch.setattr(guards.tree, "repr", counting_repr, raising=False)
    a, b = LocalSource("a"), LocalSource("b")
    untied = [Guard(K.HASATTR, a, "x"), Guard(K.ID_MATCH, b, None), Guard(K.ID_MATCH, a, len)]
    assert _order(untied) == [untied[2], untied[1], untied[0]]
    assert seen == []
    tied = [Guard(K.HASATTR, a, "y"), Guard(K.ID_MATCH, b, None), Guard(K.HASATTR, a, "x")]
    assert _order(tied) == [tied[1], tied[2], tied[0]]
    assert sorted(seen) == ["x", "y"]


def test_needs_mode_stack_finds_any_guard_rooted_at_the_stack() -> None:
    from guards import TypeSource
    from guards.builder import needs_mode_stack
    from guards.sources import ModeStackListSource, ModeStackSource

    plain = [Guard(K.ID_MATCH, LocalSource("a"), None), Guard(K.HASATTR, LocalSource("b"), "x")]
    deep = Guard(K.ID_MATCH, AttrSource(TypeSource(ModeStackSource(0)), "f"), None)
    stack = Guard(K.MODE_STACK, ModeStackListSource(), ())
    assert not needs_mode_stack(plain)
    assert not needs_mode_stack(iter(plain))
    assert needs_mode_stack([plain[0], deep, plain[1]])
    assert needs_mode_stack(iter([deep, *plain]))
    assert needs_mode_stack([*plain, stack])
    assert needs_mode_stack([stack, *plain])


def test_tensor_specs_without_a_class_get_the_given_one() -> None:
    from guards import TensorSpec

    class Tensor:
        pass

    class Other:
        pass

    bare = Guard(K.TENSOR_MATCH, LocalSource("x"), TensorSpec("float32", (2,), False))
    named = Guard(K.TENSOR_MATCH, LocalSource("y"), TensorSpec("float32", (2,), False, Other))
    plain = Guard(K.ID_MATCH, LocalSource("z"), None)
    planned = plan_guards(iter([plain, named, bare]), Tensor)
    by_source = {g.source.name: g for g in planned}
    assert by_source["L['x']"].expected.cls is Tensor
    assert by_source["L['y']"].expected.cls is Other
    assert by_source["L['z']"] is plain
    untouched = [plain, named]
    assert plan_guards(untouched, Tensor) == [plain, named]
    assert plan_guards(untouched, Tensor)[1] is named


def test_the_first_source_missing_its_container_type_is_reported() -> None:
    import pytest

    from guards.tree import GuardPlanError

    a, b = LocalSource("a"), LocalSource("b")
    guards = [
        Guard(K.TYPE_MATCH, a, int),
        Guard(K.LENGTH_CHECK, b, 1),
        Guard(K.LENGTH_CHECK, a, 2),
    ]
    with pytest.raises(GuardPlanError, match=r"LENGTH_CHECK on L\['a'\]"):
        plan_guards(guards)


@given(guard_sets)
def test_distinct_guards_plan_as_without_the_hint(guards: list[Guard]) -> None:
    assert plan_guards(guards, distinct=True) == plan_guards(guards)


def test_distinct_guards_made_one_by_their_tensor_class_are_deduplicated() -> None:
    from guards import TensorSpec

    class Tensor:
        pass

    x = LocalSource("x")
    bare = Guard(K.TENSOR_MATCH, x, TensorSpec("float32", (2,), False))
    named = Guard(K.TENSOR_MATCH, x, TensorSpec("float32", (2,), False, Tensor))
    assert bare != named  # distinct as recorded, the same check once the class is filled in
    assert plan_guards([bare, named], Tensor, distinct=True) == [named]
