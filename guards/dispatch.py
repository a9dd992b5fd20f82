"""Choosing a compiled function's cache entry in constant time: a key, and a dict of candidates.

A compiled function may hold many cache entries (one per shape, dtype or constant it was called
with). Running every entry's check until one passes costs one failing check per older entry.
Instead `DispatchTable` computes a *key* from the call's frame locals `L`, looks it up in a dict,
and gets the few entries that can pass with that key (usually exactly one), newest first.

NOTE [dispatch key]: for a root source s (an argument, a global, the mode stack), an entry's
*component* is what its guards pin about s: its exact type, plus whichever of these varies among
the entries that pin that type: a runtime tensor's dtype and/or shape, the value of an exact
int/str/bytes/bool/None/float, the length of an exact list/tuple/dict, an object's identity; for
the mode stack, its length. The key function computes the live component with code that reads
only what those guards read, after the same exact-type test, so it runs no user code:
`type(v)`, the Tensor's `_dtype`/`_shape` slots, `len` of an exact builtin container, the value
of an exact constant type, `id`.

Invariant: if an entry's guards pass, the live component equals the entry's component. So the
key is only a prefilter: every candidate still runs its complete compiled check, dispatch is
exactly as sound as a linear scan, and among passing entries the newest runs, as with a scan.
Entries that pin nothing about a key source are *wildcards*: they are candidates for every key.
Two entries whose components compare equal (`1`, `1.0` and `True`; `0.0` and `-0.0`) simply
share a key. If computing the key raises, every entry is a candidate.

The candidates function, which computes the key and looks it up, is Python text generated here
and compiled with `compile()`, like the checks (guards.builder); `DispatchTable.key_source`
holds it.
"""

from __future__ import annotations

import builtins
import dataclasses
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from guards.builder import GuardBuilder
from guards.constants import type_label
from guards.guard import Guard, GuardKind, TensorSpec, WeakPin
from guards.sources import MODE_STACK_FN, GlobalSource, LocalSource, ModeStackListSource, Source

Entry = TypeVar("Entry")

VALUE_TYPES: tuple[type, ...] = (int, bool, str, bytes, float, type(None))
"""Exact types whose values CPython itself hashes and compares: a value component is safe."""
LEN_TYPES: tuple[type, ...] = (list, tuple, dict)
"""Exact types whose `len` is CPython's own."""
MAX_KEY_SOURCES = 3


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()
"""A fact an entry's guards do not pin; as a component, "this entry is a wildcard"."""


@dataclasses.dataclass(frozen=True)
class Facts:
    """What one entry's guards pin about one root source."""

    type: type | None = None
    value: Any = ABSENT
    dtype: Any = ABSENT
    shape: Any = ABSENT
    length: int | None = None
    ident: Any = ABSENT
    """The id of the object an ID_MATCH pins."""


def entry_facts(guards: Sequence[Guard]) -> dict[Source, Facts]:
    """The facts an entry's guards pin about each root source that may be part of a key."""
    found: dict[Source, dict[str, Any]] = {}
    for guard in guards:
        if isinstance(guard.source, LocalSource | GlobalSource | ModeStackListSource):
            facts = found.setdefault(guard.source, {})
            for name, value in _facts_of(guard):
                facts.setdefault(name, value)
    return {source: Facts(**facts) for source, facts in found.items()}


def _facts_of(guard: Guard) -> list[tuple[str, Any]]:
    kind, expected = guard.kind, guard.expected
    if kind is GuardKind.TYPE_MATCH:
        return [("type", expected)]
    if kind is GuardKind.TENSOR_MATCH:
        spec: TensorSpec = expected
        return [("type", spec.cls), ("dtype", spec.dtype), ("shape", spec.shape)]
    if kind is GuardKind.EQUALS_MATCH:
        facts: list[tuple[str, Any]] = [("type", type(expected))]
        if type(expected) in VALUE_TYPES and not (type(expected) is float and math.isnan(expected)):
            facts.append(("value", expected))
        if type(expected) is tuple:
            facts.append(("length", len(expected)))
        return facts
    if kind is GuardKind.ID_MATCH:
        if expected is None:
            return [("type", type(None)), ("value", None)]
        if type(expected) is WeakPin:  # (NOTE [weak pins]; the check still tests the object)
            return [("type", expected.cls), ("ident", expected.ident)]
        return [("type", type(expected)), ("ident", id(expected))]
    if kind is GuardKind.LENGTH_CHECK:
        return [("length", expected)]
    if kind is GuardKind.DICT_KEYS_MATCH:
        return [("length", len(expected))]
    if kind is GuardKind.MODE_STACK:
        return [("type", list), ("length", len(expected))]
    return []


