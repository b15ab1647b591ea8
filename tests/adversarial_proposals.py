"""Declared proposals written to fool the prover, each beside an independent plain-Fraction oracle.

Every one of them once produced, or could produce, a false "yes" or a crash (issue 10): a
normaliser that changes sign at a depth, weights that change with k, a read below k from some
depth on, a feature at one rank, Python branches on a symbolic rank or depth, slowly divergent
weights. The truth of each cell is worked out by hand in the comments and checked against the
oracle (never against irprops' own forms). They are unregistered Measures: declaring them
with ``@declare`` would add them to the registry every other test reads.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from irprops.metrics import Measure, Metric, Param
from irprops.metrics.exact import log2

Oracle = Callable[[tuple[Fraction, ...], int, tuple[Fraction, ...]], Any]


def proposal(name: str, relevance: str = "binary") -> Callable[[Callable[[Any], Any]], Measure]:
    """A declared formula as an unregistered Measure (``check`` accepts it as it accepts a file's declared metric)."""
    def make(formula: Callable[[Any], Any]) -> Measure:
        return Measure(Metric(name, formula, relevance, (), (), "an adversarial proposal"), {})  # type: ignore[arg-type]
    return make


def grade(ranking: tuple[Fraction, ...], i: int) -> Fraction:
    return ranking[i - 1] if i <= len(ranking) else Fraction(0)


# -- a normaliser that changes sign ----------------------------------------------------------
# N_k = sum_{j<=k} (1 - j/50) = k (99 - k) / 100: positive for k < 99, zero at k = 99 (undefined),
# negative from k = 100 on. Convergent and top-weighted are false from k = 100 (a better document
# moved up lowers the score, divided by N < 0); complete is false at k = 99 (undefined for every R);
# monotonic is false at k = 1 ("10": 100/98 at k = 1, 100/194 at k = 2); localized is true.
@proposal("negative-normaliser")
def negative_normaliser(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / i), m.sum(1, m.k, lambda j: 1 - m.num(j) / 50), "the normaliser is 0")


def negative_normaliser_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    n = sum((1 - Fraction(j, 50) for j in range(1, k + 1)), Fraction(0))
    return None if n == 0 else sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) / n


# The same at k = 150: N_k = k (149 - k) / 150, zero at k = 149, negative from k = 150 on.
@proposal("sign-change-at-150")
def sign_change_at_150(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / i), m.sum(1, m.k, lambda j: 1 - m.num(j) / 75), "the normaliser is 0")


def sign_change_at_150_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    n = sum((1 - Fraction(j, 75) for j in range(1, k + 1)), Fraction(0))
    return None if n == 0 else sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) / n


# -- weights that change with k ----------------------------------------------------------------
# sum_{i<=k} b_i / (i max(k, 30)): monotonic is false at k = 30 -> 31 ("1" then zeros: 1/30, then 1/31);
# convergent, top-weighted, localized and complete are true (for each fixed k the weights 1/(i max(k, 30))
# are positive and decreasing, nothing below k or in the qrels is read).
@proposal("k-dependent-weights")
def k_dependent_weights(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * m.max(m.k, 30)))


def k_dependent_weights_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / (i * max(k, 30)) for i in range(1, k + 1)), Fraction(0))


# -- a read below k from some depth on -----------------------------------------------------------
# sum_{i<=k} b_i + 2 [k > 10] b_{k+1}: from k = 11 on the document at k + 1 counts twice. Convergent is
# false at k = 11 (moving it up to rank i <= k trades 2 for 1), localized is false at k = 11, monotonic is
# false at k = 11 (b_12 = 1, b_13 = 0: 2, then 1); top-weighted is false at k = 2 (flat weights).
@proposal("reads-below-from-11")
def reads_below_from_11(m: Any) -> Any:
    return m.sum(1, m.k, m.r) + 2 * m.min(1, m.max(0, m.k - 10)) * m.r(m.k + 1)


def reads_below_from_11_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) + (2 * grade(ranking, k + 1) if k > 10 else 0)


# The same read from k = 9 on, once: localized is false at k = 9.
@proposal("reads-below-from-9")
def reads_below_from_9(m: Any) -> Any:
    return m.sum(1, m.k, m.r) + m.min(1, m.max(0, m.k - 8)) * m.r(m.k + 1)


def reads_below_from_9_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) + (grade(ranking, k + 1) if k > 8 else 0)


# -- a feature at one rank, written as SymPy (legitimately) -------------------------------------
# w(i) = 5/i at i = 40, else 1/i, no normaliser: top-weighted is false at k = 40 (moving the relevant
# document from rank 40 up to 39 lowers 5/40 to 1/39); convergent, monotonic, localized, complete are true.
def bump_at_40_weight(i: Any) -> Any:
    return sympy.Piecewise((5 / sympy.sympify(i), sympy.Eq(i, 40)), (1 / sympy.sympify(i), True))


def bump_at_40_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) * (Fraction(5, 40) if i == 40 else Fraction(1, i)) for i in range(1, k + 1)), Fraction(0))


# The same features past the structured deep search (k <= 200), where only the prover's own checks can stop a
# false proof: a bump at rank 250 (Piecewise on Eq) and a step up from rank 250 on (Piecewise on i >= 250), over
# the weights 1/(i(i + 1)). Both are top-weighted false at k = 250 (swap ranks 249 and 250 of a ranking whose only
# relevant document is at 250), and their derivatives are negative wherever they exist.
def bump_at_250_weight(i: Any) -> Any:
    return sympy.Piecewise((5 / sympy.sympify(i), sympy.Eq(i, 250)), (1 / (sympy.sympify(i) * (i + 1)), True))


def step_at_250_weight(i: Any) -> Any:
    return sympy.Piecewise((5 / sympy.sympify(i), sympy.Ge(i, 250)), (1 / (sympy.sympify(i) * (i + 1)), True))


# -- natural exact arithmetic ----------------------------------------------------------------------
# sum_{i<=k} i b_i / (k (k + 1) / 2): Python's / on the depth must stay exact. Monotonic is false at k = 1
# ("10": 1, then 1/3), top-weighted false at k = 2 ("01" scores 2/3, "10" 1/3); convergent, localized and
# complete are true.
@proposal("bottom-weighted")
def bottom_weighted(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: i * m.r(i)) / (m.k * (m.k + 1) / 2)


def bottom_weighted_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((i * grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / Fraction(k * (k + 1), 2)


# -- Python branches on symbolic values (each must be refused before anything runs) ---------------
BRANCHING_WEIGHTS: dict[str, Callable[[Any], Any]] = {
    "not-equal": lambda i: 1 / i if i != 37 else 5 / i,
    "equal": lambda i: 5 / i if i == 37 else 1 / i,
    "parity": lambda i: 1 / i if i % 2 else 2 / i,
    "comparison": lambda i: 1 / i if i < 40 else 2 / i,
    "int": lambda i: sympy.Rational(1, int(i)),
    "min-builtin": lambda i: 1 / min(i, 30),
    # found by a hostile review: branches on what SymPy derives from the rank, and table lookups
    "sympified-equal": lambda i: 2 / i if sympy.sympify(i) == 250 else 1 / i,
    "log-equal": lambda i: 2 / i if sympy.log(i) == sympy.log(250) else 1 / i,
    "expression-truth": lambda i: 2 / i if sympy.log(i) else 1 / i,
    "in-list": lambda i: 2 / i if sympy.sympify(i) in [250, 300] else 1 / i,
    "dict-lookup": lambda i: {250: sympy.Rational(2, 250)}.get(i, 1 / i),
    "set-lookup": lambda i: 2 / i if sympy.sympify(i) in {250} else 1 / i,
}


@proposal("branch-on-depth")
def branch_on_depth(m: Any) -> Any:
    return m.sum(1, m.k, m.r) if m.k < 10 else m.sum(1, m.k, m.r) / m.k


@proposal("range-over-depth")
def range_over_depth(m: Any) -> Any:
    total = 0
    for i in range(1, m.k + 1):
        total = total + m.r(i)
    return total


@proposal("lookup-on-depth")
def lookup_on_depth(m: Any) -> Any:  # reads below k at k = 300 only (found by a hostile review)
    extra = m.r(m.k + 1) if {300: True}.get(m.k, False) else 0
    return m.sum(1, m.k, lambda i: m.r(i) / i) + extra


@proposal("branch-on-grade")
def branch_on_grade(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: 1 if m.r(i) == 1 else 0)


# -- a prefix sum inside a sum that also reads the outer rank (found by a hostile review) -------------------
# sum_{i<=k} b_i sum_{j<=i} b_j (i - j): the inner sum reads the outer rank i, so it is no running state of the
# earlier ranks. It is unbounded (the all-relevant ranking scores (k - 1) k (k + 1) / 6: 1 at k = 2, 20 at k = 5).
@proposal("nested-reads-outer-rank")
def nested_reads_outer_rank(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * m.sum(1, i, lambda j: m.r(j) * (i - j)))


def nested_reads_outer_rank_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) * sum((grade(ranking, j) * (i - j) for j in range(1, i + 1)), Fraction(0))
                for i in range(1, k + 1)), Fraction(0))


# The same with a bonus only for pairs more than 250 ranks apart, plus sum b_i / i: top-weighted is false at k = 252
# (relevant at ranks 1 and 252 score 505/252; moving the one at 252 up to rank 2 gives 3/2).
@proposal("spread-past-250")
def spread_past_250(m: Any) -> Any:
    bonus = m.sum(1, m.k, lambda i: m.r(i) * m.sum(1, i, lambda j: m.r(j) * m.max(0, i - j - 250)))
    return bonus + m.sum(1, m.k, lambda i: m.r(i) / i)


def spread_past_250_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    bonus = sum((grade(ranking, i) * sum((grade(ranking, j) * max(0, i - j - 250) for j in range(1, i + 1)), Fraction(0))
                 for i in range(1, k + 1)), Fraction(0))
    return bonus + sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0))


# -- a constant -----------------------------------------------------------------------------------------------
# m.num(1) / 2 scores 1/2 everywhere: bounded, monotonic, localized, complete and realizable are true
# (every arrangement reaches the supremum 1/2); convergent and top-weighted are false (a swap changes nothing).
@proposal("half")
def half(m: Any) -> Any:
    return m.num(1) / 2


def half_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(1, 2)


# -- normalisers written in closed form in k ---------------------------------------------------------
# SRBP (RBP normalised by the weight of the top k): (1 - p) sum p^(i-1) b_i / (1 - p^k), p = 4/5. It is bounded by 1,
# convergent and top-weighted (fixed positive decreasing weights, positive normaliser), localized and complete
# (1 - p^k > 0 needs no qrels); not monotonic ("10": 1 at k = 1, 5/9 at k = 2) and not realizable (R = 1 at k = 2
# scores at most 5/9 while k = 1 reaches 1).
@proposal("SRBP")
def srbp(m: Any) -> Any:
    p = sympy.Rational(4, 5)
    return m.div((1 - p) * m.sum(1, m.k, lambda i: p ** (i - 1) * m.r(i)), 1 - p ** m.k, "never")


def srbp_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    p = Fraction(4, 5)
    return (1 - p) * sum((p ** (i - 1) * grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / (1 - p ** k)


# -- formulas that tell the backends apart (found by a second hostile review) -------------------------
def _weight_by_text(i: Any) -> Any:
    return 5 if str(i) == "300" else 1 / (i * (i + 1))


def _weight_by_exception(i: Any) -> Any:
    try:
        concrete = int(i) == 300
    except Exception:  # noqa: BLE001 - the evasion under test: swallowing the refusal
        concrete = False
    return 5 if concrete else 1 / (i * (i + 1))


OBSERVING_WEIGHTS: dict[str, Callable[[Any], Any]] = {"by-text": _weight_by_text, "by-exception": _weight_by_exception}


@proposal("depth-by-type")
def depth_by_type(m: Any) -> Any:  # monotonic is false at k = 251 (all-zero ranking: 0, then -1)
    s = m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))
    return s - 1 if isinstance(m.k, int) and m.k > 250 else s


