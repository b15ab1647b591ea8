"""A hash of the code behind a result: the source files of the modules that can change it and the versions pinned.

The table's caches are keyed by it (:mod:`irprops.table.compute` for each row,
:mod:`irprops.table_output` for a whole table's output), so that any change to a definition, a
checker or a renderer computes again. The modules are found, not imported: a warm table imports
neither the metrics nor the checkers.

>>> [name for name, _ in source_roots()] == list(SOURCES)
True
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from collections.abc import Sequence
from pathlib import Path

__all__ = ["SOURCES", "VERSIONED", "fingerprint", "source_roots"]

SOURCES = ("irprops.metrics", "irprops.verdicts", "irprops.properties", "irprops.proofs", "irprops.checking")
"""The modules and packages whose source can change a verdict (wherever they are installed)."""
VERSIONED = ("sympy", "mpmath", "hypothesis", "z3-solver", "cvc5")
"""The distributions whose versions can change a verdict."""


def source_roots(names: Sequence[str] = SOURCES) -> list[tuple[str, Path]]:
    """(module name, its package folder or its file) of each of ``names``, from where Python finds them.

    So the fingerprint follows the code that runs, in a checkout or in site-packages alike.
    """
    roots = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ImportError(f"{name} is not installed with irprops")
        origin = Path(spec.origin)
        roots.append((name, origin.parent if spec.submodule_search_locations is not None else origin))
    return roots


def fingerprint(roots: Sequence[tuple[str, Path]], *extra: str) -> str:
    """A hash of every Python file under ``roots`` (by name and content), the ``extra`` texts, the pinned versions and
    whether cvc5 can be imported."""
    digest = hashlib.sha256()
    for name, root in roots:  # regular files only: an editor's lock link (.#cli.py) is not a source (helper-75)
        for path in sorted(p for p in root.rglob("*.py") if p.is_file()) if root.is_dir() else [root]:
            digest.update(f"{name}/{path.relative_to(root).as_posix() if root.is_dir() else ''}".encode())
            digest.update(path.read_bytes())
    for text in extra:
        digest.update(text.encode())
    for name in VERSIONED:
        try:
            digest.update(f"{name}=={importlib.metadata.version(name)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{name} absent".encode())
    # whether the proofs can cross-check with cvc5 is asked of the import system, which may disagree with the
    # installed metadata (a build on PYTHONPATH, metadata left behind): the key asks as they do (helper-75)
    digest.update(f"cvc5 importable={importlib.util.find_spec('cvc5') is not None}".encode())
    return digest.hexdigest()
