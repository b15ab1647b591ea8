"""irprops: prove or refute numeric properties of IR effectiveness metrics.

The public API: :func:`score` and the metric registry; :func:`declare` and
:func:`weighted_precision` for new metrics; :func:`check`, which refutes with the search
(``irprops.properties``) and proves with Z3 and SymPy (``irprops.proofs``); the verdict
types (``irprops.verdicts``). The layers import one way: ``metrics`` <- ``verdicts`` <-
(``properties``, ``proofs``, side by side) <- ``check``, ``table``, ``cli``.

>>> import irprops
>>> irprops.score("P@6", "111110").exact
Fraction(5, 6)
>>> irprops.check("P", ["convergent"])["convergent"].method
'proof (all k)'
"""

import os
import sys

if "sympy" not in sys.modules:  # SymPy sizes its caches when it is imported
    # SymPy's caches are LRU caches of 1000 entries: a sum over more than 1000 ranks revisits its terms in order, which such
    # a cache misses every time, so a nested sum's exact score at depth 1502 took 176 s with 1000 entries and 18 s with 5000
    os.environ.setdefault("SYMPY_CACHE_SIZE", "10000")

from irprops.metrics import (
    REGISTRY,
    UNDEFINED,
    InputError,
    Measure,
    Metric,
    Score,
    Situation,
    Undefined,
    declare,
    parse,
    score,
    weighted_precision,
)
from irprops.properties import PROPERTIES
from irprops.verdicts import COLUMNS, CheckResult, Lemma, ProofRecord, Prop, Reach, Search, Verdict, Witness

from .checking import check

__all__ = [
    "COLUMNS",
    "PROPERTIES",
    "REGISTRY",
    "UNDEFINED",
    "CheckResult",
    "InputError",
    "Lemma",
    "Measure",
    "Metric",
    "ProofRecord",
    "Prop",
    "Reach",
    "Score",
    "Search",
    "Situation",
    "Undefined",
    "Verdict",
    "Witness",
    "check",
    "declare",
    "parse",
    "score",
    "weighted_precision",
]
