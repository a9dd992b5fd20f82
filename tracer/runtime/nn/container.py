"""Containers: Sequential, ModuleList, ModuleDict (submodules registered under their keys)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tracer.runtime.nn.module import Module


class Sequential(Module):
    """Calls its modules in order, each on the previous one's output."""

    def __init__(self, *modules: Module) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], Mapping):
            for name, module in modules[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(modules):
                self.add_module(str(i), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            assert module is not None
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(m for m in self._modules.values() if m is not None)

    def __getitem__(self, index: int | slice) -> Any:
        modules = list(self._modules.values())
        if isinstance(index, slice):
            return Sequential(*(m for m in modules[index] if m is not None))
        if not -len(modules) <= index < len(modules):
            raise IndexError(f"index {index} is out of range")
        return modules[index]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


class ModuleList(Module):
    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        for module in modules or ():
            self.append(module)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(m for m in self._modules.values() if m is not None)

    def __getitem__(self, index: int | slice) -> Any:
        modules = list(self._modules.values())
        if isinstance(index, slice):
            return ModuleList(m for m in modules[index] if m is not None)
        if not -len(modules) <= index < len(modules):
            raise IndexError(f"index {index} is out of range")
        return modules[index]


class ModuleDict(Module):
    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        for name, module in (modules or {}).items():
            self.add_module(name, module)

    def __getitem__(self, key: str) -> Module | None:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def values(self) -> Iterable[Module | None]:
        return self._modules.values()

    def items(self) -> Iterable[tuple[str, Module | None]]:
        return self._modules.items()
