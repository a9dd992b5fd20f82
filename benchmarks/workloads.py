"""The benchmark workloads, written once against the torch API.

`make_workloads(torch)` builds every workload for one torch-like module: `tracer.runtime` (always)
or the real `torch` (when it is installed), so modetrace and Dynamo run the very same source.
Each workload is a function, a factory for its example inputs and, for the mode-stack workload, a
factory for the context that must be active at call time.

Workloads keep their state consistent from call to call (the mutation workload rebuilds the lists
it mutates), so one compile serves every timed call and no measurement hides a recompile.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import ModuleType
from typing import Any

import tracer

__all__ = ["Scaled", "Workload", "make_workloads"]


@dataclasses.dataclass(frozen=True)
class Scaled:
    """A frozen dataclass input: a tensor and a float (the guard benchmark's dataclass case)."""

    t: Any
    s: float


class Box:
    """A plain object whose attributes the mutation workload sets (replayed after the graph)."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.scale = 1.0
        self.history: list[Any] = []


@dataclasses.dataclass(frozen=True)
class Workload:
    """One function to benchmark, the inputs to call it with and the context to call it in."""

    name: str
    fn: Callable[..., Any]
    make_args: Callable[[], tuple[Any, ...]]
    description: str
    context: Callable[[], AbstractContextManager[Any]] | None = None
    """Entered around every call (eager, compiled and compiling alike); None means no context."""

    def call_context(self) -> AbstractContextManager[Any]:
        return self.context() if self.context is not None else contextlib.nullcontext()


def make_workloads(torch: ModuleType) -> list[Workload]:
    """Every workload for the torch-like module `torch`, in report order."""

    # --- the six guard-benchmark functions
    def add(x: Any, y: Any) -> Any:
        return x + y

    def sin_add(x: Any, y: Any) -> Any:
        return (x * 2).sin() + y

    def list_loop(xs: list[Any]) -> Any:
        total = xs[0]
        for t in xs:
            total = total + t * 2
        return total

    def dataclass_input(p: Scaled) -> Any:
        return p.t * p.s + 1

    def leaf(x: Any, y: Any) -> Any:
        return torch.relu(x - y)

    def middle(x: Any, y: Any) -> Any:
        return leaf(x, y) * 2 + leaf(y, x)

    def nested_calls(x: Any, y: Any) -> Any:
        return middle(x, y) + middle(y, x).cos()

    def dict_input(d: dict[str, Any]) -> Any:
        return d["a"] * d["b"] + d["c"]

    # --- a small MLP: one helper per layer and a loop
    def layer_in(x: Any, w: Any) -> Any:
        return torch.relu(torch.matmul(x, w))

    def layer_hidden(x: Any, w: Any) -> Any:
        return torch.tanh(x @ w + 1)

    def layer_out(x: Any, w: Any) -> Any:
        return torch.sigmoid(torch.matmul(x, w)).sum()

    def mlp(x: Any, weights: list[Any]) -> Any:
        h = layer_in(x, weights[0])
        for _ in range(3):
            h = h + layer_hidden(h, weights[1])
        return layer_out(h, weights[2])

    # --- a long function (well over 200 bytecode instructions)
    def long_function(x: Any, y: Any) -> Any:
        a = x + y
        b = a * 2
        c = b - x
        d = c * c
        e = d + a
        f = e.sin()
        g = f * 3 + b
        h = g.relu() - c
        powers = [x * (i + 1) for i in range(6)]
        shifted = [p + y for p in powers]
        table = {f"p{i}": p for i, p in enumerate(shifted)}
        table["a"] = a
        table["h"] = h
        total = table["a"]
        for key in ("p0", "p1", "p2", "p3", "p4", "p5"):
            total = total + table[key]
        for i in range(4):
            total = total * 0.5 + powers[i]
        pairs = {k: v for k, v in table.items() if k.startswith("p")}
        acc = h
        for k in sorted(pairs):
            acc = acc + pairs[k].cos()
        flags = [len(k) > 1 for k in table]
        scale = len([flag for flag in flags if flag])
        out = (acc + total) * scale
        out = out + torch.sigmoid(d) + torch.tanh(e)
        out = out - torch.abs(g) + torch.exp(f * 0.1)
        return out.sum() + len(table)

    # --- the mode stack: a counting mode active at call time, popped and pushed back inside
    class CountingMode(torch.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.calls = 0

        def __torch_function__(
            self,
            func: Any,
            types: Any,
            args: tuple[Any, ...] = (),
            kwargs: dict[str, Any] | None = None,
        ) -> Any:
            self.calls += 1
            return func(*args, **(kwargs or {}))

    def mode_stack(x: Any, y: Any) -> Any:
        a = torch.add(x, y)
        mode = torch._C._pop_torch_function_stack()
        b = torch.mul(a, 2)
        torch._C._push_on_torch_function_stack(mode)
        return torch.sin(b) + a

    # --- mutations: list and attribute mutations the compiled code replays
    def mutation_heavy(x: Any, out: list[Any], box: Box) -> Any:
        out.clear()
        for i in range(3):
            out.append(x * i)  # noqa: PERF401  (the mutation is what is measured)
        out[0] = out[1] + out[2]
        out.insert(0, x.sin())
        last = out.pop()
        out.extend([last, last + 1])
        box.value = out[0] + out[-1]
        box.scale = 2.0
        box.history = [t.relu() for t in out]
        return box.value * box.scale

    # --- one graph break: the prefix graph, the break run eagerly, a resume function's graph.
    # The break function comes in as a default argument, not a closure variable: a frame with
    # free variables does not resume yet (tracer/cache/resume.py), it would run eagerly whole.
    pause = torch._dynamo.graph_break if hasattr(torch, "_dynamo") else tracer.graph_break

    def graph_break(x: Any, y: Any, pause: Callable[[], None] = pause) -> Any:
        a = x * 2 + y
        b = a.sin()
        pause()
        c = b * a - x
        return c.cos() + y

    def vec(n: int = 8) -> Any:
        return torch.arange(n, dtype=torch.float32) * 0.25

    def mat(n: int = 8) -> Any:
        return torch.ones(n, n) * 0.1

    return [
        Workload("add", add, lambda: (vec(), vec()), "x + y"),
        Workload("sin_add", sin_add, lambda: (vec(), vec()), "(x * 2).sin() + y"),
        Workload("list_loop", list_loop, lambda: ([vec(), vec(), vec()],), "loop over 3 tensors"),
        Workload(
            "dataclass", dataclass_input, lambda: (Scaled(vec(), 1.5),), "frozen dataclass input"
        ),
        Workload("nested_calls", nested_calls, lambda: (vec(), vec()), "three levels of helpers"),
        Workload(
            "dict_input",
            dict_input,
            lambda: ({"a": vec(), "b": vec(), "c": vec()},),
            "dict of tensors",
        ),
        Workload("mlp", mlp, lambda: (mat(), [mat(), mat(), mat()]), "3-layer MLP, helper each"),
        Workload("long_function", long_function, lambda: (vec(), vec()), "200+ instructions"),
        Workload(
            "mode_stack",
            mode_stack,
            lambda: (vec(), vec()),
            "counting mode; pop and re-push",
            context=CountingMode,
        ),
        Workload(
            "mutation_heavy",
            mutation_heavy,
            lambda: (vec(), [vec() for _ in range(5)], Box(vec())),
            "list and attribute mutations",
        ),
        Workload("graph_break", graph_break, lambda: (vec(), vec()), "one graph break, resumes"),
    ]
