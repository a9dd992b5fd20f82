"""The fused backend's output as plain data, and how it becomes a callable again.

A `FusedPlan` is the generated source of each kernel and of `forward`, plus, for every global
name that source uses, a descriptor saying where the object comes from:
  {"kind": "python", "module": "tracer.runtime.kernels", "qualname": "total"}
  {"kind": "kernel", "name": "kernel_0"}          (a kernel of the same plan)
  {"kind": "op", "owner": "tensor", "name": "matmul"}  (a runtime op's mode-free impl)
  {"kind": "unary_float", "name": "sin"}          (the runtime's per-element function)
  {"kind": "float", "value": "inf"}
  {"kind": "dtype", "name": "float32"}
  {"kind": "object", "repr": "..."}               (not describable: the plan is not portable)
`to_json()` / `FusedPlan.from_json()` round-trip it without pickling; `load()` compiles the
sources with `compile()` and resolves the descriptors. A plan whose globals are all
describable (`portable`) can be stored by a cache and loaded in another process.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import itertools
import json
import linecache
import math
from collections.abc import Callable
from typing import Any

from tracer.graph.naming import target_op
from tracer.runtime import dtypes as dt
from tracer.runtime import kernels
from tracer.runtime.ops import OPS
from tracer.runtime.overridable import overridable_property
from tracer.runtime.tensor import Tensor

PLAN_FORMAT = "modetrace-fused-plan"
PLAN_VERSION = 1
_file_ids = itertools.count()


class PlanError(ValueError):
    """Data that is not a fused plan of this version (`FusedPlan.from_dict`)."""


@dataclasses.dataclass
class KernelPlan:
    name: str
    source: str
    helpers: dict[str, dict[str, str]]
    nodes: list[str]
    """The graph nodes whose values this kernel stores or computes on the way."""
    depth: int
    """How many loops its statements share."""


@dataclasses.dataclass
class FusedPlan:
    fn_name: str
    forward: str
    forward_globals: dict[str, dict[str, str]]
    kernels: list[KernelPlan]
    stats: dict[str, int]
    live_globals: dict[str, Any] = dataclasses.field(default_factory=dict, repr=False)
    """The objects behind `forward_globals` in this process (not part of the data)."""

    @property
    def portable(self) -> bool:
        descriptors = list(self.forward_globals.values())
        descriptors += [d for k in self.kernels for d in k.helpers.values()]
        return all(d["kind"] != "object" for d in descriptors)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.pop("live_globals")
        return {"format": PLAN_FORMAT, "version": PLAN_VERSION, **data}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> FusedPlan:
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: Any) -> FusedPlan:
        """The plan `to_dict()` wrote; ValueError for anything else: another format or
        version, a missing or extra field, a field of the wrong type (checked against the
        schema below before anything is built, so data from a cache can't smuggle in objects)."""
        if not isinstance(data, dict):
            raise PlanError("a fused plan is a JSON object")
        if data.get("format") != PLAN_FORMAT or data.get("version") != PLAN_VERSION:
            raise ValueError("not a fused plan of this version")
        _check_fields(data, _PLAN_SCHEMA, "plan")
        kernels = []
        for i, kernel in enumerate(data["kernels"]):
            if not isinstance(kernel, dict):
                raise PlanError(f"plan.kernels[{i}] is not an object")
            _check_fields(kernel, _KERNEL_SCHEMA, f"plan.kernels[{i}]")
            kernels.append(KernelPlan(**kernel))
        fields = {k: data[k] for k in _PLAN_SCHEMA if k != "kernels"}
        return cls(kernels=kernels, **fields)

    def load(self) -> Callable[..., Any]:
        """`forward`, its kernels compiled and its globals resolved (each distinct descriptor
        once: the kernels of a plan share most of their helpers)."""
        resolved: dict[tuple[tuple[str, str], ...], Any] = {}

        def resolve_once(descriptor: dict[str, str]) -> Any:
            key = tuple(descriptor.items())
            if key not in resolved:
                resolved[key] = resolve(descriptor)
            return resolved[key]

        compiled: dict[str, Callable[..., Any]] = {}
        for kernel in self.kernels:
            namespace = {k: resolve_once(d) for k, d in kernel.helpers.items()}
            compiled[kernel.name] = _compile(kernel.source, kernel.name, namespace, "kernel")
        namespace = {}
        for name, descriptor in self.forward_globals.items():
            if descriptor["kind"] == "kernel":
                namespace[name] = compiled[descriptor["name"]]
            elif descriptor["kind"] == "object":
                namespace[name] = self.live_globals[name]
            else:
                namespace[name] = resolve_once(descriptor)
        forward: Callable[..., Any] = _compile(self.forward, self.fn_name, namespace, "forward")
        return forward


def _is_descriptors(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(name, str)
        and isinstance(d, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in d.items())
        for name, d in value.items()
    )


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_int(value: Any) -> bool:
    return type(value) is int


_PLAN_SCHEMA: dict[str, Callable[[Any], bool]] = {
    "fn_name": lambda v: isinstance(v, str) and v.isidentifier(),
    "forward": lambda v: isinstance(v, str),
    "forward_globals": _is_descriptors,
    "kernels": lambda v: isinstance(v, list),
    "stats": lambda v: isinstance(v, dict) and all(_is_int(n) for n in v.values()),
}
"""What `to_dict()` writes besides format and version: field -> its check."""
_KERNEL_SCHEMA: dict[str, Callable[[Any], bool]] = {
    "name": lambda v: isinstance(v, str) and v.isidentifier(),
    "source": lambda v: isinstance(v, str),
    "helpers": _is_descriptors,
    "nodes": _is_str_list,
    "depth": _is_int,
}


def _check_fields(
    data: dict[str, Any], schema: dict[str, Callable[[Any], bool]], what: str
) -> None:
    extra = set(data) - set(schema) - {"format", "version"}
    if extra:
        raise ValueError(f"{what} has unknown fields {sorted(extra)}")
    for name, check in schema.items():
        if name not in data:
            raise ValueError(f"{what} has no field {name!r}")
        if not check(data[name]):
            raise ValueError(f"{what}.{name} does not fit the plan's schema")


def _compile(source: str, name: str, namespace: dict[str, Any], what: str) -> Any:
    """Compile generated source under a synthetic file name that tracebacks can show."""
    filename = f"<modetrace-fused-{what}-{next(_file_ids)}>.py"
    code = compile(source, filename, "exec")
    exec(code, namespace)  # noqa: S102 - our own generated source
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return namespace.pop(name)


def describe(value: Any) -> dict[str, str]:
    """Where `value` comes from, as data (see the module docstring)."""
    if isinstance(value, dt.dtype):
        return {"kind": "dtype", "name": value.name}
    for name, fn in kernels.UNARY_FLOAT.items():
        if value is fn:
            return {"kind": "unary_float", "name": name}
    if isinstance(value, float) and not math.isfinite(value):
        return {"kind": "float", "value": repr(value)}
    op_name = getattr(value, "__name__", None)
    if isinstance(op_name, str):
        for owner in ("tensor", "torch"):
            descriptor = {"kind": "op", "owner": owner, "name": op_name}
            if _op_impl(owner, op_name) is value:
                return descriptor
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname:
        descriptor = {"kind": "python", "module": module, "qualname": qualname}
        try:
            found = resolve(descriptor)
            # a bound method (`Tensor._make`) is a new object on each lookup, equal to the last
            if found is value or (inspect.ismethod(value) and found == value):
                return descriptor
        except (ImportError, AttributeError):
            pass
    return {"kind": "object", "repr": repr(value)[:200]}


def resolve(descriptor: dict[str, str]) -> Any:
    kind = descriptor["kind"]
    if kind == "dtype":
        return getattr(dt, descriptor["name"] if descriptor["name"] != "bool" else "bool_")
    if kind == "op":
        impl = _op_impl(descriptor["owner"], descriptor["name"])
        if impl is None:
            raise ValueError(f"no runtime op {descriptor!r}")
        return impl
    if kind == "unary_float":
        return kernels.UNARY_FLOAT[descriptor["name"]]
    if kind == "float":
        return float(descriptor["value"])
    if kind == "python":
        found: Any = importlib.import_module(descriptor["module"])
        for part in descriptor["qualname"].split("."):
            found = getattr(found, part)
        return found
    raise ValueError(f"cannot resolve {descriptor!r}")


def _op_impl(owner: str, name: str) -> Any:
    """The mode-free implementation of the runtime op `Tensor.<name>` or `torch.<name>`."""
    public = getattr(Tensor, name, None) if owner == "tensor" else OPS.get(name)
    if isinstance(public, property | overridable_property):  # `x.T`: the getter
        public = public.fget
    return getattr(target_op(public), "impl", None)
