"""Ready-made guard properties, to call from a plain pytest test (they run hypothesis inside).

Soundness: for generated `(first, second)` inputs, if the guards built while tracing `first`
pass on `second`, then running the cached entry on `second` behaves exactly like running the
function eagerly on it (same comparison as `assert_same_behavior`). `second` is drawn from the
same strategy or is a single-property perturbation of `first`, so near misses come up often.

Precision: an input that keeps every guarded property of `first` (a variant: same structure,
constants, dtypes and shapes, new tensor values) passes the guards; no needless recompiles.

    def test_my_guards():
        check_guard_soundness(my_fn, st.tuples(tensors(), scalars()))
        check_guard_precision(my_fn, st.tuples(tensors(), scalars()))
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import dataclasses
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

import tracer.runtime
from guards.guard import Guard
from guards.manager import CompiledGuards
from tracer.explain import TracedEntry, trace
from tracer.runtime import _C
from tracer.testing.behavior import StateSnapshot, compare_outcomes, run_once
from tracer.testing.compare import Mismatch
from tracer.testing.perturb import perturbations, variants
from tracer.testing.values import describe

GuardFilter = Callable[[list[Guard], tuple[Any, ...]], Iterable[Guard]]
"""Test hook: `(guards, traced_args) -> guards` rewrites the guards of each traced entry, to plant
a missing or an extra guard in a test of a test. The default (None) is the real system."""

DEFAULT_EXAMPLES = 100


class UnsoundGuards(AssertionError):
    """The guards from one input passed on another, and the cached entry misbehaved there."""


class ImpreciseGuards(AssertionError):
    """An input equal in every guarded property failed the guards (a needless recompile)."""


@dataclasses.dataclass
class PropertyReport:
    """What a property run saw: examples tried, and how often the guards passed or failed on
    the second input (a soundness run whose guards never pass checked nothing)."""

    examples: int = 0
    guard_hits: int = 0
    guard_misses: int = 0


def traced_entry(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    compile_options: dict[str, Any] | None = None,
    guard_filter: GuardFilter | None = None,
) -> TracedEntry:
    """`tracer.trace(fn)(*args)`, with the guards rewritten by `guard_filter` when given."""
    entry = trace(fn, **(compile_options or {}))(*args)
    if guard_filter is None:
        return entry
    return with_guards(entry, _function(fn), list(guard_filter(entry.guards, args)))


def with_guards(entry: TracedEntry, fn: types.FunctionType, guards: list[Guard]) -> TracedEntry:
    """The same entry checked by other guards, compiled the way convert_frame compiles them."""

    found = fn.__globals__.get("__builtins__", builtins)
    builtins_dict = found if isinstance(found, dict) else vars(found)
    compiled = CompiledGuards(
        guards,
        f_globals=fn.__globals__,
        builtins=builtins_dict,
        closure=fn.__closure__,
        mode_stack_fn=_C._torch_function_mode_stack,
        name="___check_planted",
        tensor_type=tracer.runtime.Tensor,
    )
    new = dataclasses.replace(entry.entry, guard_manager=compiled)
    return TracedEntry(new, entry.binder)


def check_guard_soundness(
    fn: Callable[..., Any],
    inputs: st.SearchStrategy[tuple[Any, ...]],
    *,
    max_examples: int = DEFAULT_EXAMPLES,
    perturb: bool = True,
    modes: st.SearchStrategy[list[Any]] | None = None,
    compile_options: dict[str, Any] | None = None,
    guard_filter: GuardFilter | None = None,
    hypothesis_settings: settings | None = None,
) -> PropertyReport:
    """Raise UnsoundGuards (with hypothesis's shrunk example) when an entry traced on one
    input passes its guards on a second input but returns, raises or mutates differently
    from eager. `inputs` draws argument tuples; `modes` optionally draws a mode stack (see
    `strategies.mode_stacks`) shared by both inputs."""
    target = _function(fn)
    report = PropertyReport()

    @_settings(max_examples, hypothesis_settings)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        first = _draw_args(data, inputs, "first")
        second_st = st.one_of(inputs, perturbations(first, arguments=True)) if perturb else inputs
        second = _draw_args(data, second_st, "second")
        stack = data.draw(modes, label="modes") if modes is not None else []
        report.examples += 1
        with _mode_stack(stack):
            entry = traced_entry(
                target, first, compile_options=compile_options, guard_filter=guard_filter
            )
            _assert_passes_on_own_input(entry, first)
            hit = entry.check(*second)
        event("guards passed on second" if hit else "guards failed on second")
        if not hit:
            report.guard_misses += 1
            return
        report.guard_hits += 1
        snapshot = StateSnapshot(target)
        try:
            eager = run_once(target, snapshot, second, {}, stack)
            cached = run_once(entry.entry.run, snapshot, second, {}, stack)
            compare_outcomes(eager, cached)
        except Mismatch as e:
            raise UnsoundGuards(
                f"guards traced on first passed on second, but the cached entry differs from "
                f"eager at {e}\n  first:  {describe(first)}\n  second: {describe(second)}\n"
                + _guard_listing(entry)
            ) from e
        finally:
            snapshot.restore()

    run()
    return report


def check_guard_precision(
    fn: Callable[..., Any],
    inputs: st.SearchStrategy[tuple[Any, ...]],
    *,
    equivalent: Callable[[tuple[Any, ...]], st.SearchStrategy[tuple[Any, ...]]] | None = None,
    max_examples: int = DEFAULT_EXAMPLES,
    modes: st.SearchStrategy[list[Any]] | None = None,
    compile_options: dict[str, Any] | None = None,
    guard_filter: GuardFilter | None = None,
    hypothesis_settings: settings | None = None,
) -> PropertyReport:
    """Raise ImpreciseGuards when the guards traced on one input fail on an input equal to it
    in every guarded property. `equivalent(first)` gives a strategy of such inputs; the
    default, `perturb.variants`, keeps structure, types, constants, dtypes, shapes and
    aliasing and draws new tensor values. Pass your own when the function's contract says
    more is irrelevant (e.g. a dict entry it never reads)."""
    target = _function(fn)
    report = PropertyReport()
    make_equivalent = equivalent or variants

    @_settings(max_examples, hypothesis_settings)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        first = _draw_args(data, inputs, "first")
        second = _draw_args(data, make_equivalent(first), "equivalent")
        stack = data.draw(modes, label="modes") if modes is not None else []
        report.examples += 1
        with _mode_stack(stack):
            entry = traced_entry(
                target, first, compile_options=compile_options, guard_filter=guard_filter
            )
            _assert_passes_on_own_input(entry, first)
            if entry.check(*second):
                report.guard_hits += 1
                return
            reason = entry.failure(*second)
        report.guard_misses += 1
        raise ImpreciseGuards(
            f"guards traced on first fail on an equivalent input: {reason}\n"
            f"  first:      {describe(first)}\n  equivalent: {describe(second)}\n"
            + _guard_listing(entry)
        )

    run()
    return report


def _function(fn: Callable[..., Any]) -> types.FunctionType:
    target = getattr(fn, "fn", fn)
    if not isinstance(target, types.FunctionType):
        raise TypeError(f"expected a Python function or a compiled one, got {fn!r}")
    return target


def _draw_args(data: st.DataObject, strategy: st.SearchStrategy[Any], label: str) -> Any:
    args = data.draw(strategy, label=label)
    if type(args) is not tuple:
        raise TypeError(
            f"the inputs strategy must draw tuples of arguments (use st.tuples(...)), "
            f"got {type(args).__name__}"
        )
    return args


def _assert_passes_on_own_input(entry: TracedEntry, args: tuple[Any, ...]) -> None:
    if not entry.check(*args):
        raise ImpreciseGuards(
            f"guards fail on the very input they were traced on: {entry.failure(*args)}\n"
            f"  input: {describe(args)}\n" + _guard_listing(entry)
        )


def _guard_listing(entry: TracedEntry) -> str:
    return "  guards:\n" + "\n".join(f"    {g!r}" for g in entry.guards)


@contextlib.contextmanager
def _mode_stack(modes: list[Any]) -> Iterator[None]:
    """Trace and check under `modes` (copies, as the runs use), then restore the stack."""
    saved = list(_C._torch_function_mode_stack())
    _C._set_torch_function_mode_stack(copy.deepcopy(modes))
    try:
        yield
    finally:
        _C._set_torch_function_mode_stack(saved)


def _settings(max_examples: int, custom: settings | None) -> settings:
    if custom is not None:
        return custom
    return settings(
        max_examples=max_examples,
        deadline=None,
        report_multiple_bugs=False,
        phases=[p for p in Phase if p is not Phase.explain],  # explain traces every line: slow
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
