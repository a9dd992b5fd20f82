"""Property: guards built by a "guard everything" walker pass on the value and on a deep copy, and
fail (with a reason) once one guarded property changes."""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from guards import Guard, GuardKind, ItemSource, LocalSource, Source, is_constant
from tests.guards.helpers import compile_guards

K = GuardKind

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, math.nan, math.inf, 1.5]),
    st.text(max_size=3),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.tuples(inner, inner),
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", 0, 1]), inner, max_size=3),
    ),
    max_leaves=8,
)


def guard_everything(value: Any, source: Source) -> list[Guard]:
    """Test-side walker: constants by value, containers by type, length/keys, then items."""
    if is_constant(value):
        return [Guard(K.EQUALS_MATCH, source, value)]
    guards = [Guard(K.TYPE_MATCH, source, type(value))]
    if type(value) is dict:
        guards.append(Guard(K.DICT_KEYS_MATCH, source, tuple(value)))
        items = list(value.items())
    else:
        guards.append(Guard(K.LENGTH_CHECK, source, len(value)))
        items = list(enumerate(value))
    for key, item in items:
        guards += guard_everything(item, ItemSource(source, key))
    return guards


def perturb_scalar(value: Any) -> Any:
    """A value that differs from `value` in the exact sense but may look equal to `==`."""
    if value is None:
        return 0
    if type(value) is bool:
        return int(value)
    if type(value) is int:
        return float(value)
    if type(value) is float:
        if math.isnan(value):
            return 0.0
        return -value if value == 0.0 else math.nan
    return value + "!"


def paths(value: Any) -> list[tuple[Any, ...]]:
    """Every path to a node of the value (keys/indexes from the root)."""
    found: list[tuple[Any, ...]] = [()]
    if not is_constant(value):
        children = value.items() if type(value) is dict else enumerate(value)
        found += [(key, *rest) for key, item in children for rest in paths(item)]
    return found


def perturbed(value: Any, path: tuple[Any, ...]) -> Any:
    """Copy of `value` with the node at `path` changed in one guarded property."""
    if path:
        head, rest = path[0], path[1:]
        if type(value) is dict:
            return {k: perturbed(v, rest) if k == head else v for k, v in value.items()}
        items = [perturbed(v, rest) if i == head else v for i, v in enumerate(value)]
        return tuple(items) if type(value) is tuple else items
    if is_constant(value) and type(value) is not tuple:
        return perturb_scalar(value)
    if type(value) is dict:
        return {**value, "new": None} if len(value) < 2 else dict(reversed(list(value.items())))
    if type(value) is list:
        return [*value, None]
    if is_constant(value):  # a tuple of constants, guarded by value
        return (*value, None)
    return list(value)  # a tuple holding containers: same items, another type


@given(values, st.data())
def test_guards_pass_on_copies_and_fail_on_one_change(value: Any, data: st.DataObject) -> None:
    compiled = compile_guards(guard_everything(value, LocalSource("v")))
    assert compiled.check({"v": value}), compiled.source
    assert compiled.check({"v": copy.deepcopy(value)})
    assert compiled.failure_reason({"v": value}) is None
    path = data.draw(st.sampled_from(paths(value)))
    changed = perturbed(value, path)
    assert not compiled.check({"v": changed}), (path, changed, compiled.source)
    assert compiled.failure_reason({"v": changed}) is not None
