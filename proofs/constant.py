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

from irprops.metrics.exact import show
from irprops.verdicts import Prop

from .lemma import ALL_K, Failed, Lemma, Proof
from .structure import Prepared
from .weighted import CLOSED

__all__ = ["constant", "prove_constant"]

CLAIMS = {
    Prop.BOUNDED: "so |score| <= |c| = {abs} on every situation",
    Prop.MONOTONIC: "so the score at k + 1 equals the score at k",
    Prop.REALIZABLE: "so every arrangement scores c, which is the supremum, at every depth",
}


def constant(p: Prepared) -> sympy.Expr | None:
    """The constant c when the closed form is a finite real number with no denominator that can vanish, else None."""
    expr = p.expr
    if expr.free_symbols or expr.has(sympy.Indexed) or p.form.denominators or not expr.is_number:
        return None
    return expr if expr.is_real and expr.is_finite else None


def prove_constant(p: Prepared, prop: Prop) -> Proof | Failed:
    """The proof of ``prop`` for a constant closed form, or why there is none."""
    c = constant(p)
    if c is None:
        return Failed(prop, "the closed form is not a constant")
    if prop not in CLAIMS:
        return Failed(prop, "a constant metric has no proof of this property (a swap leaves its score unchanged)")
    statement = f"the closed form {show(c)} reads no grade, no R and no k: every situation at every depth scores c = {show(c)}"
    claim = Lemma("claim", CLAIMS[prop].format(abs=show(sympy.Abs(c))), "structure")
    return Proof(prop, "yes", ALL_K, (Lemma("constant", statement, "structure"), claim), (CLOSED,))