@proposal("rank-by-type")
def rank_by_type(m: Any) -> Any:  # top-weighted is false at k = 251 (weight tripled from rank 251 on)
    return m.sum(1, m.k, lambda i: m.r(i) * (3 if isinstance(i, int) and i > 250 else 1) / (i * (i + 1)))


# -- found by a hostile review of the constant and completeness paths ------------------------------------
# A sum whose upper limit falls below its lower limit is empty in the exact form, but SymPy reads it by Karr's
# convention (Sum(f, (i, 9, 7)) = -f(8)). sum_{k<=i<=7} 1 + k scores 8 for k <= 8, then k: unbounded, not
# realizable (k = 1 scores 8 < the supremum).
@proposal("karr-reversed")
def karr_reversed(m: Any) -> Any:
    return m.sum(m.k, 7, lambda i: 1) + m.k


def karr_reversed_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(max(0, 8 - k) + k)


# The same built to agree with SymPy's reading at every depth but 7: sum_{9<=i<=k} f(i) - P(k), with P(k) the
# summation's closed form and f vanishing at 2..6. It scores 720 at k = 7 and 0 at k = 8: not monotonic, not realizable.
KARR_COEFFICIENTS = (-5760, 14832, -14756, 7504, -2135, 343, -29, 1)


def _karr_f(j: Any) -> Any:
    return (j - 2) * (j - 3) * (j - 4) * (j - 5) * (j - 6) * (7 * j - 55)


@proposal("karr-at-7")
def karr_at_7(m: Any) -> Any:
    return m.sum(9, m.k, _karr_f) - sum((m.num(c) * m.k**d for d, c in enumerate(KARR_COEFFICIENTS)), m.num(0))


def karr_at_7_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    polynomial = sum((c * k**d for d, c in enumerate(KARR_COEFFICIENTS)), Fraction(0))
    return sum((Fraction(_karr_f(j)) for j in range(9, k + 1)), Fraction(0)) - polynomial


# (k - 7) / (k - 7): SymPy cancels it to 1 at once, but the metric divides by zero at k = 7 (not complete there).
@proposal("cancels-at-7")
def cancels_at_7(m: Any) -> Any:
    return (m.k - 7) / (m.k - 7)


def cancels_at_7_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if k == 7 else Fraction(1)


# sum_{i<=k} b_i / R: with R = 0 every b_i is 0, but 0 / 0 is still undefined (not complete: "0" at k = 1).
@proposal("grade-over-R")
def grade_over_r(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / m.R)


def grade_over_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if not qrels else sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / len(qrels)


# -- a fifth hostile review: sums up to R, and ranks below 1 -----------------------------------------------------------
# The forms at a concrete depth wrote a sum up to R out to rank k only, and m.g(0), m.r_sorted(0) were 1 in both
# symbolic forms (the exact run has no rank 0: they are 0 there). S_k = sum_{i<=k} b_i / (i (i + 1)) throughout.
def _s(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))


def _s_truth(ranking: tuple[Fraction, ...], k: int) -> Fraction:
    return sum((grade(ranking, i) / (i * (i + 1)) for i in range(1, k + 1)), Fraction(0))


def _late(m: Any) -> Any:  # 0 up to depth 1500, 1 from 1501 on
    return m.min(1, m.max(0, m.k - 1500))


# R - min(R, k) when R >= k + 50 (a sum of 1 over ranks 1..R), else 0. Not monotonic: `00` with R = 51 scores 50 at
# k = 1 and 0 at k = 2. Its form at depth k once summed to min(R, k), which is 0, and monotonic was "proved" for k <= 20.
@proposal("sum-to-R")
def sum_to_r(m: Any) -> Any:
    return (m.sum(1, m.R, lambda i: m.num(1)) - m.min(m.R, m.k)) * m.min(1, m.max(0, m.R - m.k - 49))


def sum_to_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    R = len(qrels)
    return Fraction(R - min(R, k)) if R >= k + 50 else Fraction(0)


# S_k plus the grades at ranks k + 50 .. R. Not convergent and not monotonic: at k = 1, 52 documents with the only
# relevant one at rank 51 and R = 51 score 1; swapping ranks 1 and 51 gives 1/2, and k = 2 gives 0.
@proposal("tail-to-R")
def tail_to_r(m: Any) -> Any:
    return _s(m) + m.sum(m.k + 50, m.R, m.r)


def tail_to_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return _s_truth(ranking, k) + sum((grade(ranking, i) for i in range(k + 50, len(qrels) + 1)), Fraction(0))


# S_k - (1 - m.g(0)) from depth 1501 on: m.g(0) is 0, so 1 is taken off from k = 1501. Not monotonic: 1501
# nonrelevant documents with R = 0 score 0 at k = 1500 and -1 at k = 1501. It was "proved" monotonic for all k.
@proposal("g-of-rank-0")
def g_of_rank_0(m: Any) -> Any:
    return _s(m) - (1 - m.g(0)) * _late(m)


@proposal("r-sorted-of-rank-0")
def r_sorted_of_rank_0(m: Any) -> Any:
    return _s(m) - (1 - m.r_sorted(0)) * _late(m)


@proposal("r-of-rank-0")
def r_of_rank_0(m: Any) -> Any:
    return _s(m) - (1 - m.r(0)) * _late(m)


def rank_0_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return _s_truth(ranking, k) - (1 if k >= 1501 else 0)


# S_k over 1 - (1 - m.g(0)) from depth 1501 on: undefined from k = 1501 (the divisor is 0), so not complete.
@proposal("g-of-rank-0-divides")
def g_of_rank_0_divides(m: Any) -> Any:
    return m.div(_s(m), 1 - (1 - m.g(0)) * _late(m), "the gate")


# -- a sixth hostile review: SymPy's summation over the depth ----------------------------------------------------------
# SymPy sums KroneckerDelta(2 j, 2 k - late) over j <= k to 1 for every k, ignoring that j must be an integer: it is 1
# up to depth 1500 and 0 from 1501 on (2 k - 1 is odd). And it sums (-1)^j C(n, j) over j = 0..n to 0, where it is 0^n
# (1 at n = 0). The constant prover and the fold provers read those sums' values: so "proofs for all k" of properties
# that fail from depth 1501 on.
def _gate(m: Any) -> Any:  # 1 up to depth 1500, 0 from 1501 on, written as a sum of deltas over the depth
    return m.sum(1, m.k, lambda j: sympy.KroneckerDelta(2 * j, 2 * m.k - _late(m)))


def _gate_truth(k: int) -> int:
    return 1 if k <= 1500 else 0


def _count(ranking: tuple[Fraction, ...], k: int) -> Fraction:
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))


# Reads no grade: 1 up to depth 1500, then 0. Not monotonic (1 at k = 1500, 0 at k = 1501): it was "proved" constant.
@proposal("kd-parity")
def kd_parity(m: Any) -> Any:
    return _gate(m)


def kd_parity_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(_gate_truth(k))


# The relevant documents of the top k while k <= 1500, then 0: not monotonic at k = 1500 -> 1501 (`1` then 1501 zeros).
@proposal("gated-count")
def gated_count(m: Any) -> Any:
    return m.sum(1, m.k, m.r) * _gate(m)


def gated_count_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return _count(ranking, k) * _gate_truth(k)


# P@k, plus k from depth 1501 on: unbounded (1501 nonrelevant documents score 1501 at k = 1501).
@proposal("precision-then-k")
def precision_then_k(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k + (1 - _gate(m)) * m.k


def precision_then_k_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return _count(ranking, k) / k + (1 - _gate_truth(k)) * k


# sum_{i<=k} b_i / i while k <= 1500, then 0: neither convergent nor top-weighted at k = 1501 (every swap leaves 0).
@proposal("gated-harmonic")
def gated_harmonic(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) * _gate(m)


def gated_harmonic_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) * _gate_truth(k)


# HIT while k <= 1500, then 0: not realizable at k = 1501 (every arrangement scores 0, and `1` scores 1 at k = 1).
@proposal("gated-hit")
def gated_hit(m: Any) -> Any:
    none_before = m.prefix_prod(lambda j: 1 - m.r(j))
    return m.sum(1, m.k, lambda i: m.r(i) * none_before(i - 1)) * _gate(m)


def gated_hit_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(int(any(grade(ranking, i) for i in range(1, k + 1))) * _gate_truth(k))


# P@k plus k times sum_{j=0}^{n} (-1)^j C(n, j) with n = 1 up to depth 1500 and 0 after: P@k + k from 1501 on, unbounded.
@proposal("binomial-bonus")
def binomial_bonus(m: Any) -> Any:
    n = m.max(0, 1 - _late(m))
    return m.sum(1, m.k, m.r) / m.k + m.sum(0, n, lambda j: (-1) ** j * sympy.binomial(n, j)) * m.k


def binomial_bonus_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return _count(ranking, k) / k + (k if k >= 1501 else 0)


# Reads no grade: 1 up to depth 1501, 0 from 1502 on. SymPy's simplify of its closed form ran for over 15 minutes.
@proposal("alternating-binomial")
def alternating_binomial(m: Any) -> Any:
    n = m.max(m.k, 1501) - 1501
    return m.sum(0, n, lambda j: (-1) ** j * sympy.binomial(n, j))


def alternating_binomial_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(1 if k <= 1501 else 0)


# The gate over itself: 1 up to depth 1500, undefined from 1501 on. Not realizable (at k = 1501 no arrangement scores
# the supremum 1). SymPy cancelled g / g to 1, and its summation called the recorded divisor g nonzero.
@proposal("kd-defined-until-1500")
def kd_defined(m: Any) -> Any:
    return m.div(_gate(m), _gate(m), "the gate is 0")


def kd_defined_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return Fraction(1) if k <= 1500 else None


# 3 g - 2: 1 up to depth 1500, then -2. Bounded (by 2), but it was stated bounded by |c| = 1.
@proposal("kd-drop-to-minus-2")
def kd_drop(m: Any) -> Any:
    return 3 * _gate(m) - 2


def kd_drop_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(1 if k <= 1500 else -2)


# Weights (1601 - i) / 1600 scaled by (1 + q) for a parameter q in (0, 1): w(1601) = 0 and w(i) < 0 after, so neither
# monotonic (a relevant document at rank 1602 scores -3/3200 at k = 1602, 0 at k = 1601) nor convergent (a swap of
# ranks 1601 and 1602 at k = 1601 leaves 0). Z3 refutes "w > 0" at i = 1601; SymPy must not then prove it.
def linear_decay(name: str) -> Measure:
    from irprops.metrics import Param

    param = Param("q", Fraction(1, 2), "0 < q < 1", lambda v: 0 < v < 1, proof_interval=(Fraction(0), Fraction(1)))
    object.__setattr__(param, "name", name)  # past the check of the name, to test the forms and the provers alone

    def formula(m: Any) -> Any:
        return (1 + m.param(name)) * m.sum(1, m.k, lambda i: m.r(i) * (1601 - i) / 1600)
    return Measure(Metric(f"linear-decay-{name}", formula, "binary", (), (param,), "an adversarial proposal"), {name: Fraction(1, 2)})


def linear_decay_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return Fraction(3, 2) * sum((grade(ranking, i) * Fraction(1601 - i, 1600) for i in range(1, k + 1)), Fraction(0))


# -- a seventh hostile review: nested sums, series of sums, split roots ------------------------------------------------
# -sum_{i<=k} (2 i - k - 1) inner(i) with inner(i) = [i >= 1501] (a sum of deltas over j <= i): 0 up to depth 1500, then
# -(1500)(k - 1500): unbounded, not monotonic. The inner sum, kept unevaluated, stood in the outer one as a constant, so
# the outer weights (2 i - k - 1) summed to 0 and the closed form "was" 0.
def _late_indicator_truth(i: int) -> int:
    return 1 if i >= 1501 else 0


@proposal("nested-zero")
def nested_zero(m: Any) -> Any:
    return -m.sum(1, m.k, lambda i: (2 * i - m.k - 1) * m.sum(1, i, lambda j: sympy.KroneckerDelta(j, 1501)))


def nested_zero_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return -sum((Fraction((2 * i - k - 1) * _late_indicator_truth(i)) for i in range(1, k + 1)), Fraction(0))


