"""Facts about one metric's own weights, as SMT certificates: w(i) > 0, w(i) > w(i + 1), ... for every rank i >= 1.

The term lemmas of :mod:`proofs.termwise` are algebra about opaque weights w_i, w_j; what
makes them about *this* metric is the facts they assume of its weights. When the weight
function taken from the closed form is expressible in SMT (rational functions of the rank,
case splits on the rank, parameters in (0, 1)), each fact is a certificate: the rank ``i``
is an integer >= 1, the weight is written out from the closed form, the first query shows
every denominator nonzero for every rank (nothing is assumed defined), and the second shows
the fact. Z3 proves it and cvc5 re-checks the file. A weight with logarithms or powers of a
symbolic rank (DCG's 1/log2(i + 1), RBP's p^(i-1)) is not expressible: its facts stay SymPy
computations, named in the proof's trusted base.

>>> import sympy
>>> i = sympy.Symbol("i", integer=True, positive=True)
>>> certify("x.smt2", {}, 1 / (i * (i + 1)), i, "w decreasing").proved
True
>>> certify("x.smt2", {}, 1 - i / 50, i, "w > 0").proved
False
"""

from __future__ import annotations

import sympy
import z3

from .encode import Encoder
from .smt import Discharged, Obligation, conj, discharge

CLAIMS = {
    "w > 0": ("w(i) > 0 for every rank i >= 1", lambda a, b: a <= 0),
    "w >= 0": ("w(i) >= 0 for every rank i >= 1", lambda a, b: a < 0),
    "w <= 1": ("w(i) <= 1 for every rank i >= 1", lambda a, b: a > 1),
    "w decreasing": ("w(i) > w(i + 1) for every rank i >= 1", lambda a, b: a <= b),
}


def certify(path: str, header: dict[str, str], weight: sympy.Expr, index: sympy.Symbol, fact: str,
            open_unit: tuple[sympy.Symbol, ...] = ()) -> Discharged:
    """Z3's answer on ``fact`` about ``weight`` (a function of ``index``); raises NotImplementedError when not expressible."""
    statement, negate = CLAIMS[fact]
    rank = z3.Int("i")
    params = {p: z3.Real(str(p)) for p in open_unit}
    encoder = Encoder({index: rank, **params})
    here, next_ = encoder.term(weight), encoder.term(weight.subs(index, index + 1))
    ob = Obligation(path, {**header, "proves": statement, "weight": f"w(i) = {weight}"})
    ob.assume("i is a rank: i >= 1", rank >= 1)
    for p, v in params.items():
        ob.assume(f"0 < {p} < 1", z3.And(v > 0, v < 1))
    for name, formula in encoder.facts.items():
        ob.assume(name, formula)
    ob.ask("every denominator of w(i) and w(i + 1) is nonzero", z3.Not(conj(encoder.guards)))
    ob.ask(statement, z3.And(conj(encoder.guards), negate(here, next_)))
    return discharge(ob)
