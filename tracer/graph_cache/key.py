"""The graph cache's key: a hash of everything a compiled backend's output depends on.

The parts, hashed as one JSON document (`key_parts` returns it, for explaining a miss):
- `graph` and `nodes`: the graph's canonical form: its generated `forward` source (node
  names, targets, constant arguments) and each node's value's type (`add: f32[3, 4]`);
- `globals`: for each global name that source uses, where the object comes from (the plan's
  descriptors: `{"kind": "op", "owner": "tensor", "name": "add"}`, or a function's module and
  qualified name); a global that can't be named so (a constant tensor, a lambda, a function
  defined inside another) makes the graph uncacheable (`key_parts` returns None);
- `inputs`: each example input's type, dtype, shape and requires_grad;
- `backend` and `options`: the backend's name and the options it was made with;
- `versions`: modetrace's version, the Python version, the entry format's version and a hash
  of the backend's own source files, so an edited checkout never reads kernels it would no
  longer write.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from tracer.fused.plan import describe
from tracer.graph import GraphModule
from tracer.graph.node import describe_value
from tracer.version import __version__

ENTRY_VERSION = 2
"""The version of the entry format (`entry.py`); part of every key."""
KEY_LENGTH = 32
"""Hex digits of the sha256 kept as the key (128 bits)."""


def key_parts(
    gm: GraphModule, example_inputs: Sequence[Any], backend: str, options: dict[str, Any]
) -> dict[str, Any] | None:
    """What the key hashes, as JSON-ready data; None when a global of the graph's code is not
    describable as data (the graph is not cached: a bypass)."""
    python = gm._generated()  # the source and globals `gm.code` and `gm.forward` use
    described = {name: _identity(value) for name, value in sorted(python.globals.items())}
    if any(d is None for d in described.values()):
        return None
    return {
        "graph": python.source,
        "nodes": [f"{n.name}: {describe_value(n.meta.get('val'))}" for n in gm.graph.nodes],
        "globals": described,
        "inputs": [_input_metadata(value) for value in example_inputs],
        "backend": backend,
        "options": options,
        "versions": {
            "modetrace": __version__,
            "python": list(sys.version_info[:2]),
            "entry": ENTRY_VERSION,
            "backend_source": backend_source_hash(),
        },
    }


def _identity(value: Any) -> dict[str, str] | None:
    """A global of the graph's code as data that names the same object in any process: the
    plan's descriptor, or a function's module and qualified name (a property's getter, say,
    which the plan's descriptors don't resolve); None for anything else (a constant tensor,
    a function defined inside another, a lambda)."""
    descriptor = describe(value)
    if descriptor["kind"] != "object":
        return descriptor
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    named = isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname
    if callable(value) and named:
        return {"kind": "function", "module": str(module), "qualname": str(qualname)}
    return None


def hash_key(parts: dict[str, Any]) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=repr)
    return "fx" + hashlib.sha256(text.encode()).hexdigest()[:KEY_LENGTH]


def _input_metadata(value: Any) -> dict[str, Any]:
    shape = getattr(value, "_shape", None)
    dtype = getattr(value, "_dtype", None)
    if shape is None or dtype is None:
        return {"type": type(value).__qualname__}
    return {
        "type": type(value).__qualname__,
        "dtype": dtype.name,
        "shape": list(shape),
        "requires_grad": bool(getattr(value, "requires_grad", False)),
    }


@functools.cache
def backend_source_hash() -> str:
    """A hash of the fused backend's source files (tracer/fused/*.py) and the runtime kernels
    its generated code calls: what it writes depends on them."""
    root = os.path.dirname(os.path.dirname(__file__))  # tracer/
    fused = os.path.join(root, "fused")
    names = [("fused", n) for n in sorted(os.listdir(fused)) if n.endswith(".py")]
    digest = hashlib.sha256()
    for folder, name in [*names, ("runtime", "kernels.py")]:
        with open(os.path.join(root, folder, name), "rb") as file:
            digest.update(name.encode())
            digest.update(file.read())
    return digest.hexdigest()[:16]
