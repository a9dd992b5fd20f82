"""The guard set as a plan and as a tree: dedupe, drop implied guards, validate, order, print.

Order is the one the check function runs: a guard on a source runs only after every guard on the
source's ancestors (so `L['cfg'].scale` is read only once `L['cfg']`'s type is pinned), and among
the guards that may run next, the cheapest kind goes first. The order depends only on the guards
themselves, never on the order they were recorded in, so the generated text is deterministic.
"""

from __future__ import annotations

import collections
import dataclasses
import heapq
import importlib
import itertools
from collections.abc import Iterable

from guards.constants import type_label
from guards.guard import Guard, GuardKind, TensorSpec
from guards.sources import ModeStackListSource, Source, TypeSource

LEN_SAFE_TYPES: frozenset[type] = frozenset(
    {
        list, tuple, dict, set, frozenset, str, bytes, bytearray, range,
        collections.OrderedDict, collections.defaultdict, collections.Counter, collections.deque,
        type({}.keys()),
    }
)  # fmt: skip
"""Exact types whose `len()` and iteration are CPython's own, never user code (Counter is
written in Python, but it defines neither: they are dict's)."""

KEYS_SAFE_TYPES: frozenset[type] = frozenset(
    {dict, collections.OrderedDict, collections.defaultdict, collections.Counter, type({}.keys())}
)
"""Exact dict types (and dict's keys view) whose keys `list()` gives without user code
(DICT_KEYS_MATCH)."""


class GuardPlanError(ValueError):
    """The guards cannot be compiled soundly as given (a bug in whoever recorded them)."""


def plan_guards(
    guards: Iterable[Guard], tensor_type: type | None = None, *, distinct: bool = False
) -> list[Guard]:
    """Deduplicate, drop implied guards, check preconditions and order: the list the check runs.

    `tensor_type` fills in TensorSpecs recorded without a class (None: resolved lazily from
    `tracer.runtime`, only when such a spec exists). `distinct=True` says no two guards have
    the same key (a trace's guards are the values of a dict keyed by guard): there is nothing
    to deduplicate.
    """
    listed = list(guards)
    with_type = _with_tensor_type(listed, tensor_type)
    # filling in a tensor class may make two guards one: then they are deduplicated after all
    unique = with_type if distinct and with_type is listed else _dedupe(with_type)
    unique = _no_aliasing_once(unique)
    groups = _by_source(unique)
    _check_preconditions(groups)
    implied = _implied(groups)
    implied |= _same_class_attributes(groups)
    return _order([g for g in unique if id(g) not in implied])


def _with_tensor_type(guards: list[Guard], tensor_type: type | None) -> list[Guard]:
    """`guards` itself when every TENSOR_MATCH names its class, else a list with them filled."""

    def fill(guard: Guard) -> Guard:
        cls = tensor_type if tensor_type is not None else _runtime_tensor_type()
        return dataclasses.replace(guard, expected=dataclasses.replace(guard.expected, cls=cls))

    def unfilled(guard: Guard) -> bool:
        return guard.kind is GuardKind.TENSOR_MATCH and guard.expected.cls is None

    tensor_guards = [g for g in guards if g.kind is GuardKind.TENSOR_MATCH]
    if not any(map(unfilled, tensor_guards)):
        return guards
    return [fill(g) if unfilled(g) else g for g in guards]


def _runtime_tensor_type() -> type:
    # Lazy, by name: guards/ imports (and type-checks) without the runtime present.
    tensor_type: type = importlib.import_module("tracer.runtime.tensor").Tensor
    return tensor_type


_NONE = (1, "", 0)


def _location_rank(guard: Guard) -> tuple[int, str, int]:
    loc = guard.user_location
    return _NONE if loc is None else (0, loc.filename, loc.lineno)


def _dedupe(guards: list[Guard]) -> list[Guard]:
    """One guard per key; of duplicates, the one from the earliest user line is kept.

    Without duplicates the guards stay in record order: `_order` breaks ties of its rank by
    user line itself, so the plan is the same as from guards sorted by user line first."""
    if len(dict.fromkeys(guards)) == len(guards):
        return guards
    kept: dict[Guard, Guard] = {}  # a guard hashes and compares by its key, hashed once
    for guard in sorted(guards, key=_location_rank):
        kept.setdefault(guard, guard)
    return list(kept.values())


