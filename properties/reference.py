"""The published Table 2 of Moffat (AIRS 2013), as reference data to compare against.

Never consulted by the checkers: verdicts come from the metrics' definitions only (a
test fails if a checker module imports this one). The tests and the report compare the
computed verdicts with these cells.

Rows are in the paper's order; ``metric`` is the registry name each row stands for (the
paper's "Prec" is ``P``; RBP is checked at the default p = 0.8). ``True`` is "Yes".
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from irprops.verdicts import Prop

from .base import COLUMNS


@dataclass(frozen=True)
class Row:
    label: str
    metric: str
    cells: tuple[bool, bool, bool, bool, bool, bool, bool]
    notes: tuple[tuple[str, str], ...] = ()
    """(property, footnote letter) pairs."""

    def says(self, prop: str) -> bool:
        return self.cells[COLUMNS.index(prop)]


Y, N = True, False

TABLE_2: tuple[Row, ...] = (
    Row("DCG", "DCG", (N, Y, Y, Y, Y, Y, N)),
    Row("SP", "SP", (N, Y, Y, Y, Y, Y, N)),
    Row("RPrec", "RPrec", (Y, N, N, N, N, N, Y)),
    Row("SN-DCG", "SN-DCG", (Y, N, N, Y, Y, N, Y), ((Prop.COMPLETE, "d"),)),
    Row("SN-AP", "SN-AP", (Y, N, N, Y, Y, N, Y), ((Prop.COMPLETE, "d"),)),
    Row("Prec", "P", (Y, N, Y, N, Y, Y, N), ((Prop.REALIZABLE, "e"),)),
    Row("NDCG", "NDCG", (Y, N, Y, Y, N, N, Y)),
    Row("SDCG", "SDCG", (Y, N, Y, Y, Y, Y, N), ((Prop.REALIZABLE, "e"),)),
    Row("HIT", "HIT", (Y, Y, N, N, Y, Y, Y), ((Prop.CONVERGENT, "b"), (Prop.TOP_WEIGHTED, "b"))),
    Row("RR", "RR", (Y, Y, N, N, Y, Y, Y), ((Prop.CONVERGENT, "b"), (Prop.TOP_WEIGHTED, "b"), (Prop.LOCALIZED, "c"), (Prop.COMPLETE, "c"))),
    Row("Recall", "Recall", (Y, Y, Y, N, N, N, N), ((Prop.REALIZABLE, "f"),)),
    Row("AP", "AP", (Y, Y, Y, Y, N, N, N), ((Prop.REALIZABLE, "f"),)),
    Row("RBP", "RBP", (Y, Y, Y, Y, Y, Y, N), ((Prop.MONOTONIC, "a"), (Prop.CONVERGENT, "a"), (Prop.LOCALIZED, "a"))),
)

FOOTNOTES = MappingProxyType({
    "a": ("RBP@k yields a constrained range containing the score. "
          "The lower end of the range is taken to be the RBP score when a single value is required."),
    "b": ("RR@k and HIT@k are not convergent or top-weighted because swaps of relevant documents to positions higher up the ranking "
          "are not guaranteed to increase the score."),
    "c": "RR@k is defined to be zero when there are no relevant documents in the prefix examined.",
    "d": "SN-DCG@k and SN-AP@k cannot be calculated when no relevant documents appear in the k-element prefix, even if R > 0.",
    "e": "SDCG@k and P@k can realize a value of 1.0 only if k <= R.",
    "f": "Recall@k and AP@k can realize a value of 1.0 only if k >= R.",
})
