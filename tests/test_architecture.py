"""The layers import one way: metrics <- (verdicts, files) <- (properties | proofs) <- the rest of irprops; the toolkit
adapters (irprops.toolkits) import nothing of irprops, and only the search reads them.

The import graph is read from the source (every ``import``, at module level or inside a
function), with module names taken from the package-dir mapping in pyproject.toml, so a
folder that moves or a lazy import inside a function is seen as well.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from .conftest import ROOT
from .test_doctests import modules as installed_modules

PACKAGE_DIRS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]

LAYERS = {
    "irprops.metrics": {"irprops.metrics"},
    "irprops.verdicts": {"irprops.metrics", "irprops.verdicts"},
    "irprops.files": {"irprops.metrics", "irprops.files"},
    "irprops.toolkits": {"irprops.toolkits"},
    "irprops.properties": {"irprops.metrics", "irprops.verdicts", "irprops.files", "irprops.toolkits", "irprops.properties"},
    "irprops.proofs": {"irprops.metrics", "irprops.verdicts", "irprops.files", "irprops.proofs"},
}
"""What each layer may import from irprops; the rest of irprops (checking, table, cli) may import anything."""

STRAY = ("metrics", "properties", "proofs")
"""Top-level names the folders must never be imported as (a second copy of every registry)."""


def source_modules() -> dict[str, Path]:
    """Module name -> file, for every module of the irprops distribution."""
    modules = {}
    for package, folder in PACKAGE_DIRS.items():
        root = ROOT / folder
        for path in root.rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            if any(p in PACKAGE_DIRS.values() for p in parts[:1]) and package == "irprops":
                continue  # a mapped folder inside irprops/ would be its own package
            name = ".".join((package, *parts))
            modules[name.removesuffix(".__init__")] = path
    return modules


def imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
                found |= {target} if node.module else {f"{base}.{alias.name}" for alias in node.names}
            else:
                found.add(node.module or "")
    return found


def layer(module: str) -> str | None:
    """The restricted layer ``module`` belongs to, or None for the orchestration layer."""
    return next((name for name in LAYERS if module == name or module.startswith(name + ".")), None)


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs against the layers, or names a folder as a top-level package."""
    found = []
    for module, targets in sorted(graph.items()):
        own = layer(module)
        for target in sorted(targets):
            if target.split(".")[0] in STRAY:
                found.append(f"{module} imports the folder name {target} (write irprops.{target})")
            if own is None or not target.startswith("irprops"):
                continue
            allowed = LAYERS[own]
            if target == "irprops" or not any(target == a or target.startswith(a + ".") for a in allowed):
                found.append(f"{module} ({own}) imports {target}")
    return found


GRAPH = {name: imports(name, path) for name, path in source_modules().items()}


class TestTheImportGraph:
    def test_covers_every_layer(self) -> None:
        assert {layer(m) for m in GRAPH} == {*LAYERS, None}
        assert set(GRAPH) == set(installed_modules()) | {"irprops.__main__"}  # the source read is the package imported

    def test_has_no_import_against_the_layers(self) -> None:
        assert violations(GRAPH) == []

    def test_the_search_and_the_proofs_never_import_each_other(self) -> None:
        for module, targets in GRAPH.items():
            if layer(module) == "irprops.properties":
                assert not any(t.startswith("irprops.proofs") for t in targets), module
            if layer(module) == "irprops.proofs":
                assert not any(t.startswith("irprops.properties") for t in targets), module

    def test_the_orchestration_is_where_search_and_proofs_meet(self) -> None:
        assert {"irprops.properties", "irprops.proofs"} <= GRAPH["irprops.checking"]


class TestTheCheckerItself:
    """The graph check must be able to fail: each of these edges is one it has to reject."""

    @pytest.mark.parametrize(("module", "target"), [
        ("irprops.properties.search", "irprops.proofs"),
        ("irprops.proofs.weighted", "irprops.properties.verdict"),
        ("irprops.proofs.lemma", "irprops.checking"),
        ("irprops.verdicts", "irprops.properties.base"),
        ("irprops.metrics.registry", "irprops.verdicts"),
        ("irprops.properties.base", "irprops"),
        ("irprops.table.compute", "metrics"),
    ])
    def test_rejects_an_import_against_the_layers(self, module: str, target: str) -> None:
        assert violations({module: {target}}) != []

    def test_sees_imports_inside_functions_and_resolves_relative_ones(self, tmp_path: Path) -> None:
        source = tmp_path / "search.py"
        source.write_text("def f():\n    from irprops.proofs import prove\n    from ..metrics import exact\n    from . import base\n")
        assert imports("irprops.properties.search", source) == {"irprops.proofs", "irprops.metrics", "irprops.properties.base"}