def _no_aliasing_once(guards: list[Guard]) -> list[Guard]:
    """Each pair of NO_ALIASING sources tested once: `a is not b` is `b is not a`, and two
    mutated objects each get a NO_ALIASING naming the other. The guard of the shallowest, then
    first-named, source keeps the pair; a guard left naming no other source is dropped.
    `guards` itself when no pair is named twice."""
    no_aliasing = [g for g in guards if g.kind is GuardKind.NO_ALIASING]
    if len(no_aliasing) < 2:
        return guards

    def rank(guard: Guard) -> tuple[int, str, tuple[str, ...]]:
        return (guard.source.depth, guard.source.name, tuple(o.name for o in guard.expected))

    tested: set[frozenset[Source]] = set()
    narrowed: dict[int, Guard | None] = {}
    for guard in sorted(no_aliasing, key=rank):
        pairs = [frozenset((guard.source, other)) for other in guard.expected]
        kept = tuple(o for o, pair in zip(guard.expected, pairs, strict=True) if pair not in tested)
        tested.update(pairs)
        if len(kept) < len(guard.expected):
            narrowed[id(guard)] = dataclasses.replace(guard, expected=kept) if kept else None
    if not narrowed:
        return guards
    out = [narrowed.get(id(g), g) for g in guards]
    # a narrowed guard may now equal another one: keep the first
    return list(dict.fromkeys(g for g in out if g is not None))


def _by_source(guards: list[Guard]) -> dict[Source, list[Guard]]:
    """The guards of each source, sources in first-guard order."""
    grouped: dict[Source, list[Guard]] = {}
    for guard in guards:
        grouped.setdefault(guard.source, []).append(guard)
    return grouped


def _pinned_types(guards: list[Guard]) -> set[type]:
    """Exact types some guard on one source checks on its own (before anything else)."""
    pinned = {type(g.expected) for g in guards if g.kind is GuardKind.EQUALS_MATCH}
    pinned |= {g.expected.cls for g in guards if g.kind is GuardKind.TENSOR_MATCH}
    return pinned


def _check_preconditions(groups: dict[Source, list[Guard]]) -> None:
    """LENGTH_CHECK and DICT_KEYS_MATCH call `len`/`list` on the value: only safe once its exact
    type is a builtin container, so a TYPE_MATCH to one must be on the same source."""
    for source, group in groups.items():
        if not any(g.kind in _NEEDS_EXACT for g in group):
            continue
        types = {g.expected for g in group if g.kind is GuardKind.TYPE_MATCH}
        types |= {type(g.expected) for g in group if g.kind is GuardKind.EQUALS_MATCH}
        if source.exact_type is not None:
            types.add(source.exact_type)
        for guard in group:
            if guard.kind is GuardKind.LENGTH_CHECK and not types & LEN_SAFE_TYPES:
                raise GuardPlanError(
                    f"LENGTH_CHECK on {source.name} needs a TYPE_MATCH on {source.name} to a "
                    f"builtin container (list, tuple, dict, ...), so len() runs no user code"
                )
            if guard.kind is GuardKind.DICT_KEYS_MATCH and not types & KEYS_SAFE_TYPES:
                raise GuardPlanError(
                    f"DICT_KEYS_MATCH on {source.name} needs a TYPE_MATCH on {source.name} to "
                    f"dict, so listing the keys runs no user code"
                )


_NEEDS_EXACT = frozenset({GuardKind.LENGTH_CHECK, GuardKind.DICT_KEYS_MATCH})
_IMPLIABLE = frozenset({GuardKind.TYPE_MATCH, GuardKind.LENGTH_CHECK})
"""The kinds `_implied` may drop, when a guard of a kind in `_IMPLYING` is on the same source."""
_IMPLYING = frozenset({GuardKind.EQUALS_MATCH, GuardKind.TENSOR_MATCH, GuardKind.DICT_KEYS_MATCH})


