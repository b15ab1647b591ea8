"""Metric proposals as a researcher would write them: some sound, some deliberately broken.

Each is a plain function ``f(ranking, k, qrels)`` over tuples of Fractions.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import time
from decimal import Decimal
from fractions import Fraction

from irprops.metrics.exact import log2


def precision(ranking, k, qrels):
    """P@k, returning Fractions."""
    return sum(ranking[:k], Fraction(0)) / k


def float_precision(ranking, k, qrels):
    """P@k in floats: verdicts are numerical evidence."""
    return float(sum(ranking[:k])) / k


def recall(ranking, k, qrels):
    """Recall@k: undefined through ZeroDivisionError when R = 0."""
    return sum(ranking[:k], Fraction(0)) / len(qrels)


def average_precision(ranking, k, qrels):
    """AP@k written from scratch; returns None when R = 0."""
    if not qrels:
        return None
    found, total = 0, Fraction(0)
    for i, grade in enumerate(ranking[:k], start=1):
        if grade:
            found += 1
            total += Fraction(found, i)
    return total / len(qrels)


def exact_dcg(ranking, k, qrels):
    """DCG@k with exact logarithms (a SymPy expression over metrics.exact.log2)."""
    return sum((g / log2(i + 1) for i, g in enumerate(ranking[:k], start=1)), Fraction(0))


exact_dcg.relevance = "graded"


def peeks_below(ranking, k, qrels):
    """P@k plus a hundredth of the grade just below the depth: not localized."""
    below = ranking[k] if len(ranking) > k else Fraction(0)
    return precision(ranking, k, qrels) + below / 100


def precision_needing_relevant(ranking, k, qrels):
    """P@k, but undefined when the collection holds nothing relevant: its only dependence
    beyond the top k is whether R = 0."""
    return precision(ranking, k, qrels) if qrels else None


def fails_late(ranking, k, qrels):
    """The number of relevant documents in the top k (monotonic), but 0 from k = 8 on:
    a monotonicity failure beyond the exhaustive depths."""
    return sum(ranking[:k], Fraction(0)) if k <= 7 else Fraction(0)


def raises_always(ranking, k, qrels):
    raise ValueError("not implemented yet")


def raises_without_qrels(ranking, k, qrels):
    """P@k, but a KeyError (a defect, not undefined) when the collection is empty."""
    if not qrels:
        raise KeyError("no relevant documents")
    return precision(ranking, k, qrels)


def returns_nan_without_qrels(ranking, k, qrels):
    return float("nan") if not qrels else float_precision(ranking, k, qrels)


def returns_infinity(ranking, k, qrels):
    return math.inf


def returns_text(ranking, k, qrels):
    return "0.5"


def returns_bool(ranking, k, qrels):
    return bool(ranking[0])


def hangs(ranking, k, qrels):
    while True:
        pass


def hangs_at_depth_3(ranking, k, qrels):
    """P@k, except that it never returns at k = 3."""
    while k == 3:
        pass
    return precision(ranking, k, qrels)


_calls = itertools.count(1)


def answers_differently(ranking, k, qrels):
    """A new, smaller score on every call: nondeterministic."""
    return Fraction(-next(_calls))


_seen: dict[tuple, int] = {}


def changes_on_the_third_call(ranking, k, qrels):
    """P@k on the first two calls with an input, 1 - P@k from the third on: a witness re-run only once passes."""
    key = (ranking, k, qrels)
    _seen[key] = _seen.get(key, 0) + 1
    return precision(ranking, k, qrels) if _seen[key] <= 2 else 1 - precision(ranking, k, qrels)


def decimal_precision(ranking, k, qrels):
    """P@k in Decimal arithmetic: 1/3 is rounded to 28 digits, so its comparisons are numerical, not exact."""
    return Decimal(int(sum(ranking[:k]))) / Decimal(k)


def noisy_count(ranking, k, qrels):
    """Relevant documents in the top k plus a float noise below 1/1000: nondeterministic, but only sometimes enough to flip a comparison."""
    return float(sum(ranking[:k])) + random.random() / 1000


def slow_precision(ranking, k, qrels):
    """P@k, taking 20 ms per call."""
    time.sleep(0.02)
    return precision(ranking, k, qrels)


NOT_A_FUNCTION = 42


def ideal_or_half_dcg(ranking, k, qrels):
    """The report's metric escaping the conflict without localization (proofs.conflict.WITHOUT_LOCALIZATION):
    1 on the ideal arrangement of the collection, else D / (2 (1 + D)) with D = DCG@k."""
    ideal = sorted(qrels, reverse=True) + [Fraction(0)] * (len(ranking) - len(qrels))
    if list(ranking) == ideal:
        return Fraction(1)
    dcg = exact_dcg(ranking, k, qrels)
    return dcg / (2 * (1 + dcg))


ideal_or_half_dcg.relevance = "graded"


_SALT = Fraction(int.from_bytes(os.urandom(4), "big") + 1, 10**12)  # drawn once per process, at import


def salted_precision(ranking, k, qrels):
    """P@k plus a constant drawn when the module is imported: the same in one process, different in the next."""
    return precision(ranking, k, qrels) + _SALT


def hit_undefined_at_five_relevant(ranking, k, qrels):
    """The best grade in the top k, undefined in a collection of exactly five relevant documents: not realizable, and no
    collection of up to three relevant documents shows it."""
    if len(qrels) == 5:
        return None
    return max(ranking[:k], default=Fraction(0))


def hit_halved_from_seven_relevant(ranking, k, qrels):
    """The best grade in the top k, halved in a collection of seven or more relevant documents: its supremum 1 is out of
    reach there."""
    best = max(ranking[:k], default=Fraction(0))
    return best / 2 if len(qrels) >= 7 else best


def exact_then_float(ranking, k, qrels):
    """1 - k / 10^20 exactly up to k = 3 (every extension drops by 10^-20; the floats are all 1.0), then the float 0.5.
    A thirty-second hostile review: the first float made the whole target inexact, and the drop at k = 1 that the floats
    hid was not looked for again before a witness at k = 3 was called minimal."""
    if k >= 4:
        return 0.5
    return Fraction(1) - Fraction(k, 10**20)