# The same with a product: inner(i) = prod_{j<=i} (1 - [j = 1501]) = [i < 1501]; 0 up to 1500, then 1500 (1500 - k).
@proposal("nested-product")
def nested_product(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: (2 * i - m.k - 1) * m.prod(1, i, lambda j: 1 - sympy.KroneckerDelta(j, 1501)))


def nested_product_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((Fraction((2 * i - k - 1) * (1 - _late_indicator_truth(i))) for i in range(1, k + 1)), Fraction(0))


# Weights w(i) = sum_{j<=i} |[j = 1501]| = [i >= 1501]: all relevant scores k - 1500 from 1501 on: unbounded. SymPy
# merged the weight's sum and the series into one Sum with two limits, whose convergence test read the finite one.
@proposal("late-weight")
def late_weight(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * m.sum(1, i, lambda j: sympy.Abs(sympy.KroneckerDelta(j, 1501))))


def late_weight_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) * _late_indicator_truth(i) for i in range(1, k + 1)), Fraction(0))


# The normaliser N = k + 1100 (a^(1/2) b^(1/2) - (a b)^(1/2)), a = 3000 - k, b = 3001 - k: N = k up to k = 3001, then
# k - 2200 sqrt((k - 3000)(k - 3001)) (two imaginary roots multiply to a negative number), negative from k = 3002: not
# convergent there. SymPy's forced power merging (force=True) made sqrt(a) sqrt(b) into sqrt(a b).
@proposal("split-pow")
def split_pow(m: Any) -> Any:
    half = sympy.Rational(1, 2)
    a, b = 3000 - m.k, 3001 - m.k
    return m.sum(1, m.k, m.r) / (m.k + 1100 * (sympy.Pow(a, half) * sympy.Pow(b, half) - sympy.Pow(a * b, half)))


# -- definedness -----------------------------------------------------------------------------------
# R-precision times d / d, d = found - min(k, R) + [R <= 3] (found = relevant in the top min(k, R)): undefined exactly
# when the top k is perfect in a collection of more than 3 relevant documents. The supremum is 1 (k = 1, R = 1, `1`);
# at k = 1 with R = 4 a relevant document first leaves the score undefined and any other scores 0: not realizable.
# m.div(d, d) is 1 in the closed form, so no proof that reads only the closed form may say "realizable".
@proposal("guarded-precision")
def guarded_precision(m: Any) -> Any:
    found = m.sum(1, m.min(m.k, m.R), m.r)
    d = found - m.min(m.k, m.R) + sympy.Piecewise((1, m.R <= 3), (0, True))
    return m.div(found, m.min(m.k, m.R), "R = 0") * m.div(d, d, "a perfect top k in a large collection")


def guarded_precision_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    R, top = len(qrels), min(k, len(qrels))
    found = sum((grade(ranking, i) for i in range(1, top + 1)), Fraction(0))
    d = found - top + (1 if R <= 3 else 0)
    return None if top == 0 or d == 0 else found / top


# A count of the top k, minus 10 at k = 15 (R <= 5) for one pattern of relevant ranks (9 and 13 only), plus a sum up to
# min(R, k) of 0 / (i - R - 3), which is 0 wherever it is computed (i <= R). Monotonic is false at k = 14 -> 15 (the
# pattern, R = 2: 2, then -8). The per-depth form wrote the sum out to rank k, so the divisor i - R - 3 of a term the
# metric never computes (i > R) made the form undefined at R = i - 3 and the bounded proof dropped R = 2 at k = 15.
PATTERN_OTHERS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 14, 15)


@proposal("late-penalty")
def late_penalty(m: Any) -> Any:
    pattern = m.r(9) * m.r(13)
    for j in PATTERN_OTHERS:
        pattern = pattern * (1 - m.r(j))
    penalty = sympy.Piecewise((10 * pattern, sympy.And(sympy.Eq(m.k, 15), m.R <= 5)), (0, True))
    return m.sum(1, m.k, m.r) - penalty + m.sum(1, m.min(m.R, m.k), lambda i: m.num(0) / (i - m.R - 3))


def late_penalty_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    R = len(qrels)
    pattern = grade(ranking, 9) * grade(ranking, 13)
    for j in PATTERN_OTHERS:
        pattern *= 1 - grade(ranking, j)
    penalty = 10 * pattern if k == 15 and R <= 5 else Fraction(0)
    zero = sum((Fraction(0, i - R - 3) for i in range(1, min(R, k) + 1)), Fraction(0))
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) - penalty + zero


# -- a maximum whose terms can be negative ---------------------------------------------------------
# max_{i<=k} (b_i - R): `0` at k = 1 scores -R, so the scores are unbounded below (-1000 at R = 1000), and neither
# 0 <= score <= 1 nor any bound holds. The fold program's maximum started at 0, i.e. computed max(0, b_1 - R, ...),
# another metric, which is bounded by 0 and 1. Monotonic is true (a maximum over more ranks).
@proposal("best-gain-minus-r")
def best_gain_minus_r(m: Any) -> Any:
    return m.max_over(1, m.k, lambda i: m.r(i) - m.R)


def best_gain_minus_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return max(grade(ranking, i) - len(qrels) for i in range(1, k + 1))


# sum_{i <= min(k, R)} b_i / (R - i + 1): every computed term has i <= R, so the divisor is at least 1. Natural code the
# per-depth forms once refused (they recorded the divisor R of the term at i = 1 > R = 0 as a denominator).
@proposal("remaining-weighted")
def remaining_weighted(m: Any) -> Any:
    return m.sum(1, m.min(m.k, m.R), lambda i: m.r(i) / (m.R - i + 1))


def remaining_weighted_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    R = len(qrels)
    return sum((grade(ranking, i) / (R - i + 1) for i in range(1, min(k, R) + 1)), Fraction(0))


# -- a denominator shown only where the metric never divides -------------------------------------------
# The largest grade times (R - 1) / (R - 1), plus an empty sum of 1 / (R - 1): undefined on every arrangement at R = 1,
# where nothing is then reached (realizable is false: k = 1, qrels {1}). The empty sum put 1 / (R - 1) in the closed form,
# so the cancelled denominator looked divided by.
@proposal("hit-shown-empty", "graded")
def hit_shown_empty(m: Any) -> Any:
    return m.max_over(1, m.k, m.r) * m.div(m.R - 1, m.R - 1) + m.sum(1, 0, lambda j: 1 / (m.R - 1))


def hit_shown_empty_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if len(qrels) == 1 else max(grade(ranking, i) for i in range(1, k + 1))


# -- a number that is exactly 0 where SymPy says it is not ---------------------------------------------
# log2(9) - 2 log2(3) = 0, but SymPy's assumptions call it nonzero (and negative). (Z / Z - 1) summed once at k = 250
# only: undefined on every situation at k = 250, R = 0 included, so complete is false there (past the deep search).
def _log_zero(m: Any) -> Any:
    return m.log2(9) - 2 * m.log2(3)


@proposal("zero-at-250")
def zero_at_250(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k + m.sum(1, m.max(0, 1 - (m.k - 250) ** 2), lambda j: m.div(_log_zero(m), _log_zero(m)) - 1)


def zero_at_250_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if k == 250 else sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / k


# -- a comparison of two equal numbers that SymPy once decided ----------------------------------------
# log2(9) = 2 log2(3), so Eq(log2(9), 2 log2(3)) is true; SymPy read a sign off a rounded difference and made it false
# (and Gt, sign, floor of the difference wrong) in every backend alike, so forms, exact runs and search described another
# metric (a tenth hostile review). The metrics as written: flag = -1, so -sum b_i / 2^i (monotonic, convergent and
# top-weighted false at k = 1, 2: `01` scores 0 then -1/4; `10` scores -1/2); P@k + 1/R (complete false at R = 0);
# nDCG halved when R >= 4 (realizable false: k = 1, qrels {1,1,1,1} reaches 1/2 only).
@proposal("equal-logs-negated")
def equal_logs_negated(m: Any) -> Any:
    flag = sympy.Piecewise((-1, sympy.Eq(m.log2(9), 2 * m.log2(3))), (1, True))
    return flag * m.sum(1, m.k, lambda i: m.r(i) / 2**i)


def equal_logs_negated_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return -sum((grade(ranking, i) / 2**i for i in range(1, k + 1)), Fraction(0))


@proposal("unequal-logs-negated")
def unequal_logs_negated(m: Any) -> Any:
    return sympy.Piecewise((1, sympy.Ne(m.log2(9), 2 * m.log2(3))), (-1, True)) * m.sum(1, m.k, lambda i: m.r(i) / 2**i)


@proposal("equal-logs-incomplete")
def equal_logs_incomplete(m: Any) -> Any:
    flag = sympy.Piecewise((0, sympy.Eq(m.log2(9), 2 * m.log2(3))), (1, True))
    return m.sum(1, m.k, m.r) / m.k + 1 / (m.R + flag)


def equal_logs_incomplete_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if not qrels else sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / k + Fraction(1, len(qrels))


@proposal("equal-logs-halved-from-4")
def equal_logs_halved_from_4(m: Any) -> Any:
    half = sympy.Piecewise((sympy.Rational(1, 2), sympy.And(sympy.Eq(m.log2(9), 2 * m.log2(3)), m.R >= 4)), (1, True))
    dcg = m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1))
    return m.div(dcg, m.sum(1, m.k, lambda i: m.g(i) / m.log2(i + 1))) * half


@proposal("greater-log-precision")
def greater_log_precision(m: Any) -> Any:
    return sympy.Piecewise((1, sympy.Gt(m.log2(9), 2 * m.log2(3))), (2, True)) * m.sum(1, m.k, m.r) / m.k


EQUAL_LOGS = {"equal": equal_logs_negated, "unequal": unequal_logs_negated, "incomplete": equal_logs_incomplete,
              "halved-from-4": equal_logs_halved_from_4, "greater": greater_log_precision}


# -- a guard from a branch the metric never evaluates -------------------------------------------------
# sum_{i <= min(k, R)} 1 / (R + 1 - i) is defined everywhere, but its per-depth form keeps every term to rank k inside a
# Piecewise on i <= min(k, R), and the Z3 encoder assumed R + 1 - i != 0 for the terms never reached: every situation with
# R <= k was left out of the k <= K proofs (an eleventh hostile review). Monotonic is false at k = 11 -> 12 on
# `0110000000000` with R = 2 (7/2, then -3/2); top-weighted false at k = 11 with R = 2 (`01100000000` scores 22/3,
# `10100000000` 17/6).
def _remaining(m: Any) -> Any:
    return m.sum(1, m.min(m.k, m.R), lambda i: 1 / (m.R + 1 - i))


def _only_01100000000(m: Any) -> Any:
    mismatches = m.r(1) + (1 - m.r(2)) + (1 - m.r(3)) + m.sum(4, 11, m.r)
    return m.max(0, 1 - mismatches)


@proposal("falls-at-12-for-small-r")
def falls_at_12_for_small_r(m: Any) -> Any:
    from_12, small = m.min(1, m.max(0, m.k - 11)), m.min(1, m.max(0, 12 - m.R))
    return m.sum(1, m.k, m.r) + _remaining(m) - 5 * from_12 * small * _only_01100000000(m)


@proposal("bump-at-11-for-small-r")
def bump_at_11_for_small_r(m: Any) -> Any:
    from_11, small = m.min(1, m.max(0, m.k - 10)), m.min(1, m.max(0, 10 - m.R))
    return m.sum(1, m.k, lambda i: m.r(i) / i) + _remaining(m) + 5 * from_11 * small * _only_01100000000(m)


def _remaining_truth(k: int, R: int) -> Fraction:
    return sum((Fraction(1, R + 1 - i) for i in range(1, min(k, R) + 1)), Fraction(0))


def _only_01100000000_truth(ranking: tuple[Fraction, ...]) -> Fraction:
    mismatches = grade(ranking, 1) + (1 - grade(ranking, 2)) + (1 - grade(ranking, 3)) + sum(grade(ranking, i) for i in range(4, 12))
    return max(Fraction(0), 1 - mismatches)


