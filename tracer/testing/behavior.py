"""`assert_same_behavior`: run a function eagerly and compiled on fresh copies of the same
inputs, and compare everything observable: return value or exception, every input afterwards,
the globals and closure cells it reads (helpers in its module included), the modes passed in
and the torch-function mode stack and grad mode it leaves behind, what it printed to stdout,
the warnings it emitted, and what remains in the iterators it left (observe.py says how these
last three are recorded).

Each run starts from its own deep copy of the arguments and modes (copied together, so
aliasing between them survives) and from the globals and cells as they were before the first
run; afterwards the state is restored, so the caller sees no trace of any run.
"""

from __future__ import annotations

import copy
import dataclasses
import dis
import types
from collections.abc import Callable
from typing import Any

import tracer
from tracer.api import CompiledFunction, CompiledModule
from tracer.cache.targets import UNBOUND, function_of
from tracer.runtime import _C, grad_mode
from tracer.testing.compare import Comparison, Mismatch
from tracer.testing.observe import Observation, Remaining, WarningRecord, drain_iterators

_MISSING = type("_Missing", (), {"__repr__": lambda self: "<unset>"})()
"""Stands for a global or cell that does not exist (before or after a run)."""


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
    modes: list[Any] = dataclasses.field(default_factory=list)
    grad_enabled: bool = True
    stdout: str = ""
    stdout_target: Any = None
    """What the run left in sys.stdout when it replaced it (None: it did not)."""
    warnings: list[WarningRecord] = dataclasses.field(default_factory=list)
    remaining: dict[int, Remaining] = dataclasses.field(default_factory=dict)
    """id -> what was left in each iterator reachable from the result and the roots."""

    def roots(self) -> dict[str, Any]:
        """Everything the run could have changed, by the path prefix a diff names it with."""
        return {
            **{f"args[{i}]": a for i, a in enumerate(self.args)},
            **{f"kwargs[{k!r}]": v for k, v in self.kwargs.items()},
            **{f"G[{k!r}]": v for k, v in self.globals.items()},
            **{f"C[{k!r}]": v for k, v in self.cells.items()},
            **{f"modes[{i}]": m for i, m in enumerate(self.modes)},
        }


_GLOBAL_OPS = frozenset({"LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_NAME"})
_NOT_STATE = (types.ModuleType, types.FunctionType, type, types.BuiltinFunctionType)


