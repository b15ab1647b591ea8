"""Verdicts are values: proved, refuted or unknown, with the method and the evidence.

A ``"no"`` always carries a :class:`Witness` whose claim was certified (exactly, or for a
float-valued proposal numerically, which ``method`` then says); a ``"yes"`` needs a
proof; everything else is ``"unknown"`` with a statement of how hard the tool looked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from metrics import Situation
from metrics.grades import format_grade, format_ranking

VerdictValue = Literal["yes", "no", "unknown"]
Relevance = Literal["binary", "graded"]


def grades_json(grades: Iterable[Fraction | None]) -> list[str]:
    """Grades as the JSON witnesses write them: ``["1", "1/2", "0"]``."""
    return [format_grade(g) for g in grades]


def situation_json(s: Situation) -> dict[str, Any]:
    """``{"k", "ranking", "qrels"}`` with grades as strings."""
    return {"k": s.k, "ranking": grades_json(s.ranking), "qrels": grades_json(s.qrels)}


def show(s: Situation, *, k: bool = True) -> str:
    """A situation the way the paper writes it: ```10100` (k = 5, R = 2)``, qrels spelled out when graded."""
    qrels = f"R = {s.R}" if all(g == 1 for g in s.qrels) else f"qrels {{{','.join(grades_json(s.qrels))}}}"
    depth = f"k = {s.k}, " if k else ""
    return f"`{format_ranking(s.ranking)}` ({depth}{qrels})"


@dataclass(frozen=True)
class Witness:
    """A counterexample: the JSON shape the property defines, and a sentence a person can re-check."""

    data: Mapping[str, Any]
    text: str
    numerical: bool = False
    weak: bool = False
    """A counterexample the search keeps only if it finds no stronger one (see SearchProperty.preferred)."""


@dataclass(frozen=True)
class Verdict:
    """The verdict on one property of one metric."""

    property: str
    verdict: VerdictValue
    method: str
    evidence: str
    witness: Witness | None = None
    tried: int = 0
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if self.verdict == "no" and self.witness is None:
            raise ValueError(f"{self.property}: a 'no' needs a witness")

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "method": self.method,
            "evidence": self.evidence,
            "witness": dict(self.witness.data) if self.witness else None,
        }

    def to_record(self) -> dict[str, Any]:
        """Everything, for caches and workers: :meth:`from_record` rebuilds the verdict."""
        witness = {"data": dict(self.witness.data), "text": self.witness.text, "numerical": self.witness.numerical} if self.witness else None
        return {"property": self.property, **self.to_json(), "witness": witness, "tried": self.tried, "seconds": self.seconds}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Verdict:
        w = record["witness"]
        witness = Witness(w["data"], w["text"], w["numerical"]) if w else None
        return cls(record["property"], record["verdict"], record["method"], record["evidence"], witness, record["tried"], record.get("seconds", 0.0))


@dataclass(frozen=True)
class CheckResult:
    """The verdicts of the requested properties, in the paper's column order."""

    metric: str
    relevance: Relevance
    verdicts: Mapping[str, Verdict]

    def __getitem__(self, prop: str) -> Verdict:
        return self.verdicts[prop]

    def to_json(self) -> dict[str, Any]:
        """``{"metric", "relevance", "properties": {PROP: {"verdict", "method", "evidence", "witness"}}}``."""
        return {"metric": self.metric, "relevance": self.relevance, "properties": {p: v.to_json() for p, v in self.verdicts.items()}}

    def to_record(self) -> dict[str, Any]:
        return {"metric": self.metric, "relevance": self.relevance, "verdicts": [v.to_record() for v in self.verdicts.values()]}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CheckResult:
        verdicts = [Verdict.from_record(v) for v in record["verdicts"]]
        return cls(record["metric"], record["relevance"], {v.property: v for v in verdicts})
