"""Bad input gets a clear one-line error naming the problem (found by a hunt of the entry
points): a backend that returns no callable (on 3.12 and 3.13 the compiled code then crashed
the interpreter; on 3.11 an UnboundLocalError), a backend given as a list, options of
`explain`/`trace`/`compare` (they went unchecked to an internal class), a breakpoint hook that
is not callable or raises (reported as modetrace's own InternalError), boolean environment
variables written as words ("false" meant on)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import tracer
import tracer.runtime as torch


def sine(x: Any) -> Any:
    return x.sin() + 1


@pytest.mark.parametrize("returned", [None, 5])
def test_a_backend_that_returns_no_callable(returned: Any) -> None:
    compiled = tracer.compile(sine, backend=lambda gm, example_inputs: returned)
    with pytest.raises(tracer.UserError, match="returned .*, not a callable"):
        compiled(torch.ones(2))


def test_a_backend_given_as_a_list() -> None:
    with pytest.raises(tracer.UserError, match="unknown backend"):
        tracer.compile(sine, backend=["eager"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"recompile_limit": -1}, "recompile_limit"),
        ({"dynamic": "auto"}, "dynamic must be"),
        ({"fullgraph": "yes"}, "fullgraph must be True or False"),
        ({"backend": "nope"}, "unknown backend"),
        ({"no_such_option": 1}, "unknown option 'no_such_option'"),
    ],
)
def test_the_options_of_explain_and_trace_are_checked(
    options: dict[str, Any], message: str
) -> None:
    for tool in (tracer.explain, tracer.trace):
        with pytest.raises(tracer.UserError, match=message):
            tool(sine, **options)


def test_explain_takes_the_options_compile_takes() -> None:
    explained = tracer.explain(sine, recompile_limit=3, on_recompile="recompile")(torch.ones(2))
    assert explained.graph_count == 1


def test_a_breakpoint_hook_that_is_not_callable() -> None:
    with pytest.raises(tracer.UserError, match="a breakpoint hook is a callable or None"):
        tracer.set_breakpoint_hook(3)  # type: ignore[arg-type]


def test_a_breakpoint_hook_that_raises_is_the_users_error() -> None:
    def stops(x: Any) -> Any:
        tracer.breakpoint()
        return x + 1

    previous = tracer.set_breakpoint_hook(lambda context: 1 / 0)
    try:
        with pytest.raises(tracer.UserError, match="the breakpoint hook raised ZeroDivisionError"):
            tracer.compile(stops)(torch.ones(2))
    finally:
        tracer.set_breakpoint_hook(previous)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("false", False), ("OFF", False), ("no", False), ("0", False), ("", False),
     ("true", True), ("1", True), ("On", True)],
)  # fmt: skip
def test_boolean_environment_variables_read_words(value: str, expected: bool) -> None:
    code = "import tracer.config as c; print(c.current().graph_cache, c.current().debug_checks)"
    env = {"MODETRACE_GRAPH_CACHE": value, "MODETRACE_DEBUG_CHECKS": value, "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(expected), str(expected)]