# What the key reads of a value of one exact type, by facet: the expression over the local `v`
# holding the value and `t` holding its type (live side), and the same thing computed from an
# entry's Facts.
FACETS: dict[str, tuple[str, Callable[[Facts], Hashable]]] = {
    "type": ("id({t})", lambda f: id(f.type)),
    "dtype": ("id({v}._dtype)", lambda f: id(f.dtype)),
    "shape": ("{v}._shape", lambda f: f.shape),
    "dtype+shape": ("(id({v}._dtype), {v}._shape)", lambda f: (id(f.dtype), f.shape)),
    "value": ("{v}", lambda f: f.value),
    "length": ("len({v})", lambda f: f.length),
    "identity": ("id({v})", lambda f: f.ident),
}


def _facet(kind: type, group: list[Facts], tensor_type: type | None) -> str:
    """The richest facet that every entry pinning this exact type supports and that varies."""
    if kind is tensor_type and all(f.dtype is not ABSENT for f in group):
        dtypes = len({id(f.dtype) for f in group}) > 1
        shapes = len({f.shape for f in group}) > 1
        if dtypes or shapes:
            return "dtype+shape" if dtypes and shapes else ("dtype" if dtypes else "shape")
    values = [f.value for f in group]
    if kind in VALUE_TYPES and ABSENT not in values and len({repr(v) for v in values}) > 1:
        return "value"
    lengths = [f.length for f in group]
    if kind in LEN_TYPES and None not in lengths and len(set(lengths)) > 1:
        return "length"
    if all(f.ident is not ABSENT for f in group) and len({f.ident for f in group}) > 1:
        return "identity"
    return "type"


@dataclasses.dataclass(frozen=True)
class KeySource:
    """One root source of the key, and the facet read for each exact type entries pin there."""

    source: Source
    facets: dict[type, str]

    def component(self, facts: Facts | None) -> Hashable:
        """The entry's component for this source, or ABSENT when the entry is a wildcard."""
        absent: Hashable = ABSENT
        if facts is None or facts.type is None:
            return absent
        if isinstance(self.source, ModeStackListSource):
            return facts.length if facts.length is not None else absent
        return FACETS[self.facets[facts.type]][1](facts)

    def describe(self) -> str:
        if isinstance(self.source, ModeStackListSource):
            return f"len({self.source.name})"
        shown = [f"{type_label(t)}:{f}" for t, f in self.facets.items() if f != "type"]
        return f"{self.source.name} [{', '.join(shown) or 'type'}]"


def choose_key(
    entry_guards: Sequence[Sequence[Guard]], tensor_type: type | None
) -> tuple[list[KeySource], list[dict[Source, Facts]]]:
    """Key sources chosen greedily (at most MAX_KEY_SOURCES), each added only while it lowers
    the largest number of candidates one call may get; and every entry's facts (none when
    there is a single entry, which cannot be narrowed down)."""
    if len(entry_guards) < 2:
        return [], []
    facts = [entry_facts(guards) for guards in entry_guards]
    options = []
    for source in sorted({s for f in facts for s in f}, key=lambda s: s.name):
        by_type: dict[type, list[Facts]] = {}
        for entry in facts:
            found = entry.get(source)
            if found is not None and found.type is not None:
                by_type.setdefault(found.type, []).append(found)
        facets = {kind: _facet(kind, group, tensor_type) for kind, group in by_type.items()}
        options.append(KeySource(source, facets))
    chosen: list[KeySource] = []
    best = len(facts)
    while len(chosen) < MAX_KEY_SOURCES:
        scored = [(_worst_case([*chosen, k], facts), k.source.name, k) for k in options]
        scored = [s for s in scored if s[2] not in chosen]
        if not scored:
            break
        score, _name, key = min(scored, key=lambda s: (s[0], s[1]))
        if score >= best:
            break
        chosen.append(key)
        best = score
    return chosen, facts


def _group(
    keys: list[KeySource], facts: list[dict[Source, Facts]]
) -> tuple[dict[Hashable, list[int]], list[int]]:
    """Entry indices by key, and the wildcards (entries that pin nothing about some key source)."""
    table: dict[Hashable, list[int]] = {}
    wildcards: list[int] = []
    for index, entry in enumerate(facts):
        parts = [k.component(entry.get(k.source)) for k in keys]
        if any(part is ABSENT for part in parts):
            wildcards.append(index)
        else:
            table.setdefault(parts[0] if len(parts) == 1 else tuple(parts), []).append(index)
    return table, wildcards


def _worst_case(keys: list[KeySource], facts: list[dict[Source, Facts]]) -> int:
    table, wildcards = _group(keys, facts)
    return max(map(len, table.values()), default=0) + len(wildcards)