def _global_names(code: types.CodeType) -> set[str]:
    """Names `code` (and the code objects nested in it) loads, stores or deletes as globals."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in _GLOBAL_OPS}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _state_globals(fn: types.FunctionType) -> list[str]:
    """Globals of fn's module that fn, or a function of the same module it names, reads or
    writes, and that hold data (not modules, functions, classes); stored-only names too."""
    found: set[str] = set()
    todo, seen = [fn], set()
    while todo:
        current = todo.pop()
        if current.__code__ in seen:
            continue
        seen.add(current.__code__)
        for name in _global_names(current.__code__):
            value = fn.__globals__.get(name, _MISSING)
            # (by type: `isinstance` would ask a global's `__class__`, which may be user code)
            helper = value.fn if issubclass(type(value), CompiledFunction) else value
            if type(helper) is types.FunctionType and helper.__globals__ is fn.__globals__:
                todo.append(helper)
            elif not issubclass(type(value), _NOT_STATE) and not callable(value):
                found.add(name)
    builtins = fn.__globals__.get("__builtins__", {})
    names = builtins if isinstance(builtins, dict) else vars(builtins)
    return sorted(n for n in found if n in fn.__globals__ or n not in names)


class StateSnapshot:
    """Initial globals and cells of a function, restored as fresh deep copies before each run."""

    def __init__(self, fn: types.FunctionType) -> None:
        self.fn = fn
        self.initial_globals: dict[str, Any] = {}
        for name in _state_globals(fn):
            initial = _copy_or_missing(fn.__globals__.get(name, _MISSING))
            if initial is not _UNCOPYABLE:
                self.initial_globals[name] = initial
        self.cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
        self.initial_cells = {n: _cell_value(c) for n, c in self.cells.items()}

    def restore(self) -> None:
        for name, value in self.initial_globals.items():
            if value is _MISSING:
                self.fn.__globals__.pop(name, None)
            else:
                self.fn.__globals__[name] = copy.deepcopy(value)
        for name, cell in self.cells.items():
            value = self.initial_cells[name]
            if value is _MISSING:
                if _cell_value(cell) is not _MISSING:
                    del cell.cell_contents
            else:
                cell.cell_contents = value if _immutable(value) else copy.deepcopy(value)

    def capture(self) -> tuple[dict[str, Any], dict[str, Any]]:
        g = {n: self.fn.__globals__.get(n, _MISSING) for n in self.initial_globals}
        c = {n: _cell_value(cell) for n, cell in self.cells.items()}
        return g, c


_UNCOPYABLE = object()


def _copy_or_missing(value: Any) -> Any:
    """A deep copy of a global, or _UNCOPYABLE (such a global is neither restored nor compared)."""
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - any failure to copy means "leave it alone"
        return _UNCOPYABLE


def _cell_value(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _MISSING


def _immutable(value: Any) -> bool:
    return issubclass(
        type(value), int | float | str | bytes | bool | type(None) | types.FunctionType | type
    )


def run_once(
    fn: Callable[..., Any],
    snapshot: StateSnapshot,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    modes: list[Any] | None = None,
) -> Outcome:
    """Call `fn` on deep copies of args, kwargs and modes (the modes pushed, bottom first),
    starting from the snapshot's state and the caller's grad mode; the caller's mode stack and
    grad mode are put back afterwards. Its stdout and warnings are recorded (not passed on),
    and the iterators it leaves are consumed after it returns (observe.py)."""
    snapshot.restore()
    args, kwargs, run_modes = copy.deepcopy((args, kwargs, list(modes or [])))
    saved_stack = list(_C._torch_function_mode_stack())
    saved_grad = grad_mode.is_grad_enabled()
    _C._set_torch_function_mode_stack(list(run_modes))
    with Observation() as observed:
        try:
            try:
                result, error = fn(*args, **kwargs), None
            except Exception as e:  # noqa: BLE001 - the exception is part of the outcome
                result, error = None, e
            g, c = snapshot.capture()
            outcome = Outcome(result, error, args, kwargs, g, c, [], run_modes)
            outcome.remaining = drain_iterators({"return": result, **outcome.roots()})
        finally:
            stack_after = list(_C._torch_function_mode_stack())
            _C._set_torch_function_mode_stack(saved_stack)
            grad_after = grad_mode.is_grad_enabled()
            grad_mode._STATE.enabled = saved_grad
    outcome.mode_stack, outcome.grad_enabled = stack_after, grad_after
    outcome.stdout, outcome.stdout_target = observed.stdout, observed.stdout_target
    outcome.warnings = observed.warnings
    return outcome


def compare_outcomes(eager: Outcome, compiled: Outcome, modes: list[Any] | None = None) -> None:
    """Raise Mismatch naming the first difference between the two runs: the exception, then
    the return value, then every root (args, kwargs, globals, cells, modes), then the mode
    stack and grad mode, then stdout (and the sys.stdout left behind) and the warnings.
    Iterators compare by what remained in them. `modes` is accepted for compatibility; the
    outcomes carry their own copies."""
    _compare_errors(eager.error, compiled.error)
    expected_roots, actual_roots = eager.roots(), compiled.roots()
    comparison = Comparison.of_roots(
        expected_roots, actual_roots, eager.remaining, compiled.remaining
    )
    comparison.compare(eager.result, compiled.result, "return")
    for name, value in expected_roots.items():
        comparison.compare(value, actual_roots[name], name)
    comparison.compare(eager.mode_stack, compiled.mode_stack, "mode_stack")
    comparison.compare(eager.grad_enabled, compiled.grad_enabled, "grad_enabled")
    _compare_stdout(eager.stdout, compiled.stdout)
    comparison.compare(eager.stdout_target, compiled.stdout_target, "sys.stdout")
    _compare_warnings(eager.warnings, compiled.warnings)


def _compare_stdout(eager: str, compiled: str) -> None:
    """`stdout: 'a\\n', expected 'b\\n'`; long outputs are shown from shortly before the
    first character that differs."""
    if eager == compiled:
        return
    start = next((i for i, (e, c) in enumerate(zip(eager, compiled, strict=False)) if e != c), None)
    start = min(len(eager), len(compiled)) if start is None else start
    if max(len(eager), len(compiled)) <= 120:
        raise Mismatch("stdout", f"{compiled!r}, expected {eager!r}")
    at = max(0, start - 40)
    raise Mismatch(
        "stdout",
        f"differs at character {start}: ...{compiled[at : start + 80]!r}, "
        f"expected ...{eager[at : start + 80]!r}",
    )


def _compare_warnings(eager: list[WarningRecord], compiled: list[WarningRecord]) -> None:
    """Category and message always; the location where eager's names a line in the call."""
    for i, (e, c) in enumerate(zip(eager, compiled, strict=False)):
        same_location = e.location is None or e.location == c.location
        if (e.category, e.message) != (c.category, c.message) or not same_location:
            raise Mismatch(f"warnings[{i}]", f"{c.describe()}, expected {e.describe()}")
    if len(eager) != len(compiled):
        emitted = ", ".join(w.describe() for w in compiled) or "none"
        expected = ", ".join(w.describe() for w in eager) or "none"
        raise Mismatch("warnings", f"{emitted}, expected {expected}")


