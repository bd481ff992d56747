"""The shape of pytest_fairy's imports: no cycles, no layer importing one above it, one exception tree.

The graph is read from the source with `ast`, not from `sys.modules`, so every import statement counts
wherever it stands:
- at the top of a module;
- inside a function: a lazy import defers the cost, not the dependency;
- under `if TYPE_CHECKING:`: an annotation that names a module is a dependency of the design, and a
  cycle kept out of run time that way is still a cycle to a reader, to mypy and to the next refactoring.

An edge goes to the module an import names: `from a.b import x` depends on `a.b`; `from a import b`
depends on the package `a` (its `__init__` provides the names) and also on `a.b` when that is a module.
The parent packages that Python initialises on the way (`a` for `from a.b import x`) are not counted:
otherwise every package whose `__init__` re-exports its modules would be a cycle.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import fairy_virtual
import pytest_fairy
from pytest_fairy.errors import FairyError, FairyWarning

PACKAGE = "pytest_fairy"
SOURCE = Path(pytest_fairy.__file__).parent
# The simulated phone and its adbd wire server: a package beside the product, which implements the
# devices' protocols and registers itself by entry point (`pytest_fairy.devices.simulator`). It may import
# the product; the product never imports it.
SIMULATOR = "fairy_virtual"
SIMULATOR_SOURCE = Path(fairy_virtual.__file__).parent

# The layers, bottom to top, in the order data flows through a run. A module may import from its own
# layer and from the layers below it, never from one above. The root `pytest_fairy/__init__.py` (the
# public face users import from) stands above them all and is imported by none of them.
LAYERS: tuple[str, ...] = (
    "text",  # text quoted on one line, cut to a limit; imports nothing of pytest_fairy
    "errors",  # the one exception tree (FairyError and its kinds); imports nothing of pytest_fairy
    "spec",  # the YAML spec format: app, features, oracles, budgets, the risk vocabulary
    "devices",  # the Device and Diagnostics protocols, the real-device driver, locks, leases, the pool
    "perception",  # a dump and a screenshot -> Screen: layers, marks, refs, compressed text, Set-of-Mark
    "explore",  # the loop: target, actions, state, tree, guard, budgets, oracles, verdict, Brain protocol
    "brain",  # the brains that decide: scripted, offline (heuristic), Claude
    "report",  # what a run leaves behind: the session store, Allure, tree pictures and diffs
    "replay",  # the decision cache and the build-to-build regression review
    "plugin",  # pytest: hooks, options, items, fixtures
)
ROOT = PACKAGE  # the public face, above every layer

# pytest outcomes, not errors: they carry a verdict to pytest and stand outside FairyError on purpose.
OUTCOMES = frozenset({"AppDefect", "Inconclusive", "Interrupted"})


@dataclass(frozen=True)
class Import:
    """One dependency: `source` imports `target` at `line` of `path`, written as `statement`."""

    source: str
    target: str
    path: Path
    line: int
    statement: str

    def where(self) -> str:
        shown = self.path.relative_to(SOURCE.parent) if self.path.is_relative_to(SOURCE.parent) else self.path
        return f"{shown}:{self.line}: `{self.statement}`"


def modules_of(root: Path, package: str) -> dict[str, Path]:
    """Module name -> file, for every module of the package rooted at `root` (`__init__` names the package)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    # ast.walk: every import, also inside functions, classes and `if TYPE_CHECKING:` blocks.
    for node in ast.walk(tree):
        statement = ast.unparse(node) if isinstance(node, ast.Import | ast.ImportFrom) else ""
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names if alias.name in modules]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: `from .x import y` in a.b.c (or in the package a.b itself)
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            # The package or module named (a namespace package, without __init__, runs nothing), then
            # the submodules imported from it by name.
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            targets = [name for name in names if name in modules]
        for target in dict.fromkeys(targets):
            if target != module:
                yield Import(module, target, path, node.lineno, statement)


def import_graph(root: Path, package: str) -> dict[str, list[Import]]:
    """Module -> the imports it makes of the package's own modules."""
    modules = modules_of(root, package)
    return {module: list(_imports_of(module, path, modules)) for module, path in modules.items()}


