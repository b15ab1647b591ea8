"""What :func:`irprops.compare.compare` finds: each class of difference, and the comparison as a whole (``--json``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cases import Case

__all__ = ["Comparison", "Difference", "tie_order"]


@dataclass(frozen=True)
class Difference:
    """One class of difference: its convention, how many cases, and the first (smallest) case with both values."""

    convention: str
    count: int
    witness: Case
    implementation_value: float | None
    metric_value: float | None
    problem: str | None = None
    """What the implementation raised or returned on the witness (for :data:`~irprops.compare.conventions.FAILED`)."""
    alone: bool = True
    """Whether the witness, scored alone, scores as it did among the other cases (else the pytest module cannot pin it)."""
    failed_alone: bool = False
    """For :data:`~irprops.compare.conventions.BATCH_DEPENDENT`: the witness scored alone is a failure."""

    def to_json(self) -> dict[str, Any]:
        return {"convention": self.convention, "count": self.count, "witness": self.witness.to_json(),
                "implementation_value": self.implementation_value, "metric_value": self.metric_value,
                **({"problem": self.problem} if self.problem is not None else {})}


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found (see the module docstring)."""

    implementation: str
    metric: str
    situations: int
    agree: int
    differences: tuple[Difference, ...]
    agrees_with: tuple[tuple[str, int], ...]
    """(declared metric, the cases where it has a value) for each it agrees with on all of them."""
    ties: tuple[str, ...]
    """The tie policies consistent with every tied case the toolkit scored (irprops' own is
    :data:`~irprops.compare.conventions.EXPECTATION`)."""
    tied: int = 0
    """How many of the cases compared have tied scores."""
    tie_counts: tuple[tuple[str, int], ...] = ()
    """(tie policy, the tied cases it is consistent with) for each policy consistent with any, most first."""
    not_compared: tuple[tuple[str, int], ...] = ()
    """(reason, cases) for the cases the toolkit was not given (see :data:`NO_JUDGMENTS`, and
    :class:`irprops.toolkits.glue.Withheld`)."""
    scale: int = 1
    """The integer scale of the grades given to a toolkit that reads integers (:data:`irprops.toolkits.GRADE_SCALE`: graded)."""
    warmup_seconds: float = 0.0
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """``{"implementation", "metric", "situations", "agree", "differences": [...], "agrees_with": [...], "ties",
        "tied", "tie_counts", "not_compared", "grade_scale", "notes", "warmup_seconds"}``."""
        return {"implementation": self.implementation, "metric": self.metric, "situations": self.situations,
                "agree": self.agree, "differences": [d.to_json() for d in self.differences],
                "agrees_with": [{"metric": m, "situations": n} for m, n in self.agrees_with], "ties": list(self.ties),
                "tied": self.tied, "tie_counts": [{"policy": t, "situations": n} for t, n in self.tie_counts],
                "not_compared": [{"reason": r, "situations": n} for r, n in self.not_compared],
                "grade_scale": self.scale, "notes": list(self.notes), "warmup_seconds": round(self.warmup_seconds, 3)}

    def tie_order(self) -> str:
        """The tie order in words (:func:`tie_order`)."""
        return tie_order(self.ties, self.tie_counts, self.tied)


def tie_order(ties: Sequence[str], counts: Sequence[tuple[str, int]], tied: int) -> str:
    """The tie order in words: the policies consistent with every tied case, else the one consistent with most of the
    ``tied`` cases (``counts``: each policy's, most first), and how many."""
    if ties:
        return ", ".join(ties)
    if not counts:
        return "no tie policy irprops names"
    policy, count = counts[0]
    return f"no single policy: {policy} on {count:,} of {tied:,} tied situations"
