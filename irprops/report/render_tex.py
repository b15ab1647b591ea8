"""A report as LaTeX: ``table`` is the target as a row of Table 2 beside its nearest metrics (a booktabs table to
``\\input``), ``document`` the whole report as an article that compiles with pdflatex from a standard TeX distribution
(booktabs, tabularx and array, geometry; the default fonts), next to the report's ``.bib`` file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from irprops.properties import PROPERTIES
from irprops.table.render_tex import escape, plain
from irprops.table.render_text import HEADERS
from irprops.verdicts import Verdict

from .content import standing
from .render_md import WORD, intro, one_line, score_rows

if TYPE_CHECKING:
    from . import Report
    from .content import Counterexample, ProofEntry

__all__ = ["document", "name", "table", "tex"]

CHUNK = 12
"""Characters of code after which a line may break (a long ranking or exact value must not overflow its column)."""


BOLD = "\\bfseries "
NAME_CHUNK = 6
"""Characters of a metric's name after which it may break in a table's first column."""

BREAK = "\x00"
"""Marks where a long run of characters may break (it passes through the escaping untouched)."""


def _breakable(text: str, chunk: int = CHUNK) -> str:
    """``text`` with a break mark every ``chunk`` characters of any run longer than that without a space (a long exact
    value such as a rational of a hundred digits)."""
    return " ".join(BREAK.join(word[i:i + chunk] for i in range(0, len(word), chunk)) if len(word) > chunk else word
                    for word in text.split(" "))


def tex(text: str) -> str:
    r"""Text for a LaTeX paragraph: code spans (`...`) in typewriter type; every long run of characters breakable.

    >>> print(tex("`10101010101010` scores 1/2 & more"))
    \texttt{101010101010}\allowbreak{}\texttt{10} scores 1/2 \& more
    """
    text = one_line(text) if "\n" in text else text
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return name(text)
    out = []
    for n, part in enumerate(parts):
        if n % 2 == 0:
            out.append(escape(_breakable(part)).replace(BREAK, r"\allowbreak{}"))
        else:
            chunks = [part[i:i + CHUNK] for i in range(0, len(part), CHUNK)] or [""]
            out.append(r"\allowbreak{}".join(f"\\texttt{{{plain(chunk)}}}" for chunk in chunks))
    return "".join(out)


def name(text: str, chunk: int = CHUNK) -> str:
    r"""A name as it was written (every character as itself, on one line), breakable in long runs.

    >>> print(name("a`b`_c"))
    a\`{}b\`{}\_c
    """
    return plain(_breakable(one_line(text), chunk)).replace(BREAK, r"\allowbreak{}")


def _metric(text: str) -> str:
    """A metric's name in the first column of a table: a box under a fifth of the text wide (what the seven columns
    leave of a paper's 345 pt), wrapping a long name (base LaTeX only: the table needs no package beyond booktabs)."""
    return f"\\parbox[t]{{0.18\\linewidth}}{{\\raggedright {text}}}"


def _verdict(verdict: Verdict) -> str:
    r"""A cell of a table of metrics: ``Yes``, ``No``, ``Unknown``, or ``Yes$^{\le 20}$`` for a proof for k <= 20 only."""
    cell = standing(verdict)
    word = "?" if verdict.verdict == "unknown" else WORD[verdict.verdict]  # "Unknown" would widen its column past the page
    return word + (f"$^{{\\le {cell.rpartition(' ')[2]}}}$" if ", " in cell else "")


def _code(text: str) -> str:
    return tex(f"`{text}`") if "`" not in text else tex(text)


def _listed(text: str) -> str:
    """A comma-separated list (qrels ``{1,1/2}``), breakable after each comma."""
    return escape(text).replace(",", ",\\allowbreak{}")


def table(report: Report) -> str:
    """The target (in bold) and its neighbours over the properties, a cell that differs from the target's in italics.

    Sized for a paper's text width (345 pt, as LNCS and the article class have it): small type, narrow gaps, and the
    metric names in a column that wraps.
    """
    columns = list(report.result.verdicts)
    shown = [report.result, *(n.result for n in report.neighbours)]
    bounded = any(", " in standing(v) for result in shown for v in result.verdicts.values())
    reach = " (a superscript $\\le K$: proved for $k \\le K$ only)" if bounded else ""
    unknown = "; ? neither proved nor refuted" if any(v.verdict == "unknown" for r in shown for v in r.verdicts.values()) else ""
    lines = [
        f"% {one_line(report.name)} beside the metrics nearest it, written by irprops check --report. Needs \\usepackage{{booktabs}}.",
        "\\begin{table}",
        "\\centering",
        (f"\\caption{{{name(report.name)} beside the metrics nearest it over the properties of Moffat (AIRS 2013): every Yes "
         f"is proved{reach}, every No has a counterexample (exact, or the target's floats where the report says so); a cell "
         f"in italics differs from the first row's{unknown}.}}"),
        f"\\label{{tab:irprops-{''.join(ch for ch in report.stem if ch.isalnum() or ch == '-')}}}",
        "\\footnotesize\\setlength{\\tabcolsep}{3pt}%",
        f"\\begin{{tabular}}{{@{{}}l{'c' * len(columns)}@{{}}}}",
        "\\toprule",
        "Metric & " + " & ".join(escape(HEADERS[p]) for p in columns) + " \\\\",
        "\\midrule",
        f"{_metric(BOLD + name(report.name, NAME_CHUNK))} & "
        + " & ".join(f"\\textbf{{{_verdict(report.result.verdicts[p])}}}" for p in columns) + " \\\\",
    ]
    if report.neighbours:
        lines.append("\\midrule")
    for n in report.neighbours:
        cells = [(f"\\textit{{{_verdict(n.result.verdicts[p])}}}" if p in n.differs else _verdict(n.result.verdicts[p]))
                 if p in n.result.verdicts else "" for p in columns]
        lines.append(f"{_metric(name(n.name, NAME_CHUNK) + (' (chosen)' if n.chosen else ''))} & " + " & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}", ""]
    return "\n".join(lines)


