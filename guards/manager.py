"""CompiledGuards: one cache entry's guards, compiled once, run on every call, explained on a miss.

`check(L)` is the generated function itself (guards.builder's text compiled with `compile()`;
no wrapper, no per-call interpretation), generated and compiled the first time someone asks for
it (a CompiledFunction asks when it installs the entry). Building a CompiledGuards only plans
the guards (guards.tree).

Everything else here (`first_failure`, `failure_reason`, the tree printout, `flat`, `as_data`)
explains: it runs only when a check failed or someone asked, and it evaluates the very same
expressions as the check, one guard at a time, so the explanation always names the guard that
made the check fail. A failure comes in parts (`GuardFailure`: the guard, what was found) and in
words (its `str()`), so records can aggregate it by guard kind and source.
"""

from __future__ import annotations

import builtins as builtins_module
import dataclasses
import functools
import itertools
import linecache
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from guards.builder import CheckFunction, needs_mode_stack, render_check, render_predicates
from guards.constants import safe_label, type_label
from guards.guard import (
    FactsSpec,
    FunctionSpec,
    GlobalStateSpec,
    Guard,
    GuardKind,
    TensorSpec,
    dtype_label,
    mode_types_text,
    pinned_label,
    pinned_object,
)
from guards.mode_stack import ModeStackFn, ModeStackLenFn, length_reader, mode_stack_failure
from guards.sources import MODE_STACK_FN, MODE_STACK_LEN_FN, AttrSource, ItemSource
from guards.tree import KEYS_SAFE_TYPES, LEN_SAFE_TYPES, format_tree, location_suffix, plan_guards

_serial = itertools.count()
"""Makes every generated file name unique, so linecache never mixes two checks up."""


@dataclasses.dataclass(frozen=True, slots=True)
class GuardFailure:
    """The first guard of an entry that failed on some frame locals, in parts and in words.

    `str()` is the sentence recompile reasons show (`L['n'] == 2 (actual 3), from "..." at
    f.py:4`); `as_data()` the parts a metrics record keeps (kind, source, expected, actual,
    user location).
    """

    guard: Guard
    text: str
    """The sentence without the user line: `L['n'] == 2 (actual 3)`."""
    actual: str
    """What was found instead, as safe text: `3`, `float`, `missing attribute`."""

    def __str__(self) -> str:
        return self.text + location_suffix(self.guard)

    def as_data(self) -> dict[str, str | None]:
        """JSON-ready parts; `expected` is the guard's safe text (never a user `__repr__`)."""
        loc = self.guard.user_location
        return {
            "kind": self.guard.kind.name,
            "source": self.guard.source.name,
            "expected": self.guard.expected_text(),
            "actual": self.actual,
            "location": None if loc is None else f"{loc.short_filename}:{loc.lineno}",
        }


