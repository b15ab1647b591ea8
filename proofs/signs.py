"""Facts about a weight function w(i), for every rank i >= 1, decided with SymPy.

Each answer is a SymPy *computation* (sign determination from assumptions, derivatives,
closed-form sums, limits), not a certificate: proofs that use one list it in
their trusted base. To let SymPy's assumption system see the ranges, ranks are written
i = 1 + t with t >= 0, and a parameter known to lie in (0, 1) is written 1 / (1 + q) with
q > 0. A "no" or "cannot tell" is never turned into a fact.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from irprops.metrics.exact import certainly, log2
from irprops.metrics.timing import limited

from .summation import verified_sum

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

    def unsubstituted(self, e: sympy.Expr) -> sympy.Expr:
        """``e`` with every q_p written back in terms of p (q_p = (1 - p) / p)."""
        return e.xreplace({sympy.Symbol(f"q_{p}", positive=True): (1 - p) / p for p in self.open_unit})

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


def _everywhere(w: Weight, want: str, of: Callable[[sympy.Expr], sympy.Expr]) -> bool:
    """Whether of(w(i)) has the sign ``want`` at every rank: on the reals t >= 0, or on the smooth part and at each exception."""
    if _sign(of(w.on_reals()), want):
        return True
    split = exceptions(w)
    return split is not None and _sign(of(Weight(split.smooth, w.index, w.open_unit).on_reals()), want) and all(
        _sign(of(value.subs(w.substitution())), want) for value in split.values.values())


@limited(SYMPY_SECONDS, False)
def positive(w: Weight) -> bool:
    """w(i) > 0 for every rank i >= 1."""
    return _everywhere(w, "positive", lambda e: e)


@limited(SYMPY_SECONDS, False)
def nonnegative(w: Weight) -> bool:
    """w(i) >= 0 for every rank i >= 1."""
    return _everywhere(w, "nonnegative", lambda e: e)


@limited(SYMPY_SECONDS, False)
def at_most_one(w: Weight) -> bool:
    """w(i) <= 1 for every rank i >= 1."""
    return _everywhere(w, "nonnegative", lambda e: 1 - e)


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
    return all(isinstance(node, _SMOOTH) and not _jumps(node) for node in sympy.preorder_traversal(expr))


def _jumps(node: sympy.Basic) -> bool:
    """Whether ``node`` is a power whose exponent varies while its base may be 0 or negative: 0**((i - 250)**2) is 1 at
    i = 250 and 0 elsewhere (a fourteenth hostile review), and (-1)**i alternates."""
    return isinstance(node, sympy.Pow) and not node.exp.is_number and node.base.is_positive is not True


MAX_EXCEPTIONS_RANK = 1000
"""The deepest rank at which a weight may differ from its smooth part (each rank up to it is compared exactly)."""


@dataclass(frozen=True)
class Exceptions:
    """A weight equal to a smooth function except at finitely many ranks: w(t) = values[t] there."""

    smooth: sympy.Expr
    values: dict[int, sympy.Expr]

    @property
    def last(self) -> int:
        return max(self.values)


def exceptions(w: Weight) -> Exceptions | None:
    """The smooth part and the exceptional ranks of ``Piecewise((a_1, Eq(i, t_1)), ..., (s(i), True))``, or None.

    A rank-1 term written outside a sum arrives this way (w(1) = s(1) + c).

    >>> i = sympy.Symbol("i", integer=True, positive=True)
    >>> exceptions(Weight(sympy.Piecewise((2, sympy.Eq(i, 1)), (1 / i, True)), i))
    Exceptions(smooth=1/i, values={1: 2})
    """
    folded = sympy.piecewise_fold(w.expr)
    if not isinstance(folded, sympy.Piecewise) or folded.args[-1].cond is not sympy.true:
        return None
    values: dict[int, sympy.Expr] = {}
    for value, condition in folded.args[:-1]:
        if not (isinstance(condition, sympy.Eq) and w.index in (condition.lhs, condition.rhs)):
            return None  # Eq(i**2, 9) is not read (a fifteenth hostile review: it was a ValueError)
        rank = condition.rhs if condition.lhs == w.index else condition.lhs
        if not (rank.is_Integer and 1 <= rank <= MAX_EXCEPTIONS_RANK) or int(rank) in values:
            return None
        values[int(rank)] = value.subs(w.index, rank)
    rest = folded.args[-1].expr
    return Exceptions(rest, values) if values and smooth(rest.subs(w.index, 1 + T)) else None


def unclamped(w: Weight) -> tuple[sympy.Expr, int] | None:
    """``(s, c)`` where w(i) = s(i) for every rank i >= c because w clamps the rank at c (``max(c, i)`` is i and
    ``min(c, i)`` is c from rank c on) and s is smooth there (DCG-b's ``log2(max(i, b))`` at b = 2); None if w holds no
    such clamp, or a clamp at something other than an integer.

    >>> i = sympy.Symbol("i", integer=True, positive=True)
    >>> unclamped(Weight(1 / log2(sympy.Max(3, i)), i))
    (1/log2(i), 3)
    """
    clamps = [c for c in w.expr.atoms(sympy.Max, sympy.Min) if len(c.args) == 2 and w.index in c.args]
    if not clamps:
        return None
    plain: dict[sympy.Basic, sympy.Expr] = {}
    last = 1
    for clamp in clamps:
        other = next(a for a in clamp.args if a != w.index)
        if not (other.is_Integer and 1 <= other <= MAX_EXCEPTIONS_RANK):
            return None
        plain[clamp] = w.index if isinstance(clamp, sympy.Max) else other
        last = max(last, int(other))
    rest = w.expr.xreplace(plain)
    if rest.has(sympy.Max, sympy.Min, sympy.Piecewise) or not smooth(rest.subs(w.index, last + T)):
        return None
    return rest, last


def _ranks_decrease(w: Weight, last: int) -> bool:
    """w(1) > w(2) > ... > w(last + 1), each comparison of two exact numbers decided by SymPy."""
    values = [w.at(sympy.Integer(i)).subs(w.substitution()) for i in range(1, last + 2)]
    return all(_sign(a - b, "positive") for a, b in itertools.pairwise(values))


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
    split = exceptions(w)
    if split is not None:
        tail = decreasing(Weight(split.smooth, w.index, w.open_unit))
        if tail is not None and _ranks_decrease(w, split.last):
            ranks = [1, 2, 3] if split.last < 3 else [1, 2, "...", split.last + 1]
            chain = " > ".join(f"w({r})" if r != "..." else "..." for r in ranks[:split.last + 1])
            return (f"w equals s(i) = {split.smooth} except at the ranks {sorted(split.values)}; s is strictly decreasing "
                    f"({tail}), and {chain} exactly, so w(i) > w(j) for i < j")
        return None
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
    split = exceptions(w)
    if split is not None:  # finitely many ranks change the sum by a constant
        tail = series(Weight(split.smooth, w.index, w.open_unit))
        shift = sum((value - split.smooth.subs(w.index, rank) for rank, value in split.values.items()), sympy.Integer(0))
        shift = sympy.simplify(shift.subs(w.substitution()))
        bound = sympy.simplify(tail.bound + shift) if tail.bound is not None else None
        return Series(tail.bounded, bound, f"{tail.how}; w differs from {split.smooth} only at the ranks {sorted(split.values)}, "
                                           f"which add {shift} to every sum reaching them")
    clamped = unclamped(w)
    if clamped is not None:  # w(i) = s(i) from rank c on: the sum is the first c - 1 weights plus sum_{j>=1} s(c - 1 + j)
        rest, last = clamped
        tail = series(Weight(rest.subs(w.index, w.index + last - 1), w.index, w.open_unit))
        head = sympy.simplify(sum((w.at(sympy.Integer(rank)).subs(w.substitution()) for rank in range(1, last)), sympy.Integer(0)))
        bound = sympy.simplify(tail.bound + head) if tail.bound is not None else None
        return Series(tail.bounded, bound, f"w(i) = {rest} for i >= {last} (the clamp is the rank from there); for the sum "
                                           f"from rank {last} on, {tail.how}; the ranks below add {head}")
    in_q = w.expr.subs(w.substitution())
    if not smooth(in_q):  # SymPy's series tests misread a weight that is a sum (two limits), a floor, a delta, a case split
        return Series(None, None, f"the weight {w.expr} is not built from +, *, powers, exp and log, so SymPy's tests of "
                                  "its series are not read")
    closed = verified_sum(sympy.Sum(in_q, (w.index, 1, K))) or sympy.Sum(in_q, (w.index, 1, K))  # checked by telescoping
    if not closed.has(sympy.Sum, sympy.Piecewise):
        closed = sympy.simplify(closed)
        limit = sympy.simplify(sympy.limit(closed, K, sympy.oo))
        if limit.is_finite:
            return Series(True, limit, f"sum_{{i<=k}} w(i) = {closed}, increasing to {limit} as k -> oo")
        if limit is sympy.oo:
            return Series(False, None, f"sum_{{i<=k}} w(i) = {closed} -> oo")
    return _compared(in_q, w.index) or Series(None, None, "SymPy cannot tell whether the weights' sum converges")


COMPARISON_POWERS = (sympy.Integer(2), sympy.Rational(3, 2), sympy.Rational(5, 4), sympy.Rational(11, 10))
"""The p > 1 of the series sum 1/i^p that a convergent weight series is compared with."""


def _compared(w: sympy.Expr, i: sympy.Symbol) -> Series | None:
    """Convergence or divergence of sum_i w(i) (w >= 0, built from +, *, powers, exp and log) by the limit comparison test,
    or None: i w(i) -> L > 0 (or oo) diverges like the harmonic series; i^p w(i) -> a finite L for some p > 1 converges.

    SymPy's ``Sum.is_convergent`` is not used: it calls sum i^(1/i) / i^2 divergent (a fourteenth hostile review, which
    turned that into a false "no" for bounded). The limits are Gruntz's algorithm, which decides limits of exp-log
    functions of one variable; a weight with a parameter left open is not compared (its limit may depend on the value).

    >>> i = sympy.Symbol("i", integer=True, positive=True)
    >>> _compared(1 / log2(i + 1), i).bounded, _compared(sympy.root(i, i) / i**2, i).bounded
    (False, True)
    >>> print(_compared(1 / i**2, i).how)
    limit comparison with sum 1/i^2: i^2 * w(i) -> 1, finite, as i -> oo (SymPy's limit), so sum w(i) converges
    """
    if w.free_symbols != {i}:
        return None
    w = w.rewrite(sympy.log)  # irprops' log2 as log(x) / log(2), which SymPy's limit knows
    at_one = _limit(i * w, i)
    if at_one is None:
        return None
    if at_one is sympy.oo or at_one.is_number and at_one.is_real and at_one.is_finite and certainly(at_one, "positive"):
        return Series(False, None, f"limit comparison with the harmonic series: i * w(i) -> {at_one} > 0 as i -> oo "
                                   "(SymPy's limit), so sum w(i) diverges")
    if at_one != 0:
        return None
    for power in COMPARISON_POWERS:
        found = _limit(i**power * w, i)
        if found is not None and found.is_number and found.is_real and found.is_finite and not found.has(sympy.AccumBounds):
            return Series(True, None, f"limit comparison with sum 1/i^{power}: i^{power} * w(i) -> {found}, finite, as i -> oo "
                                      "(SymPy's limit), so sum w(i) converges")
    return None


@limited(SYMPY_SECONDS, None)
def _limit(e: sympy.Expr, i: sympy.Symbol) -> sympy.Expr | None:
    """SymPy's limit of ``e`` as i -> oo, None past the time limit or where SymPy gives none."""
    try:
        found = sympy.limit(e, i, sympy.oo)
    except Exception:  # noqa: BLE001 - SymPy failing inside its limit (an AttributeError on a NaN, say) gives no answer
        return None
    return None if found.has(sympy.Limit, sympy.AccumBounds) or found is sympy.nan else found  # type: ignore[no-any-return]
