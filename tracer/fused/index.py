"""Index expressions of generated loops: integer combinations of loop variables `x0, x1, ...`.

An `Ix` is `sum(coeff * var) + const`, plus nonlinear parts (`(x0 * 3 + x1) // 4 % 2`) that a
reshape of a non-contiguous view needs. Its text is canonical (terms sorted by variable), so
two accesses are the same element exactly when their texts are equal: the scheduler compares
a consumer's load with its producer's store this way.
"""

from __future__ import annotations

import dataclasses
import re

_VAR = re.compile(r"\bx(\d+)\b")


@dataclasses.dataclass(frozen=True)
class Ix:
    terms: tuple[tuple[int, int], ...] = ()
    """(loop position, coefficient), sorted by position, no zero coefficients."""
    const: int = 0
    raw: tuple[tuple[str, int], ...] = ()
    """Nonlinear parts as (text, coefficient)."""

    @staticmethod
    def var(position: int) -> Ix:
        return Ix(((position, 1),))

    @staticmethod
    def constant(value: int) -> Ix:
        return Ix((), value)

    def __add__(self, other: Ix) -> Ix:
        merged: dict[int, int] = dict(self.terms)
        for pos, coeff in other.terms:
            merged[pos] = merged.get(pos, 0) + coeff
        terms = tuple(sorted((p, c) for p, c in merged.items() if c))
        raw: dict[str, int] = dict(self.raw)
        for text, coeff in other.raw:
            raw[text] = raw.get(text, 0) + coeff
        return Ix(
            terms, self.const + other.const, tuple(sorted((t, c) for t, c in raw.items() if c))
        )

    def scale(self, k: int) -> Ix:
        if k == 0:
            return Ix()
        return Ix(
            tuple((p, c * k) for p, c in self.terms),
            self.const * k,
            tuple((t, c * k) for t, c in self.raw),
        )

    def floordiv_mod(self, div: int, mod: int | None) -> Ix:
        """`self // div % mod` (either part left out when it is the identity)."""
        if div == 1 and mod is None:
            return self
        text = self.text()
        if div != 1:
            text = f"({text}) // {div}"
        if mod is not None:
            text = f"({text}) % {mod}"
        return Ix(raw=((text, 1),))

    def positions(self) -> set[int]:
        found = {p for p, _ in self.terms}
        for text, _ in self.raw:
            found.update(int(m) for m in _VAR.findall(text))
        return found

    def coefficient(self, position: int) -> int:
        return dict(self.terms).get(position, 0)

    def without(self, positions: set[int]) -> Ix:
        """The linear terms of other positions (callers check `raw` is free of these)."""
        return Ix(tuple((p, c) for p, c in self.terms if p not in positions), self.const, self.raw)

    def text(self) -> str:
        parts = [f"x{p}" if c == 1 else f"x{p} * {c}" for p, c in self.terms]
        parts += [t if c == 1 else f"{t} * {c}" for t, c in self.raw]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)


def linear(index: list[Ix], strides: list[int], offset: int = 0) -> Ix:
    """The storage position of element `index` of a view with these strides."""
    result = Ix.constant(offset)
    for ix, stride in zip(index, strides, strict=True):
        result = result + ix.scale(stride)
    return result


def contiguous_strides(shape: tuple[int, ...]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides
