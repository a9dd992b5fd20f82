"""Random straight-line programs mixing mode-stack changes, tensor ops and mutations of inputs,
compiled == eager with fullgraph under a random initial mode stack.

Each program is generated as source text, compiled under its own filename and registered in
`linecache`, so tracebacks, graph-break locations and guard reasons point at real lines; a
failing example prints its source.
"""

from __future__ import annotations

import itertools
import linecache
import os
import types
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior

EXAMPLES = int(os.environ.get("RANDOM_PROGRAM_EXAMPLES", "30"))
"""Each example compiles a fresh function twice; 30 keeps this file to a few seconds."""


class CountMode(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


class RewriteMode(TorchFunctionMode):
    """Logs op names and turns `torch.mul(a, b)` into `torch.add(a, b)`: results depend on
    which modes are active, and in which order."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.log.append(func.__name__)
        if func is torch.mul:
            return torch.add(*args)
        return func(*args, **(kwargs or {}))


MODE_CLASSES = (CountMode, RewriteMode)


class Counter:
    def __init__(self) -> None:
        self.n = 0


OPS = ("x = x + 1", "x = torch.mul(x, 2)", "x = x.sin()")

# A step is a tuple: ("push", cls_index) | ("pop",) | ("with", cls_index, op_index)
#                  | ("op", op_index) | ("append",) | ("list_pop",) | ("attr",)
_step = st.one_of(
    st.tuples(st.just("push"), st.integers(0, 1)),
    st.tuples(st.just("pop")),
    st.tuples(st.just("with"), st.integers(0, 1), st.integers(0, len(OPS) - 1)),
    st.tuples(st.just("op"), st.integers(0, len(OPS) - 1)),
    st.tuples(st.just("append")),
    st.tuples(st.just("list_pop")),
    st.tuples(st.just("attr")),
)


def render(steps: list[tuple[Any, ...]], initial_depth: int, initial_len: int) -> str:
    """The source of `def program(x, xs, obj)`; steps that would be invalid at their point
    (pop of an empty stack, pop of an empty list) are skipped."""
    depth, length = initial_depth, initial_len
    lines = ["def program(x, xs, obj):", "    created = []"]
    for step in steps:
        kind = step[0]
        if kind == "push":
            cls = MODE_CLASSES[step[1]].__name__
            lines += [
                f"    m = {cls}()",
                "    created.append(m)",
                "    torch._C._push_on_torch_function_stack(m)",
            ]
            depth += 1
        elif kind == "pop" and depth > 0:
            lines.append("    torch._C._pop_torch_function_stack()")
            depth -= 1
        elif kind == "with":
            cls = MODE_CLASSES[step[1]].__name__
            lines += [f"    with {cls}() as m:", f"        {OPS[step[2]]}", "    created.append(m)"]
        elif kind == "op":
            lines.append(f"    {OPS[step[1]]}")
        elif kind == "append":
            lines.append("    xs.append(len(xs))")
            length += 1
        elif kind == "list_pop" and length > 0:
            lines.append("    xs.pop()")
            length -= 1
        elif kind == "attr":
            lines.append("    obj.n += 1")
    lines.append("    return x, created, torch._C._len_torch_function_stack()")
    return "\n".join(lines) + "\n"


_ids = itertools.count()


def build(source: str) -> types.FunctionType:
    filename = f"<random-program-{next(_ids)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    # The program runs in this module's globals: the modes' handlers live here, and a handler's
    # globals must be the traced frame's (the tracer does not model another module's globals).
    namespace = globals()
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the program under test
    program: types.FunctionType = namespace.pop("program")
    return program


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    steps=st.lists(_step, max_size=12),
    initial=st.lists(st.integers(0, 1), max_size=2),
    initial_len=st.integers(0, 2),
)
def test_random_program_compiled_matches_eager(
    steps: list[tuple[Any, ...]], initial: list[int], initial_len: int
) -> None:
    source = render(steps, len(initial), initial_len)
    note(source)
    note(f"initial stack: {[MODE_CLASSES[i].__name__ for i in initial]}")
    program = build(source)
    modes = [MODE_CLASSES[i]() for i in initial]
    assert_same_behavior(
        program,
        torch.arange(3.0),
        list(range(initial_len)),
        Counter(),
        modes=modes,
        compile_options={"fullgraph": True},
    )


def test_rendered_program_has_a_real_location() -> None:
    """The generator itself: the source is in linecache under the function's filename."""
    program: Callable[..., Any] = build(render([("push", 0), ("op", 1), ("pop",)], 0, 0))
    filename = program.__code__.co_filename
    assert filename.startswith("<random-program-")
    assert linecache.getline(filename, 1).startswith("def program(")
    assert_same_behavior(program, torch.ones(2), [], Counter(), compile_options={"fullgraph": True})


def test_known_program_with_every_step_kind() -> None:
    steps = [
        ("push", 1),
        ("with", 0, 1),
        ("op", 0),
        ("append",),
        ("pop",),
        ("pop",),
        ("list_pop",),
        ("attr",),
        ("push", 0),
        ("op", 2),
    ]
    program = build(render(steps, 1, 1))
    assert_same_behavior(
        program,
        torch.arange(3.0),
        [0],
        Counter(),
        modes=[RewriteMode()],
        compile_options={"fullgraph": True},
    )
