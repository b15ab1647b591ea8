"""Declared proposals that read unjudged marks (``m.unjudged``), with independent Fraction oracles.

The properties range over situations whose ranked documents may be unjudged (``None``, written
``?``; an unjudged document has grade 0). A metric that reads no marks cannot tell an unjudged
document from a nonrelevant one; these can, so the search must put ``?`` into its rankings and
the proofs (at each depth k <= K) must give every rank a 0/1 mark that travels with its document
in a swap. Each truth below is worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from tests.adversarial_proposals import proposal

Ranking = tuple[Fraction | None, ...]


def grade(ranking: Ranking, i: int) -> Fraction:
    return (ranking[i - 1] or Fraction(0)) if i <= len(ranking) else Fraction(0)


def mark(ranking: Ranking, i: int) -> int:
    return int(i <= len(ranking) and ranking[i - 1] is None)


def precision(ranking: Ranking, k: int) -> Fraction:
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / k


# P@k minus 1/2 when the top document is unjudged. Convergent is true: a better (so relevant, so judged) document
# swapped in at i <= k raises P by 1/k, and at i = 1 also lifts the penalty. Top-weighted is false (`01` at k = 2:
# P is unchanged), and so is monotonic (`10`: 1, then 1/2); bounded, localized and complete are true.
@proposal("penalty-for-unjudged-top")
def penalty_for_unjudged_top(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k - m.unjudged(1) / 2


def penalty_for_unjudged_top_truth(ranking: Ranking, k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return precision(ranking, k) - Fraction(mark(ranking, 1), 2)


# P@k plus a bonus of 2 for an unjudged document at rank k, from depth 7 on. Convergent is true for k <= 6 (P rises by
# the grade gained over k) and false from k = 7: swapping the unjudged document at k with a relevant one at k + 1 gains
# 1/k and loses the bonus. A prover that read every mark as 0, or moved grades but not marks in a swap, proves k <= 20.
@proposal("unjudged-bonus-from-7")
def unjudged_bonus_from_7(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k + 2 * m.unjudged(m.k) * sympy.Piecewise((1, m.k >= 7), (0, True))


def unjudged_bonus_from_7_truth(ranking: Ranking, k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return precision(ranking, k) + (2 * mark(ranking, k) if k >= 7 else 0)


# Harmonic gain minus 1/(i + 1) per unjudged document at rank i <= k. Convergent and top-weighted are true: a relevant
# document moved up from j to i gains 1/i - 1/j (or 1/i from below k), and the document it displaces takes its penalty
# to a deeper rank, where it is smaller (or out of the top k). Monotonic is false (`0?` at k = 1: 0, then -1/3);
# localized and complete are true; bounded is false (harmonic gains), which no search decides.
@proposal("penalised-harmonic-gain")
def penalised_harmonic_gain(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) - m.sum(1, m.k, lambda i: m.unjudged(i) / (i + 1))


def penalised_harmonic_gain_truth(ranking: Ranking, k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / i - Fraction(mark(ranking, i), i + 1) for i in range(1, k + 1)), Fraction(0))


# Harmonic gain plus a bonus of 2 for an unjudged top document, from depth 7 on. Top-weighted is true for k <= 6 (the
# harmonic weights fall strictly) and false from k = 7: swapping the unjudged document at rank 1 with a relevant one at
# rank 2 gains 1 - 1/2 and loses the bonus. A prover whose swaps left the marks in place would prove k <= 20.
@proposal("harmonic-with-unjudged-top-bonus-from-7")
def harmonic_with_unjudged_top_bonus_from_7(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) + 2 * m.unjudged(1) * sympy.Piecewise((1, m.k >= 7), (0, True))


def harmonic_with_unjudged_top_bonus_from_7_truth(ranking: Ranking, k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) + (2 * mark(ranking, 1) if k >= 7 else 0)


# The mark at rank R: a rank no concrete depth fixes, so the forms at each depth cannot name its mark; such a formula
# gets no proof at all (P plus 1 when the document at rank R is unjudged: not convergent, `?1` at k = 1 with R = 1).
@proposal("mark-at-rank-R")
def mark_at_rank_r(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k + m.unjudged(m.R)


# Undefined exactly when rank k + 1 holds an unjudged document: the top-k count otherwise. Localized only in the weak
# sense: `0` and `0?` at k = 1 share their top 1, and the second has no value. The localized search sorts such pairs
# with unjudged documents among grades (a thirty-ninth hostile review: that sort raised a TypeError).
@proposal("undefined-below-an-unjudged-next")
def undefined_below_an_unjudged_next(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / (1 - m.unjudged(m.k + 1))
