"""`assert_same_behavior`: run a function eagerly and compiled on fresh copies of the same
inputs, and compare everything observable: return value or exception, every input afterwards,
the globals and closure cells it reads, and the torch-function mode stack.
"""

from __future__ import annotations

import copy
import dataclasses
import types
from collections.abc import Callable, Iterator
from typing import Any

from tracer.testing.compare import Mismatch, compare, index_identities


@dataclasses.dataclass
class Outcome:
    """What one run left behind."""

    result: Any
    error: BaseException | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    globals: dict[str, Any]
    cells: dict[str, Any]
    mode_stack: list[Any]

    def roots(self) -> dict[str, Any]:
        return {
            **{f"args[{i}]": a for i, a in enumerate(self.args)},
            **{f"kwargs[{k!r}]": v for k, v in self.kwargs.items()},
            **{f"G[{k!r}]": v for k, v in self.globals.items()},
            **{f"C[{k!r}]": v for k, v in self.cells.items()},
        }


_MISSING = object()


def _read_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _read_names(const)
    return names


def _state_globals(fn: types.FunctionType) -> list[str]:
    """Globals the function may read or write that hold data (not modules, functions, classes)."""
    skip = (types.ModuleType, types.FunctionType, type, types.BuiltinFunctionType)
    return sorted(
        name
        for name in _read_names(fn.__code__)
        if name in fn.__globals__ and not isinstance(fn.__globals__[name], skip)
    )


class _StateSnapshot:
    """Initial globals and cells, restored as fresh deep copies before each run."""

    def __init__(self, fn: types.FunctionType) -> None:
        self.fn = fn
        self.global_names = _state_globals(fn)
        self.initial_globals = {n: copy.deepcopy(fn.__globals__[n]) for n in self.global_names}
        self.cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False))
        self.initial_cells = {n: _cell_value(c) for n, c in self.cells.items()}

    def restore(self) -> None:
        for name, value in self.initial_globals.items():
            self.fn.__globals__[name] = copy.deepcopy(value)
        for name, cell in self.cells.items():
            value = self.initial_cells[name]
            if value is _MISSING:
                continue
            cell.cell_contents = value if _immutable(value) else copy.deepcopy(value)

    def capture(self) -> tuple[dict[str, Any], dict[str, Any]]:
        g = {n: self.fn.__globals__.get(n, _MISSING) for n in self.global_names}
        c = {n: _cell_value(cell) for n, cell in self.cells.items()}
        return g, c


def _cell_value(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _MISSING


def _immutable(value: Any) -> bool:
    return isinstance(
        value, int | float | str | bytes | bool | type(None) | types.FunctionType | type
    )


def run_once(
    fn: Callable[..., Any],
    snapshot: _StateSnapshot,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    modes: list[Any] | None = None,
) -> Outcome:
    from tracer.runtime import _C

    snapshot.restore()
    args, kwargs = copy.deepcopy((args, kwargs))
    saved_stack = list(_C._torch_function_mode_stack())
    _C._set_torch_function_mode_stack(list(modes or []))
    try:
        result, error = fn(*args, **kwargs), None
    except Exception as e:  # noqa: BLE001
        result, error = None, e
    finally:
        stack_after = list(_C._torch_function_mode_stack())
        _C._set_torch_function_mode_stack(saved_stack)
    g, c = snapshot.capture()
    return Outcome(result, error, args, kwargs, g, c, stack_after)


def compare_outcomes(eager: Outcome, compiled: Outcome, modes: list[Any] | None = None) -> None:
    """Raise Mismatch naming the first difference between the two runs."""
    if (eager.error is None) != (compiled.error is None):
        what = f"raised {compiled.error!r}" if compiled.error else "returned normally"
        raise Mismatch(
            "exception",
            f"compiled {what}, eager {'raised ' + repr(eager.error) if eager.error else 'returned normally'}",
        )
    if eager.error is not None and compiled.error is not None:
        if type(eager.error) is not type(compiled.error) or str(eager.error) != str(compiled.error):
            raise Mismatch("exception", f"{compiled.error!r}, expected {eager.error!r}")
    expected_ids = index_identities(eager.roots())
    actual_ids = index_identities(compiled.roots())
    compare(eager.result, compiled.result, "return", expected_ids, actual_ids)
    for name in eager.roots():
        compare(eager.roots()[name], compiled.roots()[name], name, expected_ids, actual_ids)
    _compare_mode_stacks(eager.mode_stack, compiled.mode_stack, modes or [])


def _compare_mode_stacks(eager: list[Any], compiled: list[Any], initial: list[Any]) -> None:
    if len(eager) != len(compiled):
        raise Mismatch("mode_stack", f"length {len(compiled)}, expected {len(eager)}")
    for i, (e, a) in enumerate(zip(eager, compiled, strict=False)):
        e_origin = next((j for j, m in enumerate(initial) if m is e), None)
        a_origin = next((j for j, m in enumerate(initial) if m is a), None)
        if type(e) is not type(a) or e_origin != a_origin:
            raise Mismatch(
                f"mode_stack[{i}]",
                f"{type(a).__name__} (initial mode {a_origin}), expected "
                f"{type(e).__name__} (initial mode {e_origin})",
            )


def assert_same_behavior(
    fn: Callable[..., Any],
    *args: Any,
    modes: list[Any] | None = None,
    compile_options: dict[str, Any] | None = None,
    calls: int = 2,
    **kwargs: Any,
) -> Outcome:
    """Run `fn` eagerly once and compiled `calls` times (so the cache hit runs too), each on
    fresh deep copies of the inputs and of the globals and cells it reads, under the given mode
    stack; raise Mismatch with the path of the first difference. Returns the eager outcome."""
    import tracer

    target = getattr(fn, "fn", fn)
    assert isinstance(target, types.FunctionType), f"expected a function, got {target!r}"
    snapshot = _StateSnapshot(target)
    try:
        eager = run_once(target, snapshot, args, kwargs, modes)
        compiled_fn = tracer.compile(target, **(compile_options or {}))
        for call in range(calls):
            outcome = run_once(compiled_fn, snapshot, args, kwargs, modes)
            try:
                compare_outcomes(eager, outcome, modes)
            except Mismatch as e:
                raise Mismatch(e.path, f"{e.detail} (compiled call {call + 1})") from None
    finally:
        snapshot.restore()
    return eager


def iter_entries(fn: Any) -> Iterator[Any]:
    yield from getattr(fn, "entries", ())
