"""A write-up of one checked target, for a paper: ``irprops check TARGET --report DIR``.

:func:`build` gathers what a report says (:mod:`.content`: the profile, the counterexamples, the proofs; :mod:`.neighbours`:
the catalog metrics with the same profile or one or two cells away, and the metrics the user chose to compare with;
:mod:`.sources`: what to cite). :func:`write` renders it into ``DIR/<name>.{md,tex,html,json}``, with beside them
``<name>.bib``, ``<name>-table.tex`` (a booktabs table to ``\\input``), ``<name>.svg`` (the profile beside its
neighbours), one SVG per counterexample that a picture shows (``<name>-monotonic.svg``: the score against k;
``<name>-realizable.svg``: the scores of the arrangements) and ``certificates/`` (the SMT-LIB files of every proof, with
their MANIFEST, re-checkable by ``irprops certificates --recheck --out DIR/certificates``), so the folder is
self-contained.

>>> import tempfile, pathlib
>>> from irprops.checking import check
>>> report = build(check("P", ["monotonic", "convergent"]), catalog={})
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> sorted(p.name for p in write(report, out, ["md"]))
['P-monotonic.svg', 'P-table.tex', 'P.bib', 'P.md', 'P.svg', 'certificates']
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from irprops.files import uninterrupted, write_atomically
from irprops.metrics import InputError, Measure, parse
from irprops.verdicts import CheckResult, Prop

from .content import Cell, Counterexample, Kind, ProofEntry, counterexamples, decimal, kind, profile, proofs
from .neighbours import Neighbour, nearest, parse_names
from .sources import Entry, cited

__all__ = ["FORMATS", "Report", "build", "catalog_results", "chosen_results", "parse_formats", "parse_names", "write"]

FORMATS = ("md", "tex", "html", "json")
"""The report's formats, in the order ``--format`` lists them."""


@dataclass(frozen=True)
class Report:
    """Everything a report on one target shows, as typed values (the renderers only lay it out)."""

    result: CheckResult
    kind: Kind
    cells: tuple[Cell, ...]
    counterexamples: tuple[Counterexample, ...]
    proofs: tuple[ProofEntry, ...]
    neighbours: tuple[Neighbour, ...]
    sources: tuple[Entry, ...]
    certificates: Mapping[str, str]
    """The SMT-LIB text of every certificate a proof cites, by its path (relative to ``certificates/``)."""

    @property
    def name(self) -> str:
        return self.result.metric

    @property
    def stem(self) -> str:
        """The file name stem: the target's name with each run of characters other than letters and digits made ``-``
        (``RBP(p=0.8)`` is ``RBP-p-0-8``), which every file system and LaTeX's ``\\input`` take as they are."""
        return re.sub(r"[^A-Za-z0-9]+", "-", self.name.rpartition("/")[2]).strip("-") or "report"

    def rows(self) -> list[tuple[str, Mapping[Prop, object]]]:
        """The target and its neighbours as table rows: (name, verdicts)."""
        return [(self.name, self.result.verdicts), *((n.name, n.result.verdicts) for n in self.neighbours)]


def build(result: CheckResult, catalog: Mapping[str, CheckResult], chosen: Mapping[str, CheckResult] | None = None) -> Report:
    """The report on ``result``, beside the ``catalog`` metrics near it and the ``chosen`` ones."""
    neighbours = tuple(nearest(result, catalog, chosen))
    references = [m.metric.reference for m in _measures(result, neighbours)]
    toolkits = [result.implementation.toolkit] if result.implementation is not None else []
    return Report(result, kind(result), tuple(profile(result)), tuple(counterexamples(result)), tuple(proofs(result)),
                  neighbours, tuple(cited(references, toolkits)), _certificates(result))


def _measures(result: CheckResult, neighbours: Iterable[Neighbour]) -> Iterator[Measure]:
    """The declared metrics shown: the target's own (when it is one), then each neighbour's (a catalog row read from the
    cache has no measure: its name is parsed again)."""
    if result.measure is not None:
        yield result.measure
    for n in neighbours:
        yield n.result.measure if n.result.measure is not None else parse(n.name)