def falls_at_12_for_small_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    R = len(qrels)
    from_12, small = min(1, max(0, k - 11)), min(1, max(0, 12 - R))
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) + _remaining_truth(k, R) - 5 * from_12 * small * \
        _only_01100000000_truth(ranking)


def bump_at_11_for_small_r_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    R = len(qrels)
    from_11, small = min(1, max(0, k - 10)), min(1, max(0, 10 - R))
    return sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)) + _remaining_truth(k, R) + 5 * from_11 * small * \
        _only_01100000000_truth(ranking)


# root(x, 3) of a negative x is SymPy's principal root, not real: undefined there, as sqrt(-1) is (it was a traceback)
@proposal("cube-root-of-k-minus-3")
def cube_root_of_k_minus_3(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) + sympy.root(m.k - 3, 3)


# -- rank k + 1 read only through a limit (a twelfth hostile review) ---------------------------------
# hi = r_{k+1} * [ranks 1..5 are 10110] * (min(k, 13) - 12), floored: 1 only from k = 13 when rank k + 1 is relevant. The
# metric sums (or maximises, or multiplies) up to hi, so at k = 13 `1011000000000` scores 0 and `10110000000001` 1 (2 for
# the product of 2s): not localized, which the syntactic proof missed because it read only the bodies.
def _limit_reading_k_plus_1(m: Any) -> Any:
    pattern = m.r(1) * (1 - m.r(2)) * m.r(3) * m.r(4) * (1 - m.r(5))
    return (m.r(m.k + 1) * pattern * (m.min(m.k, 13) - 12)) // 1


@proposal("sum-to-a-limit-reading-k-plus-1")
def sum_to_a_limit_reading_k_plus_1(m: Any) -> Any:
    return m.sum(1, _limit_reading_k_plus_1(m), lambda i: m.num(1))


@proposal("max-to-a-limit-reading-k-plus-1")
def max_to_a_limit_reading_k_plus_1(m: Any) -> Any:
    return m.max_over(1, _limit_reading_k_plus_1(m), lambda i: m.num(1))


@proposal("product-to-a-limit-reading-k-plus-1")
def product_to_a_limit_reading_k_plus_1(m: Any) -> Any:
    return m.prod(1, _limit_reading_k_plus_1(m), lambda i: m.num(2))


def limit_reading_k_plus_1_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> int:
    """The limit hi itself: what the sum of 1s and the maximum of 1s score (the product of 2s scores 2 ** hi)."""
    pattern = grade(ranking, 1) * (1 - grade(ranking, 2)) * grade(ranking, 3) * grade(ranking, 4) * (1 - grade(ranking, 5))
    return int(grade(ranking, k + 1) * pattern * (min(k, 13) - 12) // 1)


LIMIT_READERS = {"sum": sum_to_a_limit_reading_k_plus_1, "max": max_to_a_limit_reading_k_plus_1,
                 "product": product_to_a_limit_reading_k_plus_1}


# -- a square that was taken for a division (a twelfth hostile review) --------------------------------
# 0 * (R - 500)^2 is 0 everywhere; the forms recorded R - 500 as a denominator, so the k <= K proofs left R = 500 out,
# the only R where the sign flips: -sum b_i at R = 500 (monotonic false: `11` scores -1 then -2; convergent false at k = 1:
# `01` 0, `10` -1).
@proposal("square-at-r-500")
def square_at_r_500(m: Any) -> Any:
    sign = sympy.Piecewise((-1, sympy.Eq(m.R, 500)), (1, True))
    return sign * m.sum(1, m.k, m.r) + 0 * sympy.Pow(m.R - 500, 2)


def square_at_r_500_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return (-1 if len(qrels) == 500 else 1) * sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))


# -- binomial(n, n + 2) at a negative n (a thirteenth hostile review) -----------------------------------
# SymPy's simplify calls binomial(k - 252, k - 250) 0 for every k, but SymPy's binomial (which the exact run uses) gives 1 at
# k = 250 and -1 at k = 251. A score that is that bump is neither monotonic (1 then -1) nor realizable (0 at k = 1 while
# 1 is reached at k = 250); a weight 1/(i + 1) minus the bump at i is negative at i = 300 (monotonic and convergent false
# there); a read of rank i plus the bump reads rank 301 at k = 300 (not localized).
def _bump(n: Any) -> Any:
    return sympy.binomial(n - 252, n - 250)


def _bump_truth(n: int) -> int:
    return {250: 1, 251: -1}.get(n, 0)


@proposal("binomial-bump")
def binomial_bump(m: Any) -> Any:
    return _bump(m.k)


def binomial_bump_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> int:
    return _bump_truth(k)


@proposal("binomial-weight")
def binomial_weight(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: (1 / (i + 1) - _bump(i + 50)) * m.r(i))


def binomial_weight_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum(((Fraction(1, i + 1) - _bump_truth(i + 50)) * grade(ranking, i) for i in range(1, k + 1)), Fraction(0))


@proposal("binomial-index")
def binomial_index(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i + _bump(i + 50)))


def binomial_index_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i + _bump_truth(i + 50)) for i in range(1, k + 1)), Fraction(0))


BINOMIALS = {"bump": (binomial_bump, ("monotonic", "realizable")), "weight": (binomial_weight, ("monotonic", "convergent")),
             "index": (binomial_index, ("localized",))}


# -- undefined on every arrangement of five relevant documents ----------------------------------------
# The largest grade in the top k, times (R - 5) / (R - 5): undefined at R = 5, so at k = 1 with qrels {1,1,1,1,1} no
# arrangement reaches the supremum 1 (realizable false), which only the realizable search's wide phase tries.
@proposal("hit-undefined-at-five")
def hit_undefined_at_five(m: Any) -> Any:
    return m.max_over(1, m.k, m.r) * m.div(m.R - 5, m.R - 5)


def hit_undefined_at_five_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if len(qrels) == 5 else max(grade(ranking, i) for i in range(1, k + 1))


# -- a convergent series SymPy calls divergent (a fourteenth hostile review) --------------------------
# w(i) = (11/10) i^(1/i) / i^2. SymPy's Sum.is_convergent calls sum w(i) divergent, and bounded was "proved" false for all k
# ("exceeds any bound M for k large enough", shown at M = 2). It is bounded: i^(1/i) <= 3/2 for every i >= 1 (i <= (3/2)^i),
# so every score lies in [0, (11/10)(3/2) sum 1/i^2] within [0, 33/10]; the all-relevant scores rise towards about 2.0675.
@proposal("root-weight")
def root_weight(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.num(11) / 10 * sympy.root(i, i) / i**2 * m.r(i))


ROOT_WEIGHT_BOUND = Fraction(33, 10)


def root_weight_is_bounded_by(bound: Fraction, depths: int) -> bool:
    """The argument above, in exact integers: i <= (3/2)^i for i <= depths (and (3/2) >= (i + 1)/i carries it on for every
    i >= 2), and (11/10)(3/2) times sum 1/i^2 < (11/10)(3/2)(1 + sum 1/(i(i - 1))) = (11/10)(3/2) 2 <= bound."""
    grows = all(Fraction(3, 2) ** i >= i for i in range(1, depths + 1))
    carried = all(Fraction(3, 2) >= Fraction(i + 1, i) for i in range(2, depths))
    return grows and carried and Fraction(11, 10) * Fraction(3, 2) * 2 <= bound


# -- a root whose index is -1 at one depth (a fourteenth hostile review) ---------------------------------
# root(0, n) is 0**(1/n): 0 where n > 0, undefined (1/0) where n < 0. With n = (-1)^[k = 250] the term is undefined at
# k = 250 only; times 0, SymPy drops it from the closed form. Each metric below is undefined at k = 250 on every situation,
# so it is not complete (R = 0 at k = 250), and the constant is not realizable (no arrangement at k = 250 reaches 1). (A
# comparison with an undefined side is no counterexample, so monotonic, convergent, top-weighted and bounded hold.)
def _root_gap(m: Any) -> Any:
    return sympy.root(0, (-1) ** sympy.KroneckerDelta(m.k, 250))


@proposal("root-gap-constant")
def root_gap_constant(m: Any) -> Any:
    return m.num(1) + m.num(0) * _root_gap(m)


@proposal("root-gap-weighted")
def root_gap_weighted(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / 2**i) + m.num(0) * _root_gap(m)


@proposal("root-gap-kept")
def root_gap_kept(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / 2**i) + _root_gap(m)


def root_gap_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], base: str) -> Fraction | None:
    """None (undefined) at k = 250; else 1 (constant) or sum_{i<=k} r_i / 2^i (weighted, kept: the root is 0**1 = 0)."""
    if k == 250:
        return None
    return Fraction(1) if base == "constant" else sum((grade(ranking, i) / 2**i for i in range(1, k + 1)), Fraction(0))


ROOT_GAPS = {"constant": (root_gap_constant, ("realizable", "complete")), "weighted": (root_gap_weighted, ("complete",)),
             "kept": (root_gap_kept, ("complete",))}
"""Each proposal and the properties it lacks (each was "proved" for all k)."""


# -- unboundedness "proved" where the growing ranking is undefined (a fifteenth hostile review) ----------
# Each grows without bound on the all-relevant ranking as written, but divides by d, which is 0 there from some depth on
# (or once 12 documents of the top k are relevant), so every defined score is small: all are bounded. Each got bounded "no,
# proof (all k)": the proofs grew the closed form (where m.div(x * d, d) is x) or assumed "defined" in the fold's induction.
def _cut(m: Any, at: int) -> Any:
    return m.max(0, at - m.k)


@proposal("cutoff-count")
def cutoff_count(m: Any) -> Any:  # 4 * (relevant in the top k) for k <= 11, undefined after: bounded by 44
    return m.div(4 * m.sum(1, m.k, m.r) * _cut(m, 12), _cut(m, 12))


@proposal("cutoff-dcg")
def cutoff_dcg(m: Any) -> Any:  # DCG for k <= 2999, undefined after: every term <= 1, bounded by 2999
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1)) * _cut(m, 3000), _cut(m, 3000))


@proposal("cutoff-dcg-12")
def cutoff_dcg_12(m: Any) -> Any:  # DCG for k <= 11, undefined after (the prover stopped on it: a float met Undefined)
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1)) * _cut(m, 12), _cut(m, 12))


@proposal("few-relevant")
def few_relevant(m: Any) -> Any:  # 4 c, c the relevant documents of the top k, undefined where c >= 12: bounded by 44
    few = m.max(0, 12 - m.sum(1, m.k, m.r))
    return m.div(4 * m.sum(1, m.k, m.r) * few, few)


@proposal("cutoff-sp")
def cutoff_sp(m: Any) -> Any:  # SP for k <= 11 (each term b_i Prec@i <= 1), undefined after: bounded by 11
    return m.sum(1, m.k, lambda i: m.r(i) * m.sum(1, i, m.r) / i) * m.max(1, 12 - m.k) / m.max(0, 12 - m.k)


def cutoff_truth(ranking: tuple[Fraction, ...], k: int, name: str) -> Fraction | None:
    """The score of CUTOFFS[name], None where undefined; for the DCGs an upper bound of it, their count of relevant
    documents (each term r_i / log2(i + 1) is at most r_i)."""
    relevant = sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))
    if name == "few":
        return None if relevant >= 12 else 4 * relevant
    if k >= (3000 if name == "dcg" else 12):
        return None
    if name == "sp":
        return sum((grade(ranking, i) * sum((grade(ranking, j) for j in range(1, i + 1)), Fraction(0)) / i
                    for i in range(1, k + 1)), Fraction(0))
    return 4 * relevant if name == "count" else relevant


CUTOFFS = {"count": (cutoff_count, Fraction(44)), "dcg": (cutoff_dcg, Fraction(2999)), "dcg-12": (cutoff_dcg_12, Fraction(11)),
           "few": (few_relevant, Fraction(44)), "sp": (cutoff_sp, Fraction(11))}
"""Each proposal, with a bound on its every defined score."""


