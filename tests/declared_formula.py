"""A proposal declared as a formula over the algebra, as the built-in metrics are (loaded by tests only through check)."""

from __future__ import annotations

from typing import Any

from irprops.metrics import declare


@declare("share-of-larger", relevance="binary")
def share_of_larger(m: Any) -> Any:
    """The relevant documents in the top k over max(k, R): precision and recall's smaller."""
    return m.sum(1, m.k, m.r) / m.max(m.k, m.R)


@declare("exponential-rbp", relevance="graded")
def exponential_rbp(m: Any) -> Any:
    """RBP (p = 1/2) over the exponential gain (2^(2 r) - 1) / 3 of grades 0, 1/2, 1 (levels 0..2), written with m.exp2."""
    return m.sum(1, m.k, lambda i: (m.exp2(2 * m.r(i)) - 1) / 3 * m.num(1) / 2 ** i)