class CompiledGuards:
    """The guards of one cache entry and their compiled check.

    >>> from guards.sources import LocalSource
    >>> g = CompiledGuards([Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 3)],
    ...                    f_globals={}, builtins={}, closure=())
    >>> g.check({"n": 3}), g.check({"n": 3.0}), g.failure_reason({"n": True})
    (True, False, "L['n'] == 3 (actual True)")
    """

    def __init__(
        self,
        guards: Iterable[Guard],
        *,
        f_globals: Mapping[str, object],
        builtins: Mapping[str, object],
        closure: Sequence[object] | None,
        mode_stack_fn: ModeStackFn | None = None,
        mode_stack_len_fn: ModeStackLenFn | None = None,
        name: str = "___check_0",
        tensor_type: type | None = None,
        distinct: bool = False,
    ) -> None:
        """`mode_stack_fn` returns the live torch-function mode stack; a MODE_STACK guard
        needs it. `mode_stack_len_fn` returns its length (the same stack's: the guard on an
        empty stack reads only that); None reads the length through `mode_stack_fn`.
        `distinct=True`: no two of `guards` have the same key (see `plan_guards`)."""
        self.guards: list[Guard] = plan_guards(guards, tensor_type, distinct=distinct)
        self.reads_mode_stack: bool = needs_mode_stack(self.guards)
        """Whether the check reads the mode stack (then `roots` holds the accessor)."""
        if mode_stack_fn is None and self.reads_mode_stack:
            raise ValueError("a MODE_STACK guard needs mode_stack_fn, the live stack's accessor")
        self.filename = f"<modetrace-guards {name} #{next(_serial)}>"
        self.roots: dict[str, Any] = {
            "G": f_globals,
            "B": builtins,
            "C": tuple(closure or ()),
            MODE_STACK_FN: mode_stack_fn,
            MODE_STACK_LEN_FN: (
                mode_stack_len_fn
                if mode_stack_len_fn is not None or mode_stack_fn is None
                else length_reader(mode_stack_fn)
            ),
        }
        self._name = name

    @functools.cached_property
    def _rendered(self) -> CheckFunction:
        """The check's text, bindings and per-guard predicates, rendered on first need. The
        text depends only on the planned `guards`, so it is the same whenever it is rendered."""
        return render_check(self.guards, name=self._name)

    @property
    def source(self) -> str:
        """The generated check function's source text."""
        return self._rendered.text

    @functools.cached_property
    def _scope(self) -> dict[str, Any]:
        # The roots are the same objects for every entry of one function (guards.dispatch
        # relies on it: one key function reads them for all entries).
        return {"__builtins__": builtins_module.__dict__, **self._rendered.bindings, **self.roots}

    @functools.cached_property
    def check(self) -> Callable[[Mapping[str, object]], bool]:
        """The generated check, compiled on first use: `check(L)` is True when every guard
        passes on the frame locals `L`. Every call that reaches this entry runs it."""
        linecache.cache[self.filename] = (
            len(self.source),
            None,
            self.source.splitlines(keepends=True),
            self.filename,
        )
        # the text goes from linecache when this entry's guards go
        weakref.finalize(self, linecache.cache.pop, self.filename, None)
        exec(compile(self.source, self.filename, "exec"), self._scope)  # noqa: S102 - our source
        # Taken out of its globals: left there, the function and its globals would be a cycle
        # holding every guard's values until a garbage collection (NOTE [acyclic graph]).
        check: Callable[[Mapping[str, object]], bool] = self._scope.pop(self._name)
        return check

    def failure_reason(self, L: Mapping[str, object]) -> str | None:
        """The first guard that fails on `L`, in words with expected and actual values and the
        user line that installed it; None when every guard passes."""
        failure = self.first_failure(L)
        return None if failure is None else str(failure)

    def first_failure(self, L: Mapping[str, object]) -> GuardFailure | None:
        """The first guard that fails on `L`, with what was found; None when every guard
        passes."""
        predicates = self._predicates
        roots = self.roots
        for guard, predicate in zip(self.guards, predicates, strict=True):
            try:
                value = guard.source.get_value(
                    L, roots["G"], roots["B"], roots["C"], roots[MODE_STACK_FN]
                )
            except Exception as exc:  # noqa: BLE001 - any error reading is the reason
                what = _READ_ERRORS.get(type(exc), f"cannot be read ({type(exc).__name__})")
                expected = guard.expected_text()
                return GuardFailure(
                    guard, f"{guard.source.name}: {what} (expected {expected})", what
                )
            try:
                passed = predicate(value, L)
            except Exception:  # noqa: BLE001 - as in the check: an error is a failure
                passed = False
            if not passed:
                return GuardFailure(guard, *self._explain(guard, value))
        return None

    def changed_ints(self, L: Mapping[str, object]) -> dict[str, tuple[int, int]]:
        """Source name -> (traced, now) for each int guarded by value that holds another int
        in `L` (automatic dynamic, tracer/cache/dynamic.py). The guards are read in the
        check's order, and the walk stops at the first other guard that fails: a source is
        read only where the guards before it hold (its base's exact type, say), so reading
        it runs no user code (a defaultdict's `__missing__`, a property) the check would not."""
        changed: dict[str, tuple[int, int]] = {}
        roots = self.roots
        for guard, predicate in zip(self.guards, self._predicates, strict=True):
            try:
                value = guard.source.get_value(
                    L, roots["G"], roots["B"], roots["C"], roots[MODE_STACK_FN]
                )
            except Exception:  # noqa: BLE001 - the source no longer resolves: stop there
                break
            expected = guard.expected
            an_int = guard.kind is GuardKind.EQUALS_MATCH and type(expected) is int
            if an_int and type(value) is int and value != expected:
                changed[guard.source.name] = (expected, value)
                continue
            try:
                passed = predicate(value, L)
            except Exception:  # noqa: BLE001 - as in the check: an error is a failure
                passed = False
            if not passed:
                break
        return changed

    @functools.cached_property
    def _predicates(self) -> list[Callable[[object, Mapping[str, object]], bool]]:
        """One compiled predicate per guard, for the miss path only."""
        predicates, bindings = render_predicates(self.guards)
        scope = {"__builtins__": builtins_module.__dict__, **bindings, **self.roots}
        filename = self.filename + " (explain)"
        return [eval(compile(text, filename, "eval"), scope) for text in predicates]

    def _explain(self, guard: Guard, value: object) -> tuple[str, str]:
        """(the failure in words, what was found)."""
        if guard.kind is GuardKind.HASATTR:
            member = AttrSource(guard.source, guard.expected)
            child = [g.expected_text() for g in self.guards if g.source == member]
            text = f"{member.name}: missing attribute (expected {(child or ['present'])[0]})"
            return text, "missing attribute"
        return _EXPLAIN[guard.kind](guard, value)

    def flat(self) -> list[str]:
        """One line per guard, in the order the check runs them."""
        return [guard.describe() for guard in self.guards]

    def as_data(self) -> list[dict[str, str | None]]:
        """JSON-ready records; `expected` is the guard's safe text (never a user `__repr__`)."""
        return [
            {
                "kind": g.kind.name,
                "source": g.source.name,
                "expected": g.expected_text(),
                "location": str(g.user_location) if g.user_location is not None else None,
            }
            for g in self.guards
        ]

    def __str__(self) -> str:
        return format_tree(self.guards)

    def __repr__(self) -> str:
        return f"CompiledGuards({len(self.guards)} guards, {self.filename})"


