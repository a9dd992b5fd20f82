"""modetrace and torch._dynamo on the same function and inputs, side by side.

`compare(fn)(*args)` runs the function four times, each on its own deep copy of the arguments:
eagerly, through `tracer.explain` (modetrace on real torch), through `torch._dynamo.explain`,
and through `torch.compile(backend="eager")` (Dynamo's result). A `Comparison` holds what both
decided (graph count, ops per graph by target name, break reasons, guards by kind and source),
whether the results agree with eager torch, and the torch-function mode stack after each run.
`str(comparison)` is the two explains next to each other; `python -m tracer compare` prints it.
"""

from __future__ import annotations

import copy
import dataclasses
import types
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch._dynamo

from tracer.cache.targets import function_of
from tracer.exc import InternalError, UserError
from tracer.explain import explain as modetrace_explain
from tracer.graph.resolve import OPERATOR_DUNDERS
from tracer.torch_adapter.frame_hook import restoring_frame_evaluation
from tracer.torch_adapter.world import _probe, live_mode_stack

_CALLS = ("call_function", "call_method")
WIDTH = 44
"""Characters of one column."""


@dataclasses.dataclass
class Side:
    """What one tracer decided about the call, in comparable terms."""

    name: str
    graph_count: int
    ops_per_graph: list[list[str]]
    break_reasons: list[str]
    guards: list[str]
    """`KIND source` per guard, sorted, duplicates dropped (Dynamo repeats its global ones
    per graph)."""
    result: Any = None
    mode_stack_after: list[str] = dataclasses.field(default_factory=list)
    grad_enabled_after: bool | None = None
    """Grad mode after the run (each run starts in the mode of the call)."""


@dataclasses.dataclass
class Comparison:
    function: str
    eager: Any
    modetrace: Side
    dynamo: Side
    eager_mode_stack: list[str]
    eager_grad_enabled_after: bool | None = None

    @property
    def same_graphs(self) -> bool:
        """Same graph count and the same ops, by target name, in each graph."""
        m, d = self.modetrace, self.dynamo
        return m.graph_count == d.graph_count and m.ops_per_graph == d.ops_per_graph

    @property
    def modetrace_agrees(self) -> bool:
        """modetrace's result (or exception, by type and message) is eager torch's."""
        return same_result(self.eager, self.modetrace.result)

    @property
    def dynamo_agrees(self) -> bool:
        return same_result(self.eager, self.dynamo.result)

    @property
    def results_agree(self) -> bool:
        return self.modetrace_agrees and self.dynamo_agrees

    @property
    def grad_modes_agree(self) -> bool:
        """Each run left grad mode as eager did (`torch.set_grad_enabled(False)` outside a
        `with` leaves it changed)."""
        return (
            self.eager_grad_enabled_after
            == self.modetrace.grad_enabled_after
            == self.dynamo.grad_enabled_after
        )

    @property
    def mode_stacks_agree(self) -> bool:
        return (
            self.eager_mode_stack
            == self.modetrace.mode_stack_after
            == (self.dynamo.mode_stack_after)
        )

    def __str__(self) -> str:
        m, d = self.modetrace, self.dynamo
        title = f"== compare {self.function} "
        lines = [title + "=" * max(0, 2 * WIDTH + 16 - len(title))]
        lines.append(_row("", "modetrace", "dynamo"))
        lines.append(_row("graphs", str(m.graph_count), str(d.graph_count)))
        for i in range(max(len(m.ops_per_graph), len(d.ops_per_graph))):
            mine = m.ops_per_graph[i] if i < len(m.ops_per_graph) else []
            theirs = d.ops_per_graph[i] if i < len(d.ops_per_graph) else []
            lines.append(_row(f"ops, graph {i + 1}", ", ".join(mine), ", ".join(theirs)))
        for i in range(max(len(m.break_reasons), len(d.break_reasons))):
            # reasons are sentences: in full, one line each, rather than cut to a column
            lines.append(f"break {i + 1}")
            for side in (m, d):
                reason = side.break_reasons[i] if i < len(side.break_reasons) else "-"
                lines.append(f"  {side.name:<11}{reason}")
        for i in range(max(len(m.guards), len(d.guards))):
            label = "guards" if i == 0 else ""
            mine_g = m.guards[i] if i < len(m.guards) else ""
            theirs_g = d.guards[i] if i < len(d.guards) else ""
            lines.append(_row(label, mine_g, theirs_g))
        stacks = [", ".join(s) or "empty" for s in (m.mode_stack_after, d.mode_stack_after)]
        lines.append(_row("mode stack after", *stacks))
        lines.append(f"same graphs: {_yes(self.same_graphs)}")
        lines.append(_row("result", repr(m.result), repr(d.result)))
        # the eager value on one line, as long as the two columns above (a tensor's repr runs
        # to thousands of characters)
        lines.append(f"eager result: {_cell(repr(self.eager), 2 * WIDTH + 5)}")
        lines.append(
            f"results agree with eager: {_yes(self.results_agree)} (modetrace "
            f"{_yes(self.modetrace_agrees)}, dynamo {_yes(self.dynamo_agrees)})"
        )
        lines.append(f"mode stack as after eager: {_yes(self.mode_stacks_agree)}")
        if not self.grad_modes_agree:
            lines.append(
                f"grad mode after: eager {self.eager_grad_enabled_after}, modetrace "
                f"{m.grad_enabled_after}, dynamo {d.grad_enabled_after}"
            )
        return "\n".join(lines)


