"""Automatic dynamic: an int input whose value changed between calls becomes a graph input.
And what `dynamic=True` cannot do: tensor shapes stay static (`static_shape_notes`).

With `dynamic=None` (the default), the first compile specializes every int (guarded by value).
When a later call misses the cache only because such an int changed value, the source is
marked dynamic and the recompile takes it as a symbolic graph input (`SymIntVariable`), so
further values reuse that one entry. Uses that need the concrete value (a `range`, a list
index, a branch) still specialize with a guard, as for `specialize_float=False`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind

if TYPE_CHECKING:
    from guards.manager import GuardFailure
    from tracer.cache.entry import CacheEntry
    from tracer.observability.compile_context import CompileId


def changed_int_sources(
    entries: Iterable[CacheEntry], frame_locals: Mapping[str, Any]
) -> dict[str, tuple[Any, Any]]:
    """Source name -> (old, new) for every int guarded by value in a compiled entry that has
    a different int value now (`CompiledGuards.changed_ints`: read in the check's order, so
    no user code runs on an argument of another type)."""
    changed: dict[str, tuple[Any, Any]] = {}
    for entry in entries:
        if not entry.is_fallback:
            changed.update(entry.guard_manager.changed_ints(frame_locals))
    return changed


def describe(changed: Mapping[str, tuple[Any, Any]]) -> list[str]:
    return [
        f"{name} marked dynamic (automatic dynamic): its value changed from {old} to {new}"
        for name, (old, new) in changed.items()
    ]


def static_shape_notes(failures: Iterable[tuple[CompileId, GuardFailure | None]]) -> list[str]:
    """With `dynamic=True`: a line for each tensor whose new shape failed an entry's guard.
    There are no symbolic sizes in modetrace (notes/design-decisions.md), so `dynamic=True`
    makes int and float inputs graph inputs but a tensor of a new shape still compiles again;
    the recompile reasons (and a warning) say so rather than leave the user to wonder."""
    notes: dict[str, str] = {}
    for _entry_id, failure in failures:
        if failure is None or failure.guard.kind is not GuardKind.TENSOR_MATCH:
            continue
        name = failure.guard.source.name
        if name in notes or not failure.text.startswith(f"{name}.shape =="):
            continue
        notes[name] = (
            f"{name} changed shape from {failure.guard.expected.shape} to {failure.actual}: "
            "shapes are static in modetrace, even with dynamic=True (which makes int and float "
            "inputs symbolic, not tensor sizes), so each new shape compiles its own entry"
        )
    return list(notes.values())
