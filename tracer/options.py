"""The options of `tracer.compile`, and of the tools that compile with them (`explain`,
`trace`, `compare`), checked in one place: a bad or unknown one is a UserError that names it,
raised where the options are given."""

from __future__ import annotations

import dataclasses
from typing import Any

from tracer.backends import lookup_backend
from tracer.config import CompileOptions
from tracer.exc import UserError

ON_RECOMPILE = ("recompile", "error")


@dataclasses.dataclass(frozen=True)
class CheckedOptions:
    """What a compiled function is made with: the options of each compile, and what happens
    once a frame has been compiled `recompile_limit` times."""

    compile: CompileOptions
    recompile_limit: int
    on_recompile: str


def check_options(
    fullgraph: bool = False,
    backend: Any = "eager",
    specialize_float: bool = True,
    dynamic: bool | None = None,
    recompile_limit: int = 8,
    on_recompile: str = "recompile",
) -> CheckedOptions:
    lookup_backend(backend)
    for name, flag in (("fullgraph", fullgraph), ("specialize_float", specialize_float)):
        if type(flag) is not bool:
            raise UserError(f"{name} must be True or False, got {flag!r}")
    if (
        not isinstance(recompile_limit, int)
        or isinstance(recompile_limit, bool)
        or recompile_limit < 0
    ):
        raise UserError(f"recompile_limit must be a non-negative int, got {recompile_limit!r}")
    if on_recompile not in ON_RECOMPILE:
        raise UserError(f"on_recompile must be one of {ON_RECOMPILE}, got {on_recompile!r}")
    if dynamic not in (None, True, False):
        raise UserError(f"dynamic must be None, True or False, got {dynamic!r}")
    options = CompileOptions(fullgraph, backend, specialize_float, dynamic)
    return CheckedOptions(options, recompile_limit, on_recompile)


def checked(options: dict[str, Any]) -> CheckedOptions:
    """`check_options(**options)`, with an unknown name a UserError too (not a TypeError)."""
    names = check_options.__code__.co_varnames[: check_options.__code__.co_argcount]
    unknown = sorted(options.keys() - set(names))
    if unknown:
        raise UserError(f"unknown option {unknown[0]!r}; the options are {', '.join(names)}")
    return check_options(**options)
