"""Counting metrics: precision, recall, R-precision, reciprocal rank and HIT.

Definitions from Moffat, "Seven Numeric Properties of Effectiveness Metrics" (AIRS 2013),
Sections 2 and 3, where b_i is the binary grade and r_i the graded one at rank i.
"""

from __future__ import annotations

from typing import Any

from ..algebra import Algebra
from ..registry import declare

SEVEN = "Moffat, Seven Numeric Properties of Effectiveness Metrics, AIRS 2013"
NO_RELEVANT = "no relevant documents (R = 0)"


@declare("P", relevance="binary", aliases=("Prec", "Precision"), reference=f"{SEVEN}, Section 2")
def precision(m: Algebra) -> Any:
    """Precision at depth k: the fraction of the top k documents that are relevant.

    Prec@k(B) = (1/k) * sum_{i=1..k} b_i

    >>> from irprops.metrics import score
    >>> score("P@6", "111110").exact
    Fraction(5, 6)
    """
    return m.sum(1, m.k, m.r) / m.k


@declare("Recall", relevance="binary", aliases=("R",), reference=f"{SEVEN}, Section 2")
def recall(m: Algebra) -> Any:
    """Recall at depth k: the fraction of the R relevant documents that are in the top k.

    Recall@k(B) = (1/R) * sum_{i=1..k} b_i
    Undefined when R = 0.

    >>> from irprops.metrics import score
    >>> score("R@3", "10100", R=4).exact
    Fraction(1, 2)
    """
    return m.div(m.sum(1, m.k, m.r), m.R, NO_RELEVANT)


@declare("RPrec", relevance="binary", aliases=("R-Prec", "R-Precision"), reference=f"{SEVEN}, Section 3")
def r_precision(m: Algebra) -> Any:
    """R-precision at depth k: Prec@k when k <= R, Prec@R when k >= R, undefined when R = 0.

    RPrec@k(B) = (1/min(k, R)) * sum_{i=1..min(k, R)} b_i
    Undefined when R = 0.

    >>> from irprops.metrics import score
    >>> score("RPrec@5", "10100", R=2).exact
    Fraction(1, 2)
    """
    depth = m.min(m.k, m.R)
    return m.div(m.sum(1, depth, m.r), depth, NO_RELEVANT)


@declare("RR", relevance="binary", aliases=("MRR", "RecipRank"), reference=f"{SEVEN}, Section 2 and Table 2 note c")
def reciprocal_rank(m: Algebra) -> Any:
    """Reciprocal rank at depth k: 1 / the rank of the first relevant document; 0 if none is in the top k.

    RR@k(B) = sum_{i=1..k} (b_i / i) * prod_{j=1..i-1} (1 - b_j)

    >>> from irprops.metrics import score
    >>> score("RR@5", "01100").exact, score("RR@5", "00000").exact
    (Fraction(1, 2), Fraction(0, 1))
    """
    return cascade(m)


def cascade(m: Algebra) -> Any:
    """sum_{i=1..k} (r_i / i) * prod_{j=1..i-1} (1 - r_j): a user who stops at rank i with probability r_i gains 1/i
    (reciprocal rank on binary grades, ERR on graded ones)."""
    going_on = m.prefix_prod(lambda j: 1 - m.r(j))
    return m.sum(1, m.k, lambda i: m.r(i) * going_on(i - 1) / i)


@declare("HIT", relevance="graded", reference=f"{SEVEN}, Section 2")
def hit(m: Algebra) -> Any:
    """HIT at depth k: the grade of the best document in the top k (1 if any is relevant, for binary grades).

    HIT@k(R) = max_{i=1..k} r_i

    >>> from irprops.metrics import score
    >>> score("HIT@3", "0,1/2,1/4").exact
    Fraction(1, 2)
    """
    return m.max_over(1, m.k, m.r)
