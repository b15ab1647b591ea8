"""irprops: prove or refute numeric properties of IR effectiveness metrics.

The public API: :func:`score` and the metric registry now; the property checkers
(``check``) and the proof layer arrive in ``properties`` and ``proofs``.

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

__all__ = ["REGISTRY", "UNDEFINED", "InputError", "Measure", "Metric", "Score", "Situation", "Undefined", "declare", "parse", "score"]
