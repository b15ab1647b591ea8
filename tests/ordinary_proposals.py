"""Declared proposals of the ordinary shapes researchers write (issue 10, item 7), each with a plain-Fraction oracle.

The shapes: products over earlier ranks (ERR, RR written as a product), Q-measure's ratio of prefix
sums with min(i, R), a rank-1 term added outside a sum (bounded and unbounded), constants, a normaliser
written by hand as the sum of the weights, recommender-style MAP@k over min(k, R), NDCG with a shifted
discount, RBP written out. The truth of every cell is worked out by hand in the comments, each No with
its counterexample, and ``TRUTH`` records it; the tests check the oracles against irprops' exact scores
and the verdicts against ``TRUTH``, never the other way round. Like tests/adversarial_proposals.py,
they are unregistered Measures.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from irprops.metrics.exact import log2

from .adversarial_proposals import grade, proposal

YES, NO = "yes", "no"


def _prefix(ranking: tuple[Fraction, ...], i: int) -> Fraction:
    return sum((grade(ranking, j) for j in range(1, i + 1)), Fraction(0))


# -- products over earlier ranks ------------------------------------------------------------------------
# ERR (Chapelle et al. 2009) with the grade as the stopping probability R_i in [0, 1]:
# sum_{i<=k} (1/i) R_i prod_{j<i} (1 - R_j). Every term is >= 0, so monotonic; the terms add up to at most
# sum_i R_i prod_{j<i} (1 - R_j) = 1 - prod_{j<=k} (1 - R_j) <= 1, reached by a grade-1 document at rank 1
# at every depth: bounded and realizable. A grade-1 document at rank 1 stops the user, so swaps below it
# change nothing: "101" at k = 2 with ranks 2 and 3 (convergent) and "101" at k = 3 (top-weighted) keep the
# score 1. Nothing below k or in the qrels is read, and there is no division: localized and complete.
@proposal("ERR", relevance="graded")
def err(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i * m.prod(1, i - 1, lambda j: 1 - m.r(j)))


def err_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    total, going_on = Fraction(0), Fraction(1)
    for i in range(1, k + 1):
        total += grade(ranking, i) / i * going_on
        going_on *= 1 - grade(ranking, i)
    return total


# RR written as ERR over binary grades: the profile of the paper's RR row.
@proposal("RR-as-product")
def rr_as_product(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i * m.prod(1, i - 1, lambda j: 1 - m.r(j)))


def rr_as_product_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return next((Fraction(1, i) for i in range(1, k + 1) if grade(ranking, i)), Fraction(0))


# -- Q-measure (Sakai), beta = 1, binary: (1/R) sum_{i<=k} b_i 2 C(i) / (min(i, R) + i), C(i) = b_1 + ... + b_i ------
# C(i) <= min(i, R), so each term is at most 1 and the sum at most C(k)/R <= 1: bounded (sup 1, the ideal ranking
# at k >= R). Terms are >= 0: monotonic. A relevant document moved into the top k adds a positive term and raises
# C below it: convergent. Moving a relevant document up from j to i (nonrelevant there) raises C at the relevant
# ranks between (each gains 2/(min(l, R) + l) > 2/(min(j, R) + j)) and its own term 2(c + 1)/(min(i, R) + i) beats
# 2(c + m + 1)/(min(j, R) + j): top-weighted. It reads R: not localized ("1" at k = 1 scores 1 with R = 1, 1/2
# with R = 2), not complete (R = 0), not realizable (k = 1, R = 2: at most 1/2 < 1).
@proposal("Q-measure")
def q_measure(m: Any) -> Any:
    found = m.prefix_sum(m.r)
    return m.div(m.sum(1, m.k, lambda i: m.r(i) * 2 * found(i) / (m.min(i, m.R) + i)), m.R, "no relevant documents")


def q_measure_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    big_r = sum(1 for g in qrels if g > 0)
    if big_r == 0:
        return None
    return sum((grade(ranking, i) * 2 * _prefix(ranking, i) / (min(i, big_r) + i) for i in range(1, k + 1)), Fraction(0)) / big_r


# -- a rank-1 term outside a sum ------------------------------------------------------------------------
# b_1 + sum_{i<=k} b_i / i: the weights 2, 1/2, 1/3, ... are positive and strictly decreasing (monotonic,
# convergent, top-weighted, localized, complete), but the all-relevant ranking scores 1 + H_k, unbounded
# (so not realizable either).
@proposal("rank-one-bonus")
def rank_one_bonus(m: Any) -> Any:
    return m.r(1) + m.sum(1, m.k, lambda i: m.r(i) / i)


def rank_one_bonus_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return grade(ranking, 1) + sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0))


# b_1 / 2 + sum_{i<=k} b_i / (2 i (i + 1)): weights 3/4, 1/12, 1/24, ... positive and decreasing, adding up to
# 1 - 1/(2(k + 1)) < 1 = sup: bounded, monotonic, convergent, top-weighted, localized, complete; not realizable
# (k = 1, R = 1 reaches 3/4, k = 2 with "11" scores 5/6).
@proposal("rank-one-half")
def rank_one_half(m: Any) -> Any:
    return m.r(1) / 2 + m.sum(1, m.k, lambda i: m.r(i) / (2 * i * (i + 1)))


def rank_one_half_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return grade(ranking, 1) / 2 + sum((grade(ranking, i) / (2 * i * (i + 1)) for i in range(1, k + 1)), Fraction(0))


# -- a constant written as a ratio ----------------------------------------------------------------------
# (sum_{i<=k} 1) / k = 1 at every depth: bounded, monotonic, localized, complete, realizable; a swap changes
# nothing, so not convergent ("01" at k = 1) and not top-weighted ("01" at k = 2).
@proposal("one")
def one(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: 1) / m.k


def one_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(1)


# -- harmonic weights normalised by their sum, written by hand (SDCG with the discount 1/i) --------------
# Positive decreasing weights over a positive normaliser free of the qrels: bounded by 1, convergent,
# top-weighted, localized, complete. Not monotonic ("10": 1 at k = 1, 2/3 at k = 2); not realizable (k = 2,
# R = 1: at most 2/3, while k = 1 reaches 1).
@proposal("harmonic-scaled")
def harmonic_scaled(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) / m.sum(1, m.k, lambda j: 1 / j)


def harmonic_scaled_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) / sum((Fraction(1, j) for j in range(1, k + 1)), Fraction(0))


# -- MAP@k as recommender systems compute it: divided by min(k, R) ---------------------------------------
# sum_{i<=k} b_i C(i)/i <= C(k) <= min(k, R): bounded by 1, reached by the ideal ranking at every depth
# (realizable). Not monotonic ("10" with R = 2: 1 at k = 1, 1/2 at k = 2). Convergent and top-weighted as AP
# (the divisor does not change under a swap). Not localized ("10" at k = 2: 1 with R = 1, 1/2 with R = 2);
# not complete (R = 0).
@proposal("MAP-min-k-R")
def map_min_k_r(m: Any) -> Any:
    found = m.prefix_sum(m.r)
    return m.div(m.sum(1, m.k, lambda i: m.r(i) * found(i) / i), m.min(m.k, m.R), "no relevant documents")


def map_min_k_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    big_r = sum(1 for g in qrels if g > 0)
    if big_r == 0:
        return None
    return sum((grade(ranking, i) * _prefix(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) / min(k, big_r)


# -- NDCG with the discount 1/log2(i + 2) ------------------------------------------------------------------
# The profile of the paper's NDCG row: bounded, convergent, top-weighted, realizable; not monotonic ("10" with
# R = 2), not localized (reads the qrels), not complete (R = 0).
@proposal("NDCG-shifted", relevance="graded")
def ndcg_shifted(m: Any) -> Any:
    def gain(grades: Any) -> Any:
        return m.sum(1, m.k, lambda i: grades(i) / m.log2(i + 2))
    return m.div(gain(m.r), gain(m.g), "no relevant documents")


def ndcg_shifted_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> sympy.Expr | None:
    """The score exactly, with the logarithms as SymPy's (the oracle compares exactly, never in floats)."""
    def gain(grades: list[Fraction]) -> sympy.Expr:
        return sum((sympy.Rational(g.numerator, g.denominator) / log2(i + 2) for i, g in enumerate(grades[:k], start=1)), sympy.Integer(0))
    ideal = gain(sorted(qrels, reverse=True))
    return None if ideal == 0 else gain([grade(ranking, i) for i in range(1, k + 1)]) / ideal


