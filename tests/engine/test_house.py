"""The engine's house, drawn from its imports (DESIGN.md): the engine stands on cards, rules and
evaluate only, holds no import circle, keeps its files small enough to read in one sitting, and
the layers above read it through ``stud.engine`` alone."""

from __future__ import annotations

import ast
from pathlib import Path

import stud

SOURCE = Path(stud.__file__).parent
ENGINE = SOURCE / "engine"
MOST_LINES = 400


def _imports(path: Path) -> set[str]:
    """The ``stud`` modules a file imports (at any depth of the file, type checking included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("stud"):
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("stud"))
    return names


def _engine_graph() -> dict[str, set[str]]:
    modules = {f"stud.engine.{p.stem}": p for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    return {name: {m for m in _imports(path) if m in modules} for name, path in modules.items()}


def test_the_engine_stands_on_cards_rules_and_evaluate_only() -> None:
    allowed = ("stud.cards", "stud.rules", "stud.evaluate", "stud.engine")
    for path in ENGINE.glob("*.py"):
        outside = {m for m in _imports(path) if not m.startswith(allowed)}
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_engine_holds_no_import_circle() -> None:
    graph = _engine_graph()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import circle: " + " -> ".join((*path, module))
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_no_engine_file_is_over_400_lines() -> None:
    for path in ENGINE.glob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MOST_LINES, f"{path.name} has {lines} lines"


def test_the_layers_above_read_the_engine_through_stud_engine_alone() -> None:
    for path in SOURCE.rglob("*.py"):
        if ENGINE in path.parents:
            continue
        internal = {m for m in _imports(path) if m.startswith("stud.engine.")}
        assert not internal, f"{path.relative_to(SOURCE)} imports {sorted(internal)}"
