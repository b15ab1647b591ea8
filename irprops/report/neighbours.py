"""The metrics nearest a checked target: the catalog's metrics whose profile is the same, or one or two cells away.

The catalog's profiles are irprops' own verdicts on its declared metrics (``irprops table --catalog`` computes them,
and a report reads them through the same cache), never the paper's table. Two profiles are compared cell by cell
over the properties both were checked on; a cell differs when the verdicts differ (an "unknown" differs from both).

>>> from irprops.checking import check
>>> rows = {"P": check("P", ["monotonic", "complete"]), "AP": check("AP", ["monotonic", "complete"])}
>>> [(n.name, n.differs) for n in nearest(check("Recall", ["monotonic", "complete"]), rows)]
[('AP', ()), ('P', (<Prop.MONOTONIC: 'monotonic'>, <Prop.COMPLETE: 'complete'>))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from irprops.metrics import InputError, Measure, in_catalog, parse
from irprops.verdicts import CheckResult, Prop

from .content import standing

__all__ = ["FARTHEST", "Neighbour", "nearest", "parse_names"]

FARTHEST = 2
"""How many cells a catalog metric may differ by and still be listed as near."""


@dataclass(frozen=True)
class Neighbour:
    """A metric shown beside the target: its name, its verdicts, the cells where it differs, and whether the user chose
    it (``--compare-with``) rather than the catalog's nearness."""

    name: str
    result: CheckResult
    differs: tuple[Prop, ...]
    chosen: bool = False


def differing(a: CheckResult, b: CheckResult) -> tuple[Prop, ...]:
    """The properties, checked on both, on which ``a`` and ``b`` stand differently (column order): different verdicts,
    or a "yes" for every k beside one proved for k <= K only (:func:`~irprops.report.content.standing`)."""
    return tuple(p for p in a.verdicts if p in b.verdicts and standing(a.verdicts[p]) != standing(b.verdicts[p]))


def _itself(target: CheckResult, other: CheckResult) -> bool:
    """Whether ``other`` is the target's own row: the same catalog metric at the same parameters (a proposal that
    happens to share a catalog metric's name is not that metric, and is shown beside it)."""
    return target.measure is not None and in_catalog(target.measure.metric.formula) and other.metric == target.metric


def nearest(target: CheckResult, catalog: Mapping[str, CheckResult], chosen: Mapping[str, CheckResult] | None = None,
            farthest: int = FARTHEST) -> list[Neighbour]:
    """The ``chosen`` metrics (in the order given), then the catalog metrics at most ``farthest`` cells away, nearest
    first (ties by name), each under the name it was checked as (``RBP(p=0.8)``: its parameter values); the target
    itself, and a metric already shown, are not listed again."""
    shown: list[Neighbour] = []
    for result in (chosen or {}).values():
        if not _itself(target, result) and all(n.name != result.metric for n in shown):
            shown.append(Neighbour(result.metric, result, differing(target, result), chosen=True))
    taken = {n.name for n in shown}
    near = [Neighbour(result.metric, result, differing(target, result)) for result in catalog.values()
            if result.metric not in taken and not _itself(target, result)]
    near = sorted((n for n in near if len(n.differs) <= farthest), key=lambda n: (len(n.differs), n.name.lower()))
    return shown + near


def parse_names(text: str, argument: str = "--compare-with") -> list[Measure]:
    """Metric names as a user lists them (``nDCG,RBP(p=0.5)``): each a declared metric family, at its defaults unless
    parameters are given; a name irprops does not declare is an :class:`InputError` that suggests the nearest.

    >>> [m.name for m in parse_names("nDCG, RBP(p=0.5)")]
    ['NDCG', 'RBP(p=0.5)']
    """
    names = _split(text)
    if not names:
        raise InputError(argument, text, "no metric named", "give names separated by commas, e.g. nDCG,RBP")
    measures = []
    for name in names:
        try:
            measure = parse(name)
        except InputError as error:
            raise InputError(argument, name, error.rule, error.hint) from None
        if measure.k is not None or measure.rel is not None:
            raise InputError(argument, name, "a report compares metric families over every depth k",
                             f"name the family, e.g. {measure.metric.key}")
        measures.append(measure)
    return measures


def _split(text: str) -> Sequence[str]:
    """Split at the commas outside parentheses (``RBP(p=0.5,x=1),AP``)."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]
