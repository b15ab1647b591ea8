"""Metrics beyond Table 2 that researchers evaluate with: success, cumulated gain, F-measure and ERR.

Each is declared as its source defines it, over irprops' grades in [0, 1]:

* Success@k (ir_measures' ``Success``, trec_eval's ``success_k``, ranx's ``hit_rate``): 1 when
  a relevant document is in the top k. The paper's HIT is the largest *grade* in the top k and
  keeps its own name; on binary grades the two agree.
* CG@k (Jarvelin and Kekalainen 2002): the gains of the top k, undiscounted.
* F@k (van Rijsbergen 1979; ranx's ``f1@k``): the weighted harmonic mean of
  Prec@k and Recall@k, written over counts so that nothing relevant in the top k scores 0.
* ERR@k (Chapelle, Metzler, Zhang and Grinspan, CIKM 2009): the cascade user's expected
  reciprocal rank of stopping, with the grade as the probability of being satisfied.
* Q@k (Sakai, AIRS 2004): AP's blend of precision with the cumulated gain against the ideal's,
  at each relevant document.
* INSQ@k (Moffat, Bailey, Scholer and Thomas, C/W/L): the expected rate of gain of a user who
  expects T relevant documents, with weights 1/(i + 2T - 1)^2 over an infinite ranking.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from ..algebra import Algebra
from ..registry import Param, declare
from .counting import cascade

ERR_PAPER = "Chapelle, Metzler, Zhang and Grinspan, Expected Reciprocal Rank for Graded Relevance, CIKM 2009"
JK_PAPER = "Jarvelin and Kekalainen, Cumulated Gain-Based Evaluation of IR Techniques, ACM TOIS 2002"
SAKAI = ("Sakai, Ranking the NTCIR Systems Based on Multigrade Relevance, AIRS 2004; its binary form (beta = 1) in "
         "Moffat and Zobel, Rank-Biased Precision for Measurement of Retrieval Effectiveness, ACM TOIS 2008, Section 3")
NO_RELEVANT = "no relevant documents (R = 0)"
INSQ_PAPER = ("Moffat, Bailey, Scholer and Thomas, INST: An Adaptive Metric for Information Retrieval Evaluation, ADCS 2015, "
              "and Moffat, Thomas and Scholer, Users versus Models: What Observation Tells Us about Effectiveness Metrics, CIKM 2013")
MAX_TARGET = 1000
"""INSQ's largest target T: psi1(2T) is pi^2/6 less a rational whose size grows with T (T = 10,000 took a minute, and
100,000 exhausted memory)."""
F_SOURCE = "van Rijsbergen, Information Retrieval (2nd ed.), 1979, Chapter 7; ranx's f1@k"


@declare("Success", relevance="binary", reference="ir_measures' Success and trec_eval's success_k")
def success(m: Algebra) -> Any:
    """Success at depth k: 1 if a relevant document is in the top k, else 0.

    Success@k(B) = max_{i=1..k} b_i
    On binary grades this is HIT@k; irprops' HIT is the largest grade, Success asks for relevance.

    >>> from irprops.metrics import score
    >>> score("Success@3", "001").exact, score("Success@2", "001").exact
    (Fraction(1, 1), Fraction(0, 1))
    """
    return m.max_over(1, m.k, m.r)


@declare("CG", relevance="graded", reference=f"{JK_PAPER}, Section 2.1")
def cumulated_gain(m: Algebra) -> Any:
    """Cumulated gain at depth k: the grades of the top k, added without a discount (unbounded).

    CG@k(R) = sum_{i=1..k} r_i

    >>> from irprops.metrics import score
    >>> score("CG@4", "1,1/2,0,1/4").exact
    Fraction(7, 4)
    """
    return m.sum(1, m.k, m.r)


@declare(
    "F",
    relevance="binary",
    aliases=("F-measure",),
    params=(Param("beta", Fraction(1), "beta > 0", lambda b: b > 0, assumptions={"positive": True}),),
    reference=F_SOURCE,
)
def f_measure(m: Algebra) -> Any:
    """F-measure at depth k, weight beta: the weighted harmonic mean of Prec@k and Recall@k.

    F@k(B) = (1 + beta^2) * sum_{i=1..k} b_i / (k + beta^2 * R)
    This is (1 + beta^2) P R / (beta^2 P + R) with P = Prec@k and R = Recall@k, and 0 when
    the top k holds nothing relevant. Written over counts it is 0 when R = 0 (where recall, and
    so the harmonic mean, has no value), as trec_eval and ranx score it. trec_eval's set_F.x
    takes x = beta^2 over the whole retrieved run: F(beta=2)@k of a run of length k is set_F.4.

    >>> from irprops.metrics import score
    >>> score("F@4", "1100", R=2).exact, score("F(beta=2)@4", "1100", R=2).exact
    (Fraction(2, 3), Fraction(5, 6))
    """
    beta2 = m.param("beta") ** 2
    return (1 + beta2) * m.sum(1, m.k, m.r) / (m.k + beta2 * m.R)


@declare("ERR", relevance="graded", reference=f"{ERR_PAPER}, Section 4")
def expected_reciprocal_rank(m: Algebra) -> Any:
    """Expected reciprocal rank at depth k: a cascade user stops at rank i, satisfied with probability r_i, gaining 1/i.

    ERR@k(R) = sum_{i=1..k} (r_i / i) * prod_{j=1..i-1} (1 - r_j)
    The grade is the satisfaction probability; the paper maps an integer grade g of a scale
    0..g_max to (2^g - 1) / 2^g_max. ir_measures' ERR (through gdeval) fixes g_max = 4 whatever
    the qrels hold, so its grade 2 is the grade 3/16 here.

    >>> from irprops.metrics import score
    >>> score("ERR@3", "1/2,0,1").exact
    Fraction(2, 3)
    """
    return cascade(m)


@declare(
    "Q",
    relevance="graded",
    aliases=("Q-measure",),
    params=(Param("beta", Fraction(1), "beta > 0", lambda b: b > 0, assumptions={"positive": True},
                  proof_interval=(Fraction(0), None)),),
    reference=SAKAI,
)
def q_measure(m: Algebra) -> Any:
    """Q-measure at depth k, weight beta: at each relevant document, the blended ratio of what was found to the ideal.

    Q@k(R) = (1/R) * sum_{i=1..k} [r_i > 0] * (beta * cg(i) + c(i)) / (beta * cig(i) + i)
    with cg(i) = sum_{j<=i} r_j, c(i) = sum_{j<=i} [r_j > 0] and cig(i) = sum_{j<=i} g_j (the ideal
    ranking's cumulated gain). Undefined when R = 0. On binary grades cg = c and cig(i) = min(i, R): the
    form (1/R) sum b_i 2 c(i) / (i + min(i, R)) of Moffat and Zobel at beta = 1. beta weighs the grades
    in [0, 1]: gains 0..M (Sakai's NTCIR gains 3, 2, 1 are M = 3) scaled to grades here make Sakai's
    beta the beta M here, so his beta = 1 over gains 3, 2, 1 is Q(beta=3).

    >>> from irprops.metrics import score
    >>> score("Q@3", "1,0,1/2", qrels="1,1/2").exact, score("Q@2", "01", R=1).exact
    (Fraction(8, 9), Fraction(2, 3))
    """
    beta = m.param("beta")
    gain, count, ideal = m.prefix_sum(m.r), m.prefix_sum(m.relevant), m.prefix_sum(m.g)
    blended = m.sum(1, m.k, lambda i: m.relevant(i) * (beta * gain(i) + count(i)) / (beta * ideal(i) + i))
    return m.div(blended, m.R, NO_RELEVANT)


@declare(
    "INSQ",
    relevance="graded",
    params=(Param("T", Fraction(1), "1 <= T <= 1000, an integer", lambda t: 1 <= t <= MAX_TARGET, integer=True,
                  assumptions={"integer": True, "positive": True}),),
    reference=INSQ_PAPER,
)
def insq(m: Algebra) -> Any:
    """INSQ at depth k, target T: the C/W/L expected rate of gain with continuation C(i) = ((i + 2T - 1)/(i + 2T))^2.

    INSQ@k(R) = sum_{i=1..k} r_i / ((i + 2T - 1)^2 * psi1(2T)), psi1(2T) = sum_{n >= 2T} 1/n^2 = pi^2/6 - sum_{n < 2T} 1/n^2
    The weight of rank i is prod_{j<i} C(j) = (2T / (i + 2T - 1))^2, normalised over an infinite ranking: the
    trigamma value psi1(2T) is that sum, exact with pi (its comparisons are decided by intervals, as pi^2 is
    irrational). The grades past k count as 0 (the residual is the rest). INST, whose T shrinks with the gain seen, has
    no exact normaliser here (a trigamma value at a non-integer), and is not declared.

    >>> from irprops.metrics import score
    >>> print(score("INSQ@2", "1,1").exact)     # (1/4 + 1/9) / (pi^2/6 - 1) at T = 1
    13/(36*(-1 + pi**2/6))
    """
    target = m.param("T")
    scale = m.const(1 / sympy.polygamma(1, 2 * target))
    return m.sum(1, m.k, lambda i: m.r(i) * scale / (i + 2 * target - 1) ** 2)