def cycles(graph: dict[str, list[Import]]) -> list[tuple[list[Import], set[str]]]:
    """For each group of modules that import each other: one cycle through it (as its edges), and the
    whole group (its other cycles show once this one is broken)."""
    found = []
    for group in _strongly_connected(graph):
        if len(group) > 1:
            found.append((_cycle_in(sorted(group)[0], group, graph), group))
    return found


def _strongly_connected(graph: dict[str, list[Import]]) -> list[set[str]]:
    # Tarjan's algorithm, iterative (a deep package would exceed the recursion limit).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            edge = next(edges, None)
            if edge is not None:
                target = edge.target
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph.get(target, ()))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                groups.append(group)
    return groups


def _cycle_in(start: str, group: set[str], graph: dict[str, list[Import]]) -> list[Import]:
    """The shortest way from `start` back to itself inside `group` (breadth first)."""
    came_by: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for edge in graph[node]:
                if edge.target not in group or edge.target in came_by:
                    continue
                came_by[edge.target] = edge
                if edge.target == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, came_by[path[0].source])
                    return path
                following.append(edge.target)
        frontier = following
    raise AssertionError(f"{start} is in a strongly connected group but on no cycle")  # pragma: no cover


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def rank(layer: str) -> int:
    return len(LAYERS) if layer == ROOT else LAYERS.index(layer)


def upward_imports(graph: dict[str, list[Import]]) -> list[Import]:
    return [
        edge
        for edges in graph.values()
        for edge in edges
        if rank(layer_of(edge.target)) > rank(layer_of(edge.source))
    ]


@pytest.fixture(scope="module")
def graph() -> dict[str, list[Import]]:
    return import_graph(SOURCE, PACKAGE)


def test_every_package_has_a_layer(graph: dict[str, list[Import]]) -> None:
    unplaced = sorted({layer_of(m) for m in graph} - {*LAYERS, ROOT})
    assert not unplaced, (
        f"{unplaced} have no layer: add each to LAYERS in {__file__} at its place in the data flow "
        "(with a comment saying what it owns), below everything that imports it"
    )


