"""No import circle in engine/, cli/ or image/: each room's module import graph is acyclic.

Every `import` and `from ... import` in a module counts, wherever it stands: at the top, inside a
function (an import deferred to call time still ties the two modules together, and deferring it
is how a circle hides), and inside `if TYPE_CHECKING:` too (the strict reading: a type that one
module needs from another is a dependency all the same, and mypy and mypyc follow it; a circle
that only the type checker sees is still a sign that something sits in the wrong module).

The graph, read with `ast` (nothing is imported or run):
  - its nodes are the modules of the room: `a/b/c.py` is `a.b.c`, `a/b/__init__.py` is `a.b`;
  - `import a.b.c` is an edge to `a.b.c` (to the longest prefix that is a module of the room);
  - `from a.b import c` is an edge to `a.b.c` when `c` is a submodule, else to `a.b` (the
    package's `__init__`, where the name `c` is defined); relative imports are resolved first;
  - a package's `__init__` importing its own submodules is an edge from the package to them.
An import of a submodule is not counted as an edge to its parent packages' `__init__`s, though
Python does run them first. A package's `__init__` always runs before any of its submodules
(it cannot be otherwise), so that dependency is structural, not a choice a module makes; and
counting it would close a circle through every `__init__` that re-exports its submodules
(`engine/elite/__init__.py` imports `engine.elite.game`, which Python imports only after
`engine.elite`'s `__init__`), a circle no code can break and no import order trips over. A
submodule that imports a name from its package's `__init__` (`from engine.elite import X`, X not
a submodule) does count: that is the edge by which a real circle through an `__init__` closes.

Imports of modules outside the three rooms (the standard library, other packages of ours) are
not edges: the layers between packages are import-linter's contracts (pyproject.toml). The
three rooms are read as one graph, so a circle between them would be found as well.

A circle is a strongly connected component of more than one module (Tarjan's algorithm), or a
module importing itself; each is printed as `a -> b -> c -> a`, with the line of each import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("engine", "cli", "image")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    path: Path
    line: int


def module_names(root: Path, rooms: Iterable[str]) -> dict[str, Path]:
    """Every module of the rooms (a folder's `.py` files that sit in a package, at any depth),
    by dotted name."""
    modules: dict[str, Path] = {}
    for room in rooms:
        for path in sorted((root / room).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            # only files reachable as modules: each folder down from the room is a package
            folders = [root.joinpath(*parts[:i]) for i in range(1, len(parts))]
            if not all((folder / "__init__.py").is_file() for folder in folders):
                continue
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _known(dotted: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of `dotted` that is a module of the rooms."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Edge]:
    """The edges from one module: every import statement in it, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    edges: list[Edge] = []

    def add(target: str | None, line: int) -> None:
        if target is not None:
            edges.append(Edge(name, target, path, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(_known(alias.name, modules), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(name, path)
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if alias.name != "*" and submodule in modules:
                    add(submodule, node.lineno)
                else:
                    add(_known(source, modules), node.lineno)
    return edges


def import_graph(root: Path, rooms: Iterable[str]) -> dict[str, list[Edge]]:
    modules = module_names(root, rooms)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit): each component, its modules sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted({edge.target for edge in graph[start]}))))
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted({e.target for e in graph[target]}))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def _a_circle(component: list[str], graph: dict[str, list[Edge]]) -> list[Edge]:
    """One circle through a component's first module (a shortest one: breadth first)."""
    members = set(component)
    start = component[0]
    came_by: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for edge in sorted(graph[node], key=lambda e: (e.target, e.line)):
                if edge.target not in members or edge.target in came_by:
                    continue
                came_by[edge.target] = edge
                if edge.target == start:
                    circle = [edge]
                    while circle[0].source != start:
                        circle.insert(0, came_by[circle[0].source])
                    return circle
                following.append(edge.target)
        frontier = following
    raise AssertionError(f"no circle in component {component}")  # pragma: no cover


def circles(root: Path, rooms: Iterable[str]) -> list[str]:
    """Each circle as `a -> b -> a`, then where each of its imports is."""
    graph = import_graph(root, rooms)
    found: list[str] = []
    for component in strongly_connected(graph):
        self_import = any(e.target == component[0] for e in graph[component[0]])
        if len(component) == 1 and not self_import:
            continue
        circle = _a_circle(component, graph)
        names = " -> ".join([circle[0].source] + [edge.target for edge in circle])
        lines = [
            f"    {e.source} -> {e.target}: {e.path.relative_to(root)}:{e.line}" for e in circle
        ]
        others = f" (the circle's component holds {len(component)}: {', '.join(component)})"
        found.append(names + (others if len(component) > len(circle) else "") + "\n")
        found[-1] += "\n".join(lines)
    return found


def test_no_import_circle_in_engine_cli_or_image() -> None:
    found = circles(ROOT, ROOMS)
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_rooms_are_read() -> None:
    """The check sees the modules and the edges it is meant to (a room that went missing, or an
    import it could not resolve, would pass it vacuously)."""
    graph = import_graph(ROOT, ROOMS)
    assert {"engine", "engine.disney.game", "engine.elite.game", "cli.main", "image.check"} <= set(
        graph
    )
    targets = {edge.target for edges in graph.values() for edge in edges}
    assert {"engine.errors", "engine.disney.cards", "engine.protocol"} <= targets


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_finds_a_planted_circle_through_a_function(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "room/__init__.py": "",
            "room/a.py": "from room.b import helper\n",
            "room/b.py": "def helper():\n    from room import a\n    return a\n",
            "room/c.py": "import room.a\n",  # into the circle, not on it
        },
    )
    assert circles(tmp_path, ["room"]) == [
        "room.a -> room.b -> room.a\n"
        "    room.a -> room.b: room/a.py:1\n"
        "    room.b -> room.a: room/b.py:2"
    ]


def test_finds_relative_type_checking_and_package_circles(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "room/__init__.py": "from room.sub.x import X\n",
            "room/sub/__init__.py": "",
            "room/sub/x.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .y import Y\nX = 1\n"
            ),
            "room/sub/y.py": "from .. import X\nY = 2\n",  # a name of room/__init__.py
            "room/selfish.py": "import room.selfish\n",
        },
    )
    found = circles(tmp_path, ["room"])
    assert found == [
        "room -> room.sub.x -> room.sub.y -> room\n"
        "    room -> room.sub.x: room/__init__.py:1\n"
        "    room.sub.x -> room.sub.y: room/sub/x.py:3\n"
        "    room.sub.y -> room: room/sub/y.py:1",
        "room.selfish -> room.selfish\n    room.selfish -> room.selfish: room/selfish.py:1",
    ]


def test_an_init_reexporting_its_submodules_is_no_circle(tmp_path: Path) -> None:
    """The parent package's `__init__` that Python runs first is not an edge (the docstring)."""
    _write(
        tmp_path,
        {
            "room/__init__.py": "from room.a import A\nfrom room import b\n",
            "room/a.py": "from room.b import B\nA = B\n",
            "room/b.py": "import os\nfrom room import c\nB = 1\n",
            "room/c.py": "",
        },
    )
    assert circles(tmp_path, ["room"]) == []
    graph = import_graph(tmp_path, ["room"])
    assert [e.target for e in graph["room"]] == ["room.a", "room.b"]
    assert [e.target for e in graph["room.b"]] == ["room.c"]
