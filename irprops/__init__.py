"""irprops: prove or refute numeric properties of IR effectiveness metrics.

The public API: :func:`score` and the metric registry; :func:`check` and the property
registry; the verdict types. The proof layer arrives in ``proofs``.

>>> import irprops
>>> irprops.score("P@6", "111110").exact
Fraction(5, 6)
"""

from metrics import (
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
)
from properties import COLUMNS, PROPERTIES, CheckResult, Verdict, Witness, check

__all__ = [
    "COLUMNS",
    "PROPERTIES",
    "REGISTRY",
    "UNDEFINED",
    "CheckResult",
    "InputError",
    "Measure",
    "Metric",
    "Score",
    "Situation",
    "Undefined",
    "Verdict",
    "Witness",
    "check",
    "declare",
    "parse",
    "score",
]