# -- a library function handed to the algebra as a term function (a fifteenth hostile review) -----------
# m.sum(e, e, sympy.log) calls sympy.log from irprops' code, not the formula's, and its condition (a positive argument)
# went unrecorded; times 0 the term vanished from the closed form, while the exact run gives 0 * zoo = nan there. Each is
# undefined where the handed-off function is: k = 250 (log of (k - 250)^2), k = 777 (log2), k >= 1002 (harmonic of a
# negative integer), R = 500 (log of (R - 500)^2). complete (and localized, for the R one) was "proved" for all k.
def _precision(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k


def _once(m: Any, e: Any, f: Any) -> Any:  # f(e), handed to the algebra
    return m.sum(e, e, f)


@proposal("handed-log")
def handed_log(m: Any) -> Any:
    return _precision(m) + (m.k - m.k) * _once(m, (m.k - 250) ** 2, sympy.log)


@proposal("handed-log2")
def handed_log2(m: Any) -> Any:
    return _precision(m) + (m.k - m.k) * m.prod((m.k - 777) ** 2, (m.k - 777) ** 2, m.log2)


@proposal("handed-harmonic")
def handed_harmonic(m: Any) -> Any:
    return _precision(m) + (m.k - m.k) * _once(m, 1001 - m.k, sympy.harmonic)


@proposal("handed-log-of-r")
def handed_log_of_r(m: Any) -> Any:
    return _precision(m) + (m.R - m.R) * _once(m, (m.R - 500) ** 2, sympy.log)


def handed_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], name: str) -> Fraction | None:
    """P@k, or None (undefined) where the handed-off function has no value."""
    undefined = {"log": k == 250, "log2": k == 777, "harmonic": k >= 1002, "log-of-r": len(qrels) == 500}[name]
    return None if undefined else sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / k


HANDED = {"log": (handed_log, "complete", 250, 0), "log2": (handed_log2, "complete", 777, 0),
          "harmonic": (handed_harmonic, "complete", 1002, 0), "log-of-r": (handed_log_of_r, "localized", 1, 500)}
"""Each proposal, the property falsely proved, and a depth and R where it is undefined."""


@proposal("lone-log2")
def lone_log2(m: Any) -> Any:  # log2 of the relevant documents of the top k: undefined where there are none
    return m.log2(m.sum(1, m.k, m.r))


# -- irprops' log2 called by name, and a sorted grade whose order reads rank k + 1 (a sixteenth hostile review) --
# exact.log2(x) called directly recorded no condition (m.log2 did), so 0 * log2(x) vanished from the closed form while
# the exact run is undefined where x = 0: at k = 250 with R = 0 (not complete; R = 0 vs R = 1 differ: not localized),
# and at k = 250 with R = 17 (not realizable: no arrangement of 17 relevant documents is defined there).
@proposal("log2-by-name-a")
def log2_by_name_a(m: Any) -> Any:
    return m.num(0) * log2(m.k + 1000 * m.R - 250)


@proposal("log2-by-name-b")
def log2_by_name_b(m: Any) -> Any:
    return m.num(0) * log2(100000 * (m.R - 17) + m.k - 250)


def log2_by_name_truth(k: int, R: int, name: str) -> Fraction | None:
    """0, or None (undefined) where the logarithm's argument is not positive (the exact run is strict: log2 of a
    negative number is no real value, even times 0)."""
    argument = k + 1000 * R - 250 if name == "a" else 100000 * (R - 17) + k - 250
    return None if argument <= 0 else Fraction(0)


# The j-th largest grade of the top k, with j = k + 1 where the grade at rank k + 1 is positive (from depth 250 on), else
# 1: at k = 250, `1` then 249 zeros scores 1, and the same top k followed by a 1 at rank 251 scores 0 (not localized).
@proposal("sorted-grade-reading-k-plus-1", "graded")
def sorted_grade_reading_k_plus_1(m: Any) -> Any:
    j = sympy.Piecewise((m.k + 1, sympy.And(sympy.Gt(m.r(m.k + 1), 0), sympy.Ge(m.k, 250))), (1, True))
    return m.r_sorted(j)


def sorted_grade_truth(ranking: tuple[Fraction, ...], k: int) -> Fraction:
    top = sorted((grade(ranking, i) for i in range(1, k + 1)), reverse=True)
    j = k + 1 if grade(ranking, k + 1) > 0 and k >= 250 else 1
    return top[j - 1] if j <= k else Fraction(0)


# -- scores that tie in floating point (a sixteenth hostile review) ---------------------------------------
# At k = 1 with qrels {1} the best arrangement scores 1 - 2^-60 and `100` at k = 2 scores 1: the minimal realizable witness;
# at k = 1, `0` scores 1 with R = 0 and 1 + 2^-60 with R = 1: the minimal localized witness. Both were passed over because
# the floats tie, while a later witness was called minimal.
EPSILON = Fraction(1, 2**60)


@proposal("nearly-one-at-depth-1")
def nearly_one_at_depth_1(m: Any) -> Any:
    return m.div(m.r(1) * (1 - m.num(EPSILON) * (2 - m.min(m.k, 2))), m.R, "R = 0")


@proposal("nearly-one-with-r")
def nearly_one_with_r(m: Any) -> Any:
    return 1 + m.R * (m.k - 1 + m.num(EPSILON))


# -- a divisor nonzero at the parameter's default only (a sixteenth hostile review) ----------------------
# x * d / d with d = 2 R - floor(4 p): nonzero at the default p = 1/4, but 0 at R = 1 for every p in [1/2, 3/4). The proofs
# hold "for every p in (0, 1)", yet the divisor was checked at p = 1/4 only and left out: realizable was "proved" (at p = 1/2
# and qrels {1} every arrangement is undefined, while other collections reach 1), and with d = 1 - (floor(4 p) - 1) min(R, 1)
# unboundedness was "proved" (at p = 1/2 only R = 0 is defined, where every score is 0).
def _with_p(name: str, relevance: str, formula: Callable[[Any], Any], p: Fraction = Fraction(1, 4)) -> Measure:
    interval = (Fraction(0), Fraction(1))
    param = Param("p", Fraction(1, 4), "0 < p < 1", lambda v: 0 < v < 1, proof_interval=interval)
    return Measure(Metric(name, formula, relevance, (), (param,), "an adversarial proposal"), {"p": p})  # type: ignore[arg-type]


def _rbp_cut(m: Any) -> Any:
    p = m.param("p")
    top = m.min(m.R, m.k)
    return m.sum(1, top, lambda i: m.r(i) * p ** (i - 1)) / m.sum(1, top, lambda i: p ** (i - 1))


def _gap(m: Any) -> Any:
    return 2 * m.R - sympy.floor(4 * m.param("p"))


def _p_gap_realizable(m: Any) -> Any:
    return _rbp_cut(m) * _gap(m) / _gap(m)


def _p_gap_unbounded(m: Any) -> Any:
    d = 1 - (sympy.floor(4 * m.param("p")) - 1) * m.min(m.R, 1)
    return (1 + m.param("p")) * m.sum(1, m.k, m.r) * d / d


def p_gap(name: str, p: Fraction = Fraction(1, 4)) -> Measure:
    """The proposal ``name`` ("realizable" or "unbounded") at the parameter value p."""
    formula = _p_gap_realizable if name == "realizable" else _p_gap_unbounded
    return _with_p(f"p-gap-{name}", "binary", formula, p)


def p_gap_defined(name: str, p: Fraction, R: int) -> bool:
    """Whether the divisor is nonzero (the oracle: floor(4 p) in exact integers)."""
    floor_4p = (4 * p.numerator) // p.denominator
    return (2 * R - floor_4p != 0) if name == "realizable" else (1 - (floor_4p - 1) * min(R, 1) != 0)


# -- a fold whose definedness depends on the ranking (a seventeenth hostile review) -------------------------
# S = -(sum of the relevant documents' ranks); score S + sign(S + 50000) - 100 [S = -49999], undefined where S = -50000.
# top_weighted was "proved" by chaining adjacent swaps, each proved where both sides are defined; at k = 50001 with R = 1,
# the relevant document at rank 50001 scores -50002 and moved up to rank 49999 scores -50098 (both defined): the chain
# passes through rank 50000, where the metric is undefined.
_JUMP = -50000


@proposal("jump")
def jump(m: Any) -> Any:
    s = m.sum(1, m.k, lambda i: -i * m.r(i))
    d = s - _JUMP
    return s - 100 * sympy.Piecewise((1, sympy.Eq(s, _JUMP + 1)), (0, True)) + sympy.Max(d, -d) / d


def jump_truth(relevant_at: int) -> Fraction | None:
    """The score with one relevant document, at rank ``relevant_at`` (within the top k)."""
    s = -relevant_at
    if s == _JUMP:
        return None
    return Fraction(s - 100 * (s == _JUMP + 1) + (1 if s > _JUMP else -1))


# -- pow with a modulus (an eighteenth hostile review) ---------------------------------------------------
# pow(x, e, q) on a SymPy base went to SymPy's own __pow__, which ignored the guard: the modulus q was never recorded as a
# divisor, and the exact run (integers: a modular inverse) and the symbolic run (an expression: Mod(1/7, q), simplified to
# 1/7) computed different functions. Here q is 7 except past depth 250, where the modular inverse of 7 is huge: the score
# 7 * pow(7, -1, q) * sum b_i / 2^i is sum b_i / 2^i up to depth 250, unbounded past it (and not monotonic).
@proposal("pow-with-a-modulus")
def pow_with_a_modulus(m: Any) -> Any:
    base = m.sum(1, m.k, lambda i: m.r(i) / 2**i)
    t = m.max(0, m.k - 250)
    q = sympy.sympify(t**2 * (m.k - 300) ** 2 * (m.k - 1000) ** 2 + 7)
    return base * 7 * pow(sympy.Integer(7), -1, q)


# -- a partial function built however the formula calls it (found by the eighth session's own attack) ----------------------
# sum_{i<=k} b_i / i + 0 * (k - 250)^-1: SymPy drops the zero term from the closed form, while the exact run has no value at
# k = 250 (0 times a division by zero). Complete is false at k = 250 (no score for any R); the other cells hold (a
# comparison with an undefined side is no counterexample). The power was recorded only when the formula passed its base and
# exponent by position: sympy.Pow(x, e=-1) and sympy.Pow(b=x, e=-1) reach the same constructor with its arguments by name.
# The logarithm was recorded only through SymPy's cache: with SYMPY_USE_CACHE=no its constructor is called directly.
def _dcg_part(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i)


@proposal("power-by-keyword")
def power_by_keyword(m: Any) -> Any:
    return _dcg_part(m) + 0 * sympy.Pow(m.k - 250, e=-1)


@proposal("power-all-by-keyword")
def power_all_by_keyword(m: Any) -> Any:
    return _dcg_part(m) + 0 * sympy.Pow(b=m.k - 250, e=-1)


@proposal("zero-times-log")
def zero_times_log(m: Any) -> Any:
    return _dcg_part(m) + 0 * sympy.log((m.k - 250) ** 2)


BUILT_HOWEVER = {"power-by-keyword": power_by_keyword, "power-all-by-keyword": power_all_by_keyword,
                 "zero-times-log": zero_times_log}


def built_however_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    """All three: undefined at k = 250 (a division by zero, log(0)), sum b_i / i elsewhere."""
    if k == 250:
        return None
    return sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0))



# -- a division in a branch the metric never takes (a nineteenth hostile review) ---------------------------------------------
# sympy.Pow(R - 20000, -1) is zoo at R = 20000, in a Piecewise branch taken only for R > 30000. In the exact run of the
# nineteenth review (lazy: the Piecewise dropped the zoo) the metric had a value at R = 20000, where each metric below breaks
# its property; the recording kept R - 20000 as a denominator of the whole form, and the k <= K proofs assumed it nonzero,
# leaving R = 20000 out (4 false "yes", k <= 20). Since the twentieth review the exact run is strict (metrics/strictness.py):
# a step with no real value leaves the metric without one, so the metric has no value at R = 20000 (nor at R = 40 for the
# last one); and the k <= K proofs no longer assume a recorded denominator nonzero. With count = sum_{i<=k} b_i, [R = a] the
# indicator, and elsewhere than at R = 20000 (R = 40):
#   far-monotonic     R > 30000: 1 / (R - 20000); else count - k [R = 20000].
#   far-convergent    R > 30000: count + 1 / (R - 20000); else count - 2 count [R = 20000].
#   far-top-weighted  R > 30000: front + 1 / (R - 20000); else front + (back - front) [R = 20000], front = sum b_i / i,
#                     back = sum i b_i.
#   near-monotonic    R > 100: count + 1 / |R - 40|; else count - k [R = 40] (|R - 40| is not a polynomial).
def _far(m: Any, at: int) -> Any:
    return sympy.Piecewise((1, sympy.Eq(m.R, at)), (0, True))


