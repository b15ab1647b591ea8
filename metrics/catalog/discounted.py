"""Discounted cumulative gain and its normalisations: DCG, SDCG, NDCG, SN-DCG, DCG-b, and nDCG with exponential gain.

Definitions from Moffat, "Seven Numeric Properties of Effectiveness Metrics" (AIRS 2013),
Section 2 and Table 1: the "Microsoft" discount w_i = 1/log2(i + 1) from rank 1, and
three divisors. SDCG divides by the largest score any ranking can get at depth k, NDCG
by the largest this query's qrels allow, SN-DCG by the largest a reordering of the top
k allows. DCG-b is Jarvelin and Kekalainen's original discount, as the RBP paper
(Moffat and Zobel 2008, Section 4.6) writes it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..algebra import Algebra
from ..registry import Param, declare
from .counting import NO_RELEVANT, SEVEN

GAIN_SCALE = ("max_rel", "dcg")
"""ir_measures' parameters naming the linear gain of the grades as they are (max_rel=M: a grade g of 0..M is g/M here)."""
BURGES = "Burges, Shaked, Renshaw, Lazier, Deeds, Hamilton and Hullender, Learning to Rank using Gradient Descent, ICML 2005"
MAX_LEVEL = 1024
"""The largest top level gmax of an exponential gain: 2^gmax is a number of gmax bits (and the gain proofs take exponents
up to 1024)."""
RBP_PAPER = "Moffat and Zobel, Rank-Biased Precision for Measurement of Retrieval Effectiveness, ACM TOIS 2008"


def discounted_gain(m: Algebra, grade: Callable[[Any], Any]) -> Any:
    """sum_{i=1..k} grade(i) / log2(i + 1)."""
    return m.sum(1, m.k, lambda i: grade(i) / m.log2(i + 1))


@declare("DCG", relevance="graded", scale_params=GAIN_SCALE, reference=f"{SEVEN}, Section 2 (after Jarvelin and Kekalainen 2002)")
def dcg(m: Algebra) -> Any:
    """Discounted cumulative gain at depth k, discounting from rank 1 (unbounded).

    DCG@k(R) = sum_{i=1..k} r_i / log2(i + 1)

    >>> from irprops.metrics import score
    >>> print(score("DCG@5", "11000"))
    DCG@5 = 1 + 1/log2(3) = 1.6309297535714575
    """
    return discounted_gain(m, m.r)


@declare("SDCG", relevance="graded", scale_params=GAIN_SCALE, reference=f"{SEVEN}, Section 2")
def scaled_dcg(m: Algebra) -> Any:
    """Scaled DCG at depth k: DCG divided by the sum of the first k weights (the all-relevant DCG).

    SDCG@k(R) = DCG@k(R) / sum_{i=1..k} 1/log2(i + 1)

    >>> from irprops.metrics import score
    >>> round(score("SDCG@5", "11000").value, 2)
    0.55
    """
    return discounted_gain(m, m.r) / discounted_gain(m, lambda i: m.num(1))


@declare("NDCG", relevance="graded", scale_params=GAIN_SCALE, reference=f"{SEVEN}, Section 3")
def normalised_dcg(m: Algebra) -> Any:
    """Normalised DCG at depth k: DCG divided by the DCG at depth k of the ideal ordering of all the qrels.

    NDCG@k(R) = DCG@k(R) / sum_{i=1..k} g_i / log2(i + 1)
    where g_1 >= g_2 >= ... are the qrel grades (0 beyond R). Undefined when R = 0.

    >>> from irprops.metrics import score
    >>> round(score("NDCG@6", "111110", R=6).value, 2)
    0.89
    """
    return m.div(discounted_gain(m, m.r), discounted_gain(m, m.g), NO_RELEVANT)