def _yes(flag: bool) -> str:
    return "yes" if flag else "NO"


def _row(label: str, left: str, right: str) -> str:
    """One line per row; a cell longer than its column is cut with an ellipsis."""
    return f"{label:<17}{_cell(left):<{WIDTH}}  {_cell(right)}"


def _cell(text: str, width: int = WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


Fresh = Callable[[], tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]
"""A deep copy of (the function or module, its arguments, its keyword arguments) per run."""


def compare(fn: Callable[..., Any], **options: Any) -> Callable[..., Comparison]:
    """`compare(fn)(*args, **kwargs)`: see the module docstring. `fn` is what `tracer.compile`
    takes: a Python function, a bound method, an `nn.Module` (`tracer.compile(model)` against
    `torch.compile(model)`) or an object whose class defines `__call__` in Python; each run
    gets its own copy of the module, object or method's object. `options` go to modetrace."""
    try:
        function_of(fn)
    except UserError as e:
        raise TypeError(f"compare expects {str(e).partition(' expects ')[2]}") from None
    name = getattr(fn, "__qualname__", None) or type(fn).__qualname__
    copied = type(fn) is not types.FunctionType

    def run(*args: Any, **kwargs: Any) -> Comparison:
        def fresh() -> tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]:
            try:
                a, k = copy.deepcopy((args, kwargs))
                return (copy.deepcopy(fn) if copied else fn), a, k
            except Exception:  # noqa: BLE001 - not copyable: every run gets the originals
                return fn, args, kwargs

        grad_at_call = torch.is_grad_enabled()
        # every run draws the same random numbers (dropout, randn_like): each starts from the
        # generator's state at the call, which is left as the eager run left it
        at_call = torch.random.get_rng_state()
        f, a, k = fresh()
        eager = _outcome(lambda: f(*a, **k))
        after_eager = torch.random.get_rng_state()
        eager_stack = _stack_text()
        eager_grad = _grad_mode_then(grad_at_call)
        torch.random.set_rng_state(at_call)
        mine = _modetrace_side(fresh, options)
        mine.grad_enabled_after = _grad_mode_then(grad_at_call)
        theirs = _dynamo_side(fresh, grad_at_call, at_call)
        torch.random.set_rng_state(after_eager)
        return Comparison(name, eager, mine, theirs, eager_stack, eager_grad)

    return run


def _grad_mode_then(mode: bool) -> bool:
    """Grad mode now; then set to `mode` (the mode of the call) for the next run."""
    now = torch.is_grad_enabled()
    torch.set_grad_enabled(mode)
    return now


def _modetrace_side(fresh: Fresh, options: dict[str, Any]) -> Side:
    f, a, k = fresh()
    try:
        explanation = modetrace_explain(f, **options)(*a, **k)
    except InternalError:
        raise
    except Exception as e:  # noqa: BLE001 - the function raised: the result is the error
        return Side("modetrace", 0, [], [], [], _Raised(e), _stack_text())
    stack = _stack_text()
    guards = sorted(
        {
            f"{guard.kind.name} {guard.source.name}"
            for entry in explanation.entries
            for guard in entry.guard_manager.guards
        }
    )
    return Side(
        "modetrace",
        explanation.graph_count,
        [
            [op_name(node.target) for node in gm.graph.nodes if node.op in _CALLS]
            for gm in explanation.graphs
        ],
        [str(reason) for reason in explanation.break_reasons],
        guards,
        explanation.result,
        stack,
    )


