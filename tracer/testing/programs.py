"""Random small Python programs, for differential fuzzing of the tracer (issue 20).

`programs()` is a hypothesis strategy of `Program`s: the source text of a module that defines
`def f(i, j, x, s, xs, d, t)` (two ints, a float that may be nan or inf, a str, a list of ints,
a dict of str to int, a 1-d runtime tensor), plus the arguments to call it with. `check_program`
compiles the text with `compile()` under its own file name (registered in `linecache`, so
tracebacks and graph-break reasons point at real lines), runs `f` eagerly once and compiled
twice with `assert_same_behavior`, and says whether the compiled function traced whole or fell
back; `check_program_calls` calls one compiled `f` with several argument tuples in turn. A
mismatch raises `ProgramMismatch` with the program's text and arguments; under `@given`
hypothesis shrinks the program first.

The programs come from a small typed grammar: every expression has a type (int, float, str,
bool, list of ints, dict of str to int, set, tensor, user object, or "anything"), each
statement either appends a value to the list `out` that `f` returns, binds a new local, or
changes state (mutates a container, a global, a closure cell, the mode stack); blocks nest two
deep. Programs terminate (every loop is bounded and nothing grows without bound inside a loop)
and are deterministic (objects print without addresses, sets are only looked at in ways that
do not depend on their order unless the `set_order` feature is on). The grammar is
`program_grammar.ProgramWriter`; `program_breaks.BreakingWriter` adds the `breaks_inside`
productions (a graph break deep inside an expression).

Each production belongs to a feature (`FEATURES`). `KNOWN_OPEN` lists features that exercise an
issue-20 case not fixed yet; `programs()` leaves them out by default, so the CI profile stays
green, and the entry is removed when the fix lands. `programs(features=..., exclude=...)`
chooses other sets, e.g. `programs(exclude=())` for everything.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import linecache
import re
import types
import warnings
from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.testing.behavior import assert_same_behavior
from tracer.testing.compare import Mismatch
from tracer.testing.counters import CompileCounter
from tracer.testing.program_breaks import BreakingWriter
from tracer.testing.strategies import EDGE_FLOATS, tensors
from tracer.testing.values import describe

FEATURES: dict[str, str] = {
    "core": "ints, floats (nan, inf), strs, lists, dicts, tuples, if/else, comprehensions",
    "loops": "for over lists, dicts, strs and ranges; bounded while loops",
    "sets": "sets and frozensets, looked at through len, in, ==, sorted",
    "set_order": "sets iterated, printed or returned as they are (their order shows)",
    "mutation": "lists and dicts changed in place (append, pop, del, slice assignment, update)",
    "mutate_while_iterating": "a list or dict changed inside a loop over it",
    "iterators": "iter/next over a private copy, partly consumed, then drained or returned",
    "shared_iterators": "one iterator read twice by zip, lazy map/filter, iterators of live lists",
    "closures": "nested functions with nonlocal cells, lambdas as keys and maps",
    "globals": "module globals read, rebound and mutated",
    "exceptions": "raise and assert under a condition (the exception leaves f)",
    "try_except": "try/except/else/finally around statements that may raise",
    "type_errors": "operators and subscripts on the wrong types",
    "odd_builtins": "builtins with wrong types, wrong arity or bad values",
    "builtin_arg_checks": "builtin argument checks the tracer models (sorted(xs, None), ...)",
    "classes": "a user class with some of __add__ __radd__ __eq__ __lt__ __gt__ __len__ __bool__ "
    "__hash__ __iter__, and a subclass",
    "reflected_priority": "a subclass overriding the reflected operator of its base; __radd__ "
    "without __add__",
    "sort_objects": "sorted() and list.sort() on user objects and mixed types",
    "tensors": "runtime tensors: elementwise ops, reductions, item(), shapes",
    "tensor_shapes": "tensors of other shapes: mismatched broadcasting, matmul, reshape, index",
    "contiguous_identity": "x.contiguous() is x",
    "objects_in_lists": "`obj in [...]` and `[...].count(obj)` with user objects",
    "len_without_dunder": "len() of a user object whose class has no __len__",
    "modes": "a recording TorchFunctionMode entered around statements",
    "output": "print (with sep and end) and warnings.warn of any value",
    "breaks_inside": "a graph break (print, warnings.warn, Tensor.item(), tolist()) inside an "
    "expression: in displays with and without unpacking, call and method arguments (positional, "
    "keyword, *, **), subscripts, slices, f-string specs, comparisons, conditionals, with and for "
    "headers, assert messages, raise arguments, augmented and unpacking assignments",
}
"""Every feature flag of the grammar, with what it adds."""

KNOWN_OPEN: dict[str, str] = {}
"""Features that exercise an open issue-20 case; `programs()` leaves them out by default.
Remove an entry when its fix lands (the CI profile then covers it)."""

PARAMETERS = ("i", "j", "x", "s", "xs", "d", "t")
"""The parameters of every generated `f`."""


@dataclasses.dataclass(frozen=True)
class Program:
    """A generated module's source (it defines `f`), the arguments to call `f` with, and the
    features its text uses."""

    source: str
    args: tuple[Any, ...]
    features: frozenset[str]

    def build(self) -> types.FunctionType:
        """`f`, compiled from the source under a file name that `linecache` knows."""
        return build_function(self.source)

    def __repr__(self) -> str:
        return f"Program(\n{self.source}\nargs={describe(self.args)})"


_ids = itertools.count()


def build_function(source: str, name: str = "f") -> types.FunctionType:
    """Compile a module's source text in a fresh namespace (with `torch` bound to
    tracer.runtime) and return its function `name`. The text is registered in `linecache`
    under a unique file name, so tracebacks and graph-break reasons show its lines."""
    filename = f"<program-{next(_ids)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"__name__": filename, "torch": torch}
    with warnings.catch_warnings():  # `0(1)` is a SyntaxWarning, and meant
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(source, filename, "exec")
    exec(code, namespace)  # noqa: S102 - the program under test
    function: types.FunctionType = namespace[name]
    return function


class ProgramMismatch(AssertionError):
    """A generated program behaved differently compiled: the diff, the text and the args."""


@dataclasses.dataclass(frozen=True)
class ProgramRun:
    """How one program ran compiled: traced whole, or fell back (with the reasons)."""

    traced_whole: bool
    break_reasons: tuple[str, ...]


def check_program(program: Program, **compile_options: Any) -> ProgramRun:
    """Run the program's `f` eagerly once and compiled twice (`tracer.compile(f,
    **compile_options)`), compare everything observable, and return how it compiled. A
    difference raises ProgramMismatch showing the program."""
    fn = program.build()
    with CompileCounter() as counter:
        try:
            assert_same_behavior(fn, *program.args, compile_options=compile_options or None)
        except Mismatch as e:
            raise ProgramMismatch(
                f"{e}\n--- program ---\n{program.source}--- args ---\n{describe(program.args)}"
            ) from e
    return ProgramRun(counter.graph_breaks == 0, tuple(counter.graph_break_reasons))


def check_program_calls(
    program: Program, calls: Iterable[tuple[Any, ...]], **compile_options: Any
) -> ProgramRun:
    """Compile the program's `f` once, then call it with the program's arguments and with each
    of `calls` in turn, each call compared with plain Python (`assert_same_behavior` with
    `compiled=`). One compiled function seeing new values is where guards, recompiles and
    automatic dynamic ints (an int whose value changed becomes a graph input) are tested. A
    difference raises ProgramMismatch showing the program and the calls up to it."""
    fn = program.build()
    compiled = tracer.compile(fn, **compile_options)
    done: list[tuple[Any, ...]] = []
    with CompileCounter() as counter:
        for args in (program.args, *calls):
            done.append(args)
            try:
                assert_same_behavior(fn, *args, compiled=compiled)
            except Mismatch as e:
                shown = "\n".join(describe(a) for a in done)
                raise ProgramMismatch(
                    f"{e}\n--- program ---\n{program.source}--- calls, in order ---\n{shown}"
                ) from e
    return ProgramRun(counter.graph_breaks == 0, tuple(counter.graph_break_reasons))


_LOCATION = re.compile(r"^\S+:\d+ in \S+: ")


@dataclasses.dataclass
class FuzzStats:
    """Counts over a fuzzing run: programs, traced whole or fell back, and why."""

    programs: int = 0
    traced_whole: int = 0
    fell_back: int = 0
    reasons: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    features: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)

    def record(self, program: Program, run: ProgramRun) -> None:
        self.programs += 1
        self.features.update(program.features)
        if run.traced_whole:
            self.traced_whole += 1
            return
        self.fell_back += 1
        for reason in set(run.break_reasons):
            self.reasons[_LOCATION.sub("", reason)[:90]] += 1

    def summary(self, top: int = 8) -> str:
        counts = f"{self.traced_whole} traced whole, {self.fell_back} fell back"
        lines = [
            f"{self.programs} programs: {counts}",
            "features: " + ", ".join(f"{k} {v}" for k, v in sorted(self.features.items())),
        ]
        lines += [f"  {n:5d}  {reason}" for reason, n in self.reasons.most_common(top)]
        return "\n".join(lines)


# --- the arguments


def arguments() -> st.SearchStrategy[tuple[Any, ...]]:
    """Arguments for `f(i, j, x, s, xs, d, t)`."""
    small = st.integers(-3, 9)
    return st.tuples(
        small,
        small,
        st.one_of(st.floats(-10.0, 10.0, allow_nan=False), st.sampled_from(EDGE_FLOATS)),
        st.text(alphabet="ab xy", max_size=4),
        st.lists(small, max_size=4),
        st.dictionaries(st.sampled_from("abx"), small, max_size=3),
        tensors(st.tuples(st.integers(0, 3)), torch.float32),
    )


def programs(
    features: Iterable[str] | None = None,
    *,
    exclude: Iterable[str] = tuple(KNOWN_OPEN),
    max_statements: int = 6,
) -> st.SearchStrategy[Program]:
    """Programs using `features` (default: all of FEATURES) minus `exclude` (default: the
    KNOWN_OPEN ones), with 1 to `max_statements` top-level statements."""
    chosen = set(FEATURES if features is None else features) - set(exclude)
    unknown = chosen - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown features {sorted(unknown)}; known: {sorted(FEATURES)}")
    enabled = frozenset(chosen | {"core"})

    @st.composite
    def build(draw: st.DrawFn) -> Program:
        writer = BreakingWriter(draw, enabled)
        source = writer.module(draw(st.integers(1, max_statements)))
        return Program(source, draw(arguments()), frozenset(writer.used))

    return build()
