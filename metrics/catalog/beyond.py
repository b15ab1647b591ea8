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
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..algebra import Algebra
from ..registry import Param, declare
from .counting import cascade

ERR_PAPER = "Chapelle, Metzler, Zhang and Grinspan, Expected Reciprocal Rank for Graded Relevance, CIKM 2009"
JK_PAPER = "Jarvelin and Kekalainen, Cumulated Gain-Based Evaluation of IR Techniques, ACM TOIS 2002"
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
