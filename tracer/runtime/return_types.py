"""`torch.return_types`: the named tuples ops with two results return (`max(x, dim)`...)."""

from __future__ import annotations

from typing import Any


class _ValuesIndices(tuple[Any, Any]):
    """A pair `(values, indices)` whose fields read by name too, printed as torch prints it."""

    __slots__ = ()
    # what torch's struct sequences say of themselves (`torch.return_types.max.n_fields`...)
    n_fields = 2
    n_sequence_fields = 2
    n_unnamed_fields = 0
    __match_args__ = ("values", "indices")
    _fields = ("values", "indices")

    @property
    def values(self) -> Any:
        return self[0]

    @property
    def indices(self) -> Any:
        return self[1]

    def __repr__(self) -> str:
        return (
            f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"
        )


class max(_ValuesIndices):
    __slots__ = ()


class min(_ValuesIndices):
    __slots__ = ()