@declare("SN-DCG", relevance="graded", aliases=("SNDCG",), scale_params=GAIN_SCALE, reference=f"{SEVEN}, Section 3 and Table 1")
def self_normalised_dcg(m: Algebra) -> Any:
    """Self-normalised DCG at depth k: DCG divided by the DCG of the top k sorted by grade.

    SN-DCG@k(R) = DCG@k(R) / DCG@k(Sort_Decreasing(r_1..r_k))
    Undefined when the top k holds nothing relevant, even if R > 0. (The paper's prose
    says "SDCG@k divided by ..." but its worked example divides DCG, as Table 1 does.)

    >>> from irprops.metrics import score
    >>> round(score("SN-DCG@5", "10100").value, 2), round(score("SN-DCG@5", "10101").value, 4)
    (0.92, 0.8855)
    """
    return m.div(discounted_gain(m, m.r), discounted_gain(m, m.r_sorted), "no relevant document in the top k")


@declare(
    "DCG-b",
    relevance="graded",
    aliases=("JK-DCG",),
    params=(Param("b", Fraction(2), "b >= 2", lambda b: b >= 2, integer=True, assumptions={"integer": True, "positive": True}),),
    reference=f"{RBP_PAPER}, Section 4.6 (Jarvelin and Kekalainen 2002)",
)
def dcg_b(m: Algebra) -> Any:
    """Jarvelin and Kekalainen's DCG: no discount down to rank b, then 1/log_b(i).

    DCG-b@k(R) = sum_{i=1..k} r_i * log2(b) / log2(max(i, b))

    >>> from irprops.metrics import score
    >>> round(score("DCG-b(b=2)@100", "1" * 100).value, 2)
    21.79
    """
    b = m.param("b")
    return m.sum(1, m.k, lambda i: m.r(i) * m.log2(b) / m.log2(m.max(i, b)))


def exponential_gain(m: Algebra, grade: Any) -> Any:
    """(2^(gmax r) - 1) / (2^gmax - 1): the gain 2^g - 1 of the integer level g = gmax r of a scale 0..gmax, in [0, 1]."""
    top = m.param("gmax")
    return (m.exp2(top * grade) - 1) / (2 ** top - 1)


@declare(
    "NDCG-exp",
    relevance="graded",
    aliases=("NDCG-Burges",),
    params=(Param("gmax", Fraction(2), "1 <= gmax <= 1024, an integer", lambda top: 1 <= top <= MAX_LEVEL, integer=True,
                  assumptions={"integer": True, "positive": True}),),
    reference=f"{BURGES}, Section 5 (nDCG); the gain as ir_measures' nDCG(dcg=exp-log2) and ranx's ndcg_burges",
)
def normalised_dcg_exponential(m: Algebra) -> Any:
    """Normalised DCG with exponential gain at depth k: NDCG over the gains 2^g - 1 of the integer levels g = gmax r.

    NDCG-exp@k(R) = sum_{i=1..k} e(r_i) / log2(i + 1) / sum_{i=1..k} e(g_i) / log2(i + 1), e(r) = (2^(gmax r) - 1)/(2^gmax - 1)
    where gmax is the top of the integer grade scale (ir_measures' max_rel): a grade r is the level gmax r. The default
    gmax = 2 is the scale 0, 1, 2; TREC's 0..3 is gmax = 3. The divisor 2^gmax - 1 cancels; it keeps the gains in [0, 1].
    A grade between the levels has the gain of the same formula (2^(gmax r) is then irrational, and exact). Undefined
    when R = 0. On binary grades it is NDCG.

    >>> from irprops.metrics import score
    >>> print(score("NDCG-exp@2", "1/2,1", qrels="1,1/2").exact)     # gains 1/3 and 1
    (1/3 + 1/log2(3))/(1/(3*log2(3)) + 1)
    >>> score("NDCG-exp(gmax=3)@1", "2/3", qrels="1,2/3").exact       # the level 2 of 0..3: gain 3/7
    Fraction(3, 7)
    """
    return m.div(discounted_gain(m, lambda i: exponential_gain(m, m.r(i))),
                 discounted_gain(m, lambda i: exponential_gain(m, m.g(i))), NO_RELEVANT)
