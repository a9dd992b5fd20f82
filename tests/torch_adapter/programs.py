"""Real-torch programs for the adapter's tests: the gallery's samples (samples/) written again
with real torch, and mode programs (a counting mode, nested modes, a mode popped and pushed by
hand, `_pop_mode_temporarily`), each with a maker of fresh inputs. `programs(torch)` builds them
with the torch module it is given, so this file imports without torch."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass
class Program:
    name: str
    fn: Callable[..., Any]
    inputs: Callable[[], tuple[Any, ...]]
    active_mode: Callable[[], Any] | None = None
    """A mode entered around the call (the mode stack at call time)."""


def programs(torch: Any) -> list[Program]:
    F = torch.nn.functional

    # -- the gallery's samples/basics.py ------------------------------------------------------
    def mlp(x: Any, w1: Any, w2: Any) -> Any:
        h = (x @ w1).relu()
        return (h @ w2).sigmoid().sum(dim=1)

    def shape_branch(x: Any) -> Any:
        if x.shape[0] > 2:
            return x.sum() / x.shape[0]
        return x * 2

    class Affine:
        def __init__(self, scale: float, shift: float) -> None:
            self.scale = scale
            self.shift = shift

        def __call__(self, x: Any) -> Any:
            return self.apply(x).tanh()

        def apply(self, x: Any) -> Any:
            return x * self.scale + self.shift

    def user_class(layer: Affine, x: Any) -> Any:
        return layer(x) + layer.apply(x)

    def make_scaled_sin(scale: float) -> Any:
        bias = torch.ones(3)

        def scaled_sin(x: Any) -> Any:
            return torch.sin(x) * scale + bias

        return scaled_sin

    def loop_sum(xs: list[Any]) -> Any:
        total = torch.zeros(2)
        for i, x in enumerate(xs):
            total = total + x * (i + 1)
        return total

    def dict_input(d: dict[str, Any]) -> Any:
        return {key: value.exp() for key, value in d.items()}

    # -- samples/breaks.py ----------------------------------------------------------------------
    def prints(x: Any) -> Any:
        y = x * 2
        print("  (the program printed this)", y.shape)
        return y + 1

    def data_dependent(x: Any) -> Any:
        if x.sum() > 0:
            return x + 1
        return x - 1

    def dtype_recompile(x: Any) -> Any:
        return (x * 2).exp()

    def guarded_scale(x: Any, n: int) -> Any:
        return x.sum(dim=0) * n

    # -- samples/modes.py, and more modes ---------------------------------------------------------
    class LoggingMode(torch.overrides.TorchFunctionMode):
        """Notes the name of every op it is handed in its log."""

        def __init__(self, log: list[str] | None = None) -> None:
            super().__init__()
            self.log = [] if log is None else log

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.log.append(func.__name__)
            return func(*args, **(kwargs or {}))

    class CountingMode(torch.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.count += 1
            return func(*args, **(kwargs or {}))

    class DoublingMode(torch.overrides.TorchFunctionMode):
        """Answers `torch.sin` with twice the sine; every other op runs as it is."""

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            result = func(*args, **(kwargs or {}))
            return result * 2 if func is torch.sin else result

    def mode_inside(x: Any, log: list[str]) -> Any:
        with LoggingMode(log):
            y = torch.sin(x) + 1
        return y * 2, list(log)

    def mode_at_call(x: Any) -> Any:
        return torch.relu(x - 1) * 3

    def pop_and_push(x: Any) -> Any:
        mode = torch._C._pop_torch_function_stack()
        hidden = x + 1  # the mode is off the stack here
        torch._C._push_on_torch_function_stack(mode)
        return hidden * 2

    def counting(x: Any, mode: Any) -> Any:
        with mode:
            y = x.sin() + 1
            z = torch.cos(y) * y
        return z, mode.count

    def nested(x: Any, outer: Any) -> Any:
        with outer, DoublingMode():
            y = torch.sin(x) + x
        return y, outer.count

    def popped_temporarily(x: Any) -> Any:
        with torch.overrides._pop_mode_temporarily() as mode:
            y = x + 1  # no mode sees this
        return y * 2, type(mode).__name__

    def stack_depth(x: Any) -> Any:
        with LoggingMode():
            depth = torch._C._len_torch_function_stack()
        return x * depth, torch._C._len_torch_function_stack()

    # -- torch functions, methods and operators ----------------------------------------------------
    def functional(x: Any, w: Any, b: Any) -> Any:
        return F.softmax(F.linear(x, w, b).relu(), dim=-1)

    def views(x: Any) -> Any:
        y = x.t().contiguous().view(-1)
        return y[1:4], x.T.shape, x.reshape(3, 2).sum(0)

    def where_compare(x: Any) -> Any:
        return torch.where(x > 0, x, -x) + (x == 0).float(), 2 - x

    def cat_stack(xs: list[Any]) -> Any:
        return torch.cat(xs), torch.stack(xs, dim=1).mean(dim=1)

    def in_place(x: Any) -> Any:
        x.mul_(2)
        return x.add_(1)

    def assignment(x: Any, v: Any) -> Any:
        y = x.clone()
        y[0] = 5.0  # into a new tensor
        x[:, 1] = v  # into the input, from a tensor
        x[x < 0] = 0.0  # through a mask
        row = x[1]
        row[0] = -1.0  # through a view of the input
        return y, x.sum()

    def metadata(x: Any) -> Any:
        return x.dtype, x.device, x.size(0), x.dim(), x.numel(), x.requires_grad

    def shape_only(x: Any) -> Any:
        # nothing the graph computes is needed afterwards, only metadata: the graph still
        # runs, as Dynamo's does (it calls something)
        return torch.cat([x, x * 2]).shape, x.view(x.size(0), -1).size()

    ones3 = lambda: (torch.arange(3.0),)  # noqa: E731
    return [
        Program("small MLP", mlp, lambda: (torch.ones(2, 3), torch.ones(3, 4) * 0.5,
                                           torch.ones(4, 2) * -0.25)),
        Program("control flow on shapes", shape_branch, lambda: (torch.arange(4.0),)),
        Program("user class", user_class, lambda: (Affine(2.0, -1.0), torch.arange(3.0))),
        Program("closure", make_scaled_sin(0.5), ones3),
        Program("loop over a list", loop_sum,
                lambda: ([torch.ones(2), torch.arange(2.0), torch.full((2,), 3.0)],)),
        Program("dict of tensors", dict_input,
                lambda: ({"a": torch.ones(2), "b": torch.arange(2.0)},)),
        Program("graph break on print", prints, ones3),
        Program("data-dependent branch", data_dependent, ones3),
        Program("dtype", dtype_recompile, ones3),
        Program("int argument", guarded_scale, lambda: (torch.ones(2, 3), 3)),
        Program("mode entered inside", mode_inside, lambda: (torch.arange(3.0), [])),
        Program("mode active at call", mode_at_call, ones3, active_mode=LoggingMode),
        Program("mode stack by hand", pop_and_push, ones3, active_mode=CountingMode),
        Program("counting mode", counting, lambda: (torch.arange(3.0), CountingMode())),
        Program("nested modes", nested, lambda: (torch.arange(3.0), CountingMode())),
        Program("_pop_mode_temporarily", popped_temporarily, ones3, active_mode=CountingMode),
        Program("mode stack depth", stack_depth, ones3),
        Program("functional", functional,
                lambda: (torch.ones(2, 3), torch.full((4, 3), 0.1), torch.arange(4.0))),
        Program("views", views, lambda: (torch.arange(6.0).reshape(2, 3),)),
        Program("where and compare", where_compare, lambda: (torch.arange(-2.0, 3.0),)),
        Program("cat and stack", cat_stack, lambda: ([torch.ones(2), torch.arange(2.0)],)),
        Program("in-place ops", in_place, ones3),
        Program("assignment into tensors", assignment,
                lambda: (torch.arange(-3.0, 3.0).reshape(2, 3), torch.tensor([7.0, -8.0]))),
        Program("metadata reads", metadata, lambda: (torch.ones(2, 3),)),
        Program("only the shape of a result", shape_only, lambda: (torch.ones(2, 3),)),
    ]  # fmt: skip
