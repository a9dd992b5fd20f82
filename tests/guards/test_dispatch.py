"""guards.dispatch: the key is only a prefilter. Whatever entries and inputs, the entry that runs
is the one a linear scan picks (the newest whose check passes), or none; the key runs no user
code, and a key that cannot be computed makes every entry a candidate."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from guards import CompiledGuards, GlobalSource, Guard, GuardKind, LocalSource, TensorSpec
from guards.dispatch import DispatchTable
from tests.guards.helpers import make_tensor
from tests.guards.test_properties import guard_everything, paths, perturbed, values

K = GuardKind
STACK: list[object] = []


def table_for(guard_sets: list[list[Guard]], f_globals: dict[str, Any] | None = None) -> Any:
    """A table over CompiledGuards as entries (newest first, as a CompiledFunction has them)."""
    entries = [
        CompiledGuards(
            guards, f_globals=f_globals or {}, builtins={}, closure=(), mode_stack_fn=lambda: STACK
        )
        for guards in guard_sets
    ]
    roots = {"G": f_globals or {}, "___mode_stack": lambda: STACK}
    return DispatchTable(
        entries,
        [e.guards for e in entries],
        roots=roots,
        tensor_type=torch.Tensor,
    )


def picked(table: Any, L: dict[str, Any]) -> Any:
    return next((e for e in table.candidates(L) if e.check(L)), None)


def scanned(table: Any, L: dict[str, Any]) -> Any:
    return next((e for e in table.entries if e.check(L)), None)


@given(st.lists(values, min_size=1, max_size=4), st.data())
def test_the_key_picks_what_a_linear_scan_picks(found: list[Any], data: st.DataObject) -> None:
    table = table_for([guard_everything(value, LocalSource("v")) for value in found])
    value = data.draw(st.sampled_from(found))
    inputs = [value, copy.deepcopy(value), *(perturbed(value, p) for p in paths(value))]
    for given_value in inputs:
        L = {"v": given_value}
        assert picked(table, L) is scanned(table, L), table.key_source
    assert picked(table, {"v": value}) is not None


def test_tensors_by_shape_and_dtype_and_wildcards() -> None:
    def tensor_guard(shape: tuple[int, ...], dtype: Any = None) -> list[Guard]:
        t = make_tensor(shape, dtype)
        return [Guard(K.TENSOR_MATCH, LocalSource("x"), TensorSpec.of(t))]

    wildcard = [Guard(K.TYPE_MATCH, LocalSource("y"), int)]
    sets = [tensor_guard((n,)) for n in (1, 2, 3)] + [wildcard, tensor_guard((2,), torch.float64)]
    table = table_for(sets)
    assert table.describe() == "key L['x'] [Tensor:dtype+shape]: 4 keys, at most 2 candidates"
    assert table.candidates({"x": make_tensor((2,))}) == (table.entries[1], table.entries[3])
    assert table.candidates({"x": 5, "y": 1}) == (table.entries[3],)  # no such key: wildcards
    broken = make_tensor((2,))
    del broken._shape
    assert table.candidates({"x": broken}) == table.entries  # the key raised: everyone


def test_globals_and_the_mode_stack_can_be_keys() -> None:
    G = {"k": 1}
    sets = [[Guard(K.EQUALS_MATCH, GlobalSource("k"), n)] for n in (1, 2, 3)]
    table = table_for(sets, G)
    assert table.describe() == "key G['k'] [int:value]: 3 keys, at most 1 candidate"
    assert picked(table, {}) is table.entries[0]
    G["k"] = 3
    assert picked(table, {}) is table.entries[2]
    del G["k"]
    assert table.candidates({}) == table.entries


def test_the_key_runs_no_user_code() -> None:
    calls = []

    class Hostile:
        def __eq__(self, other: object) -> bool:
            calls.append("eq")
            return False

        def __hash__(self) -> int:
            calls.append("hash")
            return 0

        def __len__(self) -> int:
            calls.append("len")
            return 0

    table = table_for([guard_everything(v, LocalSource("v")) for v in (1, "a", [1, 2], (3,))])
    assert table.key_sources
    for L in ({"v": Hostile()}, {"v": [Hostile()]}):
        assert picked(table, L) is None
    assert calls == []
