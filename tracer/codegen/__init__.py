"""Bytecode generation: the compiled frame that runs a graph, rebuilds the return value and
replays the side effects (`assemble`), through `PyCodegen`'s verbs over the `bytecode` package."""

from tracer.codegen.pycodegen import PyCodegen, assemble

__all__ = ["PyCodegen", "assemble"]
