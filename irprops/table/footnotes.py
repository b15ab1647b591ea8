"""The footnotes of Table 2, computed from the metrics' definitions and the verdicts.

Each footnote is a fact the tool derives, with the rule that decides which cells carry
it; no rule mentions a metric by name. The paper's own footnotes are kept beside them
(reference data) so the report can compare placements.

a. metrics that declare a residual: the score is the lower end of [score, score + residual];
   marks their Yes cells whose statements compare scores (monotonic, convergent,
   top-weighted, localized);
b. metrics that fail both convergence and top-weightedness by a swap that leaves the
   score unchanged (re-checked exactly on the witnesses);
c. binary metrics whose closed form is decided by the first relevant rank (a product over
   the earlier ranks) and is 0 when nothing relevant is in the top k; marks localized and
   complete;
d. metrics a denominator of whose closed form vanishes when nothing relevant is in the
   top k, for every k and every R >= 1; marks complete;
e, f. metrics not realizable whose exact maximum over every arrangement reaches 1
   exactly when k <= R (e) or k >= R (f), on every k, R <= 5.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from irprops.metrics import Measure, OrderStatistic, Situation, Undefined, compare
from irprops.metrics.exact import show
from irprops.properties import arrangements
from irprops.properties.reference import FOOTNOTES, TABLE_2
from irprops.verdicts import CheckResult, Prop

GRID = 5

Cell = tuple[str, str]


@dataclass(frozen=True)
class Footnote:
    letter: str
    fact: str
    cells: tuple[Cell, ...]
    paper: str
    paper_cells: tuple[Cell, ...]


def footnotes(rows: dict[str, Measure], results: dict[str, CheckResult]) -> list[Footnote]:
    """Every footnote that applies to at least one cell, in letter order."""
    found = [_residual(rows, results), _ties(rows, results), _first_relevant(rows, results), _undefined_top(rows, results)]
    found += _realizable_when(rows, results)
    paper = {letter: tuple((r.label, prop) for r in TABLE_2 for prop, note in r.notes if note == letter) for letter in FOOTNOTES}
    return [Footnote(letter, fact, cells, FOOTNOTES[letter], paper[letter])
            for letter, fact, cells in sorted(f for f in found if f is not None)]


def _yes(results: CheckResult, *props: str) -> list[str]:
    return [p for p in props if results[p].verdict == "yes"]


def _residual(rows: dict[str, Measure], results: dict[str, CheckResult]) -> tuple[str, str, tuple[Cell, ...]] | None:
    facts, cells = [], []
    for label, measure in rows.items():
        residual = measure.residual_closed_form()
        if residual is None:
            continue
        facts.append(f"{label}@k is the range [score, score + {show(residual).replace('**', '^')}] on a fully judged ranking "
                     "(wider with unjudged documents), and the score reported is its lower end")
        cells += [(label, p) for p in _yes(results[label], Prop.MONOTONIC, Prop.CONVERGENT, Prop.TOP_WEIGHTED, Prop.LOCALIZED)]
    return ("a", "; ".join(facts) + ".", tuple(cells)) if facts else None


def _ties(rows: dict[str, Measure], results: dict[str, CheckResult]) -> tuple[str, str, tuple[Cell, ...]] | None:
    labels, cells, shown = [], [], []
    for label, measure in rows.items():
        verdicts = results[label]
        if all(verdicts[p].verdict == "no" and _unchanged(measure, dict(verdicts[p].witness.data))  # type: ignore[union-attr]
               for p in (Prop.CONVERGENT, Prop.TOP_WEIGHTED)):
            labels.append(label)
            cells += [(label, Prop.CONVERGENT), (label, Prop.TOP_WEIGHTED)]
            shown.append(f"{label}: {verdicts['top_weighted'].witness.text}")  # type: ignore[union-attr]
    if not labels:
        return None
    fact = (f"{_names(labels)} are not convergent or top-weighted because moving a more relevant document up "
            f"can leave the score unchanged ({'; '.join(shown)}).")
    return "b", fact, tuple(cells)


def _names(labels: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _unchanged(measure: Measure, w: dict) -> bool:  # type: ignore[type-arg]
    ranking = tuple(Fraction(g) for g in w["ranking"])
    swapped = list(ranking)
    swapped[w["i"] - 1], swapped[w["j"] - 1] = ranking[w["j"] - 1], ranking[w["i"] - 1]
    qrels = tuple(Fraction(g) for g in w["qrels"])
    before, after = measure.exact(Situation(ranking, w["k"], qrels)), measure.exact(Situation(tuple(swapped), w["k"], qrels))
    return not isinstance(before, Undefined) and not isinstance(after, Undefined) and compare(before, after) == 0


def _zero_grades(measure: Measure, expr: sympy.Expr) -> sympy.Expr:
    form = measure.closed_form()
    return expr.replace(lambda a: isinstance(a, sympy.Indexed) and a.base == form.grade_base, lambda a: sympy.Integer(0)).doit()  # type: ignore[union-attr]


def _first_relevant(rows: dict[str, Measure], results: dict[str, CheckResult]) -> tuple[str, str, tuple[Cell, ...]] | None:
    facts, cells = [], []
    for label, measure in rows.items():
        form = measure.closed_form()
        if form is None or not any(isinstance(a, sympy.Product) for a in sympy.preorder_traversal(form.expr)):
            continue
        # a product over the earlier ranks sets the score by the first relevant rank only on 0/1 grades: a graded ERR
        # goes on past a partly relevant document (a thirty-ninth hostile review: the catalog said so of ERR)
        if measure.metric.binary and _zero_grades(measure, form.expr) == 0 and not form.denominators:
            facts.append(f"{label}@k, set by the first relevant rank, is 0 (not undefined) when the top k holds nothing relevant: "
                         f"its closed form {show(form.expr)} is 0 at zero grades for every k and R")
            cells += [(label, p) for p in _yes(results[label], Prop.LOCALIZED, Prop.COMPLETE)]
    return ("c", "; ".join(facts) + ".", tuple(cells)) if facts else None


def _undefined_top(rows: dict[str, Measure], results: dict[str, CheckResult]) -> tuple[str, str, tuple[Cell, ...]] | None:
    labels, cells = [], []
    for label, measure in rows.items():
        form = measure.closed_form()
        if form is None or results[label][Prop.COMPLETE].verdict != "no":
            continue
        vanish = [d for d, _ in form.denominators
                  if _zero_grades(measure, d).replace(lambda a: isinstance(a, OrderStatistic), lambda a: sympy.Integer(0)).doit() == 0]
        example = measure.exact(Situation((Fraction(0),), 1, (Fraction(1),)))
        if vanish and isinstance(example, Undefined):
            labels.append(label)
            cells.append((label, Prop.COMPLETE))
    if not labels:
        return None
    fact = (f"{_names(labels)} are undefined whenever the top k holds nothing relevant, even when R > 0: "
            f"a denominator of the closed form is 0 at zero grades for every k and R (for instance `0` at k = 1 with R = 1).")
    return "d", fact, tuple(cells)


def _realizable_when(rows: dict[str, Measure], results: dict[str, CheckResult]) -> list[tuple[str, str, tuple[Cell, ...]]]:
    conditions = {"e": ("k <= R", lambda k, R: k <= R), "f": ("k >= R", lambda k, R: k >= R)}
    found: dict[str, list[str]] = {"e": [], "f": []}
    for label, measure in rows.items():
        if results[label][Prop.REALIZABLE].verdict != "no":
            continue
        reached = {(k, R): _maximum(measure, k, R) for k in range(1, GRID + 1) for R in range(1, GRID + 1)}
        if any(value is None or compare(value, 1) > 0 for value in reached.values()):
            continue
        for letter, (_, holds) in conditions.items():
            if all((compare(value, 1) == 0) == holds(k, R) for (k, R), value in reached.items()):  # type: ignore[arg-type]
                found[letter].append(label)
    out: list[tuple[str, str, tuple[Cell, ...]]] = []
    for letter, labels in found.items():
        if labels:
            fact = (f"{_names(labels)} reach 1.0 exactly when {conditions[letter][0]} "
                    f"(the exact maximum over every arrangement of R relevant documents, for every k, R <= {GRID}).")
            out.append((letter, fact, tuple((label, Prop.REALIZABLE) for label in labels)))
    return out


def _maximum(measure: Measure, k: int, R: int) -> object:
    """The exact maximum at depth k over the arrangements of R grade-1 documents and k nonrelevant ones."""
    best = None
    for s in arrangements(k, (Fraction(1),) * R):
        value = measure.exact(s)
        if isinstance(value, Undefined):
            continue
        if best is None or compare(value, best) > 0:
            best = value
    return best



