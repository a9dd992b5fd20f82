"""Guards: Sources say where a value came from, Guards what was assumed about it,
CompiledGuards turns a cache entry's guards into one straight-line check function, and
DispatchTable picks the entries whose checks a call runs."""

from guards.builder import GuardBuilder, build_check, build_check_source, has_instance_attr
from guards.constants import constant_key, constants_equal, is_constant
from guards.dispatch import DispatchTable
from guards.guard import FunctionSpec, Guard, GuardKind, TensorSpec
from guards.manager import CompiledGuards
from guards.mode_stack import mode_stack_failure, mode_stack_guard
from guards.sources import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    DefaultsSource,
    GlobalsDictSource,
    GlobalSource,
    ItemSource,
    LocalSource,
    ModeStackListSource,
    ModeStackSource,
    Source,
    TypeSource,
)
from guards.tree import GuardPlanError, format_tree, plan_guards

__all__ = [
    "AttrSource",
    "BuiltinSource",
    "ClosureSource",
    "CompiledGuards",
    "DefaultsSource",
    "DispatchTable",
    "FunctionSpec",
    "GlobalSource",
    "GlobalsDictSource",
    "Guard",
    "GuardBuilder",
    "GuardKind",
    "GuardPlanError",
    "ItemSource",
    "LocalSource",
    "ModeStackListSource",
    "ModeStackSource",
    "Source",
    "TensorSpec",
    "TypeSource",
    "build_check",
    "build_check_source",
    "constant_key",
    "constants_equal",
    "format_tree",
    "has_instance_attr",
    "is_constant",
    "mode_stack_failure",
    "mode_stack_guard",
    "plan_guards",
]