def _compare_errors(eager: BaseException | None, compiled: BaseException | None) -> None:
    if eager is None and compiled is None:
        return
    if eager is None or compiled is None:
        got = f"raised {compiled!r}" if compiled else "returned normally"
        expected = f"raised {eager!r}" if eager else "returned normally"
        raise Mismatch("exception", f"compiled {got}, eager {expected}") from compiled
    if type(eager) is not type(compiled) or str(eager) != str(compiled):
        raise Mismatch("exception", f"{compiled!r}, expected {eager!r}") from compiled


def _with_self(fn: Any, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
    """A bound method, an nn.Module or a callable object (compiled or not) as its function
    with the object as the first argument, so that each run gets its own copy of the object
    like any argument (`args[0]` in a mismatch's path)."""
    if isinstance(fn, CompiledModule):
        return fn.compiled, (fn.module, *args)
    if isinstance(fn, types.FunctionType | CompiledFunction):
        return fn, args
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, CompiledFunction):
        return fn.__func__, (fn.__self__, *args)
    function, bound = function_of(fn)
    return (function, args) if bound is UNBOUND else (function, (bound, *args))


def _unwrap(fn: Callable[..., Any]) -> types.FunctionType:
    target = getattr(fn, "fn", fn)
    if not isinstance(target, types.FunctionType):
        raise TypeError(f"assert_same_behavior expects a Python function, got {target!r}")
    return target


def assert_same_behavior(
    fn: Callable[..., Any],
    *args: Any,
    modes: list[Any] | None = None,
    compiled: Callable[..., Any] | None = None,
    backend: Any = None,
    compile_options: dict[str, Any] | None = None,
    calls: int = 2,
    **kwargs: Any,
) -> Outcome:
    """Run `fn` eagerly once and compiled `calls` times (so the cache hit runs too), each on
    fresh deep copies of the inputs and of the globals and cells it reads, under the mode stack
    `modes` (bottom first); raise Mismatch with the path of the first difference, e.g.
    `return[1]['a']: 1.5, expected 2.5 (compiled call 1)`. Returns the eager outcome.

    What runs as "compiled": `compiled` when given (any callable: a CompiledFunction, a cache
    entry's `run`, or a deliberately broken stand-in in a test of a test); else `fn` itself when
    it is already a CompiledFunction (its cache is kept); else `tracer.compile(fn, backend=...,
    **compile_options)`. Keyword arguments not named here are passed to `fn`. `fn` may also be
    a bound method, an nn.Module or a callable object, compiled or not: its object is then
    passed as the first argument (see `_with_self`).
    """
    fn, args = _with_self(fn, args)
    target = _unwrap(fn)
    if compiled is None and fn is not target and backend is None and not compile_options:
        compiled = fn
    if compiled is not None and (backend is not None or compile_options):
        raise TypeError("pass either compiled= or backend=/compile_options=, not both")
    if compiled is None:
        options = dict(compile_options or {})
        if backend is not None:
            options["backend"] = backend
        compiled = tracer.compile(target, **options)
    snapshot = StateSnapshot(target)
    try:
        eager = run_once(target, snapshot, args, kwargs, modes)
        for call in range(calls):
            outcome = run_once(compiled, snapshot, args, kwargs, modes)
            try:
                compare_outcomes(eager, outcome)
            except Mismatch as e:
                message = f"{e.detail} (compiled call {call + 1} of {target.__qualname__})"
                raise Mismatch(e.path, message) from e.__cause__
    finally:
        snapshot.restore()
    return eager