def _certificates(result: CheckResult) -> dict[str, str]:
    """The SMT-LIB text of each certificate the proofs of ``result`` cite, written again from the same proofs (the proof
    layer keeps them per declaration, so this re-proves nothing the check proved)."""
    if result.measure is None:
        return {}
    from irprops.proofs import Proof, prove
    from irprops.proofs.smt import smt2

    found: dict[str, str] = {}
    for p, verdict in result.verdicts.items():
        if not verdict.settled_by_proof or verdict.proof is None or not verdict.proof.certificates:
            continue
        proof = prove(result.measure, p)
        if not isinstance(proof, Proof):
            continue
        texts = {ob.path: smt2(ob) for ob in proof.obligations}
        for path in verdict.proof.certificates:
            if path in texts:
                found[path] = texts[path]
    return dict(sorted(found.items()))


def catalog_results(workers: int = 2, done: Callable[[str, bool], None] | None = None) -> dict[str, CheckResult]:
    """The verdicts on every catalog metric, by catalog name, from the table's cache (computed where it is cold, as
    ``irprops table --catalog`` does)."""
    from irprops.table import catalog_rows
    from irprops.table.compute import compute
    from irprops.table_output import default_cache

    measures = catalog_rows()
    found = compute([m.name for m in measures.values()], workers, default_cache(), done)
    return {key: found[m.name] for key, m in measures.items()}


def chosen_results(text: str | None, workers: int = 2) -> dict[str, CheckResult]:
    """The verdicts on the metrics of ``--compare-with`` (through the table's cache), by the name the user gave."""
    if not text:
        return {}
    from irprops.table.compute import compute
    from irprops.table_output import default_cache

    measures = parse_names(text)
    found = compute([m.name for m in measures], workers, default_cache())
    return {m.name: found[m.name] for m in measures}


def parse_formats(text: str | None) -> list[str]:
    """``--format md,html`` as a list; every format when none is given (None)."""
    if text is None:
        return list(FORMATS)
    chosen = [f.strip().lower().lstrip(".") for f in text.split(",") if f.strip()]
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown or not chosen:
        raise InputError("--format", text, f"the formats are {', '.join(FORMATS)}", "e.g. --format md,html")
    return [f for f in FORMATS if f in chosen]


OWNER = ".irprops-report.json"
"""The file in a report folder that says which target's report it holds and which files that report wrote."""


