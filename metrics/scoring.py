"""Scoring one ranking: the public :func:`score` and its :class:`Score` result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import exact
from .algebra import Undefined
from .errors import InputError
from .exact import Exact
from .grades import Entry
from .names import parse
from .registry import Measure
from .situation import Situation


@dataclass(frozen=True)
class Score:
    """The exact score of one situation, with RBP-style residual where the metric has one.

    ``value`` is the float nearest the exact score, for display; decisions use ``exact``.
    """

    measure: str
    situation: Situation
    exact: Exact | Undefined
    residual: Exact | None = None

    @property
    def defined(self) -> bool:
        return not isinstance(self.exact, Undefined)

    @property
    def value(self) -> float | None:
        return exact.to_float(self.exact) if self.defined else None  # type: ignore[arg-type]

    @property
    def upper(self) -> Exact | None:
        """The upper end of the score range (score + residual), when there is a residual."""
        if self.residual is None or not self.defined:
            return None
        return exact.as_exact(self.exact + self.residual)  # type: ignore[operator]

    def __str__(self) -> str:
        """``DCG@5 = 1 + 1/log2(3) = 1.6309...``, with the range when there is a residual."""
        if not self.defined:
            return f"{self.measure} is undefined: {self.exact.reason}"  # type: ignore[union-attr]
        text = f"{self.measure} = {exact.brief(self.exact)}"  # type: ignore[arg-type]
        text += "" if isinstance(self.exact, Fraction) and self.exact.denominator == 1 else f" = {self.value!r}"
        if self.upper is not None:
            text += f" (range up to {exact.to_float(self.upper)!r})"
        return text

    def to_json(self) -> dict[str, Any]:
        """``{"metric", "k", "defined", "exact", "value"}``, plus residual and bounds for RBP."""
        out: dict[str, Any] = {
            "metric": self.measure,
            "k": self.situation.k,
            **({} if self.situation.nonrelevant is None else {"N": self.situation.nonrelevant}),
            "defined": self.defined,
            "exact": exact.to_str(self.exact) if self.defined else None,  # type: ignore[arg-type]
            "value": self.value,
        }
        if self.residual is not None:
            out["residual"] = exact.to_str(self.residual)
            out["residual_value"] = exact.to_float(self.residual)
            if self.upper is not None:
                out["bounds"] = [self.value, exact.to_float(self.upper)]
                out["bounds_exact"] = [out["exact"], exact.to_str(self.upper)]
        return out


def score(
    measure: str | Measure,
    ranking: str | Iterable[Entry | int | str],
    *,
    k: int | None = None,
    qrels: str | Iterable[Fraction | int | str] | None = None,
    R: int | None = None,
    N: int | None = None,
) -> Score:
    """Score ``ranking`` with ``measure`` exactly.

    The depth is the measure's ``@k``, else ``k``, else the larger of the ranking's length
    and R (a name without a cutoff covers the whole ranking and all relevant documents). ``qrels``
    gives the grades of all relevant documents; ``R`` the number of relevant documents
    (the ranking's own plus further ones of grade 1); by default the qrels are the
    ranking's own relevant documents. ``N`` is the collection's number of judged nonrelevant
    documents (BPref reads it; None: not known).

    >>> round(score("SN-DCG@5", "10100").value, 4)
    0.9197
    >>> score("AP@5", "00000", R=0).exact
    undefined (no relevant documents (R = 0))
    """
    bound = parse(measure) if isinstance(measure, str) else measure
    if bound.k is not None and k is not None and k != bound.k:
        raise InputError("k", k, f"{bound.name} already fixes the depth at {bound.k}")
    situation = Situation.of(ranking, k=bound.k if bound.k is not None else k, qrels=qrels, R=R, N=N)
    if bound.k is None:
        bound = bound.at(situation.k)
    situation = bound.check(situation)  # with ir_measures' rel=, the thresholded situation the metric scores
    return Score(bound.name, situation, bound.exact(situation), bound.residual(situation))
