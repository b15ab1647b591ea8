"""Lemmas about one or two terms of a weighted sum, as Z3 obligations.

A weighted sum changes under a swap, an extension or a substitution only in the terms
involved (the *frame* meta-step); these lemmas say what happens to those terms. Each
is a small query in real arithmetic, independent of k, proved by Z3 and written as a
certificate under the metric's directory so that every proof cites its own files.
Variables: grades x, y in [0, 1], weights w > 0 (or >= 0), and s = c / N > 0 for a
positive scale c over a positive normaliser N (stated as one factor: products are easier
than division for both Z3 and cvc5, and c / N > 0 is all the lemmas use).
"""

from __future__ import annotations

import z3

from .smt import Discharged, Obligation, discharge

x, y, w, v, s, lo, g = z3.Reals("x y w v s lo g")


def _grade(name: str, t: z3.ArithRef) -> tuple[str, z3.BoolRef]:
    return f"{name} in [0, 1]", z3.And(t >= 0, t <= 1)


def _obligation(path: str, header: dict[str, str], hypotheses: list[tuple[str, z3.BoolRef]], claim: str, negated: z3.BoolRef) -> Discharged:
    ob = Obligation(path, {**header, "proves": claim})
    for name, formula in hypotheses:
        ob.assume(name, formula)
    ob.ask(claim, negated)
    return discharge(ob)


def swap(path: str, header: dict[str, str]) -> Discharged:
    """Exchanging grades x < y at ranks i < j with w_i > w_j strictly raises s * (w_i x_i + w_j x_j)."""
    before = s * (w * x + v * y)
    after = s * (w * y + v * x)
    return _obligation(path, header, [("x < y", x < y), ("w_i > w_j", w > v), ("w_j >= 0", v >= 0), ("s = c/N > 0", s > 0)],
                       "s (w_i y + w_j x) > s (w_i x + w_j y)", after <= before)


def bring_in(path: str, header: dict[str, str]) -> Discharged:
    """Replacing grade x at a rank of weight w > 0 by a larger y strictly raises s * w * x."""
    return _obligation(path, header, [("x < y", x < y), ("w > 0", w > 0), ("s = c/N > 0", s > 0)], "s w y > s w x", s * w * y <= s * w * x)


def extend(path: str, header: dict[str, str]) -> Discharged:
    """Adding the term of rank k + 1 (weight w >= 0, grade x in [0, 1]) does not lower s * S."""
    return _obligation(path, header, [_grade("x", x), ("w >= 0", w >= 0), ("s = c/N > 0", s > 0)], "s (S + w x) >= s S", s * w * x < 0)


def termwise(path: str, header: dict[str, str]) -> Discharged:
    """0 <= w x <= w for a weight w >= 0 and a grade x in [0, 1]."""
    return _obligation(path, header, [_grade("x", x), ("w >= 0", w >= 0)], "0 <= w x <= w", z3.Or(w * x < 0, w * x > w))


def exchange(path: str, header: dict[str, str]) -> Discharged:
    """Putting the larger of two grades at the rank of larger weight does not lower the weighted sum."""
    return _obligation(path, header, [("x < y", x < y), ("w_a >= w_b", w >= v)],
                       "w_a y + w_b x >= w_a x + w_b y", w * y + v * x < w * x + v * y)


def dominance(path: str, header: dict[str, str]) -> Discharged:
    """A smaller grade lo <= g at a rank of weight w >= 0 does not weigh more: w lo <= w g."""
    return _obligation(path, header, [("lo <= g", lo <= g), ("w >= 0", w >= 0)], "w lo <= w g", w * lo > w * g)


def count(path: str, header: dict[str, str]) -> Discharged:
    """A weight 0 <= w <= 1 and a grade in [0, 1] give w x <= x: a weighted count is at most the count."""
    return _obligation(path, header, [_grade("x", x), ("0 <= w <= 1", z3.And(w >= 0, w <= 1))], "w x <= x", w * x > x)
