"""The shape of the code base, pinned: no import cycle among our modules,
chromadb imported by exactly one of them, and no module that binds a name
twice at its top level.

The walk reads the source with :mod:`ast` (nothing is imported), and counts
every import: at module level, inside functions (a lazy import still ties two
modules together) and under ``if TYPE_CHECKING:`` (a type-only import is a
dependency a reader must follow too).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Every first-party package and the folder holding it.
PACKAGES = {
    "memvet": ROOT / "core" / "memvet",
    "memvet_langchain": ROOT / "memvet_langchain",
    "memvet_llamaindex": ROOT / "memvet_llamaindex",
    "memvet_mcp": ROOT / "memvet_mcp",
}


def _modules() -> dict[str, Path]:
    out = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str) -> set[str]:
    """The first-party modules ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node, path.name == "__init__.py")
            # `from pkg import sub` imports the submodule when there is one,
            # else a name from the package's own __init__.
            names = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:  # `import a.b.c` of a non-module tail
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    return {m: imports_of(m) for m in MODULES}


def find_cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of ``edges`` as a path that ends where it starts; ``[]`` when none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_walk_sees_every_package_and_its_imports():
    # Guards the guard: a walk that found nothing would pass the cycle test.
    assert {"memvet._ledger", "memvet.cli", "memvet_langchain._store", "memvet_mcp._server"} <= set(MODULES)
    edges = graph()
    assert "memvet._store" in edges["memvet._ledger"]
    assert "memvet._code" in edges["memvet._ledger"]  # `from memvet import _code`
    assert "memvet" in edges["memvet_langchain._store"]  # adapters import the public namespace


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def _imports_chromadb(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "chromadb" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "chromadb":
            return True
    return False


def test_chromadb_is_imported_in_one_module():
    users = sorted(m for m, path in MODULES.items() if _imports_chromadb(path))
    assert users == ["memvet._chroma"]


@pytest.mark.parametrize("module", ["memvet_langchain", "memvet_llamaindex", "memvet_mcp"])
def test_adapters_import_only_the_public_core(module):
    private = sorted(
        (m, dep) for m in MODULES if m == module or m.startswith(module + ".")
        for dep in imports_of(m) if dep.startswith("memvet.") and dep.split(".")[1].startswith("_")
    )
    assert not private, private


def module_names_bound_twice(source: str) -> list[str]:
    """The names a module's top level assigns more than once (``_FIELD = ...`` twice): every use,
    wherever it stands, reads the last binding, so the first is dead and whoever wrote it is misled."""
    counts: dict[str, int] = {}
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        for target in targets:
            if isinstance(target, ast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
    return sorted(name for name, n in counts.items() if n > 1)


def test_module_names_bound_twice_are_found():
    assert module_names_bound_twice("A = 1\nB: int = 2\nA = 3\nif x:\n    B = 4\n") == ["A"]
    assert module_names_bound_twice("C: int\nC = 1\n") == []


def test_no_module_binds_a_name_twice():
    # round 20: a second `_FIELD = re.compile(...)` in _claims held 24 true facts before it was caught,
    # and a second `_RUST_PATH` had silently dropped round 8's guards since round 12
    twice = {m: names for m, path in MODULES.items() if (names := module_names_bound_twice(path.read_text("utf-8")))}
    assert not twice, twice