def _previous(out: Path) -> dict[str, object] | None:
    """What the report already in ``out`` wrote (:data:`OWNER`), or None where there is none (or it cannot be read)."""
    try:
        found = json.loads((out / OWNER).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and isinstance(found.get("target"), str) and isinstance(found.get("files"), list) else None


def write(report: Report, out: Path, formats: Iterable[str] = FORMATS) -> list[Path]:
    """Write the report's files into ``out`` (created if need be) and return their paths, each replaced whole.

    A folder holds one report: one on another target is an :class:`InputError` (nothing is written), and the files an
    earlier report on the same target wrote are removed first, so that none of them (a format not asked for again, a
    figure of a counterexample gone, a certificate no proof cites) is left to contradict the new one.
    """
    from . import pictures, render_html, render_md, render_tex

    previous = _previous(out)
    if previous is not None and previous["target"] != report.name:
        raise InputError("--report", str(out), f"holds the report on {previous['target']!r}",
                         "give another folder (a folder holds one report), or remove that one first")
    figures = pictures.figures(report)
    texts: dict[str, str] = {f"{report.stem}.bib": "\n".join(e.text() for e in report.sources),
                             f"{report.stem}-table.tex": render_tex.table(report)}
    texts.update({f"{report.stem}{suffix}.svg": svg for suffix, svg in figures.items()})
    render = {"md": lambda: render_md.markdown(report, figures), "tex": lambda: render_tex.document(report, figures),
              "html": lambda: render_html.html(report, figures), "json": lambda: json.dumps(to_json(report, figures), indent=1) + "\n"}
    for fmt in formats:
        texts[f"{report.stem}.{fmt}"] = render[fmt]()
    certificates = {f"certificates/{path}": text for path, text in report.certificates.items()}
    files = sorted({**texts, **certificates})
    _no_links(out, [*files, "certificates/MANIFEST"])
    out.mkdir(parents=True, exist_ok=True)
    with uninterrupted():
        if previous is not None:
            _remove(out, [str(name) for name in previous["files"]])  # type: ignore[attr-defined]
        for name, text in {**texts, **certificates}.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            write_atomically(out / name, text)
        _manifest(out / "certificates", list(report.certificates))
        write_atomically(out / OWNER, json.dumps({"target": report.name, "files": [*files, "certificates/MANIFEST"]}, indent=1) + "\n")
    return sorted({out / name.split("/")[0] for name in files} | {out / "certificates"})


def _remove(out: Path, names: list[str]) -> None:
    """Remove the files an earlier report wrote (only files inside ``out``), and the folders of certificates they leave
    empty."""
    root = out.resolve()
    for name in names:
        path = (out / name).resolve()
        if root in path.parents and path.is_file():
            path.unlink()
    for folder, _, _ in os.walk(out / "certificates", topdown=False):  # the deepest first; a link to a folder is not entered
        here = Path(folder)
        if here != out / "certificates" and not here.is_symlink() and not any(here.iterdir()):
            here.rmdir()


def _no_links(out: Path, names: Iterable[str]) -> None:
    """Refuse a folder on the way to a file of the report that is a symbolic link (``certificates`` linked elsewhere):
    the report would write, and remove, outside its folder through it."""
    for name in names:
        here = out
        for part in Path(name).parts[:-1]:
            here = here / part
            if here.is_symlink():
                raise InputError("--report", str(out), f"{here.relative_to(out)} is a symbolic link, and a report writes only "
                                 "inside its folder", "remove the link, or give another folder")


def _manifest(folder: Path, paths: list[str]) -> None:
    """The certificates' MANIFEST (what ``irprops certificates --recheck --out`` reads); an empty folder says why."""
    from irprops.proofs.recheck import write_manifest

    folder.mkdir(parents=True, exist_ok=True)
    write_manifest(folder, [folder / p for p in paths])


def to_json(report: Report, figures: Mapping[str, str] | None = None) -> dict[str, object]:
    """The report as one JSON object: ``{"target", "kind", "relevance", "profile", "counterexamples", "proofs",
    "neighbours", "check", "figures", "sources"}`` (``check`` is ``irprops check --json``'s object)."""
    return {
        "target": report.name,
        "kind": report.kind,
        "relevance": report.result.relevance,
        "profile": [{"property": str(c.prop), "verdict": c.verdict, "reach": c.reach, "reason": c.reason, "mark": c.mark}
                    for c in report.cells],
        "counterexamples": [{"property": str(c.prop), "statement": c.statement, "instance": c.instance, "witness": c.data,
                             "numerical": c.numerical,
                             "scores": [{**s.to_record(), "decimal": decimal(s)} for s in c.scores], "caveat": c.caveat}
                            for c in report.counterexamples],
        "proofs": [{"property": str(p.prop), "conclusion": p.conclusion, "reach": p.reach, "parameters": p.parameters,
                    "lemmas": [lemma.to_record() for lemma in p.lemmas], "trusted": list(p.trusted),
                    "cross_check": p.cross_check, "certificates": [f"certificates/{c}" for c in p.certificates]}
                   for p in report.proofs],
        "neighbours": [{"metric": n.name, "chosen": n.chosen, "differs": [str(p) for p in n.differs],
                        "verdicts": {str(p): v.verdict for p, v in n.result.verdicts.items()}} for n in report.neighbours],
        "check": report.result.to_json(),
        "figures": [f"{report.stem}{suffix}.svg" for suffix in (figures or {})],
        "sources": [e.key for e in report.sources],
    }