_READ_ERRORS: dict[type[BaseException], str] = {
    AttributeError: "missing attribute",
    KeyError: "missing key",
    IndexError: "missing index",
}


Explained = tuple[str, str]
"""(the failure in words, what was found instead)."""


def _claim(claim: str, actual: str) -> Explained:
    return f"{claim} (actual {actual})", actual


def _actual(guard: Guard, actual: str) -> Explained:
    return _claim(guard.describe(), actual)


def _hooked(cls: type) -> str:
    """Why a pin of class `cls` failed on `cls` itself: its objects' attribute reads are no
    longer `object.__getattribute__`'s (NOTE [generic attribute reads] in guards.builder)."""
    return f"{type_label(cls)}, whose objects' attributes a __getattribute__ of its own reads"


def _pinned_class(guard: Guard, value: Any) -> str:
    """What an ID_MATCH (CLOSURE_MATCH) found: the class it pins, whose objects' attribute
    reads changed, or another object."""
    if guard.pins_generic_reads and value is guard.expected:
        return _hooked(value)
    return safe_label(value)


def _explain_function(guard: Guard, value: Any) -> Explained:
    spec: FunctionSpec = guard.expected
    pinned = pinned_object(spec.fn)
    if pinned is None or value is not pinned:  # (None: pinned weakly, and gone)
        return _claim(f"{guard.source.name} is {pinned_label(spec.fn)}", safe_label(value))

    name, code = guard.source.name, value.__code__
    return _claim(f"{name}.__code__ is {safe_label(spec.code)}", safe_label(code))


def _explain_length(guard: Guard, value: Any) -> Explained:
    safe = type(value) in LEN_SAFE_TYPES
    return _actual(guard, str(len(value)) if safe else type_label(type(value)))


def _explain_keys(guard: Guard, value: Any) -> Explained:
    if type(value) not in KEYS_SAFE_TYPES:
        return _actual(guard, type_label(type(value)))
    return _actual(guard, "[" + ", ".join(safe_label(k) for k in value) + "]")


def _explain_not_contains(guard: Guard, value: Any) -> Explained:
    """The first of the guard's keys found in the dict, alone: `'bias' not in <dict> (actual
    <dict>['bias'] is present)`."""
    present = next((key for key in guard.expected if _holds(value, key)), guard.expected[0])
    found = f"{ItemSource(guard.source, present).name} is present"
    return _claim(f"{present!r} not in {guard.source.name}", found)


