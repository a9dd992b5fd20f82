"""An object of a module subclass (`torch.backends` is a `GenericModule`) reads its attributes
as any object does, since `module.__getattribute__` is `object`'s generic read until a name is
missing. Then the module's own `__getattr__` (PEP 562, in the object's dict) is asked before the
class's: with none there (guarded to stay so), the class's is traced (`torch._VF.gru_cell`,
through `VFModule.__getattr__`); with one there, or none on the class, the frame breaks. Each
case against plain Python, compiled twice."""

from __future__ import annotations

import types
from typing import Any

import tracer
import tracer.runtime as torch


class Settings(types.ModuleType):
    """A module subclass with a property and a class-level `__getattr__`."""

    @property
    def doubled(self) -> int:
        return self.base * 2

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return f"fallback {name}"


def make_settings() -> Any:
    settings = Settings("settings")
    settings.base = 3  # type: ignore[attr-defined]
    settings.sub = types.ModuleType("settings.sub")  # type: ignore[attr-defined]
    settings.sub.scale = 0.5  # type: ignore[attr-defined]
    return settings


def reads(settings: Any, x: Any) -> Any:
    return x * settings.base + settings.sub.scale, settings.doubled, settings.__name__


def missing(settings: Any, x: Any) -> Any:
    return x + 1, settings.not_there


def missing_with_module_getattr(settings: Any, x: Any) -> Any:
    return x + 1, settings.other


def outcome(fn: Any, settings: Any, x: Any) -> tuple[str, Any]:
    """What a call gives, comparable (a module can't be deep-copied, so each call gets its own
    object from `make_settings` rather than a copy): its value or its error."""
    try:
        value = fn(settings, x)
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        return "raised", (type(e), str(e))
    return "returned", [v.tolist() if isinstance(v, torch.Tensor) else v for v in value]


def same_outcomes(fn: Any, make: Any = make_settings, fullgraph: bool = False) -> None:
    compiled = tracer.compile(fn, fullgraph=fullgraph)
    eager = outcome(fn, make(), torch.ones(2))
    for _ in range(2):
        assert outcome(compiled, make(), torch.ones(2)) == eager


def test_attributes_of_a_module_subclass_object_are_read_as_an_objects() -> None:
    same_outcomes(reads, fullgraph=True)


def with_module_getattr() -> Any:
    settings = make_settings()
    settings.__getattr__ = lambda name: f"module's {name}"  # type: ignore[attr-defined]
    return settings


def test_a_missing_attribute_asks_the_classes_getattr() -> None:
    same_outcomes(missing, fullgraph=True)
    same_outcomes(missing_with_module_getattr, with_module_getattr)
    explanation = tracer.explain(missing)(with_module_getattr(), torch.ones(2))
    assert "missing attribute not_there" in str(explanation.break_reasons[0])


def test_a_module_getattr_set_after_the_compile_is_seen() -> None:
    settings = make_settings()
    compiled = tracer.compile(missing)
    assert outcome(compiled, settings, torch.ones(2))[1][1] == "fallback not_there"
    settings.__getattr__ = lambda name: f"module's {name}"  # type: ignore[attr-defined]
    assert outcome(compiled, settings, torch.ones(2)) == outcome(missing, settings, torch.ones(2))
    assert outcome(missing, settings, torch.ones(2))[1][1] == "module's not_there"


def test_a_missing_attribute_without_a_class_getattr_runs_as_eagerly() -> None:
    def make_plain() -> Any:
        plain = types.ModuleType("plain")
        plain.base = 1  # type: ignore[attr-defined]
        return plain

    class Bare(types.ModuleType):
        pass

    same_outcomes(missing, make_plain)
    same_outcomes(missing, lambda: Bare("bare"))


def test_an_attribute_set_after_the_compile_is_seen() -> None:
    settings = make_settings()
    compiled = tracer.compile(reads)
    compiled(settings, torch.ones(2))
    settings.base = 5
    assert outcome(compiled, settings, torch.ones(2)) == outcome(reads, settings, torch.ones(2))


def test_a_getattribute_set_later_on_the_class_is_seen() -> None:
    """The TYPE_MATCH of a class whose objects read attributes generically also tests that it
    still finds the generic read: `module`'s for a module subclass (guards.guard,
    `generic_getattribute`). Without that test, the entry would still pass: `doubled` was
    read through the class's property, whose getter is what is guarded."""

    class Own(Settings):
        pass

    sub = types.ModuleType("own.sub")  # one for every object: its ID_MATCH holds
    sub.scale = 0.5  # type: ignore[attr-defined]

    def make() -> Any:
        own = Own("own")
        own.base = 3
        own.sub = sub
        return own

    compiled = tracer.compile(reads)
    for _ in range(2):  # a compile, then a hit
        assert outcome(compiled, make(), torch.ones(2)) == outcome(reads, make(), torch.ones(2))
    assert len(compiled.entries) == 1

    def answers_seven(self: Any, name: str) -> Any:
        return 7 if name == "doubled" else types.ModuleType.__getattribute__(self, name)

    # `doubled` was read through the class's property (guarded there, not by its value)
    Own.__getattribute__ = answers_seven  # type: ignore[method-assign,assignment]
    assert outcome(compiled, make(), torch.ones(2)) == outcome(reads, make(), torch.ones(2))
    assert outcome(reads, make(), torch.ones(2))[1][1] == 7


def uninitialized_module() -> Any:
    m = types.ModuleType.__new__(types.ModuleType)
    str(m)
    names = [hasattr(m, "__name__"), hasattr(m, "foo")]
    m.foo = 1  # type: ignore[attr-defined]
    return names, m.__dict__


def test_a_module_made_without_its_init() -> None:
    """`ModuleType.__new__(ModuleType)` has no `__name__` (CPython's test_descr
    `test_uninitialized_modules`): describing its tracker, for the break at `m.foo = 1`, read
    the name and raised AttributeError inside the tracer."""
    compiled = tracer.compile(uninitialized_module)
    for _ in range(2):
        assert compiled() == uninitialized_module() == ([False, False], {"foo": 1})
