"""The import contract: the layer rules of docs/architecture.md, as data, checked on every import in src/.

Each rule says which packages a package may not import (``FORBIDDEN``) or may only import
(``ONLY``). Imports inside functions and under ``TYPE_CHECKING`` count too: a type-only arrow is still
a dependency of the concept. ``KNOWN`` lists today's breaches, each with the issue that removes it; the
test fails on a new breach *and* on a listed one that is gone (so the list shrinks as the code is fixed).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "ragauge"

# the shells: they call the library; nothing in the library calls them
SHELLS = {"cli", "__main__", "pytest_plugin"}

# package -> packages it must not import (a name "judges.offline" forbids that subpackage only)
FORBIDDEN: dict[str, set[str]] = {
    "judges": {"metrics", "engine", "gates", "report", "diagnosis", "testing", "serve", "rag", "guard", "generate"},
    "metrics": {"engine", "gates", "report", "diagnosis", "testing", "serve", "judges.offline", "judges.llm"},
    "gates": {"engine", "report", "diagnosis", "judges", "testing", "serve"},
    "data": {"engine", "metrics", "judges", "gates", "report", "stats", "scores"},
    "report": {"judges", "metrics", "testing", "serve"},
    "diagnosis": {"engine", "report", "judges", "metrics"},
    "guard": {"engine", "report", "metrics", "testing", "serve", "rag"},
    "generate": {"engine", "report", "metrics", "testing", "serve", "rag", "guard"},
}
# package -> the only ragauge packages it may import (pure layers)
ONLY: dict[str, set[str]] = {
    "scores": {"errors"},
    "stats": {"errors", "results_schema", "scores"},
    "trace": {"errors", "files"},
    "errors": set(),
    "files": {"errors"},
    "config": {"errors"},
    "lang": set(),
    "text": {"errors", "lang"},
}
# the tracing SDK runs inside users' requests: the standard library only at import time (its exporter
# imports httpx, a core dependency, when it first sends)
STDLIB_ONLY = {"trace"}

# today's breaches (importer module -> imported module), each removed by issue 15 (the metric/judge seam,
# gates in one place) or issue 13; keep this list exact
KNOWN: set[tuple[str, str]] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "<root>"


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level:
        base = module.split(".") if module != "<root>" else []
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join(base + ([node.module] if node.module else []))
        names = [target] if node.module else [f"{target}.{a.name}".strip(".") for a in node.names]
        return [n for n in names if n]
    if node.module and (node.module == "ragauge" or node.module.startswith("ragauge.")):
        target = node.module.removeprefix("ragauge").lstrip(".")
        if not target:
            return [a.name for a in node.names]
        return [target]
    return []


def _imports() -> dict[str, set[str]]:
    """module -> the ragauge modules it imports (relative to the package, e.g. ``judges.offline.text``)."""
    out: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        module = _module_name(path)
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                targets.update(_resolve(module, path.name == "__init__.py", node))
            elif isinstance(node, ast.Import):
                targets.update(a.name.removeprefix("ragauge.") for a in node.names if a.name.startswith("ragauge."))
        out[module] = {t for t in targets if t}
    return out


def _third_party(path: Path) -> set[str]:
    """Non-stdlib packages imported at module level (not inside functions)."""
    import sys

    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    top_level += [n for block in tree.body if isinstance(block, (ast.If, ast.Try)) for n in ast.walk(block)
                  if isinstance(n, (ast.Import, ast.ImportFrom))]
    for node in top_level:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        for name in names:
            head = name.split(".")[0]
            if head not in sys.stdlib_module_names and head not in {"ragauge", "__future__"}:
                found.add(head)
    return found


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def breaches(imports: dict[str, set[str]]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for importer, targets in imports.items():
        top = importer.split(".")[0]
        for target in targets:
            if _inside(target, top) and top != "<root>":
                continue  # inside its own package
            if top not in SHELLS and any(_inside(target, s) for s in SHELLS):
                found.add((importer, target))
            if any(_inside(target, f) for f in FORBIDDEN.get(top, ())):
                found.add((importer, target))
            if top in ONLY and not any(_inside(target, a) for a in ONLY[top]):
                found.add((importer, target))
    return found


def test_layer_rules_hold_except_the_known_breaches():
    found = breaches(_imports())
    new = sorted(found - KNOWN)
    fixed = sorted(KNOWN - found)
    assert not new, "imports that break the layer rules of docs/architecture.md: " + ", ".join(f"{a} -> {b}" for a, b in new)
    assert not fixed, "these known breaches are gone: remove them from KNOWN: " + ", ".join(f"{a} -> {b}" for a, b in fixed)


@pytest.mark.parametrize("package", sorted(STDLIB_ONLY))
def test_tracing_sdk_imports_only_the_standard_library(package):
    for path in sorted((SRC / package).rglob("*.py")):
        assert not _third_party(path), f"{path.relative_to(SRC)} imports {sorted(_third_party(path))}"


def test_the_checker_sees_a_breach():
    """The contract is not vacuous: a made-up import of the engine from scores is caught, a legal one is not."""
    assert breaches({"scores.ranking": {"engine.summary"}}) == {("scores.ranking", "engine.summary")}
    assert breaches({"judges.llm.client": {"metrics.registry"}}) == {("judges.llm.client", "metrics.registry")}
    assert breaches({"engine.results": {"cli.main"}}) == {("engine.results", "cli.main")}
    assert breaches({"metrics.answer": {"judges.types", "scores.claims"}}) == set()
    imports = _imports()
    assert "engine.evaluate" in imports and "metrics.registry" in imports["engine.evaluate"]
