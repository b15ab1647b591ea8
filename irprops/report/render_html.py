"""A report as one self-contained HTML page: no scripts, no network, the figures inline as SVG; readable at phone and
desktop widths (wide tables scroll inside their own box); every cell of the profile links to its evidence."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

from irprops.properties import PROPERTIES
from irprops.table.render_text import HEADERS

from .render_md import WORD, alike, intro, one_line, score_rows, shown_verdict

if TYPE_CHECKING:
    from . import Report
    from .content import Counterexample, ProofEntry

__all__ = ["html"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em auto; padding: 0 1em; max-width: 60em; line-height: 1.45; }
h1 { font-size: 1.5em; }
h1, h2, h3, p, li, figcaption { overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border-bottom: 1px solid #ccc; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
td.wide { min-width: 14em; }
.yes { color: #1a7f37; font-weight: 600; }
.no { color: #b42318; font-weight: 600; }
.unknown { color: #9a6700; font-weight: 600; }
.differs { font-style: italic; text-decoration: underline dotted; }
code { font-size: 0.9em; overflow-wrap: anywhere; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
.target th, .target td { background: #f6f8fa; }
"""


def _verdict(value: str, anchor: str | None = None, shown: str | None = None) -> str:
    word = f'<span class="{value}">{escape(shown or WORD[value])}</span>'
    return f'<a href="#{anchor}">{word}</a>' if anchor else word


def _code(text: str) -> str:
    """Text with Markdown code spans (`...`) as <code>."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return escape(text)
    return "".join(escape(p) if n % 2 == 0 else f"<code>{escape(p)}</code>" for n, p in enumerate(parts))


def _anchor(report: Report, prop: str) -> str | None:
    """Where a cell's evidence is: its counterexample or its proof, else its row of the profile."""
    if any(c.prop == prop for c in report.counterexamples):
        return f"counterexample-{prop}"
    if any(p.prop == prop for p in report.proofs):
        return f"proof-{prop}"
    return f"profile-{prop}"


def _profile(report: Report) -> str:
    rows = "\n".join(
        f'<tr id="profile-{c.prop.value}"><th>{escape(PROPERTIES[c.prop].title)}</th><td>{_verdict(c.verdict, _anchor(report, c.prop))} '
        f'[{escape(c.mark)}]</td><td>{_code(c.reach)}</td><td class="wide">{_code(c.reason)}</td></tr>' for c in report.cells)
    return f'<div class="scroll"><table>\n<tr><th>Property</th><th>Verdict</th><th>Reach</th><th>Reason</th></tr>\n{rows}\n</table></div>'


def _beside(report: Report) -> str:
    columns = list(report.result.verdicts)
    head = "".join(f"<th>{escape(HEADERS[p])}</th>" for p in columns)
    mine = report.result.verdicts
    target = "".join(f"<td>{_verdict(mine[p].verdict, _anchor(report, p), shown_verdict(mine[p]))}</td>" for p in columns)
    rows = [f'<tr class="target"><th>{escape(one_line(report.name))}</th>{target}<td></td></tr>']
    for n in report.neighbours:
        theirs = n.result.verdicts
        cells = "".join(
            (f'<td class="differs">{_verdict(theirs[p].verdict, shown=shown_verdict(theirs[p]))}</td>' if p in n.differs
             else f"<td>{_verdict(theirs[p].verdict, shown=shown_verdict(theirs[p]))}</td>") if p in theirs else "<td></td>"
            for p in columns)
        differs = ", ".join(HEADERS[p] for p in n.differs) or alike(report)
        rows.append(f"<tr><th>{escape(n.name)}{' (chosen)' if n.chosen else ''}</th>{cells}<td>{escape(differs)}</td></tr>")
    body = "\n".join(rows)
    return f'<div class="scroll"><table>\n<tr><th>Metric</th>{head}<th>Differs in</th></tr>\n{body}\n</table></div>'


def _counterexample(c: Counterexample, figures: Mapping[str, str]) -> str:
    rows = "".join(f"<tr><td>{escape(role)}</td><td>{k}</td><td><code>{escape(ranking)}</code></td><td>{escape(qrels)}</td>"
                   f"<td><code>{escape(exact)}</code></td><td>{escape(value)}</td></tr>"
                   for role, k, ranking, qrels, exact, value in score_rows(c))
    picture = figures.get(f"-{c.prop.value}")
    figure = f"<figure>{picture}</figure>" if picture else ""
    numerical = "<p>The scores are the target's floats (numerical evidence), not exact values.</p>" if c.numerical else ""
    numerical += f"<p>{_code(c.caveat)}.</p>" if c.caveat else ""
    return (f'<section id="counterexample-{c.prop.value}"><h3>{escape(c.title)}: <span class="no">No</span></h3>'
            f"<p>Statement: <code>{escape(c.statement)}</code>.</p>"
            f'<div class="scroll"><table><tr><th></th><th>k</th><th>ranking</th><th>qrels</th><th>score (exact)</th>'
            f"<th>decimal</th></tr>{rows}</table></div><p>Instantiated: {_code(c.instance)}.</p>{numerical}{figure}</section>")


def _proof(p: ProofEntry) -> str:
    over = f", {escape(p.parameters)}" if p.parameters else ""
    items = "".join(
        f"<li><b>{escape(lemma.name)}</b> ({escape(lemma.method)}"
        + (f', <a href="certificates/{escape(lemma.certificate)}"><code>{escape(lemma.certificate)}</code></a>'
           if lemma.certificate else "")
        + f"): {_code(lemma.statement)}" + (f" (used: {escape(', '.join(lemma.used))})" if lemma.used else "") + "</li>"
        for lemma in p.lemmas)
    return (f'<section id="proof-{p.prop.value}"><h3>{escape(PROPERTIES[p.prop].title)}: {_verdict(p.conclusion)}, proved for '
            f"{escape(p.reach)}{over}</h3><ol>{items}</ol><p>Trusted base: {escape('; '.join(p.trusted))}.</p>"
            f"<p>Cross-check: {escape(p.cross_check)}.</p></section>")


def html(report: Report, figures: Mapping[str, str]) -> str:
    implementation = (f"<p>Scored through the toolkit: {escape(report.result.implementation.line())}.</p>"
                      if report.result.implementation is not None else "")
    counterexamples = "\n".join(_counterexample(c, figures) for c in report.counterexamples) or "<p>None: no property was refuted.</p>"
    proofs = "\n".join(_proof(p) for p in report.proofs) or "<p>None: only a declared closed form gets proofs.</p>"
    sources = "".join(f"<li><code>{escape(e.key)}</code></li>" for e in report.sources)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(one_line(report.name))}: the seven properties of Moffat (AIRS 2013)</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{escape(one_line(report.name))}: the seven properties of Moffat (AIRS 2013)</h1>
<p>{_code(intro(report))}</p>
<figure id="profile-figure">{figures.get("", "")}</figure>
<h2>Profile</h2>
{_profile(report)}
{implementation}
<h2>Beside the nearest metrics</h2>
<p>The catalog's metrics with the same profile or one or two cells away (irprops' own verdicts on them), and any chosen
to compare with; an underlined cell differs from the target's.</p>
{_beside(report)}
<h2>Counterexamples</h2>
{counterexamples}
<h2>Proofs</h2>
{proofs}
<h2>Sources</h2>
<p>BibTeX in <a href="{escape(report.stem)}.bib"><code>{escape(report.stem)}.bib</code></a>:</p>
<ul>{sources}</ul>
</body>
</html>
"""
