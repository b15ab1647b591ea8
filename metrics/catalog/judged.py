"""Metrics of judged documents only: BPref.

BPref (Buckley and Voorhees, SIGIR 2004) scores a ranking by the judged documents alone: an
unjudged document (``?``), or a rank past the end of a short run, counts neither as relevant
nor as nonrelevant. It reads the collection's number of judged nonrelevant documents N
(``m.N``), which a situation gives only when told (``--N``): without it BPref is undefined.
"""

from __future__ import annotations

from typing import Any

from ..algebra import Algebra
from ..registry import declare
from .counting import NO_RELEVANT

BPREF_PAPER = "Buckley and Voorhees, Retrieval Evaluation with Incomplete Information, SIGIR 2004 (as trec_eval's bpref computes it)"


@declare("BPref", relevance="binary", reference=BPREF_PAPER)
def bpref(m: Algebra) -> Any:
    """Binary preference at depth k: for each relevant document of the top k, the fraction of the first judged
    nonrelevant documents (at most R of them) ranked below it, averaged over the R relevant documents.

    BPref@k = (1/R) * sum_{i=1..k} b_i * (1 - min(n_i, R) / max(min(N, R), 1)), n_i = sum_{j<i} (1 - u_j) * (1 - b_j)

    with n_i the judged nonrelevant documents above rank i, u_j the unjudged mark of rank j and N the collection's
    judged nonrelevant documents. This is trec_eval's
    computation (``m_bpref.c``): ``1 - min(n_i, R) / min(N, R)`` where n_i > 0, else 1; where n_i > 0 both N >= n_i
    and R >= 1 hold, so min(N, R) >= 1 and the ``max(., 1)`` changes nothing. Undefined when R = 0 (trec_eval scores
    0) or when N is not given. Moffat and Zobel (TOIS 2008) write Buckley and Voorhees' BPref-10 variant, with
    min(R + 10, .) in place of min(., R); trec_eval's ``bpref`` is the one declared here.

    >>> from irprops.metrics import score
    >>> score("BPref", "1?01", R=3, N=5).exact   # rank 1: 1; rank 4, one of min(N, R) = 3 judged zeros above: 2/3
    Fraction(5, 9)
    >>> score("BPref", "101").exact
    undefined (the number of judged nonrelevant documents N is not known (give it: --N))
    """
    relevant, unjudged = m.prefix_sum(m.relevant), m.prefix_sum(m.unjudged)  # n_i = (i - 1) - both, since u_j = 1 forces b_j = 0
    scale = m.max(m.min(m.N, m.R), 1)
    return m.div(m.sum(1, m.k, lambda i: m.relevant(i) * (1 - m.min(i - 1 - relevant(i - 1) - unjudged(i - 1), m.R) / scale)),
                 m.R, NO_RELEVANT)
