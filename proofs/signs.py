"""Facts about a weight function w(i), for every rank i >= 1, decided with SymPy.

Each answer is a SymPy *computation* (sign determination from assumptions, derivatives,
closed-form sums, convergence tests), not a certificate: proofs that use one list it in
their trusted base. To let SymPy's assumption system see the ranges, ranks are written
i = 1 + t with t >= 0, and a parameter known to lie in (0, 1) is written 1 / (1 + q) with
q > 0. A "no" or "cannot tell" is never turned into a fact.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from irprops.metrics.exact import log2
from irprops.metrics.timing import limited

T = sympy.Symbol("t", nonnegative=True)
K = sympy.Symbol("k", integer=True, positive=True)


@dataclass(frozen=True)
class Weight:
    """A weight function of the rank ``index``, with the parameters it mentions and their ranges."""

    expr: sympy.Expr
    index: sympy.Symbol
    open_unit: tuple[sympy.Symbol, ...] = ()
    """Parameters proved for every value in (0, 1)."""

    def substitution(self) -> dict[sympy.Symbol, sympy.Expr]:
        """Every (0, 1) parameter p written 1 / (1 + q_p), q_p > 0."""
        return {p: 1 / (1 + sympy.Symbol(f"q_{p}", positive=True)) for p in self.open_unit}

    def substitution_text(self) -> str:
        return "".join(f", where {p} = 1/(1 + q_{p}) with q_{p} > 0" for p in self.open_unit)

    def on_reals(self) -> sympy.Expr:
        """w(1 + t), ranks as reals t >= 0, with the parameters substituted."""
        return self.expr.subs(self.index, 1 + T).subs(self.substitution())

    def at(self, i: sympy.Expr) -> sympy.Expr:
        return self.expr.subs(self.index, i)


SYMPY_SECONDS = 10.0
"""How long one SymPy fact may take: some weights (binomial(i, 250), rising factorials) make SymPy's
sign or convergence machinery run for minutes. Past the limit the fact is "cannot tell", never a fact."""


@limited(SYMPY_SECONDS, False)
def is_positive(expr: sympy.Expr) -> bool:
    """Whether SymPy can show ``expr`` positive (for a scale c, say)."""
    return _sign(expr, "positive")


def _sign(expr: sympy.Expr, want: str) -> bool:
    """Whether SymPy can show ``expr`` has the sign ``want`` ("positive", "nonnegative", "negative")."""
    for candidate in (expr, sympy.simplify(expr), sympy.factor(sympy.together(expr))):
        if getattr(candidate, f"is_{want}") is True:
            return True
    return False


@limited(SYMPY_SECONDS, False)
def positive(w: Weight) -> bool:
    """w(i) > 0 for every rank i >= 1."""
    return _sign(w.on_reals(), "positive")


@limited(SYMPY_SECONDS, False)
def nonnegative(w: Weight) -> bool:
    """w(i) >= 0 for every rank i >= 1."""
    return _sign(w.on_reals(), "nonnegative")


@limited(SYMPY_SECONDS, False)
def at_most_one(w: Weight) -> bool:
    """w(i) <= 1 for every rank i >= 1."""
    return _sign(1 - w.on_reals(), "nonnegative")


@limited(SYMPY_SECONDS, False)
def constant(w: Weight) -> bool:
    """w(i) = w(1) for every rank i (so it is not strictly decreasing)."""
    return sympy.simplify(w.expr - w.at(1)) == 0


_SMOOTH = (sympy.Symbol, sympy.Number, sympy.NumberSymbol, sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log, log2)
"""The building blocks of a weight that is differentiable wherever SymPy can sign its derivative."""


def smooth(expr: sympy.Expr) -> bool:
    """Whether ``expr`` is built from sums, products, powers, exp and log only (no Piecewise, Min, floor, Mod,
    KroneckerDelta, ...), so that a negative derivative on [1, oo) means decreasing there.

    >>> i = sympy.Symbol("i", positive=True)
    >>> smooth(1 / sympy.log(i + 1)), smooth(sympy.Piecewise((5 / i, sympy.Eq(i, 250)), (1 / i, True)))
    (True, False)
    """
    return all(isinstance(node, _SMOOTH) for node in sympy.preorder_traversal(expr))


@limited(SYMPY_SECONDS, None)
def decreasing(w: Weight) -> str | None:
    """How w is shown strictly decreasing in the rank, or None.

    Either w is smooth (:func:`smooth`) and its derivative in t (ranks as reals >= 1) is
    negative, so w is strictly decreasing on [1, oo) and hence on the ranks (mean value
    theorem, a meta-step); or it is positive and w(i + 1) / w(i) simplifies to a constant
    below 1. A jump (a Piecewise at one rank, a floor) has no derivative there, and a
    derivative negative elsewhere says nothing about it: such weights are never "decreasing".
    """
    on_reals = w.on_reals()
    if smooth(on_reals) and _sign(-sympy.diff(on_reals, T), "positive"):
        return f"d/dt w(1 + t) = {sympy.simplify(sympy.diff(on_reals, T))} < 0 for t >= 0{w.substitution_text()}"
    ratio = sympy.simplify(on_reals.subs(T, T + 1) / on_reals)
    if not ratio.has(T) and positive(w) and _sign(1 - ratio, "positive"):
        return f"w(i + 1) / w(i) = {ratio} < 1 and w > 0{w.substitution_text()}"
    return None


@dataclass(frozen=True)
class Series:
    """What is known of the partial sums W(k) = sum_{i=1..k} w(i)."""

    bounded: bool | None
    """True: bounded by ``bound``; False: diverge to infinity; None: cannot tell."""
    bound: sympy.Expr | None
    how: str


@limited(SYMPY_SECONDS, Series(None, None, f"SymPy could not tell within {SYMPY_SECONDS:g} s whether the weights' sum converges"))
def series(w: Weight) -> Series:
    """Whether the partial sums of a nonnegative w stay bounded, and by what."""
    in_q = w.expr.subs(w.substitution())
    closed = sympy.summation(in_q, (w.index, 1, K)) if smooth(in_q) else sympy.Sum(in_q, (w.index, 1, K))
    if not closed.has(sympy.Sum, sympy.Piecewise):
        closed = sympy.simplify(closed)
        limit = sympy.simplify(sympy.limit(closed, K, sympy.oo))
        if limit.is_finite:
            return Series(True, limit, f"sum_{{i<=k}} w(i) = {closed}, increasing to {limit} as k -> oo")
        if limit is sympy.oo:
            return Series(False, None, f"sum_{{i<=k}} w(i) = {closed} -> oo")
    infinite = sympy.Sum(in_q.rewrite(sympy.log), (w.index, 1, sympy.oo))
    try:
        verdict = infinite.is_convergent()
    except NotImplementedError:
        verdict = None
    if verdict is sympy.true or verdict is True:
        return Series(True, None, f"SymPy's convergence test: {infinite} converges")
    if verdict is sympy.false or verdict is False:
        return Series(False, None, f"SymPy's convergence test: {infinite} diverges, and its terms are nonnegative")
    return Series(None, None, "SymPy cannot tell whether the weights' sum converges")