# -- RBP written out with p = 1/2 ------------------------------------------------------------------------
# (1/2) sum_{i<=k} r_i (1/2)^(i-1): the paper's RBP row: everything but realizable (the largest score at depth k,
# 1 - 2^-k, is below the supremum 1).
@proposal("RBP-half", relevance="graded")
def rbp_half(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * sympy.Rational(1, 2) ** i)


def rbp_half_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) * Fraction(1, 2**i) for i in range(1, k + 1)), Fraction(0))


COLUMNS = ("bounded", "monotonic", "convergent", "top_weighted", "localized", "complete", "realizable")


def _profile(*cells: str) -> dict[str, str]:
    return dict(zip(COLUMNS, cells, strict=True))


TRUTH: dict[str, dict[str, str]] = {
    "err": _profile(YES, YES, NO, NO, YES, YES, YES),
    "rr_as_product": _profile(YES, YES, NO, NO, YES, YES, YES),
    "q_measure": _profile(YES, YES, YES, YES, NO, NO, NO),
    "rank_one_bonus": _profile(NO, YES, YES, YES, YES, YES, NO),
    "rank_one_half": _profile(YES, YES, YES, YES, YES, YES, NO),
    "one": _profile(YES, YES, NO, NO, YES, YES, YES),
    "harmonic_scaled": _profile(YES, NO, YES, YES, YES, YES, NO),
    "map_min_k_r": _profile(YES, NO, YES, YES, NO, NO, YES),
    "ndcg_shifted": _profile(YES, NO, YES, YES, NO, NO, YES),
    "rbp_half": _profile(YES, YES, YES, YES, YES, YES, NO),
}
"""The true verdict of every cell, by the arguments in the comments above (SRBP and "half" are in
tests/adversarial_proposals.py)."""
