"""Table 2 of Moffat (AIRS 2013), regenerated from the metrics' definitions.

:func:`build` checks the thirteen metrics (search, proofs, cvc5 cross-check; in parallel,
cached), computes the footnotes and the summary claims, compares with the published table,
and orders the rows as Section 6 describes: by their Yes/No pattern read left to right over
the columns, No before Yes (ties keep the paper's listing). :func:`write` renders the
result into Markdown, LaTeX, CSV, JSON and HTML.

The rows are the paper's (which metrics, under which labels: reference data); every
verdict comes from the definitions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irprops.files import uninterrupted, write_atomically
from irprops.metrics import REGISTRY, Measure, in_catalog
from irprops.properties.reference import TABLE_2
from irprops.table_output import default_cache
from irprops.verdicts import COLUMNS, CheckResult, Prop

from . import footnotes as footnotes_module
from . import render_text
from .claims import claims, comparison, conflict_theorem
from .compute import compute, through_cache
from .footnotes import Footnote, footnotes
from .render_text import HEADERS

RANK = {"no": 0, "unknown": 1, "yes": 2}


@dataclass(frozen=True)
class Table2:
    """Table 2 (the paper's thirteen rows, under its labels) or, with ``catalog``, the extended table (every declared
    metric of the catalog, under its catalog name)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, CheckResult], ...]
    """(label, verdicts), in display order."""
    footnotes: tuple[Footnote, ...]
    claims: dict[str, Any]
    paper: dict[str, Any]
    catalog: bool = False
    names: tuple[tuple[str, str], ...] = ()
    """(label, the measure's full name where it has parameters: ``RBP(p=0.8)``)."""

    @property
    def stem(self) -> str:
        """The reports' file name stem: ``table2`` or ``catalog``."""
        return "catalog" if self.catalog else "table2"

    def marks(self, label: str, prop: str) -> str:
        """The footnote letters of one cell."""
        return "".join(f.letter for f in self.footnotes if (label, prop) in f.cells)

    def paper_cell(self, label: str, prop: str) -> str:
        """What the published Table 2 says of this cell ("Yes" or "No"), or "" for a metric it does not list."""
        paper_label = {r.metric: r.label for r in TABLE_2}.get(label) if self.catalog else label
        return str(self.paper["table"].get(paper_label, {}).get(prop, "")) if paper_label else ""


def rows() -> dict[str, Measure]:
    """The paper's rows: label -> the declared metric at its default parameters (RBP: p = 0.8)."""
    return {r.label: Measure(REGISTRY[r.metric], REGISTRY[r.metric].defaults()) for r in TABLE_2}


def catalog_rows() -> dict[str, Measure]:
    """The extended table's rows: every metric of irprops' catalog, by its catalog name, at its default parameters."""
    return {key: Measure(metric, metric.defaults()) for key, metric in REGISTRY.items() if in_catalog(metric.formula)}


def order(results: dict[str, CheckResult], columns: Sequence[str]) -> list[str]:
    """Labels sorted by their pattern over ``columns``, left to right, No before Yes; ties keep their order."""
    return sorted(results, key=lambda label: tuple(RANK[results[label][c].verdict] for c in columns))


def build(columns: Sequence[str] = COLUMNS, workers: int = 2, cache: Path | None = None,
          done: Callable[[str, bool], None] | None = None, *, catalog: bool = False) -> Table2:
    """Check every row (in ``workers`` processes, through ``cache``), compute the footnotes and claims, and order the rows.

    With ``catalog``, the rows are every catalog metric (:func:`catalog_rows`); the comparison with the published table
    is then made on the thirteen metrics it lists, under its labels.
    """
    measures = catalog_rows() if catalog else rows()
    by_name = compute([m.name for m in measures.values()], workers, cache, done)
    results = {label: by_name[m.name] for label, m in measures.items()}
    notes = _footnotes(measures, results, cache)
    ordered = order(results, columns)
    if catalog:
        paper_rows = {r.label: measures[r.metric] for r in TABLE_2}
        paper_results = {r.label: results[r.metric] for r in TABLE_2}
        paper = comparison(paper_results, _footnotes(paper_rows, paper_results, cache))
    else:
        paper = comparison(results, notes)
    names = tuple((label, m.name) for label, m in measures.items() if m.metric.params) if catalog else ()
    theorem = through_cache(cache, "conflict", [], [], conflict_theorem, lambda t: t, lambda record: record)
    return Table2(tuple(columns), tuple((label, results[label]) for label in ordered), tuple(notes),
                  claims(results, notes, theorem), paper, catalog, names)


def _footnotes(measures: dict[str, Measure], results: dict[str, CheckResult], cache: Path | None) -> list[Footnote]:
    """:func:`footnotes`, through the cache: a function of the definitions (the code fingerprint) and the rows."""
    inputs = [[label, measure.name, results[label].to_record()] for label, measure in measures.items()]
    return through_cache(cache, "footnotes", inputs, [footnotes_module], lambda: footnotes(measures, results),  # type: ignore[no-any-return]
                         lambda notes: [dataclasses.asdict(note) for note in notes],
                         lambda record: [Footnote(n["letter"], n["fact"], tuple(map(tuple, n["cells"])), n["paper"],
                                                  tuple(map(tuple, n["paper_cells"]))) for n in record])


def figures(table: Table2) -> dict[str, str]:
    """The table's SVG figures by file name: the verdict grid (``table2.svg``: each cell coloured by its verdict and marked
    by its evidence) and the combinations (``table2-combinations.svg``: which metrics share which combination)."""
    from irprops.figures import combinations, verdict_grid

    rows = [(render_text.metric_label(label) if not table.catalog else label, result.verdicts) for label, result in table.rows]
    columns = [Prop(c) for c in table.columns]
    what = "The catalog" if table.catalog else "Table 2"
    return {f"{table.stem}.svg": verdict_grid(rows, columns, title=f"{what}: every cell from the metrics' definitions"),
            f"{table.stem}-combinations.svg": combinations(rows, columns, title=f"{what}: the combinations of properties, "
                                                           "and the metrics that share each")}


def texts(table: Table2) -> dict[str, str]:
    """The report files by name: table2.{md,tex,csv,json,html} and its figures table2.svg and table2-combinations.svg
    (or catalog.*)."""
    from . import render_html, render_tex

    pictures = figures(table)
    return {
        f"{table.stem}.md": render_text.markdown(table),
        f"{table.stem}.tex": render_tex.latex(table),
        f"{table.stem}.csv": render_text.csv_text(table),
        f"{table.stem}.json": render_text.json_text(table),
        f"{table.stem}.html": render_html.html(table, pictures),
        **pictures,
    }


def write(table: Table2, out: Path) -> list[Path]:
    """Write :func:`texts` into ``out``, each replaced whole."""
    files = texts(table)
    written = [out / name for name in files]
    with uninterrupted():  # every text is ready: the five files are replaced together
        for path, text in zip(written, files.values(), strict=True):
            write_atomically(path, text)
    return written


__all__ = ["HEADERS", "Table2", "build", "catalog_rows", "default_cache", "figures", "order", "rows", "texts", "write"]
