"""FakeTensorProp: run a graph on FakeTensors to learn every node's shape and dtype.

Each node's result lands in `node.meta["val"]`; codegen later reads it to resolve tensor
methods. Real tensors (inputs and constants) are converted with `FakeTensor.from_tensor`, so
no real computation happens. An op that would fail for real fails here with the same error,
which is how the tracer learns about it before running anything.
"""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tracer.graph.interpreter import Interpreter
from tracer.graph.node import Argument, Node, Target, map_aggregate


class FakeTensorProp(Interpreter):
    """`FakeTensorProp(graph).propagate(*args)` fills `meta["val"]` and returns the fake output.

    Runs with torch-function mode dispatch disabled: propagation must see the ops themselves,
    not whatever modes the user has pushed.
    """

    def propagate(self, *args: Any) -> Any:
        with torch._C.DisableTorchFunction():
            return self.run(*(self._fake(a) for a in args))

    def run_node(self, node: Node) -> Any:
        # A call without fake inputs (a factory like `ones(2)`) computes for real; its result
        # is stored fake like every other, so later nodes stay on the metadata-only path.
        result = map_aggregate(super().run_node(node), self._fake)
        node.meta["val"] = result
        return result

    def get_attr(self, target: Target, args: tuple[Argument, ...], kwargs: dict[str, Any]) -> Any:
        return self._fake(super().get_attr(target, args, kwargs))

    @staticmethod
    def _fake(value: Any) -> Any:
        if isinstance(value, torch.Tensor) and not isinstance(value, torch.FakeTensor):
            return torch.FakeTensor.from_tensor(value)
        return value
