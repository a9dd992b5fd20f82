"""The builder skips SpecialFunctions' tables for a value outside SPECIAL_FUNCTION_MODULES: that
set must name the module of every function the tables model, or one would be wrapped as a
plain function (run or inlined) instead of being modeled."""

import dataclasses
import types

import tracer
import tracer.runtime as torch
from variables.builder import SPECIAL_FUNCTION_MODULES, SpecialFunctions, wrap_constant_result
from variables.structured import DataclassFunctionVariable


def test_every_special_function_is_a_plain_function_of_a_listed_module() -> None:
    special = SpecialFunctions()
    functions = [
        special.breakpoint,
        *special.dataclass_functions.values(),
        *(fn for fn, _kind in special.mode_functions.values()),
    ]
    for fn in functions:
        assert type(fn) is types.FunctionType, fn
        assert fn.__module__ in SPECIAL_FUNCTION_MODULES, fn


def test_a_special_function_without_a_source_is_still_modeled() -> None:
    assert isinstance(wrap_constant_result(dataclasses.fields), DataclassFunctionVariable)


def test_mode_stack_functions_are_still_modeled_in_a_trace() -> None:
    def depth(x: object) -> object:
        return x + torch._C._len_torch_function_stack()

    tracer.reset()
    assert tracer.compile(depth)(torch.ones(1)).tolist() == [1.0]
