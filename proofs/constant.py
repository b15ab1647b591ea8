"""All-k proofs for a metric whose closed form is a constant: it reads no grade, no R and no depth.

Such a metric (``m.num(1) / 2``) scores the same number c on every situation at every depth,
so it is bounded (by |c|), monotonic (the score at k + 1 equals the score at k) and realizable
(every arrangement reaches the supremum c). It is neither convergent nor top-weighted (a swap
leaves the score unchanged), which the search shows with a witness.

>>> from irprops.metrics import Measure, Metric
>>> from irprops.proofs.structure import prepare
>>> half = Measure(Metric("half", lambda m: m.num(1) / 2, "binary", (), (), "a constant"), {})
>>> proof = prove_constant(prepare(half), Prop.REALIZABLE)
>>> proof.conclusion, str(proof.reach), proof.lemmas[0].name
('yes', 'all k', 'constant')
"""

from __future__ import annotations

import sympy

from irprops.metrics.exact import certainly, show
from irprops.metrics.timing import limited
from irprops.verdicts import Prop

from .lemma import ALL_K, Failed, Lemma, Proof
from .signs import SYMPY_SECONDS
from .structure import Prepared
from .summation import evaluated
from .weighted import CLOSED, SYMPY

__all__ = ["constant", "prove_constant"]

CLAIMS = {
    Prop.BOUNDED: "so |score| <= |c| = {abs} on every situation",
    Prop.MONOTONIC: "so the score at k + 1 equals the score at k",
    Prop.REALIZABLE: "so every arrangement scores c, which is the supremum, at every depth",
}


def constant(p: Prepared) -> sympy.Expr | None:
    """The constant c when the closed form is a finite real number with no denominator that can vanish, else None.

    A closed form that reads no grade and no R but mentions k (``sum_{i<=k} 1 / k``) is evaluated by SymPy's
    summation, checked by telescoping (:func:`~irprops.proofs.summation.evaluated`: a sum of a KroneckerDelta or a
    binomial is never evaluated), and simplification; it counts as the constant c only if every denominator in it,
    and every recorded one, is nonzero for every k >= 1 (so that no depth leaves it undefined).
    """
    expr = p.expr
    if expr.has(sympy.Indexed, p.R) or (p.form.qrel_base is not None and expr.has(p.form.qrel_base)):
        return None
    denominators = [d for d, _ in p.form.denominators] + [a.base for a in sympy.preorder_traversal(expr) if a.is_Pow and a.exp.is_negative]
    if any(not _nonzero(d) for d in denominators):
        return None
    reduced = _simplified(expr) if expr.has(p.k) else expr
    if reduced is None or reduced.free_symbols or not reduced.is_number:
        return None
    return reduced if reduced.is_real and reduced.is_finite else None


@limited(SYMPY_SECONDS, None)
def _simplified(expr: sympy.Expr) -> sympy.Expr | None:
    """``expr`` simplified, its sums in closed form only where checked (:mod:`~irprops.proofs.summation`)."""
    found = evaluated(expr)
    if found.has(sympy.Sum, sympy.Product):
        return None  # a sum left unevaluated: SymPy's simplify would sum it its own way (Sum._eval_simplify)
    return sympy.simplify(found)  # type: ignore[no-any-return]


def _nonzero(d: sympy.Expr) -> bool:
    """Whether SymPy shows ``d`` (a number, or an expression in k >= 1) nonzero."""
    value = _simplified(sympy.sympify(d))
    if value is not None and value.is_number:
        return certainly(value, "nonzero")  # SymPy's assumptions call log2(9) - 2 log2(3) nonzero
    return value is not None and bool(value.is_positive or value.is_negative)


def prove_constant(p: Prepared, prop: Prop) -> Proof | Failed:
    """The proof of ``prop`` for a constant closed form, or why there is none."""
    c = constant(p)
    if c is None:
        return Failed(prop, "the closed form is not a constant")
    if prop not in CLAIMS:
        return Failed(prop, "a constant metric has no proof of this property (a swap leaves its score unchanged)")
    written = "" if c == p.expr else (f" (written {show(p.expr)}, which SymPy's summation and simplification reduce to {show(c)}, "
                                      "every denominator nonzero for k >= 1)")
    statement = f"the closed form reads no grade and no R{written}: every situation at every depth scores c = {show(c)}"
    claim = Lemma("claim", CLAIMS[prop].format(abs=show(sympy.Abs(c))), "structure")
    trusted = (CLOSED,) if c == p.expr else (CLOSED, SYMPY)
    return Proof(prop, "yes", ALL_K, (Lemma("constant", statement, "SymPy" if written else "structure"), claim), trusted).stating(c, c)