def _implied(groups: dict[Source, list[Guard]]) -> set[int]:
    """Ids of the (deduplicated) guards another guard on the same source already checks: a
    TYPE_MATCH that TENSOR_MATCH or EQUALS_MATCH performs first anyway; a LENGTH_CHECK that
    EQUALS_MATCH/DICT_KEYS_MATCH covers."""
    implied: set[int] = set()
    for group in groups.values():  # a guard implies only guards on its own source
        kinds = {g.kind for g in group}
        if kinds.isdisjoint(_IMPLYING) or kinds.isdisjoint(_IMPLIABLE):
            continue
        pinned = _pinned_types(group)
        lengths = {
            len(g.expected)
            for g in group
            if g.kind is GuardKind.DICT_KEYS_MATCH
            or (g.kind is GuardKind.EQUALS_MATCH and type(g.expected) is tuple)
        }
        implied |= {id(g) for g in group if g.kind is GuardKind.TYPE_MATCH and g.expected in pinned}
        implied |= {
            id(g) for g in group if g.kind is GuardKind.LENGTH_CHECK and g.expected in lengths
        }
    return implied


def _same_class_attributes(groups: dict[Source, list[Guard]]) -> set[int]:
    """Ids of guards on a class attribute that another guard on the same attribute checks.

    NOTE [one class, one guard]: `type(x).forward` for an `x` whose TYPE_MATCH pins class K
    is `K.forward`, the same object for every such `x`. A module with four Linear submodules
    reads `type(L['self']._modules['qkv']).forward`, `...['proj']).forward` and two more; the
    four FUNCTION_MATCH guards test one fact. Of the sources that read the same path (the same
    access expression) below `type(x)` of objects pinned to the same class, the shallowest,
    then first-named, keeps its guards; another one's guards are dropped when each has the
    same kind and expected value there, and no guard reads below it (a guard below runs only
    after its ancestors' guards, and would lose that order). Each dropped fact is still
    checked: `type(x) is K` by x's own TYPE_MATCH, the attribute by the kept guard, which runs
    after the TYPE_MATCH of its own `x` and names a real source when it fails.
    """
    # a cheap first filter: the name of every source read through a `type(...)` contains it
    below_type = [source for source in groups if "type(" in source.name]
    if len(below_type) < 2:
        return set()
    same_read: dict[tuple[int, str], list[Source]] = {}  # (class, path) -> sources reading it
    has_guards_below: set[Source] = set()
    for source in below_type:
        steps = []  # the sources from `source` up to its nearest TypeSource, that excluded
        step: Source | None = source
        while step is not None and type(step) is not TypeSource:
            steps.append(step)
            step = step.base
        if step is None or not steps:
            continue
        ancestor = source.base
        while ancestor is not None:
            has_guards_below.add(ancestor)
            ancestor = ancestor.base
        pinned = [g.expected for g in groups.get(step.base, ()) if g.kind is GuardKind.TYPE_MATCH]
        if not pinned:
            continue
        path = ""
        for on_path in reversed(steps):
            path = on_path.access(path)
        same_read.setdefault((id(pinned[0]), path), []).append(source)
    implied: set[int] = set()
    for sources in same_read.values():
        if len(sources) < 2:
            continue
        kept, *others = sorted(sources, key=lambda s: (s.depth, s.name))
        checked = {(g.kind, g.key[2]) for g in groups[kept]}
        for other in others:
            group = groups[other]
            if other not in has_guards_below and all((g.kind, g.key[2]) in checked for g in group):
                implied.update(id(g) for g in group)
    return implied


def _order(guards: list[Guard]) -> list[Guard]:
    """Rank order, except that a guard waits until every guard on its source's ancestors ran:
    each step takes the first guard in rank order whose ancestors have no guard left.

    The rank is (kind, source depth, source name, repr of the expected key, user line), ties
    kept in input order. Usually a guard on a source ranks after the guards on its ancestors
    (those are shallower and mostly of cheaper kinds), but not always: a TYPE_MATCH on
    `L['m']._modules['fc']` ranks before the DICT_KEYS_MATCH on `L['m']._modules`.

    A guard need only wait for the guards on its source's nearest guarded ancestor: the last
    of those ran only once every guard further up had. So guards wait per source: the guards
    whose source has no guarded ancestor are ready at once, the others wait in a list of
    that ancestor's, and are ready once its last guard ran. Each step takes the ready guard of
    the smallest position in rank order, from a heap (a guard, once ready, stays ready:
    guards only ever leave). Sources are numbered once, and each counts the guards left on it.
    """
    pending = _by_rank(guards)
    numbers: dict[Source, int] = {}  # guarded source -> its number
    slot_of = [numbers.setdefault(g.source, len(numbers)) for g in pending]
    remaining = [0] * len(numbers)  # source -> its guards not yet ordered
    for slot in slot_of:
        remaining[slot] += 1
    parent_of = [_guarded_parent(source, numbers) for source in numbers]
    waiting: list[list[int]] = [[] for _ in numbers]  # source -> positions waiting for it
    ready: list[int] = []  # a heap of positions (in increasing order here: a heap already)
    for position, slot in enumerate(slot_of):
        parent = parent_of[slot]
        (ready if parent is None else waiting[parent]).append(position)
    ordered: list[Guard] = []
    while ready:
        position = heapq.heappop(ready)
        ordered.append(pending[position])
        slot = slot_of[position]
        remaining[slot] -= 1
        if not remaining[slot]:
            for waiter in waiting[slot]:
                heapq.heappush(ready, waiter)
    return ordered


