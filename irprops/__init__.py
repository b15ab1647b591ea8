"""irprops: prove or refute numeric properties of IR effectiveness metrics.

The public API: :func:`score` and the metric registry; :func:`declare` and
:func:`weighted_precision` for new metrics; :func:`check`, which refutes with the search
(``irprops.properties``) and proves with Z3 and SymPy (``irprops.proofs``); the verdict
types (``irprops.verdicts``). The layers import one way: ``metrics`` <- ``verdicts`` <-
(``properties``, ``proofs``, side by side) <- ``check``, ``table``, ``cli``; the toolkit
adapters (``irprops.toolkits``) import nothing of irprops and are read by the search alone.

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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME = {
    **dict.fromkeys(["REGISTRY", "UNDEFINED", "InputError", "Measure", "Metric", "Score", "Situation", "Undefined", "declare",
                     "parse", "score", "weighted_precision"], "irprops.metrics"),
    "PROPERTIES": "irprops.properties",
    **dict.fromkeys(["COLUMNS", "CheckResult", "Lemma", "ProofRecord", "Prop", "Reach", "Search", "Verdict", "Witness"],
                    "irprops.verdicts"),
    "check": "irprops.checking",
}
"""Where each public name is defined: it is imported when first used, so that starting the command (``irprops.entry``)
imports nothing heavy before it can answer a Ctrl-C with status 130."""


def __getattr__(name: str) -> Any:
    """A public name (or a subpackage such as ``irprops.metrics``), imported on first use."""
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name]), name)
    elif not name.startswith("_"):
        try:
            value = importlib.import_module(f"irprops.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"irprops.{name}":
                raise
            raise AttributeError(f"module 'irprops' has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module 'irprops' has no attribute {name!r}")
    globals()[name] = value
    return value


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
