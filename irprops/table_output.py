"""A table's whole output, kept: what a warm ``irprops table`` writes and prints, without building the table again.

A built table is rendered into its report files (Markdown, LaTeX, CSV, JSON, HTML, two SVG
figures) and a summary the command prints (the rows' cells, the agreement with the paper, the
number of combinations). :func:`store` keeps both in the cache under a key of every source file of
irprops (the checkers behind each verdict, the table, the renderers, the command line), the pinned
versions of the solvers, the computer algebra and Hypothesis, Python's version and the options that
shape the output (``--order`` as written, ``--catalog``; :func:`kept_at`); :func:`lookup` gives them back
when the key is the same, so that a warm table imports neither the metrics nor the checkers (nor SymPy). Any change
to any of those makes a new key; a file that does not read back as what was stored is not used. Only
a table built from options that were valid is stored, so an ``--order`` found here needs no check.

>>> import tempfile; from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     kept = Output({"table2.md": "| Metric |"}, ("Metric", "Bounded"), (("P", ("yes",)),), 91, 91, 10, 13)
...     store(kept_at(Path(folder), "bounded", False), kept)
...     lookup(kept_at(Path(folder), "bounded", False)) == kept, lookup(kept_at(Path(folder), "monotonic", False))
(True, None)
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irprops.files import cache_home, uninterrupted, write_atomically
from irprops.fingerprint import fingerprint, source_roots

__all__ = ["Output", "default_cache", "kept_at", "lookup", "roots", "store", "write"]


@dataclass(frozen=True)
class Output:
    """What ``irprops table`` writes and prints."""

    files: dict[str, str]
    """The report files by name (``table2.md``, ...), as written."""
    headers: tuple[str, ...]
    """The printed table's column headers, the metric's first."""
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    """(label, the cells as printed: verdict and footnote letters), in display order."""
    agree: int
    cells: int
    combinations: int
    count: int
    """The metrics checked."""

    def to_record(self) -> dict[str, Any]:
        return {"files": self.files, "headers": list(self.headers), "rows": [[label, list(cells)] for label, cells in self.rows],
                "agree": self.agree, "cells": self.cells, "combinations": self.combinations, "count": self.count}

    @staticmethod
    def from_record(record: dict[str, Any]) -> Output:
        return Output({str(k): str(v) for k, v in record["files"].items()}, tuple(map(str, record["headers"])),
                      tuple((str(label), tuple(map(str, cells))) for label, cells in record["rows"]),
                      int(record["agree"]), int(record["cells"]), int(record["combinations"]), int(record["count"]))


def default_cache() -> Path:
    """The folder of the table's caches: its rows' checks, what a table computes from them, and its whole output."""
    return cache_home() / "table"


def roots() -> list[tuple[str, Path]]:
    """What the key of a kept output hashes: the checkers' sources and the whole ``irprops`` package (the table, its
    renderers, the command line), wherever they are installed."""
    spec = importlib.util.find_spec("irprops")
    assert spec is not None and spec.origin is not None
    return [*source_roots(), ("irprops", Path(spec.origin).parent)]


def kept_at(cache: Path, order: str | None, catalog: bool) -> Path:
    """Where the output for these options (``--order`` as written, or None) and the code as it is now is kept: worked
    out before a table is built, and again after it, so that an output is kept only under the code that made it."""
    key = fingerprint(roots(), json.dumps([list(sys.version_info[:2]), order, catalog]))
    return cache / f"output-{hashlib.sha256(key.encode()).hexdigest()}.json"


def lookup(path: Path) -> Output | None:
    """The output kept at ``path`` (:func:`kept_at`), or None (none kept, or a file that does not read back)."""
    try:
        record = json.loads(path.read_text())
        found = Output.from_record(record)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None
    if any(Path(name).name != name or name.startswith(".") for name in found.files):  # written into --out: names only
        return None
    return found if json.loads(json.dumps(found.to_record())) == record else None


def store(path: Path, output: Output) -> None:
    """Keep ``output`` at ``path`` (:func:`kept_at`)."""
    write_atomically(path, json.dumps(output.to_record()))


def write(output: Output, out: Path) -> list[Path]:
    """Write the report files into ``out``, each replaced whole, all of them together (Ctrl-C waits)."""
    written = [out / name for name in output.files]
    with uninterrupted():
        for path, text in zip(written, output.files.values(), strict=True):
            write_atomically(path, text)
    return written
