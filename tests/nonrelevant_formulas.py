"""Declared formulas that read N, the collection's judged nonrelevant documents (loaded by tests through check only):
what the facts the proofs assume about N must, and must not, prove."""

from __future__ import annotations

from typing import Any

from irprops.metrics import declare


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


@declare("unjudged-lowers", relevance="binary")
def unjudged_lowers(m: Any) -> Any:
    """The relevant documents of the top k less its unjudged ones: an unjudged document at k + 1 lowers the score (read as
    judged, with every mark 0, it would be the count of relevant documents, which is monotonic)."""
    return m.sum(1, m.k, lambda i: m.relevant(i) - m.unjudged(i))


@declare("judged-seen", relevance="binary")
def judged_seen(m: Any) -> Any:
    """The judged documents of the top k: monotonic, since a rank past the end of a short run is unjudged down to the depth
    (its mark is the same at every depth that reads it)."""
    return m.sum(1, m.k, lambda i: 1 - m.unjudged(i))


@declare("unjudged-raise", relevance="binary")
def unjudged_raise(m: Any) -> Any:
    """The relevant and the unjudged documents of the top k over R: unbounded (a run of unjudged documents), though with
    every mark 0 it is Recall, bounded by 1."""
    return m.div(m.sum(1, m.k, lambda i: m.relevant(i) + m.unjudged(i)), m.R, "no relevant documents (R = 0)")


@declare("grade-zeros-left", relevance="binary")
def grade_zeros_left(m: Any) -> Any:
    """Each relevant document weighted by N less the documents of grade 0 above it, unjudged ones included: it reads no
    mark, yet an unjudged document above a relevant one makes the weight negative where N counts only judged ones
    (``?1`` with R = 1 and N = 0 scores 0 at k = 1 and -1 at k = 2), so the search must try unjudged documents."""
    relevant = m.prefix_sum(m.relevant)
    return m.sum(1, m.k, lambda i: m.relevant(i) * (m.N - (i - 1 - relevant(i - 1))))