def _relevant_seen(m: Any) -> Any:
    return m.sum(1, m.k, m.r)


@proposal("far-monotonic")
def far_monotonic(m: Any) -> Any:
    return sympy.Piecewise((sympy.Pow(m.R - 20000, -1), m.R > 30000), (_relevant_seen(m) - m.k * _far(m, 20000), True))


@proposal("far-convergent")
def far_convergent(m: Any) -> Any:
    seen = _relevant_seen(m)
    return sympy.Piecewise((seen + sympy.Pow(m.R - 20000, -1), m.R > 30000), (seen - 2 * seen * _far(m, 20000), True))


@proposal("far-top-weighted")
def far_top_weighted(m: Any) -> Any:
    front = m.sum(1, m.k, lambda i: m.r(i) / i)
    back = m.sum(1, m.k, lambda i: m.r(i) * i)
    return sympy.Piecewise((front + sympy.Pow(m.R - 20000, -1), m.R > 30000), (front + (back - front) * _far(m, 20000), True))


@proposal("near-monotonic")
def near_monotonic(m: Any) -> Any:
    return sympy.Piecewise((_relevant_seen(m) + sympy.Pow(m.max(m.R - 40, 40 - m.R), -1), m.R > 100),
                           (_relevant_seen(m) - m.k * _far(m, 40), True))


def branch_never_taken_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], name: str) -> Fraction | None:
    R = len(qrels)
    count = sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))
    front = sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0))
    if name == "near-monotonic":
        if R == 40:
            return None  # 1 / |R - 40| is computed (strictly) at every R
        return count + Fraction(1, abs(R - 40)) if R > 100 else count
    if R == 20000:
        return None  # 1 / (R - 20000) is computed (strictly) at every R
    if R > 30000:
        extra = Fraction(1, R - 20000)
        return {"far-monotonic": extra, "far-convergent": count + extra, "far-top-weighted": front + extra}[name]
    return {"far-monotonic": count, "far-convergent": count, "far-top-weighted": front}[name]


BRANCH_NEVER_TAKEN = {"far-monotonic": (far_monotonic, 20000), "far-convergent": (far_convergent, 20000),
                      "far-top-weighted": (far_top_weighted, 20000), "near-monotonic": (near_monotonic, 40)}
"""Each proposal, and the R where its branch never taken divides by zero."""


# -- a decision on a value with no real number (a twentieth hostile review) --------------------------------------------------
# d = 1 / t with t = sum over ranks 1..12 of (b_i - P_i)^2, 0 only where the top 12 ranks hold the pattern P. For a finite d,
# Eq(d, d + 1) is False (SymPy decided so on symbols, and the closed form is sum b_i / i^2); at t = 0, d is zoo and
# Eq(zoo, zoo + 1) is True, so a lazy exact run took the other branch there (-sum b_i / i^2): monotonic, convergent,
# top_weighted and bounded's "0 <= score" were "proved" for all k and were false on the pattern. The exact run is strict
# now: it has no value where t = 0, and sum b_i / i^2 elsewhere (the closed form), so those proofs hold.
_PATTERN = (0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1)


@proposal("decided-on-zoo")
def decided_on_zoo(m: Any) -> Any:
    t = sum((m.r(i + 1) - p) ** 2 for i, p in enumerate(_PATTERN))
    d = sympy.Pow(t, -1)
    base = m.sum(1, m.k, lambda i: m.r(i) / (i * i))
    return sympy.Piecewise((-base, sympy.Eq(d, d + 1)), (base, True))


def decided_on_zoo_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    if all(grade(ranking, i + 1) == p for i, p in enumerate(_PATTERN)):
        return None
    return sum((grade(ranking, i) / (i * i) for i in range(1, k + 1)), Fraction(0))


# -- a SymPy symbol of the file's own (found by the eighth session's own attack, after round 19) ----------------------------
# A global sympy.Symbol("z") in the branch taken at k = 250 made the exact score at k = 250 the symbol z itself (no number,
# yet not called undefined), while the closed form was "defined" there: complete was "proved" for all k. A global
# Symbol("k", integer=True, positive=True) is the closed form's own k under another name, where the exact run keeps it a
# symbol. A formula's constants are numbers now (refused otherwise, naming the constant), and an exact score holding a
# symbol is an error, not a score.
_Z = sympy.Symbol("z")
_K = sympy.Symbol("k", integer=True, positive=True)


@proposal("free-symbol-at-250")
def free_symbol_at_250(m: Any) -> Any:
    return sympy.Piecewise((_Z, sympy.Eq(m.k, 250)), (_dcg_part(m), True))


def _with_the_depth(i: Any, depth: Any = _K) -> Any:
    return i * sympy.KroneckerDelta(depth, 250)


@proposal("depth-symbol-by-default")
def depth_symbol_by_default(m: Any) -> Any:
    return _dcg_part(m) + _with_the_depth(m.k)


FILE_SYMBOLS = {"free-symbol-at-250": free_symbol_at_250, "depth-symbol-by-default": depth_symbol_by_default}


# -- a sum over a range empty at one depth (a twenty-first hostile review) -----------------------------------------------------
# ghost = sum over j = 1..min(k, (k - 252)^2) of ((k - 252)^2 - (k^2 - 504 k + 63504)) / (k - 252): every term is 0 where it is
# computed, and the range is empty exactly at k = 252, where the (strict) exact run divides by nothing. The closed form of
# the sum (the range's length times the term) divided by k - 252 at every depth, and the provers left k = 252 out, where each
# metric below breaks its property: bounded's 0 <= score <= 1 (P@k + 1000 [k = 252]), monotonic (the relevant documents in
# the top k, less 1000 at k = 252), 5 false "yes" for all k. SymPy's closed form of a sum now stands only where the range is
# not empty (0 where it is), and only if it divides by nothing the term does not.
def _ghost(m: Any) -> Any:
    k = m.k
    return m.sum(1, m.min(k, (k - 252) ** 2), lambda j: ((k - 252) ** 2 - (k**2 - 504 * k + 63504)) / (k - 252))


def _at_252(m: Any, value: Any) -> Any:
    return sympy.Piecewise((value, sympy.Eq(m.k, 252)), (0, True))


@proposal("empty-at-252-bounded")
def empty_at_252_bounded(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k + _at_252(m, 1000) + _ghost(m)


@proposal("empty-at-252-monotonic")
def empty_at_252_monotonic(m: Any) -> Any:
    return m.sum(1, m.k, m.r) - _at_252(m, 1000) + _ghost(m)


EMPTY_AT_252 = {"empty-at-252-bounded": (empty_at_252_bounded, "bounded"),
                "empty-at-252-monotonic": (empty_at_252_monotonic, "monotonic")}


def empty_at_252_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], name: str) -> Fraction:
    seen = sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))
    spike = 1000 if k == 252 else 0
    return seen / k + spike if name == "empty-at-252-bounded" else seen - spike


# -- a divisor that is exactly 0 while SymPy cancels it (a twenty-first hostile review) ---------------------------------------
# d = log2(k + 1) - log2(3) - log2(5) is exactly 0 at k = 14, where SymPy keeps it as a sum of logarithms and cancels d / d to
# 1: the exact run had a value at k = 14 (the count of relevant documents, less 5) and the search built a monotonic "no" on
# it (1 at k = 13, -4 at k = 14 on 100000000000000), a false "no": the metric has no value at k = 14, and it is monotonic
# where it has one. The strict exact run now decides each divisor SymPy builds with its certified sign.
@proposal("hidden-zero-at-14")
def hidden_zero_at_14(m: Any) -> Any:
    d = m.log2(m.k + 1) - m.log2(3) - m.log2(5)
    return m.sum(1, m.k, m.r) + sympy.Piecewise((-5, sympy.Eq(m.k, 14)), (0, True)) * (d / d)


def hidden_zero_at_14_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    return None if k + 1 == 15 else sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))


# -- a sorted grade read outside the top k (a twenty-third hostile review) -----------------------------------------------------
# d = the (2k - 20)-th largest grade of the top k: 0 unless 1 <= 2k - 20 <= k, i.e. k in 11..20, so the metric m.div(total * d, d)
# has a value only at depths 11 to 20 (where the top k holds 2k - 20 relevant documents), and every score is at most 20:
# bounded. The unboundedness proof's check that the all-relevant ranking is defined at every depth read every sorted grade
# as 1 on that ranking, whatever its order argument, and bounded was refuted "for all k".
@proposal("sorted-window", "graded")
def sorted_window(m: Any) -> Any:
    d = m.r_sorted(2 * m.k - 20)
    return m.div(m.sum(1, m.k, m.r) * d, d, "too few relevant documents in the top k")


def sorted_window_truth(ranking: tuple[Fraction, ...], k: int) -> Fraction | None:
    """The sum of the top k grades where the (2k - 20)-th largest of them is positive; no value elsewhere."""
    top = sorted((grade(ranking, i) for i in range(1, k + 1)), reverse=True)
    j = 2 * k - 20
    if not 1 <= j <= k or top[j - 1] == 0:
        return None
    return sum(top, Fraction(0))


# -- a decision SymPy made from a two-digit evaluation of an exact zero (a twenty-third hostile review) -----------------------
# d = log2(9) - 2 log2(3) is exactly 0, but SymPy evaluated it to an insignificant float (0.e-110) and read a sign off it:
# sign(d) was 1, sign(d) > 0 and d**2 > 0 were True, in the exact run and in every form alike, so the forms agreed with
# the exact run on another metric and 12 false "yes" for all k followed. SymPy's signs of numbers are certified now.
def _zero(m: Any) -> Any:
    return m.log2(9) - 2 * m.log2(3)


def _rbp_half(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / 2**i)


@proposal("sign-of-zero")
def sign_of_zero(m: Any) -> Any:  # R - k (1 + sum b_i / i) everywhere: unbounded below, not monotonic, not convergent
    return sympy.Piecewise((_rbp_half(m), sympy.sign(_zero(m)) > 0), (m.R - m.k * (1 + m.sum(1, m.k, lambda i: m.r(i) / i)), True))


@proposal("divided-by-sign-of-zero")
def divided_by_sign_of_zero(m: Any) -> Any:  # divides by sign(0) = 0: no value anywhere, so not complete
    return _rbp_half(m) + 0 * sympy.Pow(sympy.sign(_zero(m)), -1)


@proposal("sign-of-zero-at-250")
def sign_of_zero_at_250(m: Any) -> Any:  # RBP(1/2), except -R at k = 250: not monotonic at k = 250
    return sympy.Piecewise((_rbp_half(m), sympy.sign(_zero(m)) + (m.k - 250) ** 2 > 0), (-m.R, True))


@proposal("square-of-zero")
def square_of_zero(m: Any) -> Any:  # -R k everywhere: unbounded below
    return sympy.Piecewise((_rbp_half(m), _zero(m) ** 2 > 0), (-m.R * m.k, True))


def sign_of_zero_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], name: str) -> Fraction | None:
    """The four metrics in plain fractions (R is the number of relevant documents in the qrels)."""
    r = len(qrels)
    rbp = sum((grade(ranking, i) / 2**i for i in range(1, k + 1)), Fraction(0))
    if name == "sign-of-zero":
        return r - k * (1 + sum((grade(ranking, i) / i for i in range(1, k + 1)), Fraction(0)))
    if name == "divided-by-sign-of-zero":
        return None
    if name == "sign-of-zero-at-250":
        return rbp if k != 250 else Fraction(-r)
    return Fraction(-r * k)


SIGN_OF_ZERO = {  # each with the properties it breaks, and the depth where it first breaks them
    "sign-of-zero": (sign_of_zero, ("bounded", "monotonic", "convergent", "top_weighted", "localized"), 1),
    "divided-by-sign-of-zero": (divided_by_sign_of_zero, ("complete",), 1),
    "sign-of-zero-at-250": (sign_of_zero_at_250, ("monotonic",), 250),
    "square-of-zero": (square_of_zero, ("bounded",), 1),
}


