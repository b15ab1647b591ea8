"""Top-weightedness.

Statement: for every depth k >= 1, every ranking with at least k documents, every qrels,
and all ranks i < j <= k with grade_i < grade_j, exchanging the documents at ranks i and j
strictly increases the score at depth k.

Paper (Moffat 2013, Section 4 (4)): "If a document within the top k is swapped with a
less relevant one (that is, has a lower r_i value) higher in the ranking, the score
strictly increases."

Choices: the qrels do not change. A swap where either score is undefined is not a
counterexample. The "strictly" is what makes RR and HIT fail (footnote b of Table 2).

Witness: ``{"k", "ranking", "qrels", "i", "j"}``. The paper's example is RR@5 on ``10001``
and ``11000``; the search finds ``101`` with ranks 2 and 3 at k = 3.
"""

from __future__ import annotations

from irprops.verdicts import Prop

from .base import register
from .swaps import SwapProperty


@register
class TopWeighted(SwapProperty):
    key = Prop.TOP_WEIGHTED
    reading = ("a swap of ranks i < j <= k with grade_i < grade_j must raise the score strictly; "
               "a comparison with an undefined side is no counterexample")
    title = "Top-weightedness"
    wording = "If a document within the top k is swapped with a less relevant one higher in the ranking, the score strictly increases."
    below_depth = False
    statement = "score(r', k) > score(r, k), where r' swaps ranks i < j <= k of r with grade_i < grade_j"
