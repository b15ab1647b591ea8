"""A proposal declared as a formula over the algebra, as the built-in metrics are (loaded by tests only through check)."""

from __future__ import annotations

from typing import Any

from irprops.metrics import declare


@declare("share-of-larger", relevance="binary")
def share_of_larger(m: Any) -> Any:
    """The relevant documents in the top k over max(k, R): precision and recall's smaller."""
    return m.sum(1, m.k, m.r) / m.max(m.k, m.R)