def test_the_readme_layout_names_every_package() -> None:
    readme = (SOURCE.parent / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[-1].split("\n## ", 1)[0]
    packages = sorted(p.name for p in SOURCE.iterdir() if (p / "__init__.py").exists() or p.name in LAYERS)
    missing = [name for name in packages if f"`{name}/`" not in layout]
    assert not missing, f"README.md's Layout section does not name {missing}: add a line saying what each owns"


def test_no_import_cycles(graph: dict[str, list[Import]]) -> None:
    found = cycles(graph)
    report = "\n\n".join(
        " ->\n".join(f"  {edge.source} ({edge.where()})" for edge in cycle)
        + f" ->\n  {cycle[0].source}\n  (modules importing each other here: {', '.join(sorted(group))})"
        for cycle, group in found
    )
    assert not found, (
        f"{len(found)} import cycle(s):\n{report}\n\n"
        "Break each: move what both sides need into a lower module that neither imports back, or let the "
        "lower module take what it needs as an argument (a Protocol in its own module types it); import "
        "a sibling module directly, not through its package's __init__. Moving the import into a function "
        "or under TYPE_CHECKING does not break a cycle: this test counts those too."
    )


def test_no_layer_imports_a_higher_one(graph: dict[str, list[Import]]) -> None:
    found = upward_imports(graph)
    report = "\n".join(
        f"  {edge.where()}: {layer_of(edge.source)} imports {layer_of(edge.target)}, a higher layer"
        for edge in sorted(found, key=lambda e: (str(e.path), e.line))
    )
    assert not found, (
        f"{len(found)} upward import(s) (layers bottom to top: {' < '.join(LAYERS)} < the public face):\n"
        f"{report}\n\n"
        "Fix each by moving the name down to the lowest layer that needs it, or by passing it in from "
        "above (an argument, a Protocol declared in the lower layer, a hook). Inside pytest_fairy import "
        "from the home module, never from `pytest_fairy` itself. Only if the layer order itself is wrong, "
        f"change LAYERS in {__file__}."
    )


def imports_of_the_simulator(root: Path) -> list[str]:
    """Every import statement under `root` that names the simulator's package, wherever it stands."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(name == SIMULATOR or name.startswith(f"{SIMULATOR}.") for name in names):
                found.append(f"  {path.relative_to(root.parent)}:{node.lineno}: `{ast.unparse(node)}`")
    return found


def test_the_product_never_imports_the_simulator() -> None:
    found = imports_of_the_simulator(SOURCE)
    assert not found, (
        f"pytest_fairy imports {SIMULATOR}:\n" + "\n".join(found) + "\n\nThe product reaches the simulator "
        "through the Device protocol, its capabilities (TestBed, AppSnapshots) and the entry point that "
        "registers it (pytest_fairy/devices/simulator.py), never by import."
    )


def test_the_simulator_check_sees_an_import_hidden_in_a_function(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(f"def f():\n    from {SIMULATOR}.device import VirtualDevice\n")
    (tmp_path / "pkg" / "b.py").write_text("import fairy_virtually_something_else\n")
    assert imports_of_the_simulator(tmp_path / "pkg") == [
        f"  pkg/a.py:2: `from {SIMULATOR}.device import VirtualDevice`"
    ]


def test_the_graph_sees_hidden_and_package_imports(tmp_path: Path) -> None:
    """The reader itself: lazy, TYPE_CHECKING, relative and through-the-package imports all count."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg.b import g\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n",
        "c.py": "import pkg.sub.two as two\n",
        "sub/__init__.py": "",
        "sub/one.py": "from . import two\nx = 1\n",
        "sub/two.py": "from .one import x\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    found = import_graph(root, "pkg")
    assert [(e.target, e.line) for e in found["pkg.a"]] == [("pkg.b", 2)]
    assert {e.target for e in found["pkg.b"]} == {"pkg", "pkg.a"}
    assert {e.target for e in found["pkg.c"]} == {"pkg.sub.two"}
    assert {e.target for e in found["pkg.sub.one"]} == {"pkg.sub", "pkg.sub.two"}
    assert {e.target for e in found["pkg.sub.two"]} == {"pkg.sub.one"}
    loops = sorted(sorted(e.source for e in cycle) for cycle, _ in cycles(found))
    assert loops == [["pkg.a", "pkg.b"], ["pkg.sub.one", "pkg.sub.two"]]


def _classes_defined_in_pytest_fairy() -> Iterator[type]:
    """The classes of the product and of the simulator beside it."""
    for module in [*modules_of(SOURCE, PACKAGE), *modules_of(SIMULATOR_SOURCE, SIMULATOR)]:
        loaded = importlib.import_module(module)
        for _, cls in inspect.getmembers(loaded, inspect.isclass):
            if cls.__module__ == module:
                yield cls


def test_every_error_is_a_fairy_error_and_every_warning_a_fairy_warning() -> None:
    strays = []
    for cls in _classes_defined_in_pytest_fairy():
        if cls.__name__ in OUTCOMES or not issubclass(cls, BaseException):
            continue
        root = FairyWarning if issubclass(cls, Warning) else FairyError
        if not issubclass(cls, root):
            bases = ", ".join(base.__name__ for base in cls.__bases__)
            strays.append(f"  {cls.__module__}.{cls.__qualname__} (bases: {bases})")
    assert not strays, (
        "exception classes outside pytest_fairy's one tree:\n" + "\n".join(strays) + "\n\n"
        "Derive each error from pytest_fairy.errors.FairyError, or from the kind the loop and the plugin "
        "treat it as (UsageError, DeviceError, BrainError, PerceptionError, HookError); derive each warning "
        "from FairyWarning. Translate a third-party error at the seam with `raise ... from exc` instead of "
        "deriving from it."
    )


# A module a reader takes in at one sitting.
MAX_MODULE_LINES = 400


def test_every_module_is_small_enough_to_read_in_one_sitting() -> None:
    long = [
        f"{path.relative_to(source.parent)}: {lines} lines"
        for source in (SOURCE, SIMULATOR_SOURCE)
        for path in sorted(source.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert not long, f"modules over {MAX_MODULE_LINES} lines (split them by noun):\n" + "\n".join(long)