def _dynamo_side(fresh: Fresh, grad_at_call: bool, rng_at_call: Any) -> Side:
    torch._dynamo.reset()
    f, a, k = fresh()
    try:
        with restoring_frame_evaluation():  # Dynamo's hook, if a raise left it installed
            out = torch._dynamo.explain(f)(*a, **k)
    except Exception as e:  # noqa: BLE001 - Dynamo raised (its own error, or the function's)
        out = None
        failure = f"dynamo's explain raised {type(e).__name__}: {_first_line(str(e))}"
    _grad_mode_then(grad_at_call)
    torch._dynamo.reset()
    f, a, k = fresh()
    compiled = torch.compile(f, backend="eager")
    torch.random.set_rng_state(rng_at_call)  # (explain's run drew some)
    with restoring_frame_evaluation():
        result = _outcome(lambda: compiled(*a, **k))
    stack = _stack_text()
    grad_after = _grad_mode_then(grad_at_call)
    torch._dynamo.reset()
    if out is None:
        return Side("dynamo", 0, [], [failure], [], result, stack, grad_after)
    guards = sorted({_dynamo_guard(g) for g in out.out_guards or []})
    reasons = []
    for r in out.break_reasons:
        where = r.user_stack[-1] if r.user_stack else None
        first = _first_line(r.reason)
        place = f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}: " if where else ""
        reasons.append(place + first)
    # (Dynamo's own `ops_per_graph` lists call_function nodes only; modetrace's counts method
    # calls too, so both sides are read from the graphs themselves)
    ops = [
        [op_name(node.target) for node in gm.graph.nodes if node.op in _CALLS] for gm in out.graphs
    ]
    return Side("dynamo", out.graph_count, ops, reasons, guards, result, stack, grad_after)


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


def _dynamo_guard(guard: Any) -> str:
    fn = guard.create_fn
    while hasattr(fn, "func"):  # functools.partial(GuardBuilder.TENSOR_MATCH, ...)
        fn = fn.func
    kind = getattr(fn, "__name__", str(fn))
    return f"{kind} {guard.name}".strip()


def op_name(target: Any) -> str:
    """A graph target by the name of the op it computes, so the two graphs compare by name:
    `torch.add`, `Tensor.add` and the method name "add" read `add`; an `operator` function
    (Dynamo records `x / y` as `operator.truediv`) and a reflected dunder (modetrace records
    `2 - x` as `Tensor.__rsub__`, the function torch hands a mode) read as the Tensor op the
    operator reaches (`div`, `sub`); a property getter (`Tensor.T.__get__`) reads `getattr`,
    as Dynamo records the read."""
    name = target if isinstance(target, str) else getattr(target, "__name__", str(target))
    dunder = _DUNDER_OF.get(id(target)) or _FORWARD_OF.get(name)
    if dunder is not None:
        method = getattr(torch.Tensor, dunder, None)
        reached = _probe().get(id(method))
        if reached is not None:
            name = reached.__name__
        else:
            name = dunder
    elif name == "__get__":
        name = "getattr"
    return name.rsplit(".", 1)[-1].strip("_")


_DUNDER_OF = {id(fn): names[0] for fn, names in OPERATOR_DUNDERS.items()}
"""id(operator function) -> the Tensor dunder it calls first (`operator.add` -> `__add__`)."""
_FORWARD_OF = {
    names[1]: names[0]
    for names in OPERATOR_DUNDERS.values()
    if names[1] is not None and names[1].startswith("__r")
}
"""A reflected dunder -> its forward one (`__rsub__` -> `__sub__`)."""


@dataclasses.dataclass
class _Raised:
    """A run that raised: compared by exception type and message."""

    error: BaseException

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Raised)
            and type(self.error) is type(other.error)
            and str(self.error) == str(other.error)
        )

    def __repr__(self) -> str:
        return f"raised {type(self.error).__name__}: {self.error}"


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as e:  # noqa: BLE001
        return _Raised(e)


def _stack_text() -> list[str]:
    return [type(mode).__qualname__ for mode in live_mode_stack()]


def same_result(a: Any, b: Any) -> bool:
    """Equal results: tensors of one dtype and shape, both requiring grad (and having a
    `grad_fn`) or neither, exactly equal, or within 1e-6 for floating point; containers item
    by item; anything else by `==`. Told by their types: `isinstance` would ask a result's
    `__class__`, which a user's object answers with code of its own (`Mock(spec=Tensor)`)."""
    a_tensor, b_tensor = issubclass(type(a), torch.Tensor), issubclass(type(b), torch.Tensor)
    if a_tensor or b_tensor:
        if not (a_tensor and b_tensor):
            return False
        if a.dtype != b.dtype or a.shape != b.shape or a.requires_grad != b.requires_grad:
            return False
        if (a.grad_fn is None) != (b.grad_fn is None):
            return False
        if a.is_floating_point():
            return bool(torch.allclose(a, b, rtol=1e-6, atol=1e-6, equal_nan=True))
        return bool(torch.equal(a, b))
    if issubclass(type(a), list | tuple) and issubclass(type(b), list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(same_result, a, b))
    if issubclass(type(a), dict) and issubclass(type(b), dict):
        return a.keys() == b.keys() and all(same_result(a[x], b[x]) for x in a)
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return a is b


def real_torch() -> types.ModuleType:
    """The torch module (the CLI binds it as `torch` in `--args`)."""
    return torch


__all__: Sequence[str] = ("Comparison", "Side", "compare", "op_name", "same_result")
