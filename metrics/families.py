"""Declaring a new metric by its ingredients: weighted precision from a weight function.

A weighted-precision metric scores

    score@k = sum_{i=1..k} w(i) * r_i / N

for a weight function w of the rank and a normaliser N. Declared this way, a proposal is
an ordinary metric (numeric, exact and symbolic forms from one formula), so
``irprops check path/to/file.py:name`` can prove its properties for every k, not only
search for counterexamples.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import sympy

from . import exact
from .algebra import Algebra, ExactAlgebra, FloatAlgebra
from .errors import InputError
from .guards import guarding, refuse_outside_language
from .registry import Measure, Metric, Relevance, strict_inside
from .strictness import Steps, strict
from .tracing import Traced, untrace

Normaliser = Literal["none", "weights", "ideal", "self", "relevant"]

_NORMALISERS: dict[str, str] = {
    "none": "1",
    "weights": "sum_{i<=k} w(i) (like SDCG)",
    "ideal": "sum_{i<=k} w(i) g_i over the qrel grades sorted decreasingly (like NDCG)",
    "self": "sum_{i<=k} w(i) s_i over the top-k grades sorted decreasingly (like SN-DCG)",
    "relevant": "R (like Recall)",
}


def weighted_precision(
    name: str,
    weight: Callable[[sympy.Expr], Any],
    normaliser: Normaliser = "none",
    *,
    relevance: Relevance = "graded",
    reference: str = "a proposal",
) -> Measure:
    """A weighted-precision metric family from its weight function w(i) and its normaliser.

    ``weight`` is called with the rank as a SymPy integer or symbol, so write it with
    operations SymPy keeps exact: ``lambda i: 1 / (i * (i + 1))``, ``lambda i: 1 / log2(i + 1)``
    (``metrics.exact.log2``), ``lambda i: sympy.Rational(1, 2) ** (i - 1)``.

    >>> from irprops.metrics.exact import log2
    >>> dcg = weighted_precision("my-DCG", lambda i: 1 / log2(i + 1))
    >>> str(dcg.closed_form())
    'Sum(r[i]/log2(i + 1), (i, 1, k))'
    """
    if normaliser not in _NORMALISERS:
        raise InputError("normaliser", normaliser, f"must be one of {', '.join(_NORMALISERS)}")
    refuse_outside_language("the weight", weight, "`weighted_precision`")
    cache: dict[int, Weight] = {}
    exact_weights: dict[int, Any] = {}

    def w(m: Algebra, i: Any) -> Any:
        if isinstance(i, Traced):  # a symbolic rank: the weight function may compute with it, never branch on it
            return m.const(sympy.sympify(untrace(weight(i))))
        key = int(i)
        if key not in cache:
            cache[key] = _weight_at(weight, key)
        found = cache[key]
        if found.missing is not None and isinstance(m, (ExactAlgebra, FloatAlgebra)):  # the float screen too (round 34: it
            # took a weight 1/(4 (log2(9) - 2 log2(3))) for 1.8e134, the exact run for none, and realizable raised)
            return m.div(m.num(1), m.num(0), f"the weight at rank {key}: {found.missing}")
        if isinstance(m, ExactAlgebra):  # the metric as it is
            if found.undecided is not None:
                raise InputError("formula", name, f"at rank {key}, {found.undecided}, so the exact run cannot say whether the "
                                 "weight has a value there (it may be exactly 0)",
                                 "write the weight so that every divisor is visibly nonzero")
            if key not in exact_weights:  # the exact number, once (SymPy's conversion cost more than the rest of a term)
                exact_weights[key] = m.const(found.value)
            return exact_weights[key]
        return m.const(found.value)

    def formula(m: Algebra) -> Any:
        numerator = m.sum(1, m.k, lambda i: w(m, i) * m.r(i))
        if normaliser == "none":
            return numerator
        if normaliser == "weights":
            return m.div(numerator, m.sum(1, m.k, lambda i: w(m, i)), "the weights sum to 0")
        if normaliser == "relevant":
            return m.div(numerator, m.R, "no relevant documents (R = 0)")
        grade = m.g if normaliser == "ideal" else m.r_sorted
        return m.div(numerator, m.sum(1, m.k, lambda i: w(m, i) * grade(i)), "the normaliser is 0")

    with guarding():
        shown = sympy.sstr(sympy.sympify(untrace(weight(Traced(sympy.Symbol("i", integer=True, positive=True), "the rank i")))))
    formula.__doc__ = (f"{name}: weighted precision with w(i) = {shown}.\n\n"
                       f"{name}@k = sum_{{i<=k}} w(i) r_i / N, N = {_NORMALISERS[normaliser]}\n")
    formula.__name__ = name
    strict_inside(formula)  # its only code that may compute with SymPy, the weight, runs strictly in _weight_at
    return Measure(Metric(name, formula, relevance, (), (), reference), {})


class Weight:
    """The weight at one rank, computed once: its value, why it has none (a step with no real value), or why that cannot
    be said (a divisor whose sign cannot be certified). A plain class: a dataclass's ``__init__`` is code compiled from
    text, which the formula watch refuses to run on the formula's behalf."""

    __slots__ = ("missing", "undecided", "value")

    def __init__(self, value: Any, missing: str | None = None, undecided: str | None = None) -> None:
        self.value, self.missing, self.undecided = value, missing, undecided


def _weight_at(weight: Callable[[sympy.Expr], Any], rank: int) -> Weight:
    """The weight at ``rank``, computed in a strict run (:func:`~irprops.metrics.strictness.strict`), whichever form
    asks first: the float screen had asked first and kept a weight whose 0/0 SymPy had cancelled, which the exact run
    then took as a value."""
    steps = Steps()
    try:
        with strict() as steps:
            value = sympy.sympify(untrace(weight(sympy.Integer(rank))))
    except (TypeError, ValueError, ArithmeticError):  # SymPy refusing to compare or compute with a value that is none
        if not steps:
            raise
        return Weight(None, missing=steps[0])
    if steps:
        return Weight(value, missing=steps[0])
    if steps.undecided:
        return Weight(value, undecided=steps.undecided[0])
    return Weight(value, missing=exact.no_value(value))
