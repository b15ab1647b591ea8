"""Convergence.

Statement: for every depth k >= 1, every ranking with at least k + 1 documents, every
qrels, and all ranks i <= k < j with grade_i < grade_j, exchanging the documents at ranks
i and j strictly increases the score at depth k.

Paper (Moffat 2013, Section 4 (3)): "If a document outside the top k is swapped with a
less relevant one (that is, has a lower r_i value) that is inside the top k, the score
strictly increases."

Choices: the qrels do not change (the same documents are ranked, in another order). A
swap where either score is undefined is not a counterexample: SN-DCG's ``01`` -> ``10``
at k = 1 goes from undefined to 1 and says nothing about convergence.

Witness: ``{"k", "ranking", "qrels", "i", "j"}``. The paper's example is RR@5 on ``01000``
and ``01100`` (equal scores); the search finds ``101`` with ranks 2 and 3 at k = 2.
"""

from __future__ import annotations

from irprops.verdicts import Prop

from .base import register
from .swaps import SwapProperty


@register
class Convergent(SwapProperty):
    key = Prop.CONVERGENT
    reading = ("a swap of ranks i <= k < j with grade_i < grade_j must raise the score strictly; "
               "a comparison with an undefined side is no counterexample")
    title = "Convergence"
    wording = "If a document outside the top k is swapped with a less relevant one that is inside the top k, the score strictly increases."
    below_depth = True
    statement = "score(r', k) > score(r, k), where r' swaps ranks i <= k < j of r with grade_i < grade_j"
