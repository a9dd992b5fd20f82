"""The four dtypes of modetrace and torch's promotion lattice over them.

Categories order bool < integral < floating. Within a category the wider dtype wins; across
categories the higher category wins. `result_type` (in `meta`) adds torch's priority groups on
top of `promote_types`; this module only knows dtypes and Python scalars, never tensors.
"""

from __future__ import annotations

from typing import Final

BOOL: Final = 0
INTEGRAL: Final = 1
FLOATING: Final = 2

Scalar = bool | int | float


class dtype:
    """A scalar type. Instances are singletons, so `is` and `==` agree and copies return self.

    >>> float32, float32.is_floating_point, float32.itemsize
    (torch.float32, True, 4)
    """

    __slots__ = ("category", "is_floating_point", "itemsize", "name", "short_name")

    def __init__(self, name: str, category: int, itemsize: int, short_name: str) -> None:
        self.name = name
        self.category = category
        self.itemsize = itemsize
        self.is_floating_point = category == FLOATING
        # The name torch's C++ messages use ("Got: Long").
        self.short_name = short_name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (_by_name, (self.name,))

    def __copy__(self) -> dtype:
        return self

    def __deepcopy__(self, memo: object) -> dtype:
        return self


float32: Final = dtype("float32", FLOATING, 4, "Float")
float64: Final = dtype("float64", FLOATING, 8, "Double")
int64: Final = dtype("int64", INTEGRAL, 8, "Long")
bool_: Final = dtype("bool", BOOL, 1, "Bool")

ALL_DTYPES: Final = (float32, float64, int64, bool_)
_BY_NAME: Final = {d.name: d for d in ALL_DTYPES}

# The dtype a Python scalar takes when it decides a result ("wrapped number" defaults).
_SCALAR_DTYPE: Final[dict[type, dtype]] = {bool: bool_, int: int64, float: float32}
# The dtype a category takes when a Python scalar of that category decides the result.
DEFAULT_OF_CATEGORY: Final = {BOOL: bool_, INTEGRAL: int64, FLOATING: float32}


def _by_name(name: str) -> dtype:
    return _BY_NAME[name]


def scalar_dtype(value: object) -> dtype:
    """The dtype torch gives a Python scalar operand: bool, int64 or the default float32."""
    found = _SCALAR_DTYPE.get(type(value))
    if found is not None:
        return found
    for kind, dt in _SCALAR_DTYPE.items():  # subclasses of int/float (bool is checked first)
        if isinstance(value, kind):
            return dt
    raise TypeError(f"expected a Tensor or a Python number, but got {type(value).__name__}")


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """torch.promote_types: the smallest dtype both can be converted to without losing category."""
    if type1 is type2:
        return type1
    if type1.category != type2.category:
        return type1 if type1.category > type2.category else type2
    return type1 if type1.itemsize >= type2.itemsize else type2


def combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """Merge a higher-priority group's dtype with a lower one's: lower only wins on category."""
    if higher is None:
        return lower
    if lower is None or higher.category >= lower.category:
        return higher
    return lower


def promote_all(dtypes: list[dtype]) -> dtype | None:
    result: dtype | None = None
    for dt in dtypes:
        result = dt if result is None else promote_types(result, dt)
    return result