# -- a divisor exactly 0 whose sign no interval certifies (a twenty-fourth hostile review) ----------------------------------
# d = sqrt(2) + sqrt(3) - sqrt(5 + 2 sqrt(6)) is 0 ((sqrt 2 + sqrt 3)^2 = 5 + 2 sqrt 6), but no interval shows it and it is
# not formally zero over prime logarithms; SymPy cancels d / d to 1. The strict run took the undecided divisor as nonzero,
# so the metric (which has no value anywhere) scored P-like values, and the search built two false "no" on them. Now the
# exact run cannot say, and says so.
@proposal("nested-radical-zero")
def nested_radical_zero(m: Any) -> Any:
    d = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
    return d / d * m.sum(1, m.k, lambda i: m.r(i) / i) / m.k


# Round 24 (lesser): SymPy's realness of 1 + sqrt(d), d the nested radical zero above, asks the signs of its parts, which
# irprops' certified sign answered by asking the realness again: a RecursionError refused the formula. sqrt(d) has a value
# only if d >= 0, which no interval certifies, so the formula is refused, in one line, for that reason.
@proposal("root-of-a-radical-zero")
def root_of_a_radical_zero(m: Any) -> Any:
    d = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
    return (1 + sympy.sqrt(d)) * m.sum(1, m.k, lambda i: m.r(i) / i) / m.k


# Found while writing a refusal's hint (round 25): SymPy's log of a number divides by I on the way (log.eval asks
# arg.as_coefficient(I)), and the strict run, since round 24 refusing every divisor whose sign it cannot certify, refused
# I: every sympy.log of a number SymPy had not cached was refused. The precision over a logarithm is bounded by 1/log(7920).
@proposal("precision-over-a-logarithm")
def precision_over_a_logarithm(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k / sympy.log(m.k + 7919)


# A binomial with a top argument below 0 has no value in the exact run (k < 250 here). The form at k = 1 listed the
# condition as one it could not model, so the agreement check refused the formula with "please report the formula";
# now that form has a zero denominator (no value, as in the exact run), and the refusal names the closed form's condition.
@proposal("binomial-factor")
def binomial_factor(m: Any) -> Any:
    return m.sum(1, m.k, m.r) / m.k / (1 + sympy.binomial(m.k - 250, 3) ** 2)


# -- floor and ceiling of a number within 2^-1000 of an integer (a twenty-fifth hostile review) ---------------------------
# C = 3 + log2(3) - P/Q, P/Q a convergent of log2(3) from above: C = 3 - 2.8e-400, so floor(C) = 2 and the weight
# (2 floor(C) - 5) / i is -1/i. SymPy's floor returned the nearest integer, 3: every run and form used 1/i alike, and
# monotonic, convergent and top_weighted were "proved" for all k. Now floor and ceiling of a number are certified.
NEAR_THREE_P = int(
    "1402521984231789174587915511616591272515610444199446885846258118053537837124060648781703413325431812703275415220644594"
    "40605649300191199583910185599183182957294229616238002111350926990266136692724709807")
NEAR_THREE_Q = int(
    "8848928498899142572556690320563534088036061694931740836613429647429895747482232889594607650521772467363368917347045657"
    "2259522897965520715515324634768893088779777102116692953686801826820398062593940827")


@proposal("floor-gate")
def floor_gate(m: Any) -> Any:
    c = 3 + log2(3) - sympy.Rational(NEAR_THREE_P, NEAR_THREE_Q)
    return (2 * sympy.floor(c) - 5) * m.sum(1, m.k, lambda i: m.r(i) / i)


def floor_gate_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return -sum((g / i for i, g in enumerate(ranking[:k], start=1)), Fraction(0))  # floor(C) = 2


# -- a binomial of a number that is not an integer (a twenty-fifth hostile review) -------------------------------------------
# binomial takes integers only; at odd k, binomial(k/2, 2) has no value. The strict run did not check the integer
# conditions, scored binomial(1/2, 2) = -1/8 at k = 1, and the search built a false "no" (monotonic) on it.
@proposal("binomial-of-half-the-depth")
def binomial_of_half_the_depth(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) - sympy.binomial(m.k / 2, 2)


# -- numbers SymPy evaluates with library code compiled from text (found by hand, session 26) --------------------------------
# SymPy's Mod(3, 1 + d), d the nested-radical zero above, calls int() of a number, which asks Expr.equals, which asks
# nsimplify, which runs mpmath's arithmetic (compiled from templates when mpmath is imported) and then parses mpmath's
# answer as text (parse_expr: code compiled from text). The first was refused as "a write into an object" in `<module>`,
# as if the formula had written it; mpmath's arithmetic is now mpmath's, and the parsed text is refused for what it is.
# Since round 27, int() is certified and asks no nsimplify: the formula is refused for the Mod it cannot decide.
@proposal("mod-by-a-radical-one")
def mod_by_a_radical_one(m: Any) -> Any:
    d = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
    return sympy.Mod(3, 1 + d) + m.sum(1, m.k, lambda i: m.r(i) / 2**i)


# SymPy's Max refuses a number it cannot evaluate to one significant digit ("not comparable"): log2(9) - 2 log2(3) is 0.
# The refusal's hint said "compute with exact numbers"; the formula is exact, and m.max is what to write instead.
@proposal("max-with-a-hidden-zero")
def max_with_a_hidden_zero(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: sympy.Max(log2(9) - 2 * log2(3), m.r(i)) / 2**i)


@proposal("m-max-with-a-hidden-zero")
def m_max_with_a_hidden_zero(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.max(log2(9) - 2 * log2(3), m.r(i)) / 2**i)


# A twenty-sixth hostile review: binomial(c, 2) with c = 3 - 2.8e-400 (the floor-gate number above) has no value: c is not
# an integer. irprops decided c's integer part (floor 2) but not that c is no integer (its 128-bit enclosure reached 3):
# the formula was refused as "cannot certify that ... is an integer", with a hint about zeros and signs.
@proposal("binomial-near-three")
def binomial_near_three(m: Any) -> Any:
    c = 3 + log2(3) - sympy.Rational(NEAR_THREE_P, NEAR_THREE_Q)
    return sympy.binomial(c, 2) * m.sum(1, m.k, lambda i: m.r(i) / 2**i)


# A twenty-sixth hostile review (lesser): (-1)^(k/2) has a value at even k only. The closed form keeps the power's condition
# (a nonnegative base) at every k, so the forms disagree at k = 2 and the formula is refused; the refusal asked the user
# to "please report the formula", and now names the form without a value and its condition.
@proposal("half-power-of-minus-one")
def half_power_of_minus_one(m: Any) -> Any:
    return sympy.Pow(-1, m.k / 2) * m.k * m.sum(1, m.k, m.r)


# A twenty-sixth hostile review (a false "minimal"): nDCG with its ideal cut at depth 10 whatever k. Its supremum is above
# 1 (20 relevant documents at k = 20 score about 1.55), so (k = 1, qrels {1}), whose best is 1, already breaks
# realizability; the search saw no score above 1 up to k = 6, reported (k = 1, qrels {1, 1}) and called it minimal.
@proposal("ndcg-ideal-cut-at-10")
def ndcg_ideal_cut_at_10(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1)), m.sum(1, 10, lambda i: m.g(i) / m.log2(i + 1)), "R = 0")


# A twenty-sixth hostile review (lesser): m.param of a name the metric does not declare failed with "KeyError: 'q'" and a
# hint about exact numbers.
@proposal("undeclared-parameter")
def undeclared_parameter(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * m.param("q") / i)


# A twenty-fifth hostile review (slowness): reciprocal rank whose cascade does not stop at a relevant document at rank
# 300. S = sum_{i<=k} b_i / i * prod_{j<i} (1 - b_j + [j = 300] b_j): the first relevant document counts, and when it is
# at rank 300 the next one counts too. Bounded by 1 (1/300 + 1/301 < 1), but not top-weighted: at k = 301, `0...011`
# with the ones at 300 and 301 scores 1/300 + 1/301, and moving the one at 301 up to 299 gives 1/299, less. The agreement
# check summed the closed form's symbolic terms with SymPy (a 100-factor product inside a sum at k = 100) and the check
# ran for more than five minutes.
@proposal("rr-leak-300")
def rr_leak_300(m: Any) -> Any:
    before = m.prefix_prod(lambda j: 1 - m.r(j) + sympy.KroneckerDelta(j, 300) * m.r(j))
    return m.sum(1, m.k, lambda i: m.r(i) * before(i - 1) / i)


def rr_leak_300_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    total, open_ = Fraction(0), Fraction(1)
    for i in range(1, k + 1):
        total += grade(ranking, i) * open_ / i
        open_ *= 1 - grade(ranking, i) + (grade(ranking, i) if i == 300 else 0)
    return total


# A twenty-seventh hostile review (a false "minimal"): 1 while some relevant document is in the top k and R <= 2, else 1/R
# (undefined at R = 0). The search paired each situation only with its top k alone, which has R = 0 when the top k holds no
# relevant document: `0` with R = 2 met `0` with R = 0 (undefined, a weak pair) and never `0` with R = 1, and the first
# strong pair, `1` with R = 1 against R = 3, was called minimal. The minimal strong pair: `0` with R = 1 (1) and R = 2 (1/2).
@proposal("localized-past-an-undefined-top")
def localized_past_an_undefined_top(m: Any) -> Any:
    found = m.sum(1, m.k, m.r)
    return sympy.Piecewise((1, sympy.And(found > 0, m.R <= 2)), (1 / m.R, True))


def localized_past_an_undefined_top_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    if any(grade(ranking, i) for i in range(1, k + 1)) and len(qrels) <= 2:
        return Fraction(1)
    return None if not qrels else Fraction(1, len(qrels))


# Round 27 (a lesser note, and issue 10's list of what was left): (p - 1/2) (1 - p) sum_{i<=k} b_i p^(i-1), with p in (0, 1).
# Its proofs over the whole interval fail (the scale changes sign at p = 1/2), and nothing was tried at the value the
# measure is bound with, although at p = 3/4 it is a positive multiple of RBP (bounded, monotonic, convergent,
# top-weighted, localized and complete, as RBP is). At p = 1/4 it is a negative multiple: appending a relevant document
# lowers the score (not monotonic, at k = 1: `0` scores 0, `01` at k = 2 scores -3/64), and a swap that brings a
# relevant document up lowers it (not convergent, not top-weighted).
def _scaled_rbp(m: Any) -> Any:
    p = m.param("p")
    return (p - sympy.Rational(1, 2)) * (1 - p) * m.sum(1, m.k, lambda i: m.r(i) * p ** (i - 1))


def scaled_rbp(p: Fraction) -> Measure:
    return _with_p("scaled-rbp", "binary", _scaled_rbp, p)


def scaled_rbp_truth(p: Fraction) -> Oracle:
    def truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
        return (p - Fraction(1, 2)) * (1 - p) * sum((grade(ranking, i) * p ** (i - 1) for i in range(1, k + 1)), Fraction(0))
    return truth


# A twenty-seventh hostile review (a valid formula refused): the weight of rank i is the tail sum_{j=i..k} 1/j^2. Reading
# the closed form at k = 1, SymPy summed the inner sum over a symbolic i (into lerchphi) before the outer one was written
# out, could not evaluate the result, and the agreement check called that a disagreement ("the formula inspects its
# arguments"). Unbounded: on all-relevant rankings the score is sum_{j<=k} j / j^2 = H_k.
@proposal("tail-of-inverse-squares")
def tail_of_inverse_squares(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * m.sum(i, m.k, lambda j: 1 / (j * j)))


def tail_of_inverse_squares_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) * sum((Fraction(1, j * j) for j in range(i, k + 1)), Fraction(0))
                for i in range(1, k + 1)), Fraction(0))


