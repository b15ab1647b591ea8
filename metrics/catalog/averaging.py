"""Metrics that average precision over the relevant ranks: AP, SP and SN-AP.

Definitions from Moffat, "Seven Numeric Properties of Effectiveness Metrics" (AIRS 2013),
equation (1) and Section 3. They differ only in the divisor of the sum of precisions:
R (AP), nothing (SP), or R_k, the number of relevant documents in the top k (SN-AP,
which the RBP paper calls AP*).
"""

from __future__ import annotations

from typing import Any

from ..algebra import Algebra
from ..registry import declare
from .counting import NO_RELEVANT, SEVEN


def sum_of_precisions(m: Algebra) -> Any:
    """sum_{i=1..k} b_i * Prec@i(B) = sum_{i=1..k} (b_i / i) * sum_{j=1..i} b_j."""
    found = m.prefix_sum(m.r)
    return m.sum(1, m.k, lambda i: m.r(i) * found(i) / i)


@declare("AP", relevance="binary", aliases=("MAP",), reference=f"{SEVEN}, equation (1)")
def average_precision(m: Algebra) -> Any:
    """Average precision at depth k: the precisions at the relevant ranks in the top k, divided by R.

    AP@k(B) = (1/R) * sum_{i=1..k} b_i * Prec@i(B)
    Undefined when R = 0; relevant documents below k contribute 0.

    >>> from irprops.metrics import score
    >>> score("AP@5", "10101").exact
    Fraction(34, 45)
    """
    return m.div(sum_of_precisions(m), m.R, NO_RELEVANT)


@declare("SP", relevance="binary", reference=f"{SEVEN}, Section 3 (after Aslam et al. 2006)")
def sum_of_precision(m: Algebra) -> Any:
    """Sum of precisions at depth k: AP without the division by R (unbounded).

    SP@k(B) = sum_{i=1..k} b_i * Prec@i(B)

    >>> from irprops.metrics import score
    >>> score("SP@3", "111").exact
    Fraction(3, 1)
    """
    return sum_of_precisions(m)


@declare("SN-AP", relevance="binary", aliases=("SNAP", "AP*"), reference=f"{SEVEN}, Section 3")
def self_normalised_average_precision(m: Algebra) -> Any:
    """Self-normalised AP at depth k: AP with R replaced by R_k, the relevant documents in the top k.

    SN-AP@k(B) = (1/R_k) * sum_{i=1..k} b_i * Prec@i(B), R_k = sum_{i=1..k} b_i
    Undefined when the top k holds nothing relevant, even if R > 0.

    >>> from irprops.metrics import score
    >>> score("SN-AP@5", "10000").exact, score("SN-AP@5", "10001").exact
    (Fraction(1, 1), Fraction(7, 10))
    """
    return m.div(sum_of_precisions(m), m.sum(1, m.k, m.r), "no relevant document in the top k")
