"""Readable, unique Python identifiers for nodes and for the globals of generated code.

Node names double as local variable names in the generated `forward`, so they must be valid,
non-keyword identifiers and unique within their graph; `Namespace` is the one place that
guarantees it. `target_name` decides how a call target is spelled in printouts.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

_NON_WORD = re.compile(r"\W+")
_TRAILING_COUNTER = re.compile(r"^(.*)_(\d+)$")
_MODULE_ALIASES = {"_operator": "operator", "posix": "os"}
_QUALIFIED_MODULES = frozenset({"operator", "math", "os"})


def sanitize(candidate: str) -> str:
    """Turn any string into a plain identifier that is not a keyword (`<lambda>` -> `lambda_`)."""
    name = _NON_WORD.sub("_", candidate).strip("_") or "v"
    if name[0].isdigit():
        name = f"_{name}"
    return f"{name}_" if keyword.iskeyword(name) else name


def target_op(target: Any) -> Any | None:
    """The OpInfo of a runtime op; for a Tensor operator dunder that calls a public op
    (`Tensor.__add__` calls `Tensor.add`, see `operator_method`), that op's; else None."""
    info = getattr(target, "__modetrace_op__", None)
    if info is None:
        info = getattr(getattr(target, "__modetrace_operator__", None), "__modetrace_op__", None)
    return info


def op_name(target: Any) -> str | None:
    """The runtime's own name for an op (`OpInfo.name`), or None for plain callables."""
    name = getattr(target_op(target), "name", None)
    return name if isinstance(name, str) else None


def target_name(target: Any) -> str:
    """How a call target reads in a graph printout.

    Runtime ops print their op name (`add`); functions of `operator` and `math` keep their module
    (`operator.add`) so they are not confused with the runtime op of the same name; anything else
    prints its `__qualname__`.
    """
    if isinstance(target, str):
        return target
    if (name := op_name(target)) is not None:
        return name
    qualname = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    if not isinstance(qualname, str):
        return repr(target)
    module = getattr(target, "__module__", None) or ""
    module = _MODULE_ALIASES.get(module, module)
    return f"{module}.{qualname}" if module in _QUALIFIED_MODULES else qualname


def base_name(target: Any) -> str:
    """The name hint a call node gets from its target: `operator.__add__` -> `add`. It may be
    any string (`<lambda>`): `Namespace.create` makes an identifier of it."""
    if isinstance(target, str):
        return target
    name = op_name(target) or getattr(target, "__name__", None) or type(target).__name__
    return str(name)


def split_name(candidate: str) -> tuple[str, str]:
    """(the candidate sanitized, that name without a trailing `_<n>`): `add_1` -> `add`."""
    name = sanitize(candidate)
    match = _TRAILING_COUNTER.match(name)
    return name, match.group(1) if match else name


class Namespace:
    """Hands out unique identifiers: the first `add` is `add`, then `add_1`, `add_2`, ...

    >>> ns = Namespace()
    >>> [ns.create("add"), ns.create("add"), ns.create("x-y"), ns.create("add_1")]
    ['add', 'add_1', 'x_y', 'add_2']
    """

    __slots__ = ("_counters", "_known", "_used")

    def __init__(self, reserved: frozenset[str] | set[str] = frozenset()) -> None:
        self._used: set[str] = set(reserved)
        self._counters: dict[str, int] = {}
        self._known: dict[str, tuple[str, str]] = {}
        """candidate -> `split_name(candidate)`, worked out once per candidate."""

    def create(self, candidate: str) -> str:
        known = self._known.get(candidate)
        if known is None:
            known = self._known[candidate] = split_name(candidate)
        name, base = known
        used = self._used
        if name in used:
            name = self.next_name(base)
        used.add(name)
        return name

    def next_name(self, base: str) -> str:
        """The next `<base>_<n>` not taken (not yet marked as taken: the caller does that),
        for a name already taken."""
        used = self._used
        counter = self._counters.get(base, 0) + 1
        name = f"{base}_{counter}"
        while name in used:
            counter += 1
            name = f"{base}_{counter}"
        self._counters[base] = counter
        return name

    def __contains__(self, name: object) -> bool:
        return name in self._used

    def __repr__(self) -> str:
        return f"Namespace({len(self._used)} names)"
