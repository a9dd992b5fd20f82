"""No import cycle spans two parts of modetrace, counting every import, however deep.

Every module of tracer/, guards/ and variables/ is parsed; each import statement (at module
level, inside a function or a class, anywhere but an `if TYPE_CHECKING:` block) and each
`importlib.import_module("literal")` call is an edge of the module graph. Each module belongs
to one part (the table below, by path prefix); modules of one part may import each other in a
cycle, but a strongly connected component of the graph must never hold modules of two parts.
An import inside a function is still an import: hiding a cycle there does not break it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tracer", "guards", "variables")

PARTS: tuple[tuple[str, str, str], ...] = (
    # (path prefix, part, why these modules form one part); the longest matching prefix wins,
    # so a module moved into a package of its part needs no new row, and a new package needs one.
    ("tracer/exc.py", "base", "the errors every layer raises; imports only config"),
    ("tracer/config.py", "base", "knobs and compile options, read by every layer"),
    ("tracer/version.py", "base", "modetrace's version, the one place it is written"),
    ("tracer/bytecode_versions.py", "base", "what differs between CPython 3.11, 3.12, 3.13"),
    ("tracer/warning_filters.py", "base", "warning filters swapped for a block of the compile"),
    ("tracer/runtime", "runtime", "the torch-like tensor library; knows nothing of tracing"),
    ("tracer/graph", "graph", "the graph IR, its passes and the Python source of a graph"),
    ("tracer/backends.py", "graph", "backends turn a recorded graph into a callable"),
    ("tracer/fused", "fused", "the fused-loop backend: lowering, loop scheduling, kernel source"),
    ("tracer/graph_cache", "graph_cache", "a backend's output kept as data on disk and in Redis"),
    ("variables", "variables", "the trackers and the builder that makes them"),
    ("guards", "guards", "sources, guards and their compiled checks"),
    ("tracer/translator", "translator", "bytecode translated with trackers"),
    ("tracer/output_graph.py", "translator", "what one trace produces"),
    ("tracer/side_effects.py", "translator", "mutations a trace records and replays"),
    ("tracer/codegen", "codegen", "the compiled frame's bytecode, through the bytecode package"),
    ("tracer/cache", "cache", "cache entries and what changed between compiles"),
    ("tracer/api.py", "frontend", "compile() and reset(): options checked, then the cache"),
    ("tracer/options.py", "frontend", "the options of compile() and its tools, checked"),
    ("tracer/convert_frame.py", "cache", "a compile on a miss: trace, guards, code -> an entry"),
    ("tracer/observability", "observability", "metrics, events, logs: what a compile reports"),
    ("tracer/debug.py", "observability", "tracer.breakpoint(): a look at the translator"),
    ("tracer/__init__.py", "frontend", "the public names; imports the parts, none imports it"),
    ("tracer/__main__.py", "frontend", "`python -m tracer`"),
    ("tracer/cli.py", "frontend", "the command line"),
    ("tracer/explain.py", "frontend", "explain() and trace(), built on compile"),
    ("tracer/testing", "testing", "property-test helpers that drive the public API"),
    (
        "tracer/worlds",
        "worlds",
        "the questions the tracer asks about tensors; the runtime's answers",
    ),
    (
        "tracer/torch_adapter",
        "torch_adapter",
        "real torch as a tensor world; the only torch import",
    ),
    ("tracer/torch_adapter/compare.py", "frontend", "modetrace and Dynamo side by side"),
    ("tracer/side_by_side.py", "frontend", "tracer.compare, importable without torch"),
)


# -- the module graph -------------------------------------------------------------------------
def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the core packages."""
    files = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom | ast.Call]:
    """Every import in `tree`, at any depth, except under `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif _is_import_module_call(node):
            assert isinstance(node, ast.Call)
            yield node
        yield from _imports(node)


def _is_import_module_call(node: ast.AST) -> bool:
    """`importlib.import_module("name")` or `__import__("name")` with a literal name."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    first = node.args[0]
    literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
    return name in ("import_module", "__import__") and literal


def _targets(
    module: str, is_package: bool, node: ast.Import | ast.ImportFrom | ast.Call, known: set[str]
) -> Iterator[str]:
    """The modules one import statement loads (those of the core packages)."""
    if isinstance(node, ast.Call):
        first = node.args[0]
        assert isinstance(first, ast.Constant)
        names = [str(first.value)]
    elif isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = module.split(".") if is_package else module.split(".")[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join([*here, base] if base else here)
        # `from package import submodule` loads the submodule; `from module import name`
        # loads the module
        names = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
            for alias in node.names
        ]
    yield from (name for name in names if name in known and name != module)


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """module -> the modules it imports, anywhere in its code."""
    known = set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"
        graph[module] = {
            target
            for node in _imports(tree)
            for target in _targets(module, is_package, node, known)
        }
    return graph


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def part_of(path: str) -> str | None:
    """The part of a module, by the longest matching path prefix in PARTS (None: not listed)."""
    matches = [(len(prefix), part) for prefix, part, _why in PARTS if path.startswith(prefix)]
    return max(matches)[1] if matches else None


