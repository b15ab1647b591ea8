"""The figures of a report, as SVG texts by file-name suffix: the profile beside its neighbours (``""``), and a picture of
each counterexample a picture shows (``"-monotonic"``: the score against k; ``"-realizable"``: the arrangements' scores
against the score that exceeds them). The floats only place marks; every value is labelled with its exact text.

The witness's own scores are always drawn. For a declared metric (built-in or a proposal) the picture shows more, scored
exactly from its definition: the witness's ranking at every depth it has, and every arrangement of the witness's
collection (the :data:`BARS` highest); a black box or a toolkit is not called again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from irprops.figures import arrangement_scores, score_against_k, verdict_grid
from irprops.metrics import Measure, Situation, Undecided
from irprops.metrics.exact import to_float, to_str
from irprops.metrics.grades import format_ranking
from irprops.properties import arrangements
from irprops.properties.fresh import situations_in
from irprops.verdicts import Prop, Score, ranking_text

if TYPE_CHECKING:
    from . import Report
    from .content import Counterexample

__all__ = ["BARS", "figures"]

BARS = 24
"""The most arrangements a realizability picture draws (the highest-scoring ones)."""


def figures(report: Report) -> dict[str, str]:
    """Every figure of ``report``, by the suffix of its file name."""
    columns = list(report.result.verdicts)
    rows = [(name, verdicts) for name, verdicts in report.rows()]
    shown = {"": verdict_grid(rows, columns, title=f"{report.name} beside the metrics nearest it", highlight=[report.name])}  # type: ignore[arg-type]
    drawn = {Prop.MONOTONIC: _monotonic, Prop.REALIZABLE: _realizable}
    for c in report.counterexamples:
        picture = drawn[c.prop](report.name, c, report.result.measure) if c.prop in drawn else None
        if picture is not None:
            shown[f"-{c.prop.value}"] = picture
    return shown


def _exactly(measure: Measure, s: Situation) -> tuple[float | None, str]:
    """A declared metric's score on ``s``: its float (to place a mark; None where it has none or none a picture can
    place) and its exact text."""
    try:
        value = measure.exact(s)
        text = to_str(value)  # type: ignore[arg-type]
    except (Undecided, ValueError, TypeError, ArithmeticError):  # undefined there: no mark, the text says so
        return None, "undefined"
    try:
        number = to_float(value)  # type: ignore[arg-type]
    except (Undecided, ValueError, TypeError, ArithmeticError):
        return None, text
    return (number if math.isfinite(number) and abs(number) < LARGEST else None), text


LARGEST = 1e300
"""Past this size a float is taken as clamped: the picture would not show the exact values' order."""


def _drawable(scores: Sequence[Score]) -> bool:
    """Whether every score has a float that places it faithfully: finite, not clamped (10**400 is 1.8e308 as a float) and
    not flushed to 0 (10**-400 is 0.0); such a counterexample is shown in its table only."""
    return all(s.value is not None and math.isfinite(s.value) and abs(s.value) < LARGEST
               and (s.value != 0 or s.decimal in (None, "0")) for s in scores)


def _monotonic(name: str, c: Counterexample, measure: Measure | None) -> str | None:
    """The witness's ranking scored at depth k and k + 1 (and, for a declared metric, at every depth it has): the step
    down is the failure."""
    if len(c.scores) != 2 or not _drawable(c.scores):
        return None
    before, after = c.scores
    k = int(before.situation["k"])
    points: dict[int, tuple[float | None, str]] = {k: (before.value, before.shown()), k + 1: (after.value, after.shown())}
    if measure is not None:
        situation = next(situations_in(before.situation))
        for depth in range(1, len(situation.ranking) + 1):
            points.setdefault(depth, _exactly(measure, situation.at_depth(depth)))
    ranking = ranking_text(after.situation["ranking"])  # type: ignore[arg-type]
    return score_against_k([(depth, points[depth][0]) for depth in sorted(points)], title=f"{name} of {ranking} against the depth k",
                           failing=(k, k + 1), labels={depth: text for depth, (_, text) in points.items()})


def _realizable(name: str, c: Counterexample, measure: Measure | None) -> str | None:
    """The best arrangement's score at the witness's depth (for a declared metric, every arrangement's), and the
    situation that scores more."""
    if len(c.scores) != 2 or not _drawable(c.scores):
        return None
    best, better = c.scores
    k = int(best.situation["k"])
    bars: list[tuple[str, float | None, str]] = [(ranking_text(best.situation["ranking"]), best.value, best.shown())]  # type: ignore[arg-type]
    if measure is not None:
        collection = next(situations_in(best.situation))
        every = arrangements(k, collection.qrels, collection.nonrelevant is not None)
        scored = [(format_ranking(s.ranking), *_exactly(measure, s)) for s in every]
        bars = sorted(scored, key=lambda bar: -(bar[1] if bar[1] is not None else float("-inf")))[:BARS]
    better_label = f"{ranking_text(better.situation['ranking'])} (k = {better.situation['k']})"  # type: ignore[arg-type]
    assert best.value is not None and better.value is not None
    return arrangement_scores(bars, title=f"{name}: the arrangements at k = {k} and a situation that scores more",
                              maximum=best.value, maximum_label=f"max over arrangements = {best.shown()}",
                              better=(better_label, better.value, better.shown()))
