"""Print mailmoat's package-level import graph and where a store gets opened.

Edges are drawn between top-level packages (and top-level modules) of src/mailmoat from every
module's imports, including those inside functions; imports under TYPE_CHECKING are left
out (they never run). Circles are listed; an "upward" arrow is one that points against the
layer order in DESIGN.md (core <- store <- feature packages <- services <- entrypoints).

Run: python bench/import_graph.py [path/to/src/mailmoat]
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

LAYER = {"core": 0, "store": 1, "services": 3, "entrypoints": 4}
FEATURES = {"judge", "learn", "act", "mail", "calendar", "notify", "accounts", "mcp", "eval",
            "demo", "spam"}
OPENERS = {("mailmoat.store", "open_store"), ("mailmoat.store.messages", "open_store"),
           ("mailmoat.store.messages", "open_store"), ("mailmoat.store.db", "make_engine")}


def _unit(parts: tuple[str, ...]) -> str:
    return parts[0].removesuffix(".py") if parts else "mailmoat"


def _imports(tree: ast.AST) -> list[tuple[str, tuple[str, ...]]]:
    """(module imported, names) outside `if TYPE_CHECKING:` blocks."""
    found: list[tuple[str, tuple[str, ...]]] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for orelse in child.orelse:
                    walk(orelse)
                continue
            if isinstance(child, ast.Import):
                found.extend((a.name, ()) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.append((child.module, tuple(a.name for a in child.names)))
            walk(child)

    walk(tree)
    return found


def main(root: Path) -> None:
    edges: dict[tuple[str, str], int] = defaultdict(int)
    openers: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[:2] == ("store", "migrations"):
            continue
        src = _unit(rel.parts)
        for module, names in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if not module.startswith("mailmoat."):
                continue
            dst = module.split(".")[1]
            if dst != src:
                edges[(src, dst)] += 1
            if any((module, n) in OPENERS for n in names) and rel.parts[0] != "store":
                openers.append(str(rel))
    units = sorted({u for e in edges for u in e})
    print(f"{len(edges)} package-level edges between {len(units)} packages/modules:")
    for (a, b), n in sorted(edges.items()):
        print(f"  {a} -> {b} ({n})")
    circles = sorted({tuple(sorted((a, b))) for (a, b) in edges if (b, a) in edges})
    print(f"circles (two packages importing each other): {len(circles)}",
          *(f"{a} <-> {b}" for a, b in circles))

    def level(unit: str) -> int:
        return LAYER.get(unit, 2 if unit in FEATURES else 5)

    upward = [f"{a} -> {b}" for (a, b) in edges if level(a) < level(b)]
    print(f"upward arrows: {len(upward)}", *sorted(upward))
    print(f"modules outside store/ that open a store: {len(set(openers))}",
          *sorted(set(openers)))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else
         Path(__file__).resolve().parents[1] / "src" / "mailmoat")
