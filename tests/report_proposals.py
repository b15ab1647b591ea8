"""Proposals written to make a report lie, crash or overflow its page (a hostile review of `check --report`, round 1).

Black boxes: scores beyond the float range, a failure (inf) on one arrangement of a realizability witness. Declared
metrics: an unbounded one whose instance is a long rational, a name with a newline, a reference with backslashes.
"""

from __future__ import annotations

import math
from fractions import Fraction

from irprops import declare, weighted_precision


def huge_precision(ranking, k, qrels):
    """P@k times 10**400: exact scores a float clamps to 1.8e308."""
    return 10**400 * sum(ranking[:k], Fraction(0)) / k


def tiny_precision(ranking, k, qrels):
    """P@k divided by 10**400: exact scores a float flushes to 0."""
    return sum(ranking[:k], Fraction(0)) / k / 10**400


def inf_on_a_relevant_top(ranking, k, qrels):
    """P@k in floats, but inf at k = 1 on a relevant first document: `10` is an arrangement of realizability's first
    collection, and the search skips it as a defect."""
    if k == 1 and ranking[0] == 1:
        return math.inf
    return float(sum(ranking[:k])) / k


harmonic = weighted_precision("report-harmonic", lambda i: 1 / i)
"""Unbounded (the harmonic series): its boundedness instance is a rational of many digits."""


@declare("report name\nwith a newline $|`x`", relevance="binary")
def strange_name(m):
    return m.sum(1, m.k, m.r) / m.max(m.k, m.R)


@declare("report-backslash", relevance="binary", reference="Notes in C:\\papers\\new\\metric.pdf & {more}, 2024")
def backslash_reference(m):
    return m.sum(1, m.k, m.r) / m.max(m.k, m.R)
