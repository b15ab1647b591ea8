"""Lemmas about one or two terms of a weighted sum, as Z3 obligations.

A weighted sum changes under a swap, an extension or a substitution only in the terms
involved (the *frame* meta-step); these lemmas say what happens to those terms. Each
is a small query in real arithmetic, independent of k, proved by Z3 and written as a
certificate under the metric's directory so that every proof cites its own files.
Variables: grades x, y in [0, 1], weights w > 0 (or >= 0), scale c > 0, normaliser N > 0.
"""

from __future__ import annotations

import z3

from .smt import Discharged, Obligation, discharge

x, y, w, v, c, N, s, g = z3.Reals("x y w v c N s g")


def _grade(name: str, t: z3.ArithRef) -> tuple[str, z3.BoolRef]:
    return f"{name} in [0, 1]", z3.And(t >= 0, t <= 1)


def _obligation(path: str, header: dict[str, str], hypotheses: list[tuple[str, z3.BoolRef]], claim: str, negated: z3.BoolRef) -> Discharged:
    ob = Obligation(path, {**header, "proves": claim})
    for name, formula in hypotheses:
        ob.assume(name, formula)
    ob.ask(claim, negated)
    return discharge(ob)


def swap(path: str, header: dict[str, str]) -> Discharged:
    """Exchanging grades x < y at ranks i < j with w_i > w_j strictly raises c * (w_i x_i + w_j x_j) / N."""
    before = c * (w * x + v * y) / N
    after = c * (w * y + v * x) / N
    return _obligation(path, header, [("x < y", x < y), ("w_i > w_j", w > v), ("w_j >= 0", v >= 0), ("c > 0", c > 0), ("N > 0", N > 0)],
                       "c (w_i y + w_j x) / N > c (w_i x + w_j y) / N", after <= before)


def bring_in(path: str, header: dict[str, str]) -> Discharged:
    """Replacing grade x at a rank of weight w > 0 by a larger y strictly raises c * w * x / N."""
    return _obligation(path, header, [("x < y", x < y), ("w > 0", w > 0), ("c > 0", c > 0), ("N > 0", N > 0)],
                       "c w y / N > c w x / N", c * w * y / N <= c * w * x / N)


def extend(path: str, header: dict[str, str]) -> Discharged:
    """Adding the term of rank k + 1 (weight w >= 0, grade x in [0, 1]) does not lower c * S / N."""
    return _obligation(path, header, [_grade("x", x), ("w >= 0", w >= 0), ("c > 0", c > 0), ("N > 0", N > 0)],
                       "c (S + w x) / N >= c S / N", c * w * x / N < 0)


def termwise(path: str, header: dict[str, str]) -> Discharged:
    """0 <= w x <= w for a weight w >= 0 and a grade x in [0, 1]."""
    return _obligation(path, header, [_grade("x", x), ("w >= 0", w >= 0)], "0 <= w x <= w", z3.Or(w * x < 0, w * x > w))


def exchange(path: str, header: dict[str, str]) -> Discharged:
    """Putting the larger of two grades at the rank of larger weight does not lower the weighted sum."""
    return _obligation(path, header, [("x < y", x < y), ("w_a >= w_b", w >= v)],
                       "w_a y + w_b x >= w_a x + w_b y", w * y + v * x < w * x + v * y)


def dominance(path: str, header: dict[str, str]) -> Discharged:
    """A smaller grade s <= g at a rank of weight w >= 0 does not weigh more: w s <= w g."""
    return _obligation(path, header, [("s <= g", s <= g), ("w >= 0", w >= 0)], "w s <= w g", w * s > w * g)


def count(path: str, header: dict[str, str]) -> Discharged:
    """A weight 0 <= w <= 1 and a grade in [0, 1] give w x <= x: a weighted count is at most the count."""
    return _obligation(path, header, [_grade("x", x), ("0 <= w <= 1", z3.And(w >= 0, w <= 1))], "w x <= x", w * x > x)
