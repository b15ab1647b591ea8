"""Declared formulas in a module that calls itself part of irprops' catalog, to be trusted (hostile review, issue 10).

Trust is decided by where code lives and by identity with the catalog's own formulas, never by
``__name__``: each formula here must be watched and agreement-checked like any proposal.
"""

from __future__ import annotations

from typing import Any

from .adversarial_proposals import proposal

__name__ = "irprops.metrics.catalog.spoofed"


def _s(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))


@proposal("spoofed-isinstance")
def spoofed_isinstance(m: Any) -> Any:  # monotonic false at k = 1501 in the exact run
    return _s(m) - 1 if isinstance(m.k, int) and m.k > 1500 else _s(m)


_RUNS = [0]


@proposal("spoofed-catalog")
def spoofed_catalog(m: Any) -> Any:  # from the second call on, the score drops by 1 past depth 5: monotonic false at k = 6
    _RUNS[0] += 1
    return _s(m) - 1 if _RUNS[0] > 1 and m.k > 5 else _s(m)


CHANGED = 0
"""Rebound by the tests between the runs of one validation (as another thread could)."""


@proposal("spoofed-changed")
def spoofed_changed(m: Any) -> Any:  # with CHANGED = 1, the score drops by 1 past depth 5: monotonic false at k = 6
    return _s(m) - CHANGED * m.min(1, m.max(0, m.k - 5))