# A twenty-seventh hostile review (a latent false "yes"): X = 3 + log(2^4100 + 1845) - log(2^4100) lies in (3, 3 + 2^-4088),
# so Mod(X, 1) - 1/2 is about -1/2 and the metric a negative multiple of sum b_i / i. SymPy's int(X) guessed 2 (it takes
# the integer below when it cannot tell a number from one), Mod(X, 1) was 1 + (X - 3), and every run and form agreed on the
# wrong sign; only an unrelated refusal (a root SymPy's simplify built on the way) kept three false properties from being
# proved. int() is now certified, and past 4096 bits the formula is refused for what it is: a Mod SymPy cannot decide.
NEAR_THREE_LOG = sympy.Integer(2) ** 4100


@proposal("mod-of-a-number-just-above-3")
def mod_of_a_number_just_above_3(m: Any) -> Any:
    c = sympy.Mod(3 + sympy.log(NEAR_THREE_LOG + 1845) - sympy.log(NEAR_THREE_LOG), 1) - sympy.Rational(1, 2)
    return c * m.sum(1, m.k, lambda i: m.r(i) / i)


# A twenty-eighth hostile review (a false "yes" on five properties): x d / d with d = 4 p - 1, bound at p = 1/4, where d is
# 0: the metric as written has no value anywhere. The proofs kept p open over (0, 1), where d is nonzero but at 1/4, and
# "proved" bounded, monotonic, convergent, top-weighted and localized "for every p in (0, 1)".
def _nowhere_at_p(m: Any) -> Any:
    d = 4 * m.param("p") - 1
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / 2**i) * d, d, "4 p - 1 is 0")


nowhere_at_p = _with_p("nowhere-at-p", "binary", _nowhere_at_p, Fraction(1, 4))


# A twenty-ninth hostile review (a false "yes" on four or five properties): x d / d where d is 0 at every depth and every R,
# but not to SymPy, which keeps floor(R / (R + 1)) and the case split [k > k^2] unevaluated; so the proof layer's own test
# (a denominator that is certainly the number 0) did not see it. The metric has no value anywhere.
def _nowhere_floor(m: Any) -> Any:
    d = sympy.floor(m.R / (m.R + 1))  # 0 for every R >= 0
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / 2**i) * d, d, "floor(R / (R + 1)) is 0")


def _nowhere_k(m: Any) -> Any:
    d = 4 * m.param("p") - 3 + sympy.Piecewise((0, m.k <= m.k * m.k), (1, True))  # 0 at p = 3/4 and every k >= 1
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / 2**i) * d, d, "d is 0")


nowhere_floor = proposal("nowhere-floor")(_nowhere_floor)
nowhere_k = _with_p("nowhere-k", "binary", _nowhere_k, Fraction(3, 4))


# A thirtieth hostile review (one false "yes" and three false "no"/wrong scores): the exact run kept the partial products
# and sums of an inner function and served a second m.sum/m.prod of the same code from them, although a helper that
# function calls reads a variable the formula rebinds in between (c = 1 ... c = 0, or a loop variable): the kept results
# belonged to the old value. Naively each of these computes sum_i r_i / 2^i (rebound_nowhere: no value anywhere).
def _rebound_gap_product(m: Any) -> Any:
    c = Fraction(1)

    def gap(j: Any) -> Any:
        return 1 + c * (1 - m.r(j)) * m.r(j + 1)

    def term(j: Any) -> Any:
        return gap(j)

    unused = m.prod(1, m.k - 2, term)
    c = Fraction(0)
    extra = m.prod(1, m.k - 2, term) - 1  # 0: every factor is 1 now
    return m.sum(1, m.k, lambda i: m.r(i) / 2**i) + extra + 0 * unused


def _rebound_nowhere(m: Any) -> Any:
    c = Fraction(1)

    def gap(j: Any) -> Any:
        return 1 + c * (1 - m.r(j)) * m.r(j + 1)

    def term(j: Any) -> Any:
        return gap(j)

    unused = m.prod(1, m.k - 2, term)
    c = Fraction(0)
    d = sympy.floor(m.R / (m.R + 1)) + m.prod(1, m.k - 2, term) - 1 + 0 * unused  # 0 at every situation
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / 2**i) * d, d, "d is 0")


def _loop_mixture(m: Any) -> Any:
    def weight(i: Any) -> Any:
        return x * i + (1 - x) / 2**i

    total = m.num(0)
    for x, share in ((Fraction(1), -1), (Fraction(1, 2), 2)):  # -S(1) + 2 S(1/2) = sum_i r_i / 2^i
        total = total + share * m.sum(1, m.k, lambda i: m.r(i) * weight(i))
    return total


rebound_gap_product = proposal("rebound-gap-product")(_rebound_gap_product)
rebound_nowhere = proposal("rebound-nowhere")(_rebound_nowhere)
loop_mixture = proposal("loop-mixture")(_loop_mixture)


def halves_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) / 2**i for i in range(1, k + 1)), Fraction(0))


# A thirty-first hostile review (a false "no"): two helpers of one code, with no free variables and no defaults, that differ
# only in their attributes (h.k, h.R) were taken for the same function, and the second product was served from the first's.
# Naively the score is prod_{3<=i<=k} (1 - r_i (1 - r_i)) + prod_{3<=i<=k} (1 + r_i (1 - r_i)).
def _attribute_helper() -> Any:
    def h(i: Any) -> Any:
        return i
    return h


ATTR_DOWN = _attribute_helper()
ATTR_DOWN.k, ATTR_DOWN.R = 1, 0  # type: ignore[attr-defined]
ATTR_UP = _attribute_helper()
ATTR_UP.k, ATTR_UP.R = 0, 1  # type: ignore[attr-defined]


def _attribute_part(m: Any, h: Any) -> Any:
    return m.prod(3, m.k, lambda i: 1 + (h.R - h.k) * m.r(i) * (1 - m.r(i)))


attributes_apart = proposal("attributes-apart", "graded")(lambda m: _attribute_part(m, ATTR_DOWN) + _attribute_part(m, ATTR_UP))


def attributes_apart_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    down, up = Fraction(1), Fraction(1)
    for i in range(3, k + 1):
        g = grade(ranking, i)
        down, up = down * (1 - g * (1 - g)), up * (1 + g * (1 - g))
    return down + up


# Also a thirty-first hostile review (two witnesses called minimal that were not): the exhaustive search screens candidates
# on floats, and floats hid the first witness. float_hides_zero divides by (k - 3)(k - 1 + e) with e = 1/10 + 2/10 - 3/10,
# exactly 0 (so the metric has no value at k = 1 and k = 3) but -1.1e-16 in floats at k = 1: the first incomplete
# situation is `0` at k = 1. hidden_drop is P@k + ((10^20 - k) - 10^20) = P@k - k exactly, but P@k in floats: `00` with
# R = 0 drops from -1 to -2 when extended, the first monotonicity witness.
@proposal("float-hides-zero")
def float_hides_zero(m: Any) -> Any:
    e = m.num(1) / 10 + m.num(2) / 10 - m.num(3) / 10
    return (1 + m.sum(1, m.k, lambda i: m.r(i))) / ((m.k - 3) * (m.k - 1 + e))


def float_hides_zero_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    if k in (1, 3):
        return None
    return (1 + sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))) / ((k - 3) * (k - 1))


@proposal("hidden-drop")
def hidden_drop(m: Any) -> Any:
    big = m.num(10) ** 20
    return m.sum(1, m.k, lambda i: m.r(i)) / m.k + ((big - m.k) - big)


def hidden_drop_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0)) / k - k


# A thirty-second hostile review (a witness called minimal with a stronger one in the space): undefined at R = 0, and where
# the top k holds no relevant document the score reads rank k + 1. Every pair the enumeration forms (a situation against its
# top k alone, with R = 0) is weak (undefined against defined), but `0` (R = 1) scores 0 and `01` (R = 1) scores 1 at
# k = 1: both defined, same top k.
@proposal("only-weak-pairs-enumerated")
def only_weak_pairs_enumerated(m: Any) -> Any:
    return m.r(m.k + 1) * m.max(0, 1 - m.sum(1, m.k, m.r)) / m.R


def only_weak_pairs_enumerated_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction | None:
    big_r = sum(1 for g in qrels if g > 0)
    if big_r == 0:
        return None
    return grade(ranking, k + 1) * max(Fraction(0), 1 - sum((grade(ranking, i) for i in range(1, k + 1)), Fraction(0))) / big_r


# A thirty-eighth hostile review (two false "yes", a false "no"): a prefix sum kept the partial sums of the function it
# was made with after the formula rebound a variable that function reads, while the closed form asks the function afresh
# at each call. The metric as written, read as the symbolic runs read it (m.prefix_sum(f)(n) is sum_{j<=n} f(j) with f
# as it is at that call), is in each case a plain weighted sum with the weight bound last.
def _prefix_rebound_at(m: Any, first: int, S: Fraction) -> Any:
    w = lambda j: 1 / j  # rebound below: that is the point
    total = m.prefix_sum(lambda j: w(j) * m.r(j))
    total(first - 1)
    w = lambda j: S * (j - (first - 1)) / 3
    total(first + 1)
    w = lambda j: 1 / j
    return total(m.k)


def _prefix_filled_then_rebound(m: Any) -> Any:
    gate = m.min(m.max(m.k - 200, 0), 1)  # 1 from k = 201 on
    w = lambda j: 1 / 2**j + gate * j
    total = m.prefix_sum(lambda j: w(j) * m.r(j))
    total(m.k)
    w = lambda j: 1 / 2**j
    return total(m.k)


prefix_rebound_at_250 = proposal("prefix-rebound-at-250")(lambda m: _prefix_rebound_at(m, 250, Fraction(1, 250) + Fraction(1, 251)))
prefix_rebound_at_7 = proposal("prefix-rebound-at-7")(lambda m: _prefix_rebound_at(m, 7, Fraction(1, 7) + Fraction(1, 8)))
prefix_filled_then_rebound = proposal("prefix-filled-then-rebound")(_prefix_filled_then_rebound)


def harmonic_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    """sum_{j<=k} r_j / j: prefix_rebound_at_250 and _7 as written (top-weighted and convergent; unbounded)."""
    return sum((grade(ranking, j) / j for j in range(1, k + 1)), Fraction(0))


def _prefix_summed_twice(m: Any) -> Any:
    """A helper summing a prefix, asked in two sums with the prefix's weight rebound between them: the kept partial sums
    of the helper were of the old weight. As written, B = 2 A, so the score is A = sum_{i<=k} sum_{j<=i} r_j / j."""
    w = lambda j: 1 / j  # rebound below: that is the point
    total = m.prefix_sum(lambda j: w(j) * m.r(j))

    def running(i: Any) -> Any:
        return total(i)
    first = m.sum(1, m.k, running)
    w = lambda j: 2 / j
    return m.sum(1, m.k, running) - first


prefix_summed_twice = proposal("prefix-summed-twice")(_prefix_summed_twice)


def prefix_summed_twice_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((sum((grade(ranking, j) / j for j in range(1, i + 1)), Fraction(0)) for i in range(1, k + 1)), Fraction(0))


# a prefix whose terms read the prefix itself (P_j = P_{j-1} + r_j + P_{j-1} / 2): its key stands for itself, so it is
# kept and extended (linear in k), not computed afresh at each call (exponential in k)
def _prefix_of_itself(m: Any) -> Any:
    total = m.prefix_sum(lambda j: m.r(j) + total(j - 1) / 2)
    return total(m.k)


prefix_of_itself = proposal("prefix-of-itself")(_prefix_of_itself)


def prefix_of_itself_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    total = Fraction(0)
    for j in range(1, k + 1):
        total = total + grade(ranking, j) + total / 2
    return total


def _prefix_of_itself_over_a_number(m: Any) -> Any:
    """As prefix_of_itself, with the 2 held by the formula: a number in the key leaves nothing kept from call to call,
    but the calls the terms make of the prefix during one call share its partial sums (computed afresh, exponential)."""
    halve = 2
    total = m.prefix_sum(lambda j: m.r(j) + total(j - 1) / halve)
    return total(m.k)


prefix_of_itself_over_a_number = proposal("prefix-of-itself-over-a-number")(_prefix_of_itself_over_a_number)
prefix_of_itself_over_a_number_truth = prefix_of_itself_truth