def _crossing_cycle(
    graph: Mapping[str, Iterable[str]], component: list[str], parts: Mapping[str, str]
) -> list[str]:
    """One cycle inside `component` that crosses from one part to another: an import edge
    u -> v between two parts, then the shortest way from v back to u, as module names."""
    members = set(component)
    for u in component:
        for v in sorted(graph[u]):
            if v not in members or parts[v] == parts[u]:
                continue
            came_from = {v: v}
            frontier = [v]
            while frontier and u not in came_from:
                following = []
                for node in frontier:
                    for succ in sorted(graph[node]):
                        if succ in members and succ not in came_from:
                            came_from[succ] = node
                            following.append(succ)
                frontier = following
            path = [u]
            while path[-1] != v:
                path.append(came_from[path[-1]])
            return [u, *reversed(path)]
    raise AssertionError("a component spanning two parts has an edge between them")


def mixed_cycles(graph: Mapping[str, set[str]], parts: Mapping[str, str]) -> list[str]:
    """A description of every strongly connected component that spans two parts."""
    problems = []
    for component in strongly_connected(graph):
        spanned = sorted({parts[m] for m in component})
        if len(spanned) > 1:
            cycle = _crossing_cycle(graph, component, parts)
            shown = " -> ".join(f"{m} ({parts[m]})" for m in cycle)
            problems.append(
                f"{len(component)} modules of parts {spanned} import each other, e.g. {shown}"
            )
    return problems


# -- the checks -------------------------------------------------------------------------------
def _parts_of_modules(files: Mapping[str, Path]) -> dict[str, str]:
    parts: dict[str, str] = {}
    unknown = []
    for module, path in files.items():
        part = part_of(path.relative_to(ROOT).as_posix())
        if part is None:
            unknown.append(path.relative_to(ROOT).as_posix())
        else:
            parts[module] = part
    assert not unknown, (
        f"modules in no part: {unknown}; add a row to PARTS in {Path(__file__).name} "
        "(a path prefix, its part, and why)"
    )
    return parts


def test_no_import_cycle_spans_two_parts() -> None:
    files = module_files()
    graph = import_graph(files)
    problems = mixed_cycles(graph, _parts_of_modules(files))
    assert not problems, "\n".join(problems)


def test_the_graph_sees_imports_inside_functions() -> None:
    """Guard against the check passing because it found nothing: the graph has the core's
    edges, including ones only written inside a function or through import_module."""
    files = module_files()
    assert "tracer.translator.base" in files and "variables.builder" in files
    graph = import_graph(files)
    assert "variables.builder" in graph["tracer.output_graph"]
    tree = ast.parse("def f():\n    from variables import misc\n    import tracer.exc\n")
    targets = {
        t for node in _imports(tree) for t in _targets("variables.x", False, node, set(files))
    }
    assert targets == {"variables.misc", "tracer.exc"}
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import tracer.api\n"
        "def f():\n    return importlib.import_module('tracer.runtime._C')\n"
    )
    targets = {t for node in _imports(tree) for t in _targets("guards.x", False, node, set(files))}
    assert targets == {"tracer.runtime._C"}


def test_the_check_finds_a_planted_cycle() -> None:
    graph = {
        "variables.tensor": {"variables.base", "tracer.output_graph"},
        "variables.base": set(),
        "tracer.output_graph": {"tracer.translator.base"},
        "tracer.translator.base": {"variables.tensor", "tracer.exc"},
        "tracer.exc": set(),
    }
    parts = {
        "variables.tensor": "variables",
        "variables.base": "variables",
        "tracer.output_graph": "translator",
        "tracer.translator.base": "translator",
        "tracer.exc": "base",
    }
    problems = mixed_cycles(graph, parts)
    assert len(problems) == 1
    assert "['translator', 'variables']" in problems[0]
    assert "variables.tensor (variables) -> tracer.output_graph (translator)" in problems[0]
    # a cycle inside one part is allowed
    graph["tracer.output_graph"] = {"variables.base"}
    graph["variables.base"] = {"variables.tensor"}
    graph["variables.tensor"] = {"variables.base"}
    assert mixed_cycles(graph, parts) == []


def test_every_module_has_a_part_by_prefix() -> None:
    assert part_of("tracer/cache/entries.py") == "cache"
    assert part_of("tracer/codegen/pycodegen.py") == "codegen"
    assert part_of("tracer/observability/metrics.py") == "observability"
    assert part_of("tracer/somewhere_new.py") is None
    _parts_of_modules(module_files())


def test_no_cached_function_imports() -> None:
    """No `functools.cache`/`lru_cache` function holds an import (an "import trampoline" that
    hides a cycle): an import goes at the top of its module."""
    found = []
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            cached = any(
                "cache" in ast.unparse(d.func if isinstance(d, ast.Call) else d)
                and "cached_property" not in ast.unparse(d)
                for d in node.decorator_list
            )
            if cached and any(True for _ in _imports(node)):
                found.append(f"{module}.{node.name}")
    assert not found, f"cached functions that import: {found}"