def _explain_contains(guard: Guard, value: Any) -> Explained:
    """The first of the guard's keys missing from the dict, alone: `'H' in G (actual G['H'] is
    missing)`."""
    missing = next((key for key in guard.expected if not _holds(value, key)), guard.expected[0])
    found = f"{ItemSource(guard.source, missing).name} is missing"
    return _claim(f"{missing!r} in {guard.source.name}", found)


def _holds(value: Any, key: object) -> bool:
    """`key in value` as the check tests it, an exception counting as held (a failed guard)."""
    try:
        return key in value
    except Exception:  # noqa: BLE001 - as in the check: an error is a failure
        return True


def _explain_tensor(guard: Guard, value: Any) -> Explained:
    spec: TensorSpec = guard.expected
    name = guard.source.name
    if spec.cls is not None and type(value) is not spec.cls:
        return _claim(f"type({name}) is {type_label(spec.cls)}", type_label(type(value)))
    if spec.reader is not None:  # a world's tensor: the first of its facts that differs
        live = spec.reader(value)
        for part, want, got in zip(TensorSpec.FACT_NAMES, spec.facts(), live, strict=True):
            if want != got:
                return _claim(f"{name}.{part} == {_fact_text(want)}", _fact_text(got))
        # only a world's `check` that tests more than its facts would get here
        return _claim(guard.describe(), "every fact unchanged")
    dtype = value._dtype
    if dtype is not spec.dtype:
        return _claim(f"{name}.dtype == {dtype_label(spec.dtype)}", dtype_label(dtype))
    if value._shape != spec.shape:
        return _claim(f"{name}.shape == {spec.shape!r}", repr(value._shape))
    actual = value.requires_grad
    return _claim(f"{name}.requires_grad == {spec.requires_grad!r}", repr(actual))


def _fact_text(value: object) -> str:
    """A fact as the guard's description shows it: `(3, 1)`, `False`, `torch.float32`, `cpu`."""
    return repr(value) if isinstance(value, tuple | bool) else str(value)


def _explain_global_state(guard: Guard, value: Any) -> Explained:
    spec: GlobalStateSpec = guard.expected
    found = spec.first_difference()
    if found is None:
        return _claim(f"global state {spec.text()}", "unchanged")
    part, want, got = found
    return _claim(f"global state {part} == {want!r}", repr(got))


def _explain_facts(guard: Guard, value: Any) -> Explained:
    spec: FactsSpec = guard.expected
    found = spec.first_difference(guard.source.name, value)
    if found is None:
        return _claim(spec.text(guard.source.name), "unchanged")
    fact, want, got = found
    return _claim(FactsSpec.claim(fact, want), repr(got))


def _explain_mode_stack(guard: Guard, value: Any) -> Explained:
    return mode_stack_failure(guard.expected, value), mode_types_text([type(m) for m in value])


_EXPLAIN: dict[GuardKind, Callable[[Guard, Any], Explained]] = {
    GuardKind.TYPE_MATCH: lambda g, v: _actual(
        g, _hooked(g.expected) if type(v) is g.expected else type_label(type(v))
    ),
    GuardKind.ID_MATCH: lambda g, v: _actual(g, _pinned_class(g, v)),
    GuardKind.FUNCTION_MATCH: lambda g, v: _explain_function(g, v),
    GuardKind.EQUALS_MATCH: lambda g, v: _actual(g, safe_label(v)),
    GuardKind.CLOSURE_MATCH: lambda g, v: _actual(g, _pinned_class(g, v)),
    GuardKind.LENGTH_CHECK: _explain_length,
    GuardKind.DICT_NOT_CONTAINS: _explain_not_contains,
    GuardKind.DICT_CONTAINS: _explain_contains,
    GuardKind.NO_HASATTR: lambda g, v: (
        f"{AttrSource(g.source, g.expected).name}: unexpected attribute (expected absent)",
        "present",
    ),
    GuardKind.DICT_KEYS_MATCH: _explain_keys,
    GuardKind.TENSOR_MATCH: _explain_tensor,
    GuardKind.MODE_STACK: _explain_mode_stack,
    GuardKind.GLOBAL_STATE: _explain_global_state,
    GuardKind.FACTS_MATCH: _explain_facts,
    GuardKind.OBJECT_ALIASING: lambda g, v: _actual(g, "a different object"),
    GuardKind.NO_ALIASING: lambda g, v: _actual(g, "the same object as one of them"),
}