def _guarded_parent(source: Source, numbers: dict[Source, int]) -> int | None:
    """The number of the nearest source `source` is read through that has guards, if any."""
    base = source.base
    while base is not None:
        number = numbers.get(base)
        if number is not None:
            return number
        base = base.base
    return None


def _by_rank(guards: list[Guard]) -> list[Guard]:
    """`guards` in rank order: (kind, source depth, source name, repr of the expected key, user
    line), ties kept in input order. The last two only order guards of one kind on sources of
    one depth and name (two HASATTR on one object, say; none of a transformer block's 96), so
    they are worked out for those alone: the repr of a FACTS_MATCH's or TENSOR_MATCH's key,
    which holds types and long strings, costs more than the rest of the rank."""
    ranked: list[Guard] = []
    for _, tied in itertools.groupby(sorted(guards, key=_rank), key=_rank):
        run = list(tied)
        if len(run) > 1:
            run.sort(key=_tie_rank)
        ranked += run
    return ranked


def _rank(guard: Guard) -> tuple[int, int, str]:
    source = guard.source
    return (_KIND_RANK[guard.kind], source.depth, source.name)


def _tie_rank(guard: Guard) -> tuple[str, tuple[int, str, int]]:
    loc = guard.user_location
    return (repr(guard.key[2]), _NONE if loc is None else (0, loc.filename, loc.lineno))


_KIND_RANK = {kind: kind.value for kind in GuardKind}
"""A kind's place in the cost order (`GuardKind.value`, read once: enum values are properties)."""


def format_tree(guards: list[Guard]) -> str:
    """Dynamo-like TREE_GUARD_MANAGER printout: a manager per source, nested by base, with its
    leaf guards (and their user lines) above its children. The mode stack hangs off the root."""
    by_source = _by_source(guards)
    children: dict[Source | None, list[Source]] = collections.defaultdict(list)
    for source in by_source:
        for parent, child in zip((None, *source.chain()), source.chain(), strict=False):
            if child not in children[parent]:
                children[parent].append(child)
    lines = ["TREE_GUARD_MANAGER:", "+- RootGuardManager"]

    def visit(source: Source, depth: int) -> None:
        pad = "| " * depth
        if not isinstance(source, ModeStackListSource):
            manager = _manager_text(source, by_source.get(source, []))
            lines.append(f"{pad}+- GuardManager: {manager}")
            depth += 1
            pad = "| " * depth
        lines.extend(f"{pad}+- {_leaf_text(g)}" for g in by_source.get(source, []))
        for child in children[source]:
            visit(child, depth)

    for root in sorted(children[None], key=lambda s: not isinstance(s, ModeStackListSource)):
        visit(root, 1)
    return "\n".join(lines)


def _manager_text(source: Source, group: list[Guard]) -> str:
    types = [g.expected for g in group if g.kind is GuardKind.TYPE_MATCH]
    types += [
        g.expected.cls
        for g in group
        if g.kind is GuardKind.TENSOR_MATCH and isinstance(g.expected, TensorSpec)
    ]
    shown = f", type={type_label(types[0])}" if types and isinstance(types[0], type) else ""
    return f"source={source.name}{shown}"


def _leaf_text(guard: Guard) -> str:
    return f"{guard.kind.name}: {guard.describe()}{location_suffix(guard)}"


def location_suffix(guard: Guard) -> str:
    """`, from "return x * 2" at demo.py:7`, or nothing when the guard has no user line."""
    loc = guard.user_location
    if loc is None:
        return ""
    where = f"{loc.short_filename}:{loc.lineno}"
    return f', from "{loc.source_line}" at {where}' if loc.source_line else f", from {where}"
