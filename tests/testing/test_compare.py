"""compare: exact floats and tensors, object attributes by name, slots, aliasing both ways."""

from __future__ import annotations

import dataclasses
import math

import pytest

from tracer.testing import Comparison, Mismatch, compare
from tracer.testing.values import tensor_of


@dataclasses.dataclass
class Node:
    items: list[object]


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a: object, b: object = None) -> None:
        self.a = a
        if b is not None:
            self.b = b


def path_of(expected: object, actual: object) -> str:
    with pytest.raises(Mismatch) as info:
        compare(expected, actual, "args[0]")
    return info.value.path


def test_attribute_paths_read_like_python():
    assert path_of(Node([1, 2, 3]), Node([1, 2, 4])) == "args[0].items[2]"


def test_slots_are_compared_by_name():
    assert path_of(Slotted(1), Slotted(2)) == "args[0].a"
    assert path_of(Slotted(1, 2), Slotted(1)) == "args[0]"
    compare(Slotted([1]), Slotted([1]), "x")


def test_floats_are_exact():
    compare(math.nan, math.nan, "x")
    assert path_of(0.0, -0.0) == "args[0]"
    assert path_of(1, 1.0) == "args[0]"


def test_tensors_compare_shape_dtype_and_values():
    a = tensor_of("float32[2]", [1.0, math.nan])
    compare(a, tensor_of("float32[2]", [1.0, math.nan]), "x")
    for other in ("float64[2]", "float32[1, 2]"):
        with pytest.raises(Mismatch, match="dtype|shape"):
            compare(a, tensor_of(other, [1.0, math.nan]), "x")
    with pytest.raises(Mismatch, match="element 0"):
        compare(a, tensor_of("float32[2]", [-1.0, math.nan]), "x")


def test_dict_keys_in_order():
    assert path_of({"a": 1, "b": 2}, {"b": 2, "a": 1}) == "args[0]"


def test_aliasing_is_checked_across_calls_of_one_comparison():
    shared = [1]
    comparison = Comparison({}, {})
    with pytest.raises(Mismatch, match="aliasing lost"):
        comparison.compare((shared, shared), ([1], [1]), "return")
    other = Comparison({}, {})
    copy = [1]
    other.compare(shared, copy, "return")
    with pytest.raises(
        Mismatch, match="aliasing added: compiled has the same object here and at return"
    ):
        other.compare([1], copy, "args[0]")


def test_origins_name_the_input_a_result_came_from():
    xs = [1]
    comparison = Comparison.of_roots({"args[0]": xs}, {"args[0]": [1]})
    with pytest.raises(Mismatch, match="eager's object is args\\[0\\], compiled's is a new"):
        comparison.compare(xs, [1], "return")


def test_dict_views_compare_by_the_dict_they_show():
    # dict_values has no __eq__ of its own (two views of one dict are unequal), so a function
    # returning `d.values()` failed against itself; keys() and items() compared as sets (order
    # not seen), and none of them said whose dict they show.
    d = {"a": 1, "b": 2}
    compare(d.values(), {"a": 1, "b": 2}.values(), "return")
    compare(d.keys(), {"a": 1, "b": 2}.keys(), "return")
    with pytest.raises(Mismatch, match=r"return\.mapping\['b'\]: 3, expected 2"):
        compare(d.values(), {"a": 1, "b": 3}.values(), "return")
    with pytest.raises(Mismatch, match=r"return\.mapping: keys \['b', 'a'\]"):
        compare(d.items(), {"b": 2, "a": 1}.items(), "return")
    comparison = Comparison.of_roots({"args[0]": d}, {"args[0]": dict(d)})
    with pytest.raises(Mismatch, match="eager's object is args\\[0\\], compiled's is a new"):
        comparison.compare(d.keys(), dict(d).keys(), "return")
