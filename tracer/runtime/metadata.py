"""`Size` and `device`: the value types that Tensor's metadata accessors return."""

from __future__ import annotations

import math


class Size(tuple[int, ...]):
    """A tensor's shape: a tuple of ints that prints like torch's.

    >>> Size([2, 3])
    torch.Size([2, 3])
    """

    def numel(self) -> int:
        return math.prod(self)

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(map(str, self))}])"


class device:
    """Where a tensor lives; modetrace only has the CPU.

    >>> device("cpu")
    device(type='cpu')
    """

    __slots__ = ("type",)

    def __init__(self, type: str = "cpu") -> None:
        if type != "cpu":
            raise RuntimeError(f"modetrace only supports the cpu device, got {type!r}")
        self.type = type

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.type
        return isinstance(other, device) and other.type == self.type

    def __hash__(self) -> int:
        return hash(self.type)

    def __str__(self) -> str:
        return self.type

    def __repr__(self) -> str:
        return f"device(type={self.type!r})"


CPU = device()
