"""`nn.Module`: parameters, buffers and submodules registered by assignment, `state_dict`,
`train`/`eval`, and `__call__` running `forward` (hooks are out of scope).

Assigning a Parameter to a module attribute registers it in `_parameters`, a Module in
`_modules`; `register_buffer` fills `_buffers`. Reading such an attribute goes through
`__getattr__` (Python calls it only when normal lookup fails), as in torch.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from tracer.runtime import aten_inplace, grad_mode
from tracer.runtime.nn.parameter import Parameter
from tracer.runtime.tensor import Tensor


class _IncompatibleKeys(NamedTuple):
    missing_keys: list[str]
    unexpected_keys: list[str]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
            f"unexpected_keys={self.unexpected_keys})"
        )


class Module:
    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Module | None]

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_modules", {})

    forward: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    # ------------------------------------------------------------ registration

    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign before Module.__init__() call")
        if isinstance(value, Parameter):
            self._drop(name)
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._drop(name)
            self._modules[name] = value
        elif name in self._parameters:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self._parameters[name] = None
        elif name in self._modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            self._modules[name] = None
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                    "(torch.Tensor or None expected)"
                )
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _drop(self, name: str) -> None:
        """Forget `name` everywhere before it is registered again."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            table.pop(name, None)

    def __getattr__(self, name: str) -> Any:
        for table in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(table, {})
            if name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        self._buffers[name] = tensor

    def add_module(self, name: str, module: Module | None) -> None:
        self._modules[name] = module

    register_module = add_module

    # ------------------------------------------------------------ walking

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(f"{prefix}.{name}" if prefix else name)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        for name, child in self._modules.items():
            if child is not None:
                yield name, child

    def children(self) -> Iterator[Module]:
        for _, child in self.named_children():
            yield child

    def _named(self, table: str, prefix: str, recurse: bool) -> Iterator[tuple[str, Any]]:
        seen: set[int] = set()
        modules = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        return self._named("_parameters", prefix, recurse)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn: Callable[[Module], None]) -> Module:
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ state

    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> dict[str, Tensor]:
        """Parameters then buffers of each module, in registration order, detached unless
        `keep_vars`."""
        result: dict[str, Tensor] = OrderedDict()
        for module_prefix, module in self.named_modules():
            for table in (module._parameters, module._buffers):
                for name, value in table.items():
                    if value is not None:
                        key = f"{prefix}{module_prefix}.{name}" if module_prefix else prefix + name
                        result[key] = value if keep_vars else value.detach()
        return result

    def load_state_dict(self, state_dict: Mapping[str, Tensor], strict: bool = True) -> Any:
        """Copy each entry into the parameter or buffer of its name (under no_grad)."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for key, target in own.items():
            if key in state_dict and state_dict[key]._shape != target._shape:
                errors.append(
                    f"size mismatch for {key}: copying a param with shape "
                    f"{state_dict[key].shape} from checkpoint, the shape in current model is "
                    f"{target.shape}."
                )
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            details = "\n\t".join(errors)
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t{details}"
            )
        with grad_mode.no_grad():
            for key, target in own.items():
                if key in state_dict:
                    aten_inplace.copy_(target, state_dict[key])
        return _IncompatibleKeys(missing, unexpected)

    def train(self, mode: bool = True) -> Module:
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            aten_inplace.requires_grad_(p, requires_grad)
        return self

    # ------------------------------------------------------------ printing

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [
            f"({name}): " + repr(child).replace("\n", "\n  ")
            for name, child in self._modules.items()
        ]
        extra = self.extra_repr()
        if not lines:
            return f"{type(self).__name__}({extra})"
        body = "\n  ".join(([extra] if extra else []) + lines)
        return f"{type(self).__name__}(\n  {body}\n)"

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self._parameters, *self._buffers, *self._modules})