def render_candidates(keys: Sequence[KeySource], builder: GuardBuilder) -> str:
    """The candidates function's source, `def ___candidates(L): ...`: compute the key, look it
    up with `___table_get` (the table's `get`), the wildcards for a key no entry has, and every
    entry when reading the key raises. The types it tests are bound through `builder` (so they
    read as in the checks: `___c0_Tensor`)."""
    lines = [
        "def ___candidates(L):",
        '    """The entries that can pass on L, by the dispatch key (guards.dispatch)."""',
        "    try:",
    ]
    parts = []
    for n, key in enumerate(keys):
        v, t, k = f"v{n}", f"t{n}", f"k{n}"
        parts.append(k)
        if isinstance(key.source, ModeStackListSource):
            lines.append(f"        {k} = len({MODE_STACK_FN}())")
            continue
        lines += [f"        {v} = {key.source.expr()}", f"        {t} = type({v})"]
        word = "if"
        for kind, facet in key.facets.items():
            if facet != "type":
                expr = FACETS[facet][0].format(v=v, t=t)
                lines += [f"        {word} {t} is {builder.bind(kind, type_label(kind))}:"]
                lines += [f"            {k} = {expr}"]
                word = "elif"
        indent = "        " if word == "if" else "            "
        if word != "if":
            lines.append("        else:")
        lines.append(f"{indent}{k} = id({t})")
    key_text = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
    lines += [
        f"        return ___table_get({key_text}, ___wildcards)",
        "    except Exception:",
        "        return ___every_entry",
    ]
    return "\n".join(lines) + "\n"


class DispatchTable(Generic[Entry]):
    """A compiled function's entries (newest first) and how a call finds its candidates.

    >>> from guards.sources import LocalSource
    >>> n = LocalSource("n")
    >>> guards = [[Guard(GuardKind.EQUALS_MATCH, n, i)] for i in (2, 1)]
    >>> table = DispatchTable(["two", "one"], guards, roots={})
    >>> table.candidates({"n": 1}), table.candidates({"n": 3}), table.describe()
    (('one',), (), "key L['n'] [int:value]: 2 keys, at most 1 candidate")
    """

    def __init__(
        self,
        entries: Sequence[Entry],
        entry_guards: Sequence[Sequence[Guard]],
        *,
        roots: Mapping[str, object],
        tensor_type: type | None = None,
    ) -> None:
        """`entry_guards[i]` are entry i's guards; `roots` binds `G` and the mode-stack
        accessor for the candidates function (the same objects the entries' checks read)."""
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.key_sources, facts = choose_key(entry_guards, tensor_type)
        self.key_source: str | None = None
        """The candidates function's text; None when there is no key."""
        self.table: dict[Hashable, tuple[Entry, ...]] = {}
        self.wildcards: tuple[Entry, ...] = self.entries
        every_entry = self.entries

        def every_entry_is_a_candidate(L: Mapping[str, object]) -> tuple[Entry, ...]:
            return every_entry

        self.candidates: Callable[[Mapping[str, object]], tuple[Entry, ...]]
        """The entries whose guards can pass on `L`, newest first; each still runs its check."""
        self.candidates = every_entry_is_a_candidate
        if not self.key_sources:
            return
        by_key, wildcards = _group(self.key_sources, facts)
        for key_value, members in by_key.items():
            # newest first, the wildcards merged in at their own position
            self.table[key_value] = tuple(self.entries[i] for i in sorted(members + wildcards))
        self.wildcards = tuple(self.entries[i] for i in wildcards)
        builder = GuardBuilder()
        self.key_source = render_candidates(self.key_sources, builder)
        scope: dict[str, Any] = {"__builtins__": builtins.__dict__, **builder.bindings}
        scope.update(G=roots.get("G"), **{MODE_STACK_FN: roots.get(MODE_STACK_FN)})
        scope.update(
            ___table_get=self.table.get, ___wildcards=self.wildcards, ___every_entry=every_entry
        )
        exec(compile(self.key_source, "<modetrace-dispatch>", "exec"), scope)  # noqa: S102
        # Taken out of its globals, so function and globals do not form a cycle.
        self.candidates = scope.pop("___candidates")

    def describe(self) -> str:
        """`key L['x'] [Tensor:shape]: 16 keys, at most 1 candidate`, or
        `linear scan of 3 entries` when there is no key."""
        if not self.key_sources:
            return f"linear scan of {len(self.entries)} entries"
        keys = ", ".join(k.describe() for k in self.key_sources)
        most = max(map(len, self.table.values()), default=0)
        most = max(most, len(self.wildcards))
        plural = "" if most == 1 else "s"
        return f"key {keys}: {len(self.table)} keys, at most {most} candidate{plural}"
