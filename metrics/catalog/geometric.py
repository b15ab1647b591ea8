"""Rank-biased precision: geometric weights, a residual, and the depth a given accuracy needs.

Definitions from Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval
Effectiveness" (ACM TOIS 2008), Sections 4.2 and 4.4, as used in Moffat (AIRS 2013).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..algebra import Algebra
from ..registry import Param, declare
from .discounted import RBP_PAPER


def rbp_residual(m: Algebra) -> Any:
    """The weight RBP@k cannot yet account for: p^k below depth k, plus (1 - p) p^(i-1) per unjudged rank i <= k.

    A rank i <= k past the end of a short run holds no judged document: it counts as unjudged
    (Moffat and Zobel 2008, Section 4.4; rbp_eval and cwl_eval agree).
    """
    p = m.param("p")
    return p**m.k + (1 - p) * m.sum(1, m.k, lambda i: m.unjudged(i) * p ** (i - 1))


@declare(
    "RBP",
    relevance="graded",
    params=(Param("p", Fraction(4, 5), "0 <= p < 1", lambda p: 0 <= p < 1, proof_interval=(Fraction(0), Fraction(1))),),
    residual=rbp_residual,
    reference=f"{RBP_PAPER}, Section 4",
)
def rank_biased_precision(m: Algebra) -> Any:
    """Rank-biased precision at depth k, persistence p: the rate of gain of a user who goes on with probability p.

    RBP@k(R) = (1 - p) * sum_{i=1..k} r_i * p^(i-1)
    The score is the lower end of the range [RBP, RBP + residual], where the residual is
    p^k + (1 - p) * sum of p^(i-1) over the unjudged ranks i <= k (unjudged documents
    count 0 in the score).

    >>> from irprops.metrics import score
    >>> s = score("RBP(p=0.5)@20", "$$---$----$-??--?---")
    >>> round(s.value, 4), round(float(s.upper), 4)
    (0.7661, 0.7663)
    """
    p = m.param("p")
    return (1 - p) * m.sum(1, m.k, lambda i: m.r(i) * p ** (i - 1))


def required_depth(p: Fraction, accuracy: Fraction) -> int:
    """The smallest depth d whose truncation residual p^d is below ``accuracy``.

    Moffat and Zobel (2008, Section 4.4): four decimal digits need p^d < 0.0001.

    >>> [required_depth(Fraction(p), Fraction("0.0001")) for p in ("0.5", "0.8", "0.95")]
    [14, 42, 180]
    """
    if not (0 <= p < 1 and accuracy > 0):
        raise ValueError("need 0 <= p < 1 and accuracy > 0")
    depth = 0
    while p**depth >= accuracy:
        depth += 1
    return depth