def _profile(report: Report) -> list[str]:
    lines = ["\\noindent", ("\\begin{tabularx}{\\linewidth}{@{}l l >{\\raggedright\\arraybackslash}p{0.22\\linewidth} "
             ">{\\raggedright\\arraybackslash}X@{}}"), "\\toprule", "Property & Verdict & Reach & Reason \\\\", "\\midrule"]
    lines += [f"{escape(PROPERTIES[c.prop].title)} & {WORD[c.verdict]} [{escape(c.mark)}] & {tex(c.reach)} & {tex(c.reason)} \\\\"
              for c in report.cells]
    return [*lines, "\\bottomrule", "\\end{tabularx}", ""]


def _counterexample(c: Counterexample) -> list[str]:
    lines = [f"\\subsection*{{{escape(c.title)}: No}}", f"Statement: {tex('`' + c.statement + '`')}.", "",
             "\\noindent", ("\\begin{tabularx}{\\linewidth}{@{}>{\\raggedright\\arraybackslash}p{0.2\\linewidth} r "
             ">{\\raggedright\\arraybackslash}p{0.16\\linewidth} >{\\raggedright\\arraybackslash}p{0.1\\linewidth} "
             ">{\\raggedright\\arraybackslash}X r@{}}"),
             "\\toprule", " & $k$ & ranking & qrels & score (exact) & decimal \\\\", "\\midrule"]
    lines += [f"{tex(role)} & {k} & {_code(ranking)} & {_listed(qrels)} & {_code(exact)} & {tex(value)} \\\\"
              for role, k, ranking, qrels, exact, value in score_rows(c)]
    lines += ["\\bottomrule", "\\end{tabularx}", "", f"Instantiated: {tex(c.instance)}.", ""]
    if c.caveat:
        lines += [f"{tex(c.caveat)}.", ""]
    if c.numerical:
        lines += ["The scores are the target's floats (numerical evidence), not exact values.", ""]
    return lines


def _proof(p: ProofEntry) -> list[str]:
    over = f", {p.parameters}" if p.parameters else ""
    lines = [f"\\subsection*{{{escape(PROPERTIES[p.prop].title)}: {WORD[p.conclusion]}, proved for {tex(p.reach)}{tex(over)}}}",
             "\\begin{enumerate}"]
    for lemma in p.lemmas:
        cert = f", {_code('certificates/' + lemma.certificate)}" if lemma.certificate else ""
        used = f" (used: {tex(', '.join(lemma.used))})" if lemma.used else ""
        lines.append(f"\\item \\textbf{{{tex(lemma.name)}}} ({escape(lemma.method)}{cert}): {tex(lemma.statement)}{used}")
    lines += ["\\end{enumerate}", f"Trusted base: {tex('; '.join(p.trusted))}.", "", f"Cross-check: {tex(p.cross_check)}.", ""]
    return lines


def document(report: Report, figures: Mapping[str, str]) -> str:
    """The whole report as a LaTeX article (``pdflatex NAME.tex`` in the report's folder; ``bibtex NAME`` for the
    references). The figures are the SVG files beside it."""
    lines = ["\\documentclass[11pt]{article}",
             "\\usepackage[margin=2.5cm]{geometry}", "\\usepackage{booktabs}", "\\usepackage{array}", "\\usepackage{tabularx}",
             f"\\title{{{name(report.name)}: the seven properties of Moffat (AIRS 2013)}}", "\\author{irprops}", "\\date{}",
             "\\begin{document}", "\\maketitle", "\\sloppy", "", tex(intro(report)) + " \\nocite{*}", "",
             "\\section*{Profile}", *_profile(report)]
    if report.result.implementation is not None:
        lines += [f"Scored through the toolkit: {tex(report.result.implementation.line())}.", ""]
    lines += ["\\section*{Beside the nearest metrics}",
              "The catalog's metrics with the same profile or one or two cells away (irprops' own verdicts on them), and "
              "any chosen to compare with (Table~\\ref{tab:irprops-" + "".join(ch for ch in report.stem if ch.isalnum() or ch == "-")
              + "}).", f"\\input{{{report.stem}-table}}", "", "\\section*{Counterexamples}"]
    for c in report.counterexamples:
        lines += _counterexample(c)
        if f"-{c.prop.value}" in figures:
            lines += [f"A picture of it: {_code(report.stem + '-' + c.prop.value + '.svg')}.", ""]
    if not report.counterexamples:
        lines += ["None: no property was refuted.", ""]
    lines += ["\\section*{Proofs}"]
    for p in report.proofs:
        lines += _proof(p)
    if not report.proofs:
        lines += ["None: only a declared closed form gets proofs.", ""]
    lines += ["\\bibliographystyle{plain}", f"\\bibliography{{{report.stem}}}", "\\end{document}", ""]
    return "\n".join(lines)
