"""BPref declared as a formula over the algebra (loaded by tests through check): the situation model's N at work.

BPref is not in the catalog yet (its boundedness and monotonicity need proofs for every k over unjudged marks and N,
which the fold prover does not model); this declaration is how the tests exercise ``m.N`` end to end.
"""

from __future__ import annotations

from typing import Any

from irprops.metrics import declare


@declare("bpref-as-trec-eval", relevance="binary")
def bpref(m: Any) -> Any:
    """BPref@k = (1/R) sum_{i<=k} b_i (1 - min(n_i, R) / max(min(N, R), 1)), n_i the judged nonrelevant documents above i.

    n_i = (i - 1) - (relevant above i) - (unjudged above i), since an unjudged rank is never relevant; trec_eval's
    ``m_bpref.c`` divides by min(N, R) where n_i > 0, which is then at least 1 (N >= n_i and R >= 1).
    """
    relevant, unjudged = m.prefix_sum(m.relevant), m.prefix_sum(m.unjudged)
    scale = m.max(m.min(m.N, m.R), 1)
    return m.div(m.sum(1, m.k, lambda i: m.relevant(i) * (1 - m.min(i - 1 - relevant(i - 1) - unjudged(i - 1), m.R) / scale)),
                 m.R, "no relevant documents (R = 0)")


@declare("counted-from-150", relevance="binary")
def counted_from_150(m: Any) -> Any:
    """The relevant documents of the top k, each weighted 149 - min(N, 150): nonnegative unless N >= 150, where each
    relevant document counts -1 (monotonic is false, by a collection no search of small N meets)."""
    return m.sum(1, m.k, m.relevant) * (149 - m.min(m.N, 150))


@declare("weighted-by-judged-zeros-left", relevance="binary")
def weighted_by_judged_zeros_left(m: Any) -> Any:
    """Each relevant document of the top k weighted by N less the judged nonrelevant documents above it: monotonic
    exactly because N is at least the ranking's judged nonrelevant documents (without that fact a weight could be
    negative, and a relevant document at k + 1 would lower the score)."""
    relevant, unjudged = m.prefix_sum(m.relevant), m.prefix_sum(m.unjudged)
    return m.sum(1, m.k, lambda i: m.relevant(i) * (m.N - (i - 1 - relevant(i - 1) - unjudged(i - 1))))
