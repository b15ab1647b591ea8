"""A report as Markdown: the profile, the target beside its nearest metrics, every counterexample as a small table a
reader can check by hand, every proof as its lemma chain, and the sources (the figures are linked, not inlined)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from irprops.properties import PROPERTIES
from irprops.table.render_text import HEADERS
from irprops.verdicts import Prop, Verdict, ranking_text

from .content import decimal, standing

if TYPE_CHECKING:
    from . import Report
    from .content import Counterexample, ProofEntry

__all__ = ["alike", "intro", "markdown", "one_line", "score_rows", "shown_verdict"]

WORD = {"yes": "Yes", "no": "No", "unknown": "Unknown"}


def one_line(text: str) -> str:
    """A name as one line (a declared name may hold a newline): every run of white space one space."""
    return " ".join(text.split())


def shown_verdict(verdict: Verdict) -> str:
    """A cell of a table of metrics: ``Yes``, ``No``, ``Unknown``, or ``Yes (k <= 20)`` for a proof that reaches only so
    far (not the same as a "yes" for every k)."""
    cell = standing(verdict)
    return WORD[verdict.verdict] + (f" ({cell.partition(', ')[2]})" if ", " in cell else "")


def alike(report: Report) -> str:
    """What a neighbour that differs nowhere shares with the target: its profile, or only the properties checked."""
    checked = len(report.result.verdicts)
    return "same profile" if checked == len(Prop) else f"same on the {checked} properties checked"


def _qrels(where: Mapping[str, object]) -> str:
    """The qrels of a situation, and N (the collection's judged nonrelevant documents) where the situation gives it."""
    qrels = "{" + ",".join(map(str, where["qrels"])) + "}"  # type: ignore[call-overload]
    return qrels + (f", N = {where['N']}" if where.get("N") is not None else "")


def intro(report: Report) -> str:
    """The paragraph that says what was checked and how to re-check it."""
    return (f"irprops checked this {report.kind} (over {report.result.relevance} situations) against the seven "
            "numeric properties of Moffat (AIRS 2013). Every No below carries a counterexample to check by hand "
            "(exact scores, or floats where the target returns floats); every Yes a proof, with its reach and its "
            "trusted base, and its solver certificates in certificates/ (re-check them with "
            "`irprops certificates --recheck --out certificates`). Unknown means neither was found: the reach says how "
            "far the search looked.")


def score_rows(c: Counterexample) -> list[tuple[str, str, str, str, str, str]]:
    """(role, k, ranking, qrels, exact, decimal) for each score the counterexample rests on; boundedness's witness (a
    proof's instance) gives its one situation and value."""
    rows = []
    for s in c.scores:
        where = s.situation
        rows.append((s.role, str(where["k"]), ranking_text(where["ranking"]), _qrels(where),
                     s.shown() if s.exact is not None else ("undefined" if s.value is None else "(float)"), decimal(s)))
    if not rows and "value" in c.data:
        d = c.data
        rows.append((f"above M = {d['bound']}", str(d["k"]), ranking_text(d["ranking"]), _qrels(d),  # type: ignore[arg-type]
                     str(d["value"]), "see the exact value"))
    return rows


def _cell(text: str) -> str:
    """Text for a Markdown table cell or heading: a bar cannot end the cell, a line break cannot end the row."""
    return text.replace("|", "\\|").replace("\n", " ")


def _name(text: str) -> str:
    """A name in Markdown as it was written: on one line, its bars and backticks escaped (not a code span)."""
    return _cell(one_line(text)).replace("`", "\\`")


def _profile(report: Report) -> list[str]:
    lines = ["| Property | Verdict | Reach | Reason |", "|---|---|---|---|"]
    lines += [f"| {PROPERTIES[c.prop].title} | **{WORD[c.verdict]}** [{c.mark}] | {_cell(c.reach)} | {_cell(c.reason)} |"
              for c in report.cells]
    return lines


def _beside(report: Report) -> list[str]:
    columns = list(report.result.verdicts)
    head = "| Metric | " + " | ".join(HEADERS[p] for p in columns) + " | Differs in |"
    lines = [head, "|---" * (len(columns) + 2) + "|"]
    lines.append(f"| **{_name(report.name)}** | " + " | ".join(f"**{shown_verdict(report.result.verdicts[p])}**" for p in columns)
                 + " | |")
    for n in report.neighbours:
        cells = [(f"*{shown_verdict(n.result.verdicts[p])}*" if p in n.differs else shown_verdict(n.result.verdicts[p]))
                 if p in n.result.verdicts else "" for p in columns]
        differs = ", ".join(HEADERS[p] for p in n.differs) or alike(report)
        lines.append(f"| {_name(n.name)}{' (chosen)' if n.chosen else ''} | " + " | ".join(cells) + f" | {differs} |")
    return lines


def _counterexample(report: Report, c: Counterexample, figures: Mapping[str, str]) -> list[str]:
    lines = [f"### {c.title}: No", "", f"Statement: `{c.statement}`.", "",
             "| | k | ranking | qrels | score (exact) | score (decimal) |", "|---|---|---|---|---|---|"]
    lines += [f"| {_cell(role)} | {k} | `{ranking}` | {qrels} | {_cell(exact)} | {value} |"
              for role, k, ranking, qrels, exact, value in score_rows(c)]
    lines += ["", f"Instantiated: {c.instance}.", ""]
    if c.caveat:
        lines += [f"{c.caveat}.", ""]
    if c.numerical:
        lines += ["The scores are the target's floats (numerical evidence), not exact values.", ""]
    if f"-{c.prop.value}" in figures:
        lines += [f"![{c.title}: the counterexample]({report.stem}-{c.prop.value}.svg)", ""]
    return lines


def _proof(p: ProofEntry) -> list[str]:
    over = f", {p.parameters}" if p.parameters else ""
    lines = [f"### {PROPERTIES[p.prop].title}: {WORD[p.conclusion]}, proved for {p.reach}{over}", ""]
    for n, lemma in enumerate(p.lemmas, start=1):
        cert = f", `certificates/{lemma.certificate}`" if lemma.certificate else ""
        used = f" (used: {', '.join(lemma.used)})" if lemma.used else ""
        lines.append(f"{n}. **{lemma.name}** ({lemma.method}{cert}): {_cell(lemma.statement)}{used}")
    lines += ["", f"Trusted base: {'; '.join(p.trusted)}.", "", f"Cross-check: {p.cross_check}.", ""]
    return lines


def markdown(report: Report, figures: Mapping[str, str]) -> str:
    lines = [f"# {_name(report.name)}: the seven properties of Moffat (AIRS 2013)", "", intro(report), "",
             f"![{_name(report.name)} beside the metrics nearest it]({report.stem}.svg)", "",
             "## Profile", "", *_profile(report), ""]
    if report.result.implementation is not None:
        lines += [f"Scored through the toolkit: {report.result.implementation.line()}.", ""]
    lines += ["## Beside the nearest metrics", "",
              ("The catalog's metrics with the same profile or one or two cells away (irprops' own verdicts on them), and "
              "any chosen with `--compare-with`; a cell in italics differs from the target's. A picture: "
              f"`{report.stem}.svg`; a table to `\\input`: `{report.stem}-table.tex`."), "", *_beside(report), ""]
    lines += ["## Counterexamples", ""]
    for c in report.counterexamples:
        lines += _counterexample(report, c, figures)
    if not report.counterexamples:
        lines += ["None: no property was refuted.", ""]
    lines += ["## Proofs", ""]
    for p in report.proofs:
        lines += _proof(p)
    if not report.proofs:
        lines += ["None: " + ("a black box or a toolkit's metric is only searched, never proved (declare a closed form to "
                              "get proofs)." if report.kind in ("black box", "toolkit metric") else "no cell was proved."), ""]
    lines += ["## Sources", "", f"BibTeX in `{report.stem}.bib`: " + ", ".join(f"`{e.key}`" for e in report.sources) + ".", ""]
    return "\n".join(lines)
